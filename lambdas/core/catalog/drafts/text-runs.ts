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
  /** For a page OCR read turned or scaled: how it maps back onto the picture a reviewer sees. */
  readonly view?: PageView;
}

/**
 * How a page read by OCR relates to the picture as shown (a photo with its EXIF orientation applied, a PDF
 * page): the picture, `width` × `height` in its own units, was scaled by `scale` and turned `degrees`
 * clockwise about its centre (a sideways page put upright, a tilted photo straightened) into the page whose
 * coordinates the runs are in, centred on it.
 */
export interface PageView {
  readonly width: number;
  readonly height: number;
  readonly degrees: number;
  readonly scale: number;
}

/** A box relative to its page (0–1 on both axes), so a viewer can highlight it at any zoom. */
export interface RelativeBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const round = (n: number): number => Math.round(n * 10_000) / 10_000;

/** The box on the picture `view` describes: its corners taken back through the turn and the scale. */
const onView = (box: Box, page: Pick<PageGeometry, 'width' | 'height'>, view: PageView): Box => {
  const radians = (-view.degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const corners = [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ].map(([x, y]) => {
    const dx = (x! - page.width / 2) / view.scale;
    const dy = (y! - page.height / 2) / view.scale;
    return { x: view.width / 2 + dx * cos - dy * sin, y: view.height / 2 + dx * sin + dy * cos };
  });
  return unionBox(corners.map((c) => ({ ...c, width: 0, height: 0 })));
};

/**
 * The box as fractions of the page as a reviewer sees it (rounded to 4 decimals, clamped to the page): for a
 * page read turned or scaled (`view`), the box is taken back onto the picture first.
 */
export const relativeBox = (
  box: Box,
  page: Pick<PageGeometry, 'width' | 'height'> & { readonly view?: PageView },
): RelativeBox => {
  const shown = page.view ? onView(box, page, page.view) : box;
  const width = page.view?.width ?? page.width;
  const height = page.view?.height ?? page.height;
  const x = Math.min(Math.max(shown.x / width, 0), 1);
  const y = Math.min(Math.max(shown.y / height, 0), 1);
  const right = Math.min(Math.max((shown.x + shown.width) / width, 0), 1);
  const bottom = Math.min(Math.max((shown.y + shown.height) / height, 0), 1);
  return { x: round(x), y: round(y), width: round(right - x), height: round(bottom - y) };
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
