import { letterSizeColumns, sizeColumn } from './size-columns';

/**
 * A header on two rows, as Excel layouts group columns: `Price` merged over the sizes written on the row
 * below (`Pizza | Price |        |       ` then `      | Small | Medium | Large`). The second row has no
 * name and only size labels; each labelled column takes its label as its header. Returns the merged
 * header, or null when `below` is not such a row.
 *
 * @example subHeader(['Pizza', 'Price', '', ''], ['', 'Small', 'Medium', 'Large'])
 * // ['Pizza', 'Small', 'Medium', 'Large']
 */
export const subHeader = (headers: readonly string[], below: readonly string[]): readonly string[] | null => {
  const filled = below.flatMap((text, i) => (text.trim() === '' ? [] : [i]));
  if (filled.length < 2 || filled[0] === 0) return null;
  // Every label under an empty or grouping header, and every label a size.
  const letters = new Set(letterSizeColumns(below, filled).map((s) => s.index));
  if (!filled.every((i) => letters.has(i) || sizeColumn(below[i] ?? '', i) !== null)) return null;
  // The columns left of the labels keep their headers: the name column is among them.
  if (headers.slice(0, filled[0]).every((h) => h.trim() === '')) return null;
  const width = Math.max(headers.length, below.length);
  return Array.from({ length: width }, (_, i) => {
    const label = (below[i] ?? '').trim();
    return label === '' ? (headers[i] ?? '') : label;
  });
};
