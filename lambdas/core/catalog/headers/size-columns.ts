import { bracketed, isUnitText, normaliseHeader, withoutBrackets } from './normalise';

/**
 * Menus with one price column per size (SPEC 5.2): `Small (10")`, `Medium`, `Large`; `Price - Large`;
 * `Glass` / `Bottle`; `Half` / `Full`; `10"` / `14"`. Each such column is a variant's price, named after
 * the column (the bracketed part, when it is not a currency, is the variant's size).
 */

// biome-ignore format: the word list reads best packed
const SIZE_WORDS = new Set(
  [
    'small', 'medium', 'large', 'regular', 'x large', 'extra large', 'xl', 'xxl', 'xs', 'sm', 'md', 'lg',
    'sml', 'med', 'reg', 'lrg', 'lge', 'xlg', 'kid', 'extra small', 'x small',
    'half', 'full', 'single', 'double', 'triple', 'quarter', 'glass', 'bottle', 'half bottle', 'carafe',
    'half carafe', 'pitcher', 'jug', 'can', 'pint', 'half pint', 'schooner', 'pot', 'shot', 'cup', 'bowl',
    'mug', 'slice', 'whole', 'whole pie', 'pie', 'personal', 'family', 'party', 'kids', 'child', 'adult',
    'lunch', 'dinner', 'hot', 'iced', 'cold', 'short', 'tall', 'grande', 'venti', 'mini', 'jumbo', 'junior',
    'piece', 'pieces', 'dozen', 'half dozen', 'plate', 'platter', 'side', 'entree', 'entrée', 'combo', 'meal',
    'petit', 'petite', 'moyen', 'moyenne', 'grand', 'verre', 'bouteille', 'pichet', 'demi', 'pinte', 'klein',
    'mittel', 'groß', 'gross', 'glas', 'flasche', 'karaffe', 'pequeño', 'pequeno', 'mediano', 'copa',
    'botella', 'jarra', 'piccolo', 'piccola', 'medio', 'media', 'bicchiere', 'calice', 'bottiglia', 'caraffa',
    'quartino', 'mezza bottiglia', 'pequena', 'copo', 'taça', 'taca', 'garrafa', 'fles', '小', '中', '大', '並',
    '並盛', '大盛', '特盛', '小盛', 'ハーフ', 'レギュラー', 'ラージ', 'グラス', 'ボトル', '스몰', '미디엄', '라지', '小杯', '中杯', '大杯',
  ].map(normaliseHeader),
);

/** Clothing-style size letters: a size column only beside at least one other (`S`, `M`, `L`). */
const SIZE_LETTERS = new Set(['s', 'm', 'l', 'xs', 'xl', 'xxl', 'xxxl', '2xl', '3xl']);

/**
 * `S`, `M`, `L` price columns (with `XS`, `XL`, …): a single letter is a size only when at least two
 * columns are size letters, so a lone `L` or `M` column is never taken for a price.
 *
 * @example letterSizeColumns(['Item', 'S', 'M', 'L'], [1, 2, 3]) // three columns labelled S, M, L
 * @example letterSizeColumns(['Item', 'M', 'Notes'], [1, 2]) // []
 */
export const letterSizeColumns = (
  headers: readonly string[],
  candidates: readonly number[],
): SizeColumn[] => {
  const letters = candidates.filter((i) =>
    SIZE_LETTERS.has(normaliseHeader(withoutBrackets(headers[i] ?? ''))),
  );
  if (letters.length < 2) return [];
  return letters.map((index) => {
    const header = headers[index] ?? '';
    const inBrackets = bracketed(header);
    const size = inBrackets !== null && !isCurrencyOnly(inBrackets) ? inBrackets : null;
    return { index, label: withoutBrackets(header).trim(), size };
  });
};

