import type { Price } from '../../document';
import type { DraftImage, DraftVariant } from '../../draft';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { type Adjustment, legacyOptions, modernOptions, ruleAdjustment } from './bigcommerce-cells';
import { roleNames, signatureFits } from './header-table';
import {
  addImages,
  adjustedPrice,
  categoryList,
  ownColumnsOnly,
  type ProductRows,
  primaryCategory,
  productDraft,
  startProduct,
} from './product-rows';
import {
  columnFields,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
  skippedNameless,
} from './profile';
import { BIGCOMMERCE_HEADERS } from './tables/bigcommerce';

/**
 * BigCommerce's product export, both generations (support.bigcommerce.com "Complex Attributes",
 * "Importing Product Options", "Supported Product Fields"):
 * - the Bulk Edit template: an `Item Type` `Product` row carries the product (Product Name, Product
 *   Code/SKU, Brand Name, HTML Product Description, Price, Category as `/` paths joined by `;`, numbered
 *   `Product Image File - N` / `Product Image URL - N`, Product UPC/EAN); its variants follow as `SKU`
 *   rows (written indented, `  SKU`) whose Product Name lists the option values (`[S]Size=10 in`,
 *   `[RB]Color=Red,[S]Size=M`: the bracket is the option's display type) with their own SKU and UPC/EAN,
 *   and `Rule` rows that change the price of the variants they name by SKU or by option values
 *   (`[FIXED]54.0000`, `[ADD]5`, `[REMOVE]2.50`);
 * - the modern export: `Item` `Product`, `Variant` (Options `Type=Rectangle|Name=Size|Value=Small`, an
 *   empty Price meaning the product's; `Variant Image URL`), `Image` (`Internal Image URL (Export)` or
 *   `Image URL (Import)`) rows.
 * A variant without a price of its own or a rule has the product's price. Cost, retail (MSRP) and sale
 * prices are not the price.
 */

/**
 * Both generations' columns (tables/bigcommerce.ts), their row-kind columns (`Item Type`, `Item`) read as
 * one and their name columns (`Product Name`, `Name`) as one.
 */
const { item: modernType, product_name: legacyName, ...OWN } = roleNames(BIGCOMMERCE_HEADERS);
const TABLE = { ...OWN, item_type: [...OWN.item_type, ...modernType], name: [...legacyName, ...OWN.name] };

type Role = keyof typeof TABLE;

/** `Product Image File - 2`, `Product Image URL - 2`: the product's Nth image (a URL, or a file name). */
const NUMBERED_IMAGE = /^product image (url|file|path) (\d+)$/;

interface VariantRow {
  readonly row: number;
  readonly name: string | null;
  readonly options: Record<string, string>;
  readonly sku: string | null;
  readonly gtin: string | null;
  /** Its own price (null: none, after a rule that made it negative); undefined: the product's. */
  price: Price | null | undefined;
  readonly images: DraftImage[];
}

interface Rule {
  readonly row: number;
  readonly sku: string | null;
  readonly options: Record<string, string> | null;
  readonly adjustment: Adjustment | null;
  readonly images: DraftImage[];
}

interface Product extends ProductRows {
  readonly sku: string | null;
  readonly gtin: string | null;
  readonly price: Price | null;
  readonly rows: VariantRow[];
  readonly rules: Rule[];
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [TYPE, ID, NAME, SKU, BRAND, DESCRIPTION, PRICE, CATEGORY, GTIN, OPTIONS, IMAGE, VARIANT_IMAGE] = [
    col('item_type'),
    col('product_id'),
    col('name'),
    col('sku'),
    col('brand'),
    col('description'),
    col('price'),
    col('category'),
    col('gtin'),
    col('options'),
    col('image_url'),
    col('variant_image'),
  ];
  const columns = columnFields(map);
  const numbered = new Map<number, number[]>();
  headers.forEach((header, index) => {
    const match = NUMBERED_IMAGE.exec(normaliseHeader(header));
    if (match === null || columns.has(index)) return;
    const n = Number(match[2]);
    const list = numbered.get(n) ?? [];
    // A URL before a file name: the export gives a file name where it has no URL.
    if (match[1] === 'url') list.unshift(index);
    else list.push(index);
    numbered.set(n, list);
    columns.set(index, 'image_url');
  });
  const IMAGES = [IMAGE, ...[...numbered.entries()].sort(([a], [b]) => a - b).map(([, list]) => list)];
  const label = (list: readonly number[], fallback: string) =>
    list[0] === undefined ? fallback : cells.label(list[0]);
  const imagesOf = (row: TableRow): DraftImage[] => IMAGES.flatMap((list) => cells.images(row, list));
  let current: Product | null = null;

  /** The price change of a Rule row (null: none); one that is not a price change is reported. */
  const adjustmentOf = (row: TableRow): Adjustment | null => {
    const index = cells.first(row, PRICE);
    if (index < 0) return null;
    const text = cells.text(row, [index]) ?? '';
    const adjustment = ruleAdjustment(text, ctx.currency);
    if (adjustment === null)
      ctx.warn(
        row.row,
        cells.label(index),
        'invalid_price',
        `${JSON.stringify(text)} is not a price rule; ignored`,
      );
    return adjustment;
  };

