import type { Price } from '../../document';
import type { DraftImage, DraftVariant } from '../../draft';
import { cellImages } from '../../rows/cells';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { roleNames, signatureFits } from './header-table';
import {
  addImages,
  adjustedPrice,
  optionCombinations,
  ownColumnsOnly,
  type ProductRows,
  primaryCategory,
  productDraft,
  signedAmount,
  splitEscaped,
  startProduct,
} from './product-rows';
import {
  columnFields,
  nameColumnLabel,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
  skippedNameless,
} from './profile';
import { WIX_HEADERS } from './tables/wix';

/**
 * Wix Stores' product CSV (Store Products > More Actions > Export), both catalogs:
 * - the classic one: `handleId` ties a `Product` row (`fieldType`) to its `Variant` rows. The product row
 *   has name, HTML description, `productImageUrl` (Wix media names such as `7a3f21_5e0c…~mv2.jpg`, `;`
 *   separated, served from https://static.wixstatic.com/media/<name>), `collection` (`;` separated), sku,
 *   price, brand and up to six options (`productOptionName1`, `productOptionDescription1` listing the
 *   choices `Oat;Slate`; a colour's choice may be `#C0C0C0:Silver`); a variant row gives its choice in
 *   `productOptionDescriptionN`, its own sku and a `surcharge` added to the product's price;
 * - the new one (catalog V3): `handle`, `PRODUCT` / `VARIANT` / `MEDIA` rows, `plainDescription`,
 *   `media`, `barcode`, `productOptionChoicesN`, a variant's own `price`.
 * A variant row marked `visible` false is a combination the store does not sell; it is left out (unless
 * every variant of the product is). A product with options but no variant rows is sold in every
 * combination of its choices, at its price.
 */

const TABLE = roleNames(WIX_HEADERS);

type Role = keyof typeof TABLE;

const OPTION = /^productoption(name|description|choices)(\d+)$/;
const MEDIA_BASE = 'https://static.wixstatic.com/media/';

/** A Wix media name (`7a3f21_5e0c4b1d9f2a4c8e~mv2.jpg`) as the URL Wix serves it from; URLs stay. */
export const wixMediaUrl = (name: string): string =>
  /^https?:\/\//i.test(name) || !/^[\w.~-]+\.[a-z0-9]{2,5}$/i.test(name) ? name : `${MEDIA_BASE}${name}`;

/**
 * A choice as written: `Oat`, or a colour with its swatch's CSS colour first, which is not part of the
 * name: `#C0C0C0:Silver`, `rgb(193,180,123):Cream`, `hsla(0, 0%, 75%, 1):Grey`.
 */
