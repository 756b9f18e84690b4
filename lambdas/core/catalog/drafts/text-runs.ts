/**
 * What the draft readers (PDF text layer, OCR) hand to the layout rebuild: pieces of text with their
 * position on a page. Coordinates are in the page's own units (PDF points, image pixels) with the origin at
 * the top-left corner and y growing downwards, so that both readers look the same to the layout code.
 */

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface TextRun extends Box {
  readonly text: string;
  /** 1-based page number (an image is page 1). */
  readonly page: number;
  /** Size of the text (PDF: the font size; OCR: the height of its text row). */
  readonly fontSize: number;
  readonly bold: boolean;
  readonly italic: boolean;
  /** 0–1 for OCR words; undefined for a PDF text layer, which is exact. */
  readonly confidence?: number;
}

export interface PageGeometry {
  readonly page: number;
  readonly width: number;
  readonly height: number;
  /** How the page's text was read: `text` (a PDF text layer) or `ocr`. */
  readonly method: 'text' | 'ocr';
}

/** A box relative to its page (0–1 on both axes), so a viewer can highlight it at any zoom. */
export interface RelativeBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const round = (n: number): number => Math.round(n * 10_000) / 10_000;

/** The box as fractions of the page (rounded to 4 decimals, clamped to the page). */
export const relativeBox = (box: Box, page: Pick<PageGeometry, 'width' | 'height'>): RelativeBox => {
  const x = Math.min(Math.max(box.x / page.width, 0), 1);
  const y = Math.min(Math.max(box.y / page.height, 0), 1);
  return {
    x: round(x),
    y: round(y),
    width: round(Math.min(box.width / page.width, 1 - x)),
    height: round(Math.min(box.height / page.height, 1 - y)),
  };
};

/** The smallest box holding all of `boxes`. */
export const unionBox = (boxes: readonly Box[]): Box => {
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
};

/** The median of a non-empty list (0 for an empty one). */
export const median = (values: readonly number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