  const applyRules = (product: Product) => {
    for (const rule of product.rules) {
      const targets = product.rows.filter((v) =>
        rule.sku !== null
          ? v.sku?.toLowerCase() === rule.sku.toLowerCase()
          : rule.options !== null &&
            Object.entries(rule.options).every(
              ([k, value]) => v.options[k]?.toLowerCase() === value.toLowerCase(),
            ),
      );
      if (targets.length === 0) {
        ctx.warn(
          rule.row,
          label(TYPE, 'Item Type'),
          'orphan_variant',
          `the rule names no variant of ${JSON.stringify(product.name ?? product.key)} (by SKU or options); ignored`,
        );
        continue;
      }
      for (const target of targets) {
        addImages(target, rule.images);
        const { adjustment } = rule;
        if (adjustment === null) continue;
        const base = target.price ?? product.price;
        const priceLabel = label(PRICE, 'Price');
        if (adjustment.kind === 'add' && base === null) {
          ctx.warn(
            rule.row,
            priceLabel,
            'invalid_price',
            'the rule changes a price the product does not have; ignored',
          );
          continue;
        }
        const from =
          adjustment.kind === 'fixed' ? { amount: 0, currency: base?.currency ?? ctx.currency } : base;
        target.price = from === null ? null : adjustedPrice(from, adjustment.amount);
        if (target.price === null) {
          ctx.warn(
            rule.row,
            priceLabel,
            'invalid_price',
            `the rule leaves ${JSON.stringify(target.sku ?? optionsName(target.options))} a negative price; the variant is kept without a price`,
          );
        }
      }
    }
  };

  const flush = (emit: DraftSink) => {
    const product = current;
    current = null;
    if (product === null) return;
    applyRules(product);
    if (product.rows.length === 0) {
      product.variants.push({
        name: null,
        options: {},
        sku: product.sku,
        gtin: product.gtin,
        price: product.price,
        pricing: 'fixed',
      });
    }
    for (const v of product.rows) {
      const variant: DraftVariant = {
        name: optionsName(v.options) ?? v.name,
        options: v.options,
        sku: v.sku,
        gtin: v.gtin,
        price: v.price === undefined ? product.price : v.price,
        pricing: 'fixed',
        images: v.images,
      };
      product.variants.push(variant);
    }
    const draft = productDraft(product, ctx);
    if (
      skippedNameless(
        draft,
        ctx,
        product.firstRow,
        label(NAME, 'Product Name'),
        'the product has no name; skipped',
      )
    )
      return;
    emit(draft);
  };

  const startFrom = (row: TableRow): Product => {
    const { cell } = cells.priceOf(row, PRICE, ctx.currency);
    const categoryText = cells.text(row, CATEGORY);
    const product: Product = {
      ...startProduct(cells.text(row, ID) ?? `row ${row.row}`, row.row),
      sku: cells.text(row, SKU),
      gtin: cells.gtin(row, GTIN),
      price: cell.kind === 'price' ? cell.price : null,
      rows: [],
      rules: [],
    };
    product.name = cells.text(row, NAME);
    product.description = cells.description(row, DESCRIPTION);
    product.brand = cells.text(row, BRAND);
    product.categoryPath =
      categoryText === null ? null : primaryCategory(categoryList(categoryText, { list: ';', path: '/' }));
    addImages(product, imagesOf(row));
    return product;
  };

  /**
   * The product a SKU, Rule, Variant or Image row belongs to: the one above it (BigCommerce writes a
   * product's rows directly under it).
   */
  const ownerOf = (row: TableRow, kind: string): Product | null => {
    if (current !== null) return current;
    ctx.warn(
      row.row,
      label(TYPE, 'Item Type'),
      'orphan_variant',
      `a ${kind} row with no product above it; skipped`,
    );
    return null;
  };

  const variantRow = (row: TableRow, product: Product, options: Record<string, string> | null) => {
    const own = cells.priceOf(row, PRICE, product.price?.currency ?? ctx.currency).cell;
    product.rows.push({
      row: row.row,
      name: options === null ? cells.text(row, NAME) : null,
      options: options ?? {},
      sku: cells.text(row, SKU),
      gtin: cells.gtin(row, GTIN),
      price: own.kind === 'price' ? own.price : undefined,
      images: [...cells.images(row, VARIANT_IMAGE), ...imagesOf(row)],
    });
  };

  return {
    profile: 'bigcommerce',
    columns,
    provides: providedFields(map),
    row(row, emit) {
      const kind = (cells.text(row, TYPE) ?? 'product').toLowerCase();
      if (kind === 'product') {
        flush(emit);
        current = startFrom(row);
        return;
      }
      const product = ownerOf(row, kind);
      if (product === null) return;
      const name = cells.text(row, NAME);
      if (kind === 'sku') variantRow(row, product, name === null ? null : legacyOptions(name));
      else if (kind === 'variant') variantRow(row, product, modernOptions(cells.text(row, OPTIONS) ?? ''));
      else if (kind === 'rule') {
        product.rules.push({
          row: row.row,
          sku: cells.text(row, SKU),
          options: name === null ? null : legacyOptions(name),
          adjustment: adjustmentOf(row),
          images: imagesOf(row),
        });
      } else if (kind === 'image') addImages(product, imagesOf(row));
      else if (kind !== 'video') {
        ctx.warn(
          row.row,
          label(TYPE, 'Item Type'),
          'invalid_value',
          `${JSON.stringify(cells.text(row, TYPE))} is not a kind of row BigCommerce writes (Product, SKU, Rule, Variant, Image); skipped`,
        );
      }
      // A Video row carries nothing the catalog has.
    },
    end(emit) {
      flush(emit);
    },
  };
};

export const bigcommerceProfile: Profile = {
  name: 'bigcommerce',
  matches: (headers) => signatureFits(BIGCOMMERCE_HEADERS, headers),
  open,
};
