import { isPriceText, readLinePrices } from './line-prices';
import { type Box, median, type TextRun, unionBox } from './text-runs';

/**
 * Layout rebuild: positioned text runs (a PDF text layer, OCR words) → lines in reading order.
 *
 * Each page is cut recursively, preferring vertical cuts (an XY-cut): a column gutter is an x-range that
 * (almost) no text covers. Bands of text between gutters that only hold prices (a column of right-aligned
 * prices, size columns) or that sit row by row beside a band without prices (`name | description | price`)
 * are merged back into the band on their left, so that a dish and its price stay on one line; a band of
 * prices goes to the nearest band on its left whose rows it sits beside, with whatever stands between them
 * (a photographed menu's title, OCR noise from dot leaders in the gap between names and prices). Rows that
 * cross a gutter (a title, a heading centred over both columns) interrupt the columns. Where no gutter is
 * found, the region is cut horizontally at its widest empty band and each part is looked at again.
 */

export interface Cell extends Box {
  readonly text: string;
  readonly runs: readonly TextRun[];
}

export interface Line extends Box {
  readonly page: number;
  /** Which flow of the page (a column, or a row across columns) the line belongs to, in reading order. */
  readonly flow: number;
  readonly text: string;
  /** Pieces of the line separated by a wide gap (a name, a right-aligned price, size columns). */
  readonly cells: readonly Cell[];
  readonly fontSize: number;
  readonly bold: boolean;
  readonly italic: boolean;
  /** Share of its letters in upper case (0–1; 0 when it has no letters). */
  readonly caps: number;
  /** Lowest OCR confidence of its runs (undefined for a text layer). */
  readonly confidence?: number;
}

export interface Row {
  readonly runs: TextRun[];
  readonly top: number;
  readonly bottom: number;
}

const MAX_DEPTH = 4;
/** A gutter may be crossed by this share of the region's rows (titles, centred headings). */
const GUTTER_TOLERANCE = 0.08;
/** In font sizes: narrowest gutter, widest gap inside one cell. */
const MIN_GUTTER = 1.0;
/**
 * Columns set close together (a narrow gutter, 0.6 of a font size) are told apart only in a region tall
 * enough (rows) that a strip this narrow staying empty all the way down is no accident of word spacing.
 */
const NARROW_GUTTER = 0.6;
const NARROW_GUTTER_ROWS = 8;
const CELL_GAP = 1.0;
/** A horizontal cut needs an empty band this tall (in font sizes). */
const MIN_ROW_GAP = 1.2;

const centre = (r: Box): number => r.y + r.height / 2;
const right = (r: Box): number => r.x + r.width;

/** Splits runs that hold several cells (`Garlic Bread      5.50` as one string) at runs of 3+ spaces. */
const splitWideSpaces = (run: TextRun): TextRun[] => {
  const text = run.text.replace(/\s+$/, '');
  if (!/\S\s{3,}\S/.test(text) || text.length === 0) return [run];
  const charWidth = run.width / run.text.length;
  const parts: TextRun[] = [];
  for (const match of text.matchAll(/\S+(?:\s{1,2}\S+)*/g)) {
    parts.push({
      ...run,
      text: match[0],
      x: run.x + match.index * charWidth,
      width: match[0].length * charWidth,
    });
  }
  return parts;
};

/** Groups runs into rows: runs whose vertical centres are within half a text height of each other. */
export const groupRows = (runs: readonly TextRun[]): Row[] => {
  const sorted = [...runs].sort((a, b) => centre(a) - centre(b) || a.x - b.x);
  const rows: Row[] = [];
  let current: TextRun[] = [];
  let rowCentre = 0;
  for (const run of sorted) {
    const size = Math.min(run.height, median(current.map((r) => r.height)) || run.height);
    if (current.length > 0 && Math.abs(centre(run) - rowCentre) > size * 0.5) {
      rows.push(toRow(current));
      current = [];
    }
    current.push(run);
    rowCentre = current.reduce((sum, r) => sum + centre(r), 0) / current.length;
  }
  if (current.length > 0) rows.push(toRow(current));
  return rows;
};

const toRow = (runs: TextRun[]): Row => ({
  runs: runs.sort((a, b) => a.x - b.x),
  top: Math.min(...runs.map((r) => r.y)),
  bottom: Math.max(...runs.map((r) => r.y + r.height)),
});

