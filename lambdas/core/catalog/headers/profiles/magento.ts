import type { DraftImage, DraftVariant } from '../../draft';
import { parseBarcode } from '../../rows/barcodes';
import { cellImages } from '../../rows/cells';
import type { PriceCell } from '../../rows/prices';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { roleNames, signatureFits } from './header-table';
import {
  attributeLabel,
  attributePairs,
  categoryPaths,
  isDisabled,
  type Variation,
  variations,
} from './magento-cells';
import { ownColumnsOnly, primaryCategory, productDraft, startProduct } from './product-rows';
import {
  columnFields,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
  skippedNameless,
} from './profile';
import { MAGENTO_HEADERS } from './tables/magento';

/**
 * Magento 2 / Adobe Commerce's product export (System > Data Transfer > Export, entity Products): one row
 * per product (its default values: `store_view_code` empty), followed by a row per store view that
 * overrides some of them (a translation). Rules:
 * - Store-view rows are not products: they are skipped (the catalog is the default store values).
 * - `product_type` `configurable` is one item whose variants are its children, listed in
 *   `configurable_variations` (`sku=MH01-XS-Black,size=XS,color=Black|…`): options named by
 *   `configurable_variation_labels` (`size=Size,color=Color`; the attribute code, capitalised, when
 *   absent), each child's own sku, price (the parent's when the child row has none) and images. The
 *   children (simple rows, usually `Not Visible Individually`) are not items of their own. A child
 *   listed without a row of its own is kept with the parent's price and reported.
 * - simple, virtual, downloadable and bundle products are items with one variant (a bundle's price is
 *   its own `price`, empty for a dynamic-price bundle). A grouped product only lists other products,
 *   which are items of their own: it is skipped and reported.
 * - `product_online` 2 (disabled: not sold) skips the product, or leaves the child out of its parent's
 *   variants, with a `not_an_item` warning.
 * - `categories`: `/` paths joined by `,`, each starting with the root category (`Default Category`),
 *   which is dropped; the most specific path is the item's category (an ancestor listed too is that one).
 * - `description` (HTML), else `short_description`; `price` (`special_price` is a promotion).
 * - Images (`base_image`, `additional_images`) are paths in the store's media folder (`/m/h/mh01.jpg`):
 *   the export names no domain, so only absolute http(s) URLs are read; the others are reported once per
 *   column, and a column that gave no URL at all is listed in `ignored_columns`.
 * - Brand and barcode: a `brand`/`manufacturer` and `gtin`/`ean`/`upc`/`barcode` column (custom
 *   attributes exported as columns), else the same codes in `additional_attributes` (`code=value,…`).
 * Tax classes, stock, websites, visibility, weights, SEO and layout fields are Magento's own settings.
 */

const TABLE = roleNames(MAGENTO_HEADERS);

type Role = keyof typeof TABLE;

const BRAND_CODES = ['brand', 'manufacturer'];
const GTIN_CODES = ['gtin', 'ean', 'upc', 'barcode'];

/** A product's default row, kept until the end: children may come before their configurable parent. */
interface ProductRow {
  readonly row: number;
  readonly sku: string | null;
  readonly type: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly categoryPath: string[] | null;
  readonly brand: string | null;
  readonly gtin: string | null;
  readonly price: PriceCell;
  readonly images: DraftImage[];
  readonly disabled: boolean;
  readonly variations: readonly Variation[];
  readonly labels: ReadonlyMap<string, string>;
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const [SKU, STORE_VIEW, TYPE, NAME, DESCRIPTION, CATEGORY, PRICE, ONLINE, IMAGES, BRAND, GTIN, ATTRIBUTES] =
    [
      col('sku'),
      col('store_view'),
      col('product_type'),
      col('name'),
      col('description'),
      col('category'),
      col('price'),
      col('online'),
      col('image_url'),
      col('brand'),
      col('gtin'),
      col('attributes'),
    ];
  const [VARIATIONS, LABELS] = [col('variations'), col('variation_labels')];
  const columns = columnFields(map);
  const label = (list: readonly number[], fallback: string) =>
    list[0] === undefined ? fallback : cells.label(list[0]);
  const products: ProductRow[] = [];
  const bySku = new Map<string, ProductRow>();
  /** Store-view rows of a sku whose default row has not been read: sku → first such row. */
  const overridesOnly = new Map<string, number>();
  /** Per image column: URLs read, and the paths refused (relative to the media folder). */
  const imageStats = new Map(IMAGES.map((i) => [i, { read: 0, refused: 0, example: '' }]));

