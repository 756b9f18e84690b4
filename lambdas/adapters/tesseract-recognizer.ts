import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { imageSize } from 'image-size';
import type Tesseract from 'tesseract.js';
import { OcrError } from '../core/catalog/drafts/ocr';
import type { OcrPage, OcrWord, TextRecognizer } from '../core/ports';

type TesseractModule = typeof Tesseract;

/** The Tesseract builds tesseract.js 7 loads in Node (one of them, by what the CPU supports). */
const CORE_BUILDS = ['tesseract-core', 'tesseract-core-simd', 'tesseract-core-relaxedsimd'] as const;
type Worker = Tesseract.Worker;

export interface TesseractRecognizerOptions {
  /**
   * Directory whose node_modules hold tesseract.js and @tesseract.js-data/* (the project root locally,
   * the function's root in Lambda). Language data is read from there: nothing is downloaded at run time.
   */
  readonly moduleRoot: string;
}

/**
 * OCR with tesseract.js (Tesseract compiled to WebAssembly, in a worker thread) and the LSTM language data
 * of the `@tesseract.js-data/<lang>` packages. One worker is kept for consecutive pages in one language and
 * is terminated by `release()`, or at once when a page overruns its time limit, which also frees its memory.
 */
export class TesseractRecognizer implements TextRecognizer {
  private worker: { language: string; ready: Promise<Worker> } | undefined;
  private readonly require: NodeJS.Require;

  constructor(options: TesseractRecognizerOptions) {
    this.require = createRequire(join(options.moduleRoot, 'package.json'));
  }

  /** The directory holding `<lang>.traineddata.gz` (the integer LSTM models: small and fast). */
  languageDataPath(language: string): string {
    const pkg = this.require.resolve(`@tesseract.js-data/${language}/package.json`);
    return join(dirname(pkg), '4.0.0_best_int');
  }

  async recognize(
    image: Uint8Array,
    options: { languages: readonly string[]; timeoutMs: number },
  ): Promise<OcrPage> {
    // One worker reads one language directory; the first language is the job's own.
    const language = options.languages[0] ?? 'eng';
    const worker = await this.workerFor(language);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OcrError('time limit reached', 'timeout')), options.timeoutMs);
    });
    try {
      const result = await Promise.race([
        worker.recognize(Buffer.from(image), { rotateAuto: true }, { blocks: true, text: false }),
        timeout,
      ]);
      return toPage(result.data, dimensions(image));
    } catch (error) {
      // A worker that overran or failed is not reused: terminating it stops the work and frees its memory.
      await this.release();
      if (error instanceof OcrError) throw error;
      throw new OcrError(typeof error === 'string' ? error : 'the image could not be decoded', 'unreadable', {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async release(): Promise<void> {
    const current = this.worker;
    this.worker = undefined;
    if (current) await (await current.ready.catch(() => undefined))?.terminate().catch(() => undefined);
  }

  private async workerFor(language: string): Promise<Worker> {
    if (this.worker?.language !== language) {
      await this.release();
      this.worker = { language, ready: this.start(language) };
    }
    try {
      return await this.worker.ready;
    } catch (error) {
      this.worker = undefined;
      throw new OcrError(`the OCR engine could not start for ${language}`, 'unavailable', { cause: error });
    }
  }

  private async start(language: string): Promise<Worker> {
    // A module missing in the worker thread is an 'error' event nobody listens to (it would end the
    // process): check what the worker will load before starting it.
    for (const core of CORE_BUILDS) this.require.resolve(`tesseract.js-core/${core}`);
    this.require.resolve(join(this.languageDataPath(language), `${language}.traineddata.gz`));
    const loaded = (await import('tesseract.js')) as TesseractModule & { default?: TesseractModule };
    const tesseract = loaded.default ?? loaded;
    const worker = await tesseract.createWorker(language, tesseract.OEM.LSTM_ONLY, {
      langPath: this.languageDataPath(language),
      gzip: true,
      // Read the data where it is; never write a cache (Lambda's code directory is read-only).
      cacheMethod: 'none',
      // Without a handler tesseract.js throws from its message listener, which would end the process.
      errorHandler: () => undefined,
    });
    // Later failures of the thread (a crash in the WebAssembly code) are logged by the rejected job instead.
    (worker as Worker & { worker?: NodeJS.EventEmitter }).worker?.on?.('error', () => undefined);
    await worker.setParameters({
      tessedit_pageseg_mode: tesseract.PSM.SPARSE_TEXT,
      preserve_interword_spaces: '1',
    });
    return worker;
  }
}

const dimensions = (image: Uint8Array): { width: number; height: number } | undefined => {
  try {
    const size = imageSize(image);
    return size.width && size.height ? { width: size.width, height: size.height } : undefined;
  } catch {
    return undefined;
  }
};

const toPage = (data: Tesseract.Page, size: { width: number; height: number } | undefined): OcrPage => {
  const words: OcrWord[] = [];
  let width = 0;
  let height = 0;
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const rowHeight = line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0;
        for (const word of line.words) {
          width = Math.max(width, word.bbox.x1);
          height = Math.max(height, word.bbox.y1);
          words.push({
            text: word.text,
            x: word.bbox.x0,
            y: line.bbox.y0,
            width: word.bbox.x1 - word.bbox.x0,
            height: line.bbox.y1 - line.bbox.y0,
            confidence: Math.max(0, Math.min(1, word.confidence / 100)),
            lineHeight: rowHeight,
          });
        }
      }
    }
  }
  return { width: size?.width ?? width, height: size?.height ?? height, words };
};
