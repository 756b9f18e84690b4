import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
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
import { ODOO_HEADERS, ODOO_ROOT_CATEGORY } from './tables/odoo';

/**
 * Odoo's product export (Inventory or Sales > Products, or Product Variants > select > Export), with the
 * field labels as headers (`Name`, `Internal Reference`, `Barcode`, `Sales Price`, `Cost`, `Product
 * Category`, `Product Type`, `Variant Values`) or, "import-compatible", the field names (`name`,
 * `default_code`, `barcode`, `list_price`, `categ_id`, `product_template_variant_value_ids`). The SKU is
 * the Internal Reference; the category Odoo's complete name `All / Saleable / Office` (levels joined by
 * ` / `, under the root `All`, which is dropped). A variant (product.product) row repeats its template's
 * Name and lists its values as `Color: Red` (`Attribute: Value`): rows of one name with values are one
 * product with a variant each; rows without values are products of their own. Odoo writes each further
 * value of a many-valued field on a line of its own below the record, every other cell empty: such a
 * line adds to the record above. `Cost`, `Product Type`, quantities, the ID and the company are Odoo's own.
 */

const TABLE = roleNames(ODOO_HEADERS);

type Role = keyof typeof TABLE;

/** `All / Saleable / Office` → `['Saleable', 'Office']` (`Todos / …` in Spanish); `All` alone → null. */
export const odooCategoryPath = (text: string): string[] | null => {
  const levels = text
    .split(/\s+\/\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (levels.length > 0 && ODOO_ROOT_CATEGORY.includes(levels[0]?.toLowerCase() ?? '')) levels.shift();
  return levels.length === 0 ? null : levels;
};

/** `Color: Red, Size: L` (or one per line) → `{ Color: 'Red', Size: 'L' }`; a value without a name is numbered. */
export const odooValues = (text: string, into: Record<string, string> = {}): Record<string, string> => {
  for (const part of text.split(/\s*[,\n]\s*/)) {
    if (part.trim() === '') continue;
    const colon = part.indexOf(':');
    const name = colon > 0 ? part.slice(0, colon).trim() : '';
    const value = colon > 0 ? part.slice(colon + 1).trim() : part.trim();
    if (value === '') continue;
    into[name || `Attribute ${Object.keys(into).length + 1}`] = value;
  }
  return into;
};

/** The record read last: a product and the index of the variant its row added. */
interface Last {
  readonly product: ProductRows;
  readonly index: number;
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [NAME, TEMPLATE, SKU, GTIN, PRICE, CATEGORY, DESCRIPTION, TAGS, VALUES] = [
    col('name'),
    col('template'),
    col('sku'),
    col('gtin'),
    col('price'),
    col('category'),
    col('description'),
    col('tags'),
    col('values'),
  ];
  const columns = columnFields(map);
  for (const index of VALUES) columns.set(index, 'option_values');
  const nameLabel = NAME[0] === undefined ? 'Name' : cells.label(NAME[0]);

  const products: ProductRows[] = [];
  const templates = new Map<string, ProductRows>();
  let last: Last | null = null;

  /** A line that only continues the record above: no name, no reference, no price, only list values. */
  const continuation = (row: TableRow): boolean =>
    cells.text(row, SKU) === null &&
    cells.first(row, PRICE) < 0 &&
    cells.first(row, GTIN) < 0 &&
    (cells.first(row, VALUES) >= 0 || cells.first(row, TAGS) >= 0);

  const fill = (product: ProductRows, row: TableRow) => {
    if (product.categoryPath === null) {
      const category = cells.text(row, CATEGORY);
      product.categoryPath = category === null ? null : odooCategoryPath(category);
    }
    product.description ??= cells.description(row, DESCRIPTION);
    product.tags = [...new Set([...product.tags, ...cells.tags(row, TAGS)])];
  };

  return {
    profile: 'odoo',
    columns,
    provides: providedFields(map),
    row(row) {
      const name = cells.text(row, NAME);
      if (name === null) {
        if (last !== null && continuation(row)) {
          const values = cells.text(row, VALUES);
          const variant = last.product.variants[last.index];
          if (values !== null && variant !== undefined) {
            const options = odooValues(values, { ...variant.options });
            last.product.variants[last.index] = { ...variant, name: optionsName(options), options };
          }
          last.product.tags = [...new Set([...last.product.tags, ...cells.tags(row, TAGS)])];
          return;
        }
        skippedNameless(name, ctx, row.row, nameLabel, 'the product has no name; skipped');
        return;
      }
      const options = odooValues(cells.text(row, VALUES) ?? '');
      const { cell } = cells.priceOf(row, PRICE, ctx.currency);
      const variant = {
        ...singleVariant(cell, { sku: cells.text(row, SKU), gtin: cells.gtin(row, GTIN) }),
        name: optionsName(options),
        options,
      };
      const key = (cells.text(row, TEMPLATE) ?? name).toLowerCase();
      // A variant row joins its template's other variants; a row without values is a product of its own.
      let product = Object.keys(options).length > 0 ? templates.get(key) : undefined;
      if (product === undefined) {
        product = startProduct(key, row.row);
        product.name = name;
        products.push(product);
        if (Object.keys(options).length > 0) templates.set(key, product);
      }
      fill(product, row);
      product.variants.push(variant);
      last = { product, index: product.variants.length - 1 };
    },
    end(emit: DraftSink) {
      for (const product of products) {
        const draft = productDraft(product, ctx);
        if (draft !== null) emit(draft);
      }
    },
  };
};

export const odooProfile: Profile = {
  name: 'odoo',
  // The name with Odoo's `Internal Reference` (`default_code`) and its sales price or product category.
  matches: (headers) => signatureFits(ODOO_HEADERS, headers),
  open,
};
