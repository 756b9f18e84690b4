import { OcrError } from '../core/catalog';

/** Runs `work`, failing with a timeout OcrError after `timeoutMs` (both OCR engines' page budget). */
export const within = async <T>(work: Promise<T>, timeoutMs: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OcrError('time limit reached', 'timeout')), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
};