/** X-ranges (between text) that at most a few rows cross: candidate column gutters. */
const findGutters = (rows: readonly Row[], font: number): [number, number][] => {
  const runs = rows.flatMap((r) => r.runs);
  const left = Math.min(...runs.map((r) => r.x));
  const width = Math.max(...runs.map(right)) - left;
  const bin = Math.max(font / 8, width / 2000, 0.25);
  const counts = new Uint32Array(Math.ceil(width / bin) + 1);
  for (const run of runs) {
    const from = Math.floor((run.x - left) / bin);
    const to = Math.min(counts.length - 1, Math.ceil((right(run) - left) / bin));
    for (let i = from; i < to; i++) counts[i] = (counts[i] ?? 0) + 1;
  }
  const allowed = Math.max(1, Math.floor(rows.length * GUTTER_TOLERANCE));
  const narrowest = (rows.length >= NARROW_GUTTER_ROWS ? NARROW_GUTTER : MIN_GUTTER) * font;
  const gutters: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= counts.length; i++) {
    const empty = i < counts.length && (counts[i] ?? 0) <= allowed;
    if (empty && start < 0) start = i;
    if (!empty && start >= 0) {
      const [from, to] = [left + start * bin, left + i * bin];
      if (start > 0 && i < counts.length && to - from >= narrowest) gutters.push([from, to]);
      start = -1;
    }
  }
  return gutters;
};

const crosses = (run: Box, gutter: readonly [number, number]): boolean =>
  run.x < gutter[0] && right(run) > gutter[1];

const rowText = (row: Row): string => row.runs.map((r) => r.text).join(' ');

interface Band {
  readonly runs: TextRun[];
}

/** A band of prices (and the size labels above them): it belongs to the names on its left (`ownerOfPrices`). */
const isPriceBand = (band: Band): boolean => {
  const rows = groupRows(band.runs);
  const priced = rows.filter((row) => {
    const text = rowText(row);
    return isPriceText(text) || (text.length <= 24 && text.split(/\s+/).length <= 3 && rows.length > 2);
  });
  return (
    rows.filter((row) => isPriceText(rowText(row))).length >= rows.length * 0.4 &&
    priced.length >= rows.length * 0.7
  );
};

/** A row that ends in a price: a price cell, or text ending with one (`bread + egg $11`, `Soup . . 4.50`). */
const endsWithPrice = (row: Row): boolean => {
  const last = row.runs.at(-1)?.text ?? '';
  if (isPriceText(last) || /\d[.,]\d{2}\s*\S?$/.test(last)) return true;
  const read = readLinePrices(rowText(row), 'USD');
  return read.prices.length > 0 && !read.weak;
};

/** Whether most rows of `next` (70 %) sit at the height of a row of `band` (their centres within half a row). */
const sitsBeside = (band: Band, next: Band): boolean => {
  const rows = groupRows(band.runs);
  const nextRows = groupRows(next.runs);
  const beside = nextRows.filter((n) =>
    rows.some((r) => Math.abs((r.top + r.bottom) / 2 - (n.top + n.bottom) / 2) < (n.bottom - n.top) / 2),
  );
  return beside.length >= nextRows.length * 0.7;
};

/** Rows of `next` that sit beside rows of `band`, while `band` itself has no prices: one table. */
const isBesideTable = (band: Band, next: Band): boolean => {
  const rows = groupRows(band.runs);
  if (rows.filter(endsWithPrice).length > rows.length * 0.2) return false;
  return sitsBeside(band, next);
};

/**
 * Which of the bands so far a band of prices belongs to: the nearest one whose rows it sits beside, row by
 * row (the names of those prices), else the one just left of it. Bands between the names and their prices
 * are what stands in the gap: a title centred over the page, OCR noise read from dot leaders, which leave
 * the names and the prices of a photographed menu in separate blocks with a wide empty gap between them.
 */
const ownerOfPrices = (merged: readonly Band[], prices: Band): number => {
  for (let i = merged.length - 1; i >= 0; i--) if (sitsBeside(merged[i]!, prices)) return i;
  return merged.length - 1;
};

