import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames, signatureFits } from './header-table';
import { ownColumnsOnly, type ProductRows, productDraft, startProduct } from './product-rows';
import {
  columnFields,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
  skippedNameless,
} from './profile';
import { LIGHTSPEED_HEADERS } from './tables/lightspeed';

/**
 * Lightspeed Retail X-Series' product export (formerly Vend: Catalog > Products > Export): one row per
 * variant; the rows of a product share `handle` and repeat its `name`, HTML `description`,
 * `product_category` (`type` in older Vend exports), comma-separated `tags` and `brand_name`. A variant
 * has its `sku`, `retail_price` (before sales tax; `supply_price` is the cost) and up to three
 * `variant_option_{one,two,three}_{name,value}` pairs. The component lines of a composite product
 * (`composite_handle` / `composite_sku` / `composite_quantity`) repeat the product; they are not variants
 * of their own. Supplier, tax, loyalty, account codes and per-outlet stock are Lightspeed's own settings.
 */

const TABLE = roleNames(LIGHTSPEED_HEADERS);

type Role = keyof typeof TABLE;

const OPTION = /^variant option (one|two|three|four|five|\d+) (name|value)$/;
const ORDINAL: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5 };

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [HANDLE, NAME, DESCRIPTION, CATEGORY, TAGS, SKU, GTIN, PRICE, BRAND, COMPOSITE] = [
    col('handle'),
    col('name'),
    col('description'),
    col('category'),
    col('tags'),
    col('sku'),
    col('gtin'),
    col('price'),
    col('brand'),
    col('composite'),
  ];
  const columns = columnFields(map);
  const optionColumns = new Map<number, { name: number[]; value: number[] }>();
  headers.forEach((header, index) => {
    const match = OPTION.exec(normaliseHeader(header));
    if (match === null) return;
    const n = ORDINAL[match[1] as string] ?? Number(match[1]);
    const entry = optionColumns.get(n) ?? { name: [], value: [] };
    (match[2] === 'name' ? entry.name : entry.value).push(index);
    optionColumns.set(n, entry);
    columns.set(index, `option_${match[2]}_${n}`);
  });
  const OPTIONS = [...optionColumns.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
  const nameLabel = NAME[0] === undefined ? 'name' : cells.label(NAME[0]);
  let current: ProductRows | null = null;

  const flush = (emit: DraftSink) => {
    const product = current;
    current = null;
    if (product === null) return;
    const draft = productDraft(product, ctx);
    if (
      skippedNameless(
        draft,
        ctx,
        product.firstRow,
        nameLabel,
        `product ${JSON.stringify(product.key)} has no name; skipped`,
      )
    )
      return;
    emit(draft);
  };

  return {
    profile: 'lightspeed',
    columns,
    provides: providedFields(map),
    row(row, emit) {
      const handle = cells.text(row, HANDLE) ?? cells.text(row, NAME);
      if (
        skippedNameless(handle, ctx, row.row, nameLabel, 'the row has neither a handle nor a name; skipped')
      )
        return;
      if (current === null || current.key !== handle) {
        flush(emit);
        current = startProduct(handle, row.row);
      }
      const product = current;
      product.name ??= cells.text(row, NAME);
      product.description ??= cells.description(row, DESCRIPTION);
      product.categoryPath ??= cells.categoryPath(row, CATEGORY);
      product.brand ??= cells.text(row, BRAND);
      if (product.tags.length === 0) product.tags = cells.tags(row, TAGS);
      const options: Record<string, string> = {};
      for (const { name, value } of OPTIONS) {
        const optionName = cells.text(row, name);
        const optionValue = cells.text(row, value);
        if (optionName !== null && optionValue !== null) options[optionName] = optionValue;
      }
      const sku = cells.text(row, SKU);
      const label = optionsName(options);
      // A composite product's component lines repeat the product: one variant, not one per component.
      if (
        cells.first(row, COMPOSITE) >= 0 &&
        product.variants.some((v) => v.sku === sku && (v.name ?? null) === label)
      )
        return;
      const { cell } = cells.priceOf(row, PRICE, ctx.currency);
      product.variants.push({
        ...singleVariant(cell, { name: label, sku, gtin: cells.gtin(row, GTIN) }),
        options,
      });
    },
    end(emit) {
      flush(emit);
    },
  };
};

export const lightspeedProfile: Profile = {
  name: 'lightspeed',
  // `handle` and `name` with the first option's name, or with both `retail_price` and `supply_price`.
  matches: (headers) => signatureFits(LIGHTSPEED_HEADERS, headers),
  open,
};
