import { cellStatesCurrency, codeStatesCurrency, headerStatesCurrency } from '../currency-source';
import type { Field } from '../headers/aliases';
import { columnLabel } from '../headers/columns';
import { describeInferred, inferColumns, inferPriceColumn } from '../headers/infer-columns';
import { normaliseHeader } from '../headers/normalise';
import { PROFILES, type Profile } from '../headers/profiles';
import { isHintRow, isLabelRow, isProseRow } from '../headers/row-shape';
import { subHeader } from '../headers/sub-header';
import { parsePrice } from '../prices';
import type { CellValue, Table, TableRow } from '../sources/types';
import { isBlank } from './cells';
import type { DraftSink, RowReader, RowReaderFactory, TableContext } from './types';

/**
 * One table through header mapping and row normalisation: finds the header row (title, blank and hint rows
 * above it are skipped, a hints row right under it is reported and skipped: headers/row-shape.ts), recognises a platform export by its header signature or reads the table generically for the
 * job type, and sends each data row's draft to `emit`. Blank rows are skipped without a warning.
 */

/** How far down a sheet the header row is looked for (title rows, a logo, a date above it). */
export const HEADER_SEARCH_ROWS = 20;

/** How many rows under a candidate header are looked at to see whether they hold values. */
const LOOK_BELOW = 3;

export interface TableOutcome {
  readonly sheet: string | null;
  /** 1-based row of the header; null when none was found (the table was not read). */
  readonly headerRow: number | null;
  readonly profile: string | null;
  /** Column (header as written) → field. */
  readonly columns: Readonly<Record<string, string>>;
  /** Columns no field uses, as written (a blank header that has data is `(column N)`). */
  readonly ignored: readonly string[];
  /** Data rows read (blank rows not counted). */
  readonly rows: number;
  readonly provides: ReadonlySet<Field>;
  /** The table names its prices' currency: a price cell (`22.00 USD`), a currency column, a price header. */
  readonly currencyStated: boolean;
  /**
   * What was told from the values rather than named by a header (`(column 2) as name, …`), or null: a
   * guess a person must confirm (the job goes to review). A table read without a header row has
   * `headerRow` null and this set.
   */
  readonly inferred: string | null;
  /** When the table was not read: what is missing, in a person's words. */
  readonly missing: string | null;
}

/**
 * What a table's columns hold that a platform profile's reading must keep: the SKUs and the prices of its
 * rows, by the plain generic reading's columns. A profile whose grouping leaves out SKUs or
 * prices these hold (a file that only resembles the platform's export) is reported with counts.
 */
interface PlainValues {
  readonly skus: readonly number[];
  readonly prices: readonly number[];
  readonly currency: string;
  /** Folded SKU → as written. */
  readonly skuSeen: Map<string, string>;
  priced: number;
}

/** Fewer lost values than this are a parent row or two (a small file's), not a reading that does not fit. */
const MIN_DROPPED = 3;

const plainValues = (
  headers: readonly string[],
  ctx: TableContext,
  generic: RowReaderFactory,
): PlainValues | null => {
  const plain = generic(headers, { ...ctx, warn: () => undefined });
  const of = (field: string) => [...plain.columns].flatMap(([i, f]) => (f === field ? [i] : []));
  const [skus, prices] = [of('sku'), of('price')];
  if (skus.length === 0 && prices.length === 0) return null;
  return { skus, prices, currency: ctx.currency, skuSeen: new Map(), priced: 0 };
};

const cellString = (cell: CellValue | undefined): string | null => {
  const text = typeof cell === 'number' ? String(cell) : typeof cell === 'string' ? cell.trim() : '';
  return text === '' ? null : text;
};

const countPlain = (plain: PlainValues, row: TableRow): void => {
  for (const i of plain.skus) {
    const skus = cellString(row.cells[i]);
    if (skus === null) continue;
    // A platform may list its variants' SKUs in one cell (`A-S, A-M`): each is one.
    for (const sku of skus.split(/\s*[,;|]\s*/)) if (sku !== '') plain.skuSeen.set(sku.toLowerCase(), sku);
    break;
  }
  const isPrice = (cell: CellValue | undefined) =>
    typeof cell === 'number' ||
    (typeof cell === 'string' && /\d/.test(cell) && parsePrice(cell, plain.currency).ok);
  if (plain.prices.some((i) => isPrice(row.cells[i]))) plain.priced += 1;
};