/** A band of dish numbers (`12.`, `38a`, `7)`): they belong to the names on their right. */
const isNumberBand = (band: Band): boolean => {
  const rows = groupRows(band.runs);
  return rows.length >= 2 && rows.every((row) => /^\d{1,3}[a-z]?[.)]?$/i.test(rowText(row).trim()));
};

const mergeBands = (bands: readonly Band[]): Band[] => {
  const merged: Band[] = [];
  for (const band of bands) {
    const previous = merged.at(-1);
    if (previous && isPriceBand(band)) {
      const owner = ownerOfPrices(merged, band);
      merged.splice(owner, merged.length - owner, {
        runs: [...merged.slice(owner).flatMap((b) => b.runs), ...band.runs],
      });
    } else if (previous && isNumberBand(previous) && sitsBeside(band, previous)) {
      merged[merged.length - 1] = { runs: [...previous.runs, ...band.runs] };
    } else if (previous && isBesideTable(previous, band)) {
      merged[merged.length - 1] = { runs: [...previous.runs, ...band.runs] };
    } else merged.push({ runs: [...band.runs] });
  }
  return merged;
};

/** The widest empty horizontal band, if it is tall enough to separate two regions. */
const horizontalCut = (rows: readonly Row[], font: number): number | undefined => {
  let best: { at: number; gap: number } | undefined;
  let bottom = rows[0]?.bottom ?? 0;
  for (const row of rows.slice(1)) {
    const gap = row.top - bottom;
    if (gap >= MIN_ROW_GAP * font && (!best || gap > best.gap)) best = { at: row.top, gap };
    bottom = Math.max(bottom, row.bottom);
  }
  return best?.at;
};

/** Runs of one region → flows (lists of runs, each read top to bottom) in reading order. */
const layoutRegion = (runs: readonly TextRun[], depth: number): TextRun[][] => {
  if (runs.length < 2 || depth >= MAX_DEPTH) return [[...runs]];
  const rows = groupRows(runs);
  const font = median(runs.map((r) => r.fontSize)) || 1;
  const gutters = findGutters(rows, font);
  if (gutters.length > 0) {
    const flows = columnFlows(rows, gutters, depth);
    if (flows) return flows;
  }
  const cut = horizontalCut(rows, font);
  if (cut === undefined) return [[...runs]];
  return [
    ...layoutRegion(
      runs.filter((r) => centre(r) < cut),
      depth + 1,
    ),
    ...layoutRegion(
      runs.filter((r) => centre(r) >= cut),
      depth + 1,
    ),
  ];
};

/** Columns between gutters, interrupted by rows that cross a gutter; undefined when all bands merge. */
const columnFlows = (rows: readonly Row[], gutters: readonly [number, number][], depth: number) => {
  const bandOf = (run: TextRun): number => gutters.filter((g) => run.x + run.width / 2 > g[1]).length;
  const inside = rows.filter((row) => !row.runs.some((run) => gutters.some((g) => crosses(run, g))));
  const bands: Band[] = gutters.map(() => ({ runs: [] as TextRun[] })).concat([{ runs: [] }]);
  for (const run of inside.flatMap((r) => r.runs)) bands[bandOf(run)]!.runs.push(run);
  const merged = mergeBands(bands.filter((b) => b.runs.length > 0));
  if (merged.length < 2) return undefined;
  // The gutters that survived the merge: each between the right edge of one band and the next's left edge.
  const kept: [number, number][] = merged.slice(1).map((band, i) => {
    const previous = merged[i]!;
    return [Math.max(...previous.runs.map(right)), Math.min(...band.runs.map((r) => r.x))];
  });
  const column = (run: TextRun): number => kept.filter((g) => run.x + run.width / 2 >= g[1]).length;
  const flows: TextRun[][] = [];
  let pending: Row[] = [];
  const flush = () => {
    const columns = kept.map(() => [] as TextRun[]).concat([[]]);
    for (const run of pending.flatMap((r) => r.runs)) columns[column(run)]!.push(run);
    for (const runs of columns.filter((c) => c.length > 0)) flows.push(...layoutRegion(runs, depth + 1));
    pending = [];
  };
  // A row spans the columns (a title, a centred heading) when a run of it crosses a gutter and nothing else of
  // the row stands clear on either side of that gutter; a run that only reaches into the gutter beside the
  // other column's own text (a long dot leader next to that column's heading) is its column's.
  const spans = (row: Row): boolean =>
    kept.some(
      (g) =>
        row.runs.some((run) => crosses(run, g)) &&
        !row.runs.some((run) => run.x >= g[1] || right(run) <= g[0]),
    );
  for (const row of rows) {
    if (spans(row)) {
      flush();
      flows.push(row.runs);
    } else pending.push(row);
  }
  flush();
  return flows;
};

