import type { Price, Variant } from '../document';
import { formulaLike } from '../formula-text';
import type { ExportPart } from './files';
import { splitParts } from './files';
import type { ExportRun } from './formats-types';
import { type CarriedField, type ItemRows, itemRows } from './rows';
import type { CatalogIndex, IndexNeeds } from './stored-catalog';
import { BOM, csvLine, decimalAmount, fitText } from './text';
import { counted, type ExportWarnings } from './warnings';

/** A delimited text file of one header row and rows grouped by item (an item's rows are never split). */
export interface TableLayout {
  readonly header: readonly string[];
  readonly delimiter?: string;
  readonly bom?: boolean;
  /** The target's size limit: larger files are split, each with the header. */
  readonly maxBytes?: number;
  readonly rows: (item: ItemRows) => readonly (readonly string[])[];
  /**
   * Cells a spreadsheet program would run as formulas (formula-text.ts). A file for people (`csv`) marks
   * them as text with an apostrophe, and so does a platform whose importer takes the mark off (WooCommerce);
   * another platform's import file writes them as they are, since its importer takes each cell literally
   * and would keep the apostrophe as part of the value, and says so in the warnings with the columns
   * concerned.
   */
  readonly formulas: FormulaMark | FormulaNotice;
}

export interface FormulaMark {
  /** The cell as written: marked as text where it would run as a formula. */
  readonly mark: (cell: string) => string;
}

export interface FormulaNotice {
  readonly mark: null;
  readonly warnings: ExportWarnings;
  /** The format's name in messages (`a Shopify product CSV`). */
  readonly target: string;
}

/** Writes formula-like cells as they are, counting them and the columns they are in. */
const noticeFormulas = (header: readonly string[], notice: FormulaNotice) => {
  const columns = new Set<string>();
  return (cells: readonly string[]): readonly string[] => {
    cells.forEach((cell, i) => {
      if (!formulaLike(cell)) return;
      columns.add(header[i] ?? `column ${i + 1}`);
      notice.warnings.add(
        'formula_like',
        null,
        (n) =>
          `${counted(n, 'value')} (in ${[...columns].join(', ')}) begin with =, +, - or @ and were written as they are in ${notice.target}: its platform takes each cell literally, so an apostrophe to protect them would become part of the value. Import the file without opening it in a spreadsheet program, which may run such a cell as a formula`,
      );
    });
    return cells;
  };
};

/**
 * Writes items as delimited text parts. Cells are quoted as RFC 4180 says; a TSV has no quoting (Google's
 * feeds), so its writer must give cells without tabs or line breaks.
 */
export const tableParts = (
  items: AsyncIterable<ItemRows>,
  layout: TableLayout,
): AsyncIterable<ExportPart> => {
  const delimiter = layout.delimiter ?? ',';
  const write = (cells: readonly string[]) =>
    delimiter === '\t' ? `${cells.join('\t')}\n` : `${csvLine(cells, delimiter)}\n`;
  const { formulas } = layout;
  const { mark } = formulas;
  const guard =
    mark === null
      ? noticeFormulas(layout.header, { ...formulas, mark })
      : (cells: readonly string[]) => cells.map((cell) => mark(cell));
  const line = (cells: readonly string[]) => write(guard(cells));
  const header = `${layout.bom ? BOM : ''}${write(layout.header)}`;
  return splitParts(items, {
    maxBytes: layout.maxBytes,
    items: () => 1,
    open: () => header,
    render: (item) => {
      const rows = layout.rows(item);
      return { text: rows.map(line).join(''), units: rows.length };
    },
    close: () => '',
  });
};

/** The variant's price as a decimal in the catalog's currency, or null (none, variable, or another currency). */
export const priceIn = (variant: Variant, currency: string): string | null =>
  variant.price !== null && variant.price.currency === currency ? decimalAmount(variant.price) : null;

/** `12.50 USD`: a price as Google's and Meta's feeds write it. */
export const feedPrice = (price: Price): string => `${decimalAmount(price)} ${price.currency}`;

/** A value cut to the target's limit, counted in the warnings when cut. */
export const limited = (
  warnings: ExportWarnings,
  target: string,
  field: string,
  value: string,
  max: number,
): string => {
  const fitted = fitText(value, max);
  if (fitted.cut)
    warnings.add(
      'value_too_long',
      field,
      (n) =>
        `${counted(n, 'value')} of ${field} were longer than ${target} takes (${max} characters) and were cut`,
    );
  return fitted.text;
};

/** Text without tabs and line breaks (a TSV cell), counted when it had any. */
export const oneLine = (warnings: ExportWarnings, field: string, value: string): string => {
  if (!/[\t\r\n]/.test(value)) return value;
  warnings.add(
    'changed',
    field,
    (n) =>
      `${counted(n, 'value')} of ${field} had line breaks or tabs, written as spaces (a feed line is one line)`,
  );
  return value.replace(/\s*[\t\r\n]+\s*/g, ' ');
};

/** What a tabular writer's rows see: the run (its warnings, its link template) and the catalog's index. */
export interface TableContext {
  readonly run: ExportRun;
  readonly index: CatalogIndex;
}

export interface TableExport extends Omit<TableLayout, 'rows' | 'formulas'> {
  /** The format's name in messages (`a Shopify product CSV`). */
  readonly target: string;
  readonly carries: ReadonlySet<CarriedField>;
  /** Handles (unique URL handles, items of one name told apart), SKUs (generated SKUs kept apart). */
  readonly needs?: IndexNeeds;
  /** Made once per export (a writer may keep what it needs across items there), then called per item. */
  readonly rowsFor: (context: TableContext) => TableLayout['rows'];
  /** How the platform's importer reads a cell marked as text, if it takes the mark off (formula-text.ts). */
  readonly markFormulas?: (cell: string) => string;
}

/**
 * An ExportWriter's `write` for a delimited text format: the stored catalog as rows (rows.ts), what the
 * format does not carry counted, written as parts of at most `maxBytes`.
 */
export const tableExport = (spec: TableExport) =>
  async function* (run: ExportRun): AsyncGenerator<ExportPart> {
    const catalog = await run.catalog(spec.needs);
    const items = itemRows(catalog, { target: spec.target, carries: spec.carries, warnings: run.warnings });
    yield* tableParts(items, {
      ...spec,
      rows: spec.rowsFor({ run, index: catalog.index }),
      formulas: spec.markFormulas
        ? { mark: spec.markFormulas }
        : { mark: null, warnings: run.warnings, target: spec.target },
    });
  };
