import type { DraftItem, DraftVariant } from '../../draft';
import type { PriceCell } from '../../rows/prices';
import { rowCells, rowCurrency } from '../../rows/row-cells';
import type { RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames, signatureFits } from './header-table';
import { categoryList, ownColumnsOnly, primaryCategory } from './product-rows';
import {
  columnFields,
  nameColumnLabel,
  type Profile,
  profileColumns,
  providedFields,
  skippedNameless,
} from './profile';
import { BIGCARTEL_HEADERS } from './tables/bigcartel';

/**
 * Big Cartel's product export (Products > Export): one row per product with `Name`, `Description`,
 * `Price`, `Category` (a product may be in several, comma-separated; Big Cartel's categories are flat),
 * then its options as `Option 1`, `Option 1 Quantity`, `Option 2`, `Option 2 Quantity`, … (an option
 * may carry its own `Option N Price`) and its pictures as `Image 1`, `Image 2`, …. Each non-empty
 * `Option N` is a variant named by its value, at its own price where the export gives one, else at the
 * product's; a product whose only option is Big Cartel's `Default` is sold in one form. Quantities
 * (stock), `Status`, `On sale` and `Permalink` are Big Cartel's own settings, not read.
 */

const TABLE = roleNames(BIGCARTEL_HEADERS);

type Role = keyof typeof TABLE;

const OPTION = /^option ?(\d{1,3})(?: (name|price|quantity|qty|stock|inventory))?$/;
const IMAGE = /^(?:image|photo) ?(\d{1,3})(?: url)?$/;
const STOCK = new Set(['quantity', 'qty', 'stock', 'inventory']);

/** The single option Big Cartel gives a product without options. */
const DEFAULT_OPTION = /^default(?: title| option)?$/i;

interface OptionColumns {
  n: number;
  name: number[];
  price: number[];
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [NAME, DESCRIPTION, PRICE, CATEGORY] = [
    col('name'),
    col('description'),
    col('price'),
    col('category'),
  ];
  const currencyOf = rowCurrency(cells, [], ctx, PRICE[0] === undefined ? undefined : headers[PRICE[0]]);
  const columns = columnFields(map);
  const images: { n: number; index: number }[] = [];
  const options = new Map<number, OptionColumns>();
  headers.forEach((header, index) => {
    const normalised = normaliseHeader(header);
    const image = IMAGE.exec(normalised);
    if (image !== null) {
      images.push({ n: Number(image[1]), index });
      columns.set(index, 'image_url');
      return;
    }
    const option = OPTION.exec(normalised);
    if (option === null || STOCK.has(option[2] ?? '')) return;
    const n = Number(option[1]);
    const entry = options.get(n) ?? { n, name: [], price: [] };
    if (option[2] === 'price') {
      entry.price.push(index);
      columns.set(index, `option_price_${n}`);
    } else {
      entry.name.push(index);
      columns.set(index, `option_value_${n}`);
    }
    options.set(n, entry);
  });
  const IMAGES = images.sort((a, b) => a.n - b.n || a.index - b.index).map((i) => [i.index]);
  const OPTIONS = [...options.values()].sort((a, b) => a.n - b.n);

  const variantsOf = (row: TableRow, base: PriceCell): DraftVariant[] => {
    const variants: DraftVariant[] = [];
    const seen = new Set<string>();
    for (const option of OPTIONS) {
      const value = cells.text(row, option.name);
      if (value === null || seen.has(value.toLowerCase())) continue;
      seen.add(value.toLowerCase());
      const own = option.price.length > 0 ? cells.priceOf(row, option.price, currencyOf(row)).cell : null;
      variants.push(singleVariant(own === null || own.kind === 'empty' ? base : own, { name: value }));
    }
    if (variants.length === 1 && DEFAULT_OPTION.test(variants[0]?.name ?? ''))
      return [{ ...variants[0], name: null }];
    return variants.length > 0 ? variants : [singleVariant(base, {})];
  };

  return {
    profile: 'bigcartel',
    columns,
    provides: providedFields(map),
    row(row, emit) {
      const name = cells.text(row, NAME);
      if (
        skippedNameless(
          name,
          ctx,
          row.row,
          nameColumnLabel(cells, NAME, 'Name'),
          'the product has no name; skipped',
        )
      )
        return;
      const { cell } = cells.priceOf(row, PRICE, currencyOf(row));
      const categories = cells.text(row, CATEGORY);
      const draft: DraftItem = {
        kind: 'item',
        categoryPath:
          (categories === null ? null : primaryCategory(categoryList(categories, { list: ',' }))) ??
          ctx.defaultCategory,
        name,
        description: cells.description(row, DESCRIPTION),
        images: cells.gallery(row, IMAGES),
        variants: variantsOf(row, cell),
        provenance: { source: ctx.source, row: row.row, sheet: ctx.sheet },
      };
      emit(draft);
    },
    end() {},
  };
};

/** True when some `Option N` comes with its `Option N Quantity`. */
const hasOptionPairs = (headers: ReadonlySet<string>): boolean => {
  const values = new Set<string>();
  const quantities = new Set<string>();
  for (const header of headers) {
    const option = OPTION.exec(header);
    if (option?.[1] === undefined) continue;
    if (option[2] === undefined) values.add(String(Number(option[1])));
    else if (option[2] === 'quantity' || option[2] === 'qty') quantities.add(String(Number(option[1])));
  }
  return [...values].some((n) => quantities.has(n));
};

export const bigcartelProfile: Profile = {
  name: 'bigcartel',
  // The table's signature (Name, Price), and (a hook no table says) an `Option N` with its quantity.
  matches: (headers) => signatureFits(BIGCARTEL_HEADERS, headers) && hasOptionPairs(headers),
  open,
};