  const imagesOf = (row: TableRow): DraftImage[] =>
    IMAGES.flatMap((index) => {
      const { images, refused } = cellImages(row.cells[index]);
      const stats = imageStats.get(index);
      if (stats !== undefined) {
        stats.read += images.length;
        stats.refused += refused.length;
        if (stats.example === '' && refused[0] !== undefined) stats.example = refused[0].slice(0, 80);
      }
      return images;
    });

  /** A code of `additional_attributes`, when the export has no column of its own for it. */
  const attribute = (row: TableRow, codes: readonly string[]): string | null => {
    const text = cells.text(row, ATTRIBUTES);
    if (text === null) return null;
    const pairs = attributePairs(text);
    for (const code of codes) {
      const value = pairs.get(code);
      if (value !== undefined) return value;
    }
    return null;
  };

  const gtinOf = (row: TableRow): string | null => {
    if (cells.first(row, GTIN) >= 0) return cells.gtin(row, GTIN);
    const text = attribute(row, GTIN_CODES);
    if (text === null) return null;
    const parsed = parseBarcode(text);
    if (parsed.ok) return parsed.gtin;
    ctx.warn(row.row, label(ATTRIBUTES, 'additional_attributes'), parsed.code, `${parsed.message}; ignored`);
    return null;
  };

  const read = (row: TableRow, sku: string | null): ProductRow => {
    const categories = cells.text(row, CATEGORY);
    return {
      row: row.row,
      sku,
      type: (cells.text(row, TYPE) ?? 'simple').toLowerCase(),
      name: cells.text(row, NAME),
      description: cells.description(row, DESCRIPTION),
      categoryPath: categories === null ? null : primaryCategory(categoryPaths(categories)),
      brand: cells.text(row, BRAND) ?? attribute(row, BRAND_CODES),
      gtin: gtinOf(row),
      price: cells.priceOf(row, PRICE, ctx.currency).cell,
      images: imagesOf(row),
      disabled: isDisabled(cells.text(row, ONLINE)),
      variations: variations(cells.text(row, VARIATIONS) ?? ''),
      labels: attributePairs(cells.text(row, LABELS) ?? ''),
    };
  };

  const skip = (product: ProductRow, column: readonly number[], fallback: string, why: string) =>
    ctx.warn(
      product.row,
      label(column, fallback),
      'not_an_item',
      `${JSON.stringify(product.name ?? product.sku)} ${why}; skipped`,
    );

  const emitItem = (product: ProductRow, variants: DraftVariant[], emit: DraftSink) => {
    const draft = productDraft(
      {
        ...startProduct(product.sku ?? `row ${product.row}`, product.row),
        name: product.name,
        description: product.description,
        brand: product.brand,
        categoryPath: product.categoryPath,
        images: product.images,
        variants,
      },
      ctx,
    );
    if (!skippedNameless(draft, ctx, product.row, label(NAME, 'name'), 'the product has no name; skipped'))
      emit(draft);
  };

  const ownVariant = (product: ProductRow): DraftVariant => ({
    ...singleVariant(product.price, { sku: product.sku, gtin: product.gtin }),
    options: {},
  });

