import type { WarningCode } from '../../schemas/warning-codes';
import type { DraftItem } from '../draft';

/**
 * What the drafters give for a PDF or a photo (SPEC 5.2 "Drafts for the operations team"): the dishes as
 * drafts (draft.ts: the one drafted-item shape, with where each was read and how sure the machine is),
 * notes about the source, and how each page was read.
 */

/** A note about a drafted source (pages skipped, text not placed), for the job's warnings. */
export interface DraftWarning {
  readonly page: number | null;
  /** Set where the warning is made (never derived from the message). */
  readonly code: WarningCode;
  readonly message: string;
}

export interface DraftResult {
  readonly items: readonly DraftItem[];
  readonly warnings: readonly DraftWarning[];
  /** Pages read, and how. */
  readonly pages: readonly { readonly page: number; readonly method: 'text' | 'ocr' | 'skipped' }[];
}