/** How many rows are looked at for a currency the file states: a file that states it does so from the start. */
const CURRENCY_ROWS = 200;

/** The columns of a reader that may name a currency: its price columns and its currency column. */
const currencyColumns = (reader: RowReader): { prices: number[]; codes: number[] } => {
  const prices: number[] = [];
  const codes: number[] = [];
  for (const [index, field] of reader.columns) {
    if (field === 'currency') codes.push(index);
    else if (/price/.test(field)) prices.push(index);
  }
  return { prices, codes };
};

const headerText = (cell: CellValue | undefined): string =>
  typeof cell === 'string'
    ? cell.trim()
    : cell === null || cell === undefined || typeof cell === 'object'
      ? ''
      : String(cell);

const hasData = (row: TableRow): boolean => {
  for (const cell of row.cells) if (!isBlank(cell)) return true;
  return false;
};

/**
 * The reader of a table whose header row this may be, or null when the row is not a header: a row of
 * prose (a title sentence, hints describing the columns) never is; a row a platform profile recognises
 * is; otherwise it needs a name column and either another known column or the shape of a header (labels
 * over rows of values), since one known column beside unknown ones may be a data row containing `Item`.
 */
const readerFor = (
  row: TableRow,
  below: readonly TableRow[],
  ctx: TableContext,
  generic: RowReaderFactory,
  profiles: readonly Profile[],
): RowReader | null => {
  if (isProseRow(row.cells)) return null;
  return readerOfHeaders(row.cells.map(headerText), ctx, generic, profiles, () =>
    isLabelRow(
      row.cells,
      below.map((r) => r.cells),
    ),
  );
};

const readerOfHeaders = (
  headers: readonly string[],
  ctx: TableContext,
  generic: RowReaderFactory,
  profiles: readonly Profile[],
  labelled: () => boolean,
): RowReader | null => {
  const normalised = new Set(headers.map(normaliseHeader).filter(Boolean));
  const profile = profiles.find((p) => p.matches(normalised));
  if (profile !== undefined) return profile.open(headers, ctx);
  const reader = generic(headers, ctx);
  if (!reader.provides.has('name')) return null;
  const named = headers.filter((h) => h !== '').length;
  if (reader.provides.size < 2 && named > 2 && !labelled()) return null;
  return reader;
};

/**
 * Reads a table. Returns how it was read; `headerRow` null means no header row was recognised in the
 * first rows (nothing was emitted; the caller reports it). `profiles` are the platform exports its header
 * is compared with (a workbook profile puts its own, bound to its other sheets, first).
 */