const INCH_LIKE =
  /^\s*\d+(?:[.,]\d+)?\s*(?:"|''|”|″|in\b|inch(?:es)?\b|cm\b|oz\b|ml\b|cl\b|l\b|pcs?\b|pieces?\b)/i;

export interface SizeColumn {
  readonly index: number;
  /** The variant's name, e.g. `Small`. */
  readonly label: string;
  /** The size the header gives in brackets, e.g. `10"`; null without one. */
  readonly size: string | null;
}

/**
 * The size a price column's header names, or null when it is not a per-size price column.
 *
 * @example sizeColumn('Small (10")', 3) // { index: 3, label: 'Small', size: '10"' }
 * @example sizeColumn('Price - Large', 4) // { index: 4, label: 'Large', size: null }
 * @example sizeColumn('Notes', 5) // null
 */
export const sizeColumn = (header: string, index: number): SizeColumn | null => {
  const base = withoutBrackets(header);
  const inBrackets = bracketed(header);
  const size =
    inBrackets !== null && !/^[^\p{L}\d]*$/u.test(inBrackets) && !isCurrencyOnly(inBrackets)
      ? inBrackets
      : null;
  if (INCH_LIKE.test(base)) return { index, label: base, size: null };
  const normalised = normaliseHeader(base);
  if (SIZE_WORDS.has(normalised)) return { index, label: base, size };
  // `Price Small`, `Small Price`, `Price - Small`, `Price (Small)`.
  const priced =
    /^(?:price|prix|precio|preis)\s+(.+)$/.exec(normalised)?.[1] ?? /^(.+)\s+price$/.exec(normalised)?.[1];
  if (priced !== undefined && SIZE_WORDS.has(priced)) {
    const label = base
      .replace(/^\s*(?:price|prix|precio|preis)\s*[-:–]?\s*|\s*[-:–]?\s*price\s*$/gi, '')
      .trim();
    return { index, label: label || priced, size };
  }
  if (normalised === 'price' && inBrackets !== null && SIZE_WORDS.has(normaliseHeader(inBrackets))) {
    return { index, label: inBrackets, size: null };
  }
  return null;
};

const isCurrencyOnly = (text: string): boolean => isUnitText(text) && !/\d/.test(text);

const splitLabels = (text: string): string[] | null => {
  const labels = text.split(/\s*[/|]\s*/).map((s) => s.trim());
  return labels.length >= 2 && labels.every((l) => l !== '' && !/^\d/.test(l)) ? labels : null;
};

/**
 * Labels a price column's header gives for a cell with several prices: `Price (glass / bottle)` →
 * `['glass', 'bottle']`. Null when the header names none.
 */
export const priceLabels = (header: string): readonly string[] | null => {
  const inBrackets = bracketed(header);
  if (inBrackets === null || !/[/|]/.test(inBrackets)) return null;
  return splitLabels(inBrackets);
};

/**
 * A header that is only sizes separated by `/` (`Glass / Bottle`, `Half / Full`, `S/M/L`): a price column whose
 * cells hold one price per size. Returns the labels, or null.
 */
export const sizeLabelsHeader = (header: string): readonly string[] | null => {
  if (!/[/|]/.test(header)) return null;
  const labels = splitLabels(withoutBrackets(header));
  return labels?.every((l) => SIZE_WORDS.has(normaliseHeader(l)) || SIZE_LETTERS.has(normaliseHeader(l)))
    ? labels
    : null;
};

/**
 * Labels a row's own size cell gives for a price cell holding `count` prices: `S / M / L` beside
 * `10 / 12 / 14`. Null unless the cell splits into exactly `count` labels.
 *
 * @example cellSizeLabels('Small/Large', 2) // ['Small', 'Large']
 * @example cellSizeLabels('Small', 2) // null
 */
export const cellSizeLabels = (text: string | null | undefined, count: number): readonly string[] | null => {
  if (text === null || text === undefined || !/[/|]/.test(text)) return null;
  const labels = text.split(/\s*[/|]\s*/).map((s) => s.trim());
  return labels.length === count && labels.every((l) => l !== '') ? labels : null;
};
