import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames, signatureFits } from './header-table';
import {
  addImages,
  categoryList,
  ownColumnsOnly,
  type ProductRows,
  primaryCategory,
  productDraft,
  startProduct,
} from './product-rows';
import { columnFields, optionsName, type Profile, profileColumns, providedFields } from './profile';
import { SQUARESPACE_HEADERS } from './tables/squarespace';

/**
 * Squarespace Commerce's product CSV (Products > Export all; the import template has the same columns):
 * one row per variant, the rows of a product sharing `Product ID [Non Editable]` (empty in a file made
 * for import: a row without a Title then continues the product above it). The first row carries the
 * product (Title, HTML Description, Categories and Tags comma-separated, `Hosted Image URLs` one per line
 * or space-separated); every row is a variant with its SKU, `Option Value N` (named by the product's
 * `Option Name N`), Price, and in newer exports GTIN. Sale Price / On Sale are a promotion, not the price.
 */

const TABLE = roleNames(SQUARESPACE_HEADERS);

type Role = keyof typeof TABLE;

const OPTION = /^option (name|value) (\d+)$/;

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [ID, NAME, DESCRIPTION, SKU, GTIN, PRICE, CATEGORY, TAGS, IMAGES] = [
    col('product_id'),
    col('name'),
    col('description'),
    col('sku'),
    col('gtin'),
    col('price'),
    col('category'),
    col('tags'),
    col('image_url'),
  ];
  const columns = columnFields(map);
  const optionColumns = new Map<number, { name: number[]; value: number[] }>();
  headers.forEach((header, index) => {
    const match = OPTION.exec(normaliseHeader(header));
    if (match === null) return;
    const n = Number(match[2]);
    const entry = optionColumns.get(n) ?? { name: [], value: [] };
    (match[1] === 'name' ? entry.name : entry.value).push(index);
    optionColumns.set(n, entry);
    columns.set(index, `option_${match[1]}_${n}`);
  });
  const OPTIONS = [...optionColumns.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
  let current: (ProductRows & { optionNames: (string | null)[] }) | null = null;

  const flush = (emit: DraftSink) => {
    const product = current;
    current = null;
    if (product === null) return;
    const draft = productDraft(product, ctx);
    if (draft === null) {
      ctx.warn(
        product.firstRow,
        NAME[0] === undefined ? 'Title' : cells.label(NAME[0]),
        'missing_name',
        'the product has no title; skipped',
      );
      return;
    }
    emit(draft);
  };

  const startFrom = (row: TableRow, key: string) => {
    const product = { ...startProduct(key, row.row), optionNames: OPTIONS.map(() => null as string | null) };
    const categories = cells.text(row, CATEGORY);
    product.name = cells.text(row, NAME);
    product.description = cells.description(row, DESCRIPTION);
    product.categoryPath =
      categories === null ? null : primaryCategory(categoryList(categories, { list: ',' }));
    product.tags = cells.tags(row, TAGS);
    return product;
  };

  return {
    profile: 'squarespace',
    columns,
    provides: providedFields(map),
    row(row, emit) {
      const id = cells.text(row, ID);
      const title = cells.text(row, NAME);
      // Rows of one product share its id; without ids, a row with a title starts a product.
      const continues = current !== null && (id === null ? title === null : id === current.key);
      if (!continues) {
        flush(emit);
        current = startFrom(row, id ?? `row ${row.row}`);
      }
      const product = current as NonNullable<typeof current>;
      addImages(product, cells.images(row, IMAGES));
      const options: Record<string, string> = {};
      OPTIONS.forEach(({ name, value }, i) => {
        product.optionNames[i] ??= cells.text(row, name);
        const optionName = cells.text(row, name) ?? product.optionNames[i];
        const optionValue = cells.text(row, value);
        if (optionName && optionValue !== null) options[optionName] = optionValue;
      });
      const { cell } = cells.priceOf(row, PRICE, ctx.currency);
      product.variants.push({
        ...singleVariant(cell, {
          name: optionsName(options),
          sku: cells.text(row, SKU),
          gtin: cells.gtin(row, GTIN),
        }),
        options,
      });
    },
    end(emit) {
      flush(emit);
    },
  };
};

/** Recognised by its Title beside a column of Squarespace's own (`[Non Editable]` ids, Hosted Image URLs). */
export const squarespaceProfile: Profile = {
  name: 'squarespace',
  matches: (headers) => signatureFits(SQUARESPACE_HEADERS, headers),
  open,
};