const styleShare = (runs: readonly TextRun[], test: (run: TextRun) => boolean): number => {
  const total = runs.reduce((sum, r) => sum + r.text.length, 0) || 1;
  return runs.filter(test).reduce((sum, r) => sum + r.text.length, 0) / total;
};

/**
 * Letter-spaced words (`S T A R T E R S`, a heading set with wide tracking, read as one letter a word) are
 * joined back: three or more single letters in a row, one space apart. Words stay apart where the text
 * separates them more widely (two spaces, `&`, a dash).
 */
export const joinLetterSpaced = (text: string): string =>
  text.replace(/(?<![\p{L}\p{N}])(?:\p{L}\p{M}* ){2,}\p{L}\p{M}*(?![\p{L}\p{N}])/gu, (m) =>
    m.replace(/ /g, ''),
  );

/** Joins the runs of a row into cells: a gap wider than a font size starts a new cell. */
const toCells = (runs: readonly TextRun[], font: number): Cell[] => {
  const cells: { runs: TextRun[]; text: string }[] = [];
  let previous: TextRun | undefined;
  for (const run of runs) {
    const text = run.text.trim();
    if (text === '') continue;
    const gap = previous ? run.x - right(previous) : Number.POSITIVE_INFINITY;
    const last = cells.at(-1);
    if (last && gap <= CELL_GAP * font) {
      // A text layer splits words where its font changes or it kerns: pieces that touch are one word. An OCR
      // engine's words (runs with a confidence) are words: always a space between them.
      const glue =
        run.confidence === undefined &&
        gap < font * 0.12 &&
        !/\s$/.test(previous!.text) &&
        !/^\s/.test(run.text)
          ? ''
          : ' ';
      last.text += glue + text;
      last.runs.push(run);
    } else cells.push({ runs: [run], text });
    previous = run;
  }
  return cells.map((cell) => ({
    ...unionBox(cell.runs),
    text: joinLetterSpaced(cell.text),
    runs: cell.runs,
  }));
};

const toLine = (row: Row, page: number, flow: number): Line | undefined => {
  const font = median(row.runs.map((r) => r.fontSize));
  const cells = toCells(row.runs, font);
  if (cells.length === 0) return undefined;
  const text = cells.map((c) => c.text).join('  ');
  const letters = text.replace(/[^\p{L}]/gu, '');
  const confidences = row.runs.flatMap((r) => (r.confidence === undefined ? [] : [r.confidence]));
  return {
    ...unionBox(cells),
    page,
    flow,
    text,
    cells,
    fontSize: font,
    bold: styleShare(row.runs, (r) => r.bold) >= 0.6,
    italic: styleShare(row.runs, (r) => r.italic) >= 0.6,
    caps: letters.length === 0 ? 0 : letters.replace(/[^\p{Lu}]/gu, '').length / letters.length,
    ...(confidences.length > 0 ? { confidence: Math.min(...confidences) } : {}),
  };
};

/**
 * Rebuilds lines in reading order from the text runs of one or more pages: page by page, column by column,
 * top to bottom.
 *
 * @example rebuildLines(runs).map((line) => line.text) // ['STARTERS', 'Garlic Bread  $5.50', ...]
 */
export const rebuildLines = (runs: readonly TextRun[]): Line[] => {
  const pages = [...new Set(runs.map((r) => r.page))].sort((a, b) => a - b);
  const lines: Line[] = [];
  for (const page of pages) {
    const pageRuns = runs
      .filter((r) => r.page === page && r.text.trim() !== '' && r.width > 0 && r.height > 0)
      .flatMap(splitWideSpaces);
    layoutRegion(pageRuns, 0).forEach((flow, index) => {
      for (const row of groupRows(flow)) {
        const line = toLine(row, page, index);
        if (line) lines.push(line);
      }
    });
  }
  return lines;
};