export const readTable = async (
  table: Table,
  ctx: TableContext,
  generic: RowReaderFactory,
  emit: DraftSink,
  profiles: readonly Profile[] = PROFILES,
): Promise<TableOutcome> => {
  let reader: RowReader | null = null;
  let headers: readonly string[] = [];
  let headerRow: number | null = null;
  let searched = 0;
  let rows = 0;
  let blankHeaders: number[] = [];
  let secondRow = false;
  /** Until the first product row: rows describing the columns are skipped, with a warning. */
  let hints = false;
  const dataInBlank = new Set<number>();
  // What the profile's reading sends, to compare with what the columns hold (PlainValues).
  const sentSkus = new Set<string>();
  let sentPriced = 0;
  let plain: { reader: RowReader; values: PlainValues | null } | null = null;
  const send: DraftSink = (draft) => {
    if (draft.kind === 'item') {
      for (const variant of draft.variants) {
        if (variant.sku !== null && variant.sku !== undefined) sentSkus.add(variant.sku.trim().toLowerCase());
        if (variant.price !== null && variant.price !== undefined) sentPriced += 1;
      }
    }
    emit(draft);
  };
  let currencyStated = false;
  let currencyRows = 0;
  let namesCurrency: { reader: RowReader; prices: number[]; codes: number[] } | null = null;
  /** Looks for a currency the file states, in the first rows. */
  const lookForCurrency = (row: TableRow, current: RowReader): void => {
    if (currencyStated || currencyRows >= CURRENCY_ROWS) return;
    if (namesCurrency?.reader !== current) {
      namesCurrency = { reader: current, ...currencyColumns(current) };
      if (namesCurrency.prices.some((i) => headerStatesCurrency(headers[i] ?? ''))) currencyStated = true;
    }
    currencyRows += 1;
    currencyStated ||=
      namesCurrency.codes.some((i) => codeStatesCurrency(row.cells[i])) ||
      namesCurrency.prices.some((i) => cellStatesCurrency(row.cells[i]));
  };
  /** Rows with data while the header is looked for: a candidate and the rows under it. */
  const waiting: TableRow[] = [];
  /** Every row with data while no header is found: the values columns are inferred from. */
  const seen: TableRow[] = [];
  let inferenceTried = false;
  let inferred: string | null = null;
  /** A row that names known columns but none holding the products' names (for the error). */
  let nameless: { row: number; fields: string[] } | null = null;

  const label = (index: number): string => columnLabel(headers, index);
  const warnInferred = (fields: ReadonlyMap<number, Field>, why: string): void => {
    inferred = describeInferred(fields, label);
    ctx.warn(
      null,
      null,
      'columns_inferred',
      `${why}; the columns were told from their values: ${inferred}. Check them: the job goes to review`,
    );
  };

  const read = (row: TableRow, current: RowReader): void => {
    if (secondRow) {
      secondRow = false;
      // `Price` merged over `Small | Medium | Large` on the next row: one header on two rows.
      const merged = current.profile === 'generic' ? subHeader(headers, row.cells.map(headerText)) : null;
      const mergedReader =
        merged === null ? null : readerOfHeaders(merged, ctx, generic, profiles, () => false);
      if (merged !== null && mergedReader !== null) {
        reader = mergedReader;
        headers = merged;
        blankHeaders = merged.flatMap((h, i) => (h === '' ? [i] : []));
        return;
      }
    }
    if (hints && isHintRow(row.cells, headers)) {
      ctx.warn(
        row.row,
        null,
        'not_an_item',
        `row ${row.row} describes the columns (a template's hints or notes under the header), not a product: skipped`,
      );
      return;
    }
    hints = false;
    rows += 1;
    for (const i of blankHeaders) if (!isBlank(row.cells[i])) dataInBlank.add(i);
    for (let i = headers.length; i < row.cells.length; i += 1) if (!isBlank(row.cells[i])) dataInBlank.add(i);
    const reading = reader ?? current;
    lookForCurrency(row, reading);
    if (reading.profile !== 'generic') {
      if (plain?.reader !== reading) plain = { reader: reading, values: plainValues(headers, ctx, generic) };
      if (plain.values !== null) countPlain(plain.values, row);
    }
    reading.row(row, send);
  };

  /** Tries the first waiting row as the header; once found, the rows under it are read. */
  const search = (): void => {
    const candidate = waiting.shift();
    if (candidate === undefined) return;
    searched += 1;
    let found = readerFor(candidate, waiting, ctx, generic, profiles);
    if (found === null) {
      if (nameless === null && !isProseRow(candidate.cells)) {
        const known = [...generic(candidate.cells.map(headerText), ctx).provides];
        if (known.length >= 2) nameless = { row: candidate.row, fields: known };
      }
      return;
    }
    headers = candidate.cells.map(headerText);
    if (found.profile === 'generic' && !found.provides.has('price')) {
      // A name column but no price column any alias names: a column of amounts under a header of the
      // shop's own words is the price, by its values.
      const free = headers.flatMap((_, i) => (found?.columns.has(i) ? [] : [i]));
      const price = inferPriceColumn(
        waiting.map((r) => r.cells),
        free,
        { wholeNumbers: false },
      );
      if (price !== undefined) {
        const fields = new Map<number, Field>([[price, 'price']]);
        found = generic(headers, ctx, fields);
        warnInferred(fields, 'no column is named as the price');
      }
    }
    reader = found;
    seen.length = 0;
    headerRow = candidate.row;
    blankHeaders = headers.flatMap((h, i) => (h === '' ? [i] : []));
    secondRow = true;
    hints = true;
    for (const row of waiting.splice(0)) read(row, found);
  };

  /**
   * No header row among the first rows: the columns are told from the rows' values (a sheet typed without
   * a header), and the rows seen so far are read by them.
   */
  const infer = (): void => {
    inferenceTried = true;
    const guess = inferColumns(seen.map((r) => r.cells));
    if (guess === null) return;
    const width = Math.max(...seen.map((r) => r.cells.length));
    headers = Array.from({ length: width }, () => '');
    const found = generic(headers, ctx, guess.fields);
    if (!found.provides.has('name')) return;
    reader = found;
    blankHeaders = headers.map((_, i) => i);
    warnInferred(guess.fields, 'no header row names the columns');
    for (const row of seen.splice(0)) read(row, found);
    waiting.length = 0;
  };

  for await (const batch of table.batches) {
    for (const row of batch) {
      if (!hasData(row)) continue;
      if (reader !== null) {
        read(row, reader);
        continue;
      }
      if (inferenceTried) continue;
      seen.push(row);
      if (searched < HEADER_SEARCH_ROWS) {
        waiting.push(row);
        if (waiting.length > LOOK_BELOW) search();
      }
      if (reader === null && searched >= HEADER_SEARCH_ROWS) infer();
    }
  }
  while (reader === null && waiting.length > 0 && searched < HEADER_SEARCH_ROWS) search();
  if (reader === null && !inferenceTried) infer();
  // Assigned by the closures above: TypeScript does not follow it there.
  const found = reader as RowReader | null;
  if (found === null) {
    // Assigned by the closures above, as `reader` is.
    const named = nameless as { row: number; fields: string[] } | null;
    const missing =
      seen.length === 0 && searched === 0
        ? 'the table has no rows with data'
        : named !== null
          ? `row ${named.row} names columns (${named.fields.join(', ')}) but none holds the products' names; ` +
            'call that column name, title or product'
          : 'no header row with a name column (name, title, product …) was found in the first rows, and no column ' +
            'of names beside prices or barcodes could be told from the values';
    return {
      missing,
      sheet: ctx.sheet,
      headerRow: null,
      profile: null,
      columns: {},
      ignored: [],
      rows: 0,
      provides: new Set(),
      currencyStated: false,
      inferred: null,
    };
  }
  found.end(send);
  const values = plain === null ? null : (plain as { values: PlainValues | null }).values;
  if (values !== null && found.profile !== 'generic') {
    // A platform's parent rows hold a SKU and a price of their own that its variants replace (a Magento
    // configurable product, a WooCommerce variable one): at most half of the rows. Losing more than half is
    // a grouping that does not fit the file.
    const lost = [...values.skuSeen].flatMap(([folded, sku]) => (sentSkus.has(folded) ? [] : [sku]));
    const lostSkus = lost.length * 2 > values.skuSeen.size && lost.length >= MIN_DROPPED ? lost : [];
    const lostPriced = values.priced - sentPriced;
    const lostPrices = lostPriced * 2 > values.priced && lostPriced >= MIN_DROPPED ? lostPriced : 0;
    if (lostSkus.length > 0 || lostPrices > 0) {
      const parts = [
        ...(lostSkus.length > 0
          ? [
              `${lostSkus.length} of its ${values.skuSeen.size} SKUs (${lostSkus.slice(0, 3).join(', ')}${lostSkus.length > 3 ? ', …' : ''})`,
            ]
          : []),
        ...(lostPrices > 0 ? [`${lostPrices} of the ${values.priced} prices of its rows`] : []),
      ];
      ctx.warn(
        null,
        null,
        'values_dropped',
        `read as a ${found.profile} export, the table keeps fewer values than its columns hold: ${parts.join(' and ')} are not in the catalog`,
      );
    }
  }

  const columns: Record<string, string> = {};
  const ignored: string[] = [];
  const width = Math.max(headers.length, ...[...dataInBlank].map((i) => i + 1));
  for (let i = 0; i < width; i += 1) {
    const field = found.columns.get(i);
    const named = (headers[i] ?? '') !== '';
    if (field !== undefined) columns[columnLabel(headers, i)] = field;
    else if (named || dataInBlank.has(i)) ignored.push(columnLabel(headers, i));
  }
  return {
    sheet: ctx.sheet,
    headerRow,
    profile: found.profile,
    columns,
    ignored,
    rows,
    provides: found.provides,
    currencyStated,
    inferred,
    missing: null,
  };
};