const choiceName = (text: string): string =>
  text.replace(/^\s*(?:#[0-9a-f]{3,8}|(?:rgba?|hsla?)\([^()]*\))\s*:\s*/i, '').trim();

interface Product extends ProductRows {
  readonly sku: string | null;
  readonly gtin: string | null;
  readonly price: Price | null;
  /** Option N's name and the choices the product row lists. */
  readonly options: { readonly name: string | null; readonly choices: readonly string[] }[];
  /** Variant rows marked not visible: combinations the store does not sell. */
  readonly hidden: DraftVariant[];
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [HANDLE, TYPE, NAME, DESCRIPTION, IMAGE, CATEGORY, SKU, GTIN, PRICE, SURCHARGE, VISIBLE, BRAND] = [
    col('handle'),
    col('field_type'),
    col('name'),
    col('description'),
    col('image_url'),
    col('category'),
    col('sku'),
    col('gtin'),
    col('price'),
    col('surcharge'),
    col('visible'),
    col('brand'),
  ];
  const columns = columnFields(map);
  const optionColumns = new Map<number, { name: number[]; choice: number[] }>();
  headers.forEach((header, index) => {
    const match = OPTION.exec(normaliseHeader(header));
    if (match === null) return;
    const n = Number(match[2]);
    const entry = optionColumns.get(n) ?? { name: [], choice: [] };
    (match[1] === 'name' ? entry.name : entry.choice).push(index);
    optionColumns.set(n, entry);
    columns.set(index, match[1] === 'name' ? `option_name_${n}` : `option_value_${n}`);
  });
  const OPTIONS = [...optionColumns.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
  let current: Product | null = null;

  /** `;`-separated media names or URLs. */
  const imagesOf = (row: TableRow): DraftImage[] => {
    const index = cells.first(row, IMAGE);
    if (index < 0) return [];
    const { images, refused } = cellImages(
      splitEscaped(cells.text(row, [index]) ?? '', ';').map(wixMediaUrl),
    );
    for (const url of refused) {
      ctx.warn(
        row.row,
        cells.label(index),
        'invalid_url',
        `${JSON.stringify(url.slice(0, 80))} is not an image; ignored`,
      );
    }
    return images;
  };

  const flush = (emit: DraftSink) => {
    const product = current;
    current = null;
    if (product === null) return;
    // Hidden combinations are left out beside sold ones; a product whose every variant is hidden keeps them.
    if (product.variants.length === 0) product.variants.push(...product.hidden);
    const [only, ...others] = product.variants;
    if (only !== undefined && others.length === 0 && Object.keys(only.options ?? {}).length === 0) {
      // One variant row of a product sold in one form: the product's own SKU and barcode are its.
      product.variants[0] = { ...only, sku: only.sku ?? product.sku, gtin: only.gtin ?? product.gtin };
    }
    if (product.variants.length === 0) {
      // No variant rows: every combination of the product's choices, at its price.
      const combinations = optionCombinations(
        product.options.flatMap((o) => (o.name === null ? [] : [{ name: o.name, values: o.choices }])),
      );
      const forms = combinations.length === 0 ? [{}] : combinations;
      for (const options of forms) {
        product.variants.push({
          name: optionsName(options),
          options,
          sku: forms.length === 1 ? product.sku : null,
          gtin: forms.length === 1 ? product.gtin : null,
          price: product.price,
          pricing: 'fixed',
        });
      }
    }
    const draft = productDraft(product, ctx);
    if (
      skippedNameless(
        draft,
        ctx,
        product.firstRow,
        nameColumnLabel(cells, NAME, 'name'),
        `product ${JSON.stringify(product.key)} has no name; skipped`,
      )
    )
      return;
    emit(draft);
  };

  const startFrom = (row: TableRow, handle: string): Product => {
    const { cell } = cells.priceOf(row, PRICE, ctx.currency);
    const collections = cells.text(row, CATEGORY);
    const product: Product = {
      ...startProduct(handle, row.row),
      sku: cells.text(row, SKU),
      gtin: cells.gtin(row, GTIN),
      price: cell.kind === 'price' ? cell.price : null,
      hidden: [],
      options: OPTIONS.map(({ name, choice }) => ({
        name: cells.text(row, name),
        choices: splitEscaped(cells.text(row, choice) ?? '', ';').map(choiceName),
      })),
    };
    product.name = cells.text(row, NAME);
    product.description = cells.description(row, DESCRIPTION);
    product.brand = cells.text(row, BRAND);
    product.categoryPath =
      collections === null ? null : primaryCategory(splitEscaped(collections, ';').map((c) => [c]));
    addImages(product, imagesOf(row));
    return product;
  };

  /** A variant's price: its own (catalog V3), else the product's plus its surcharge. */
  const variantPrice = (row: TableRow, product: Product): Price | null => {
    const own = cells.priceOf(row, PRICE, product.price?.currency ?? ctx.currency).cell;
    if (own.kind === 'price') return own.price;
    if (product.price === null) return null;
    const index = cells.first(row, SURCHARGE);
    if (index < 0) return product.price;
    const surcharge = signedAmount(row.cells[index], product.price.currency);
    if (surcharge.kind === 'amount') {
      const price = adjustedPrice(product.price, surcharge.amount);
      if (price === null)
        ctx.warn(
          row.row,
          cells.label(index),
          'invalid_price',
          "the surcharge is more than the product's price; the variant is kept without a price",
        );
      return price;
    }
    if (surcharge.kind === 'invalid')
      ctx.warn(
        row.row,
        cells.label(index),
        'invalid_price',
        `${surcharge.message}; the variant has the product's price`,
      );
    return product.price;
  };

  const addVariant = (row: TableRow, product: Product) => {
    const hidden = cells.text(row, VISIBLE)?.toLowerCase() === 'false';
    const options: Record<string, string> = {};
    OPTIONS.forEach(({ choice }, i) => {
      const name = product.options[i]?.name;
      const value = cells.text(row, choice);
      if (name && value !== null) options[name] = choiceName(value);
    });
    (hidden ? product.hidden : product.variants).push({
      name: optionsName(options),
      options,
      sku: cells.text(row, SKU),
      gtin: cells.gtin(row, GTIN),
      price: variantPrice(row, product),
      pricing: 'fixed',
      images: imagesOf(row),
    });
  };

  return {
    profile: 'wix',
    columns,
    provides: providedFields(map),
    row(row, emit) {
      const handle = cells.text(row, HANDLE);
      const type = (
        cells.text(row, TYPE) ?? (cells.text(row, NAME) === null ? 'variant' : 'product')
      ).toLowerCase();
      if (type === 'product' || handle === null) {
        flush(emit);
        current = startFrom(row, handle ?? `row ${row.row}`);
        return;
      }
      if (current === null || current.key !== handle) {
        ctx.warn(
          row.row,
          HANDLE[0] === undefined ? 'handleId' : cells.label(HANDLE[0]),
          'orphan_variant',
          `a ${type} row of ${JSON.stringify(handle)}, which is not the product above it; skipped`,
        );
        return;
      }
      if (type === 'media') addImages(current, imagesOf(row));
      else addVariant(row, current);
    },
    end(emit) {
      flush(emit);
    },
  };
};

export const wixProfile: Profile = {
  name: 'wix',
  matches: (headers) => signatureFits(WIX_HEADERS, headers),
  open,
};
