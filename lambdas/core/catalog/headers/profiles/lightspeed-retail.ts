import type { DraftVariant } from '../../draft';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames, signatureFits } from './header-table';
import { ownColumnsOnly, type ProductRows, productDraft, startProduct } from './product-rows';
import { columnFields, optionsName, type Profile, profileColumns, providedFields } from './profile';
import { LIGHTSPEED_RETAIL_HEADERS } from './tables/lightspeed-retail';

/**
 * Lightspeed Retail R-Series (formerly Lightspeed Retail POS / Onsite's successor) item export and import
 * template (Inventory > Items > Export; Item Imports): one row per item. `Description` is the item's
 * name (the Items list names the same column `Item`); `System ID` is Lightspeed's own number (printed
 * on its labels), not read; the SKU is `Custom SKU`, else `Manufact. SKU`; the barcode `UPC`, else
 * `EAN`; the price `Price` (the Default price level; `MSRP`, `Online Price` and `Default Cost` are not
 * the shelf price). The category tree is `Category`, `Subcategory 1` … `Subcategory 9`, empty levels
 * skipped. Items of one matrix share `Matrix Description` (the product's name) and differ by
 * `Attribute 1` … `Attribute 3`, named by the `Matrix Attribute Set` (`Color/Size`); they are one
 * product with a variant each. Stock, vendor, tax, season, department and eCom flags are Lightspeed's
 * own settings.
 */

const TABLE = roleNames(LIGHTSPEED_RETAIL_HEADERS);

type Role = keyof typeof TABLE;

const SUBCATEGORY = /^sub ?category (\d)$/;
const ATTRIBUTE = /^attribute (\d)$/;

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [NAME, MATRIX, SET, SKU, GTIN, PRICE, BRAND, TAGS] = [
    col('name'),
    col('matrix'),
    col('attributeSet'),
    col('sku'),
    col('gtin'),
    col('price'),
    col('brand'),
    col('tags'),
  ];
  const columns = columnFields(map);
  const levels: { n: number; index: number }[] = col('category').map((index) => ({ n: 0, index }));
  const attributes: { n: number; index: number }[] = [];
  headers.forEach((header, index) => {
    const normalised = normaliseHeader(header);
    const level = SUBCATEGORY.exec(normalised);
    if (level !== null) {
      levels.push({ n: Number(level[1]), index });
      columns.set(index, 'subcategory');
    }
    const attribute = ATTRIBUTE.exec(normalised);
    if (attribute !== null) {
      attributes.push({ n: Number(attribute[1]), index });
      columns.set(index, `option_value_${attribute[1]}`);
    }
  });
  const LEVELS = levels.sort((a, b) => a.n - b.n).map((l) => [l.index]);
  const ATTRIBUTES = attributes.sort((a, b) => a.n - b.n);
  const nameLabel = NAME[0] === undefined ? 'Description' : cells.label(NAME[0]);

  /** Products in the order of their first row; a matrix's rows need not be next to each other. */
  const products: ProductRows[] = [];
  const matrices = new Map<string, ProductRows>();

  const pathOf = (row: TableRow): string[] | null => {
    const path = LEVELS.map((list) => cells.text(row, list)).filter((s): s is string => s !== null);
    return path.length === 0 ? null : path;
  };

  /** `Color/Size` names Attribute 1 and 2; a custom set's name may not, so `Attribute N` then. */
  const optionsOf = (row: TableRow): Record<string, string> => {
    const names = (cells.text(row, SET) ?? '').split('/').map((s) => s.trim());
    const options: Record<string, string> = {};
    ATTRIBUTES.forEach(({ n, index }, i) => {
      const value = cells.text(row, [index]);
      if (value === null) return;
      options[names[i] || `Attribute ${n}`] = value;
    });
    return options;
  };

  const variantOf = (row: TableRow, name: string | null, options: Record<string, string>): DraftVariant => {
    const { cell } = cells.priceOf(row, PRICE, ctx.currency);
    return {
      ...singleVariant(cell, { name, sku: cells.text(row, SKU), gtin: cells.gtin(row, GTIN) }),
      options,
    };
  };

  const fill = (product: ProductRows, row: TableRow) => {
    product.categoryPath ??= pathOf(row);
    product.brand ??= cells.text(row, BRAND);
    if (product.tags.length === 0) product.tags = cells.tags(row, TAGS);
  };

  return {
    profile: 'lightspeed_retail',
    columns,
    provides: providedFields(map),
    row(row) {
      const matrix = cells.text(row, MATRIX);
      const name = cells.text(row, NAME);
      if (matrix === null) {
        if (name === null) {
          ctx.warn(row.row, nameLabel, 'missing_name', 'the item has no description; skipped');
          return;
        }
        const product = startProduct(`row ${row.row}`, row.row);
        product.name = name;
        fill(product, row);
        product.variants.push(variantOf(row, null, {}));
        products.push(product);
        return;
      }
      const key = matrix.toLowerCase();
      let product = matrices.get(key);
      if (product === undefined) {
        product = startProduct(key, row.row);
        product.name = matrix;
        matrices.set(key, product);
        products.push(product);
      }
      fill(product, row);
      const options = optionsOf(row);
      // Without attribute columns, a variant is what its description adds to the matrix's (`Tee Red M`).
      const rest = name?.toLowerCase().startsWith(key) ? name.slice(key.length).trim() : name;
      product.variants.push(variantOf(row, optionsName(options) ?? (rest || null), options));
    },
    end(emit: DraftSink) {
      for (const product of products) {
        const draft = productDraft(product, ctx);
        if (draft !== null) emit(draft);
      }
    },
  };
};

export const lightspeedRetailProfile: Profile = {
  name: 'lightspeed_retail',
  // `System ID` with Lightspeed's SKU columns, and the item named by `Description` or a matrix. An item
  // list naming items `Item` without matrices reads the same generically.
  matches: (headers) => signatureFits(LIGHTSPEED_RETAIL_HEADERS, headers),
  open,
};