  /** The variants of a configurable product: its enabled children, named by their options. */
  const childVariants = (parent: ProductRow): DraftVariant[] => {
    const variants: DraftVariant[] = [];
    const parentName = JSON.stringify(parent.name ?? parent.sku);
    for (const variation of parent.variations) {
      const child = variation.sku === null ? undefined : bySku.get(variation.sku.toLowerCase());
      const options: Record<string, string> = {};
      for (const [code, value] of variation.values)
        options[parent.labels.get(code) ?? attributeLabel(code)] = value;
      if (child?.disabled) {
        ctx.warn(
          child.row,
          label(ONLINE, 'product_online'),
          'not_an_item',
          `${JSON.stringify(child.sku)} (${optionsName(options) ?? 'a variation'} of ${parentName}) is disabled; left out of its variants`,
        );
        continue;
      }
      if (child === undefined) {
        ctx.warn(
          parent.row,
          label(VARIATIONS, 'configurable_variations'),
          'orphan_variant',
          `variation ${JSON.stringify(variation.sku ?? optionsName(options))} of ${parentName} has no row in the file; kept with the product's price`,
        );
      }
      const own = child?.price;
      const price =
        own !== undefined && (own.kind === 'price' || own.kind === 'variable') ? own : parent.price;
      variants.push({
        ...singleVariant(price, {
          name: optionsName(options),
          sku: variation.sku,
          gtin: child?.gtin ?? null,
        }),
        options,
        images: child?.images ?? [],
      });
    }
    return variants;
  };

  const reportImages = () => {
    for (const [index, stats] of imageStats) {
      if (stats.read === 0) columns.delete(index);
      if (stats.refused === 0) continue;
      ctx.warn(
        null,
        cells.label(index),
        'invalid_url',
        `${stats.refused} image path(s) such as ${JSON.stringify(stats.example)} are relative to the store's media folder, which the export does not name; not read (only absolute http(s) URLs are)`,
      );
    }
  };

  return {
    profile: 'magento',
    columns,
    provides: providedFields(map),
    row(row) {
      const sku = cells.text(row, SKU);
      const key = sku?.toLowerCase();
      if (cells.first(row, STORE_VIEW) >= 0) {
        // A store view's override of a product's values (a translation): the default row is the product.
        if (key !== undefined && !bySku.has(key) && !overridesOnly.has(key)) overridesOnly.set(key, row.row);
        return;
      }
      if (key !== undefined && bySku.has(key)) {
        ctx.warn(
          row.row,
          label(SKU, 'sku'),
          'duplicate_product',
          `sku ${JSON.stringify(sku)} was read above; skipped`,
        );
        return;
      }
      const product = read(row, sku);
      products.push(product);
      if (key !== undefined) bySku.set(key, product);
    },
    end(emit) {
      const children = new Set<string>();
      for (const product of products) {
        if (product.type !== 'configurable') continue;
        for (const v of product.variations) if (v.sku !== null) children.add(v.sku.toLowerCase());
      }
      for (const product of products) {
        if (product.type === 'configurable') {
          if (product.disabled) skip(product, ONLINE, 'product_online', 'is disabled in the store');
          else {
            const variants = childVariants(product);
            emitItem(product, variants.length > 0 ? variants : [ownVariant(product)], emit);
          }
        } else if (product.sku !== null && children.has(product.sku.toLowerCase())) {
          // A configurable product's child: one of its variants.
        } else if (product.disabled) skip(product, ONLINE, 'product_online', 'is disabled in the store');
        else if (product.type === 'grouped')
          skip(
            product,
            TYPE,
            'product_type',
            'is a grouped product (it only lists other products, which are items of their own)',
          );
        else emitItem(product, [ownVariant(product)], emit);
      }
      for (const [key, row] of overridesOnly) {
        if (bySku.has(key)) continue;
        ctx.warn(
          row,
          label(STORE_VIEW, 'store_view_code'),
          'orphan_variant',
          'a store view row of a product whose default row (empty store_view_code) is not in the file; skipped',
        );
      }
      reportImages();
    },
  };
};

export const magentoProfile: Profile = {
  name: 'magento',
  matches: (headers) => signatureFits(MAGENTO_HEADERS, headers),
  open,
};
