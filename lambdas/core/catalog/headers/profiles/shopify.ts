import type { DraftImage, DraftItem, DraftVariant } from '../../draft';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import { singleVariant } from '../../rows/variant-prices';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { roleNames, signatureFits } from './header-table';
import {
  columnFields,
  optionNamesOf,
  optionsName,
  type Profile,
  profileColumns,
  providedFields,
} from './profile';
import { SHOPIFY_HEADERS } from './tables/shopify';

/**
 * Shopify's product CSV (help.shopify.com "Product CSV file format"): rows sharing a `Handle` are one
 * product. The first row carries the product (Title, Body (HTML), Vendor, Product Category, Type, Tags);
 * every row with an option value, SKU, price or barcode is a variant (`Option1 Name` `Title` /
 * `Default Title` is a product without options); a row with only `Image Src` adds an image, ordered by
 * `Image Position`; `Variant Image` belongs to its variant. Category: `Product Category` (Shopify's
 * taxonomy path `A > B`), else `Type`.
 */

/** Both header generations (tables/shopify.ts). */
const TABLE = roleNames(SHOPIFY_HEADERS);

type Role = keyof typeof TABLE;

interface Product {
  readonly handle: string;
  firstRow: number;
  name: string | null;
  description: string | null;
  brand: string | null;
  categoryPath: string[] | null;
  tags: readonly string[];
  optionNames: (string | null)[];
  readonly variants: DraftVariant[];
  readonly images: { image: DraftImage; position: number; order: number }[];
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE);
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const HANDLE = col('handle');
  const OPTION_NAMES = [col('option_name_1'), col('option_name_2'), col('option_name_3')];
  const OPTION_VALUES = [col('option_value_1'), col('option_value_2'), col('option_value_3')];
  const [NAME, DESCRIPTION, BRAND, CATEGORY, TAGS, SKU, PRICE, GTIN, IMAGE, POSITION, VARIANT_IMAGE] = [
    col('name'),
    col('description'),
    col('brand'),
    col('category'),
    col('tags'),
    col('sku'),
    col('price'),
    col('gtin'),
    col('image_url'),
    col('image_position'),
    col('variant_image'),
  ];
  const provides = providedFields(map);
  let current: Product | null = null;

  const flush = (emit: DraftSink) => {
    const product = current;
    current = null;
    if (product === null) return;
    if (product.name === null) {
      ctx.warn(
        product.firstRow,
        'Title',
        'missing_name',
        `product ${JSON.stringify(product.handle)} has no title; skipped`,
      );
      return;
    }
    const images = product.images
      .sort((a, b) => a.position - b.position || a.order - b.order)
      .map((i) => i.image);
    const draft: DraftItem = {
      kind: 'item',
      categoryPath: product.categoryPath ?? ctx.defaultCategory,
      name: product.name,
      description: product.description,
      brand: product.brand,
      tags: product.tags,
      images,
      optionNames: optionNamesOf(product.variants),
      variants: product.variants,
      sourceKey: product.handle,
      provenance: { source: ctx.source, row: product.firstRow, sheet: ctx.sheet },
    };
    emit(draft);
  };

  const variantOf = (row: TableRow, product: Product): DraftVariant | null => {
    const options: Record<string, string> = {};
    OPTION_VALUES.forEach((columns, i) => {
      const value = cells.text(row, columns);
      const name = cells.text(row, OPTION_NAMES[i] ?? []) ?? product.optionNames[i] ?? null;
      if (value === null) return;
      if (name === null || (name === 'Title' && value === 'Default Title')) return;
      options[name] = value;
    });
    const hasVariant =
      Object.keys(options).length > 0 ||
      cells.first(row, OPTION_VALUES.flat()) >= 0 ||
      cells.first(row, SKU) >= 0 ||
      cells.first(row, PRICE) >= 0 ||
      cells.first(row, GTIN) >= 0;
    if (!hasVariant) return null;
    const { cell } = cells.priceOf(row, PRICE, ctx.currency);
    const images = cells.images(row, VARIANT_IMAGE);
    return {
      ...singleVariant(cell, {
        name: optionsName(options),
        sku: cells.text(row, SKU),
        gtin: cells.gtin(row, GTIN),
      }),
      options,
      images,
    };
  };

  return {
    profile: 'shopify',
    columns: columnFields(map),
    provides,
    row(row, emit) {
      const handle = cells.text(row, HANDLE);
      if (handle === null) {
        ctx.warn(
          row.row,
          'Handle',
          'missing_name',
          'the row has no Handle, so it belongs to no product; skipped',
        );
        return;
      }
      if (current === null || current.handle !== handle) {
        flush(emit);
        current = {
          handle,
          firstRow: row.row,
          name: null,
          description: null,
          brand: null,
          categoryPath: null,
          tags: [],
          optionNames: [null, null, null],
          variants: [],
          images: [],
        };
      }
      const product = current;
      product.name ??= cells.text(row, NAME);
      product.description ??= cells.description(row, DESCRIPTION);
      product.brand ??= cells.text(row, BRAND);
      product.categoryPath ??= cells.categoryPath(row, CATEGORY);
      if (product.tags.length === 0) product.tags = cells.tags(row, TAGS);
      OPTION_NAMES.forEach((columns, i) => {
        product.optionNames[i] ??= cells.text(row, columns);
      });
      const variant = variantOf(row, product);
      if (variant !== null) product.variants.push(variant);
      const position = Number(cells.text(row, POSITION));
      for (const image of cells.images(row, IMAGE)) {
        product.images.push({
          image,
          position: Number.isFinite(position) && position > 0 ? position : 1e9,
          order: product.images.length,
        });
      }
    },
    end(emit) {
      flush(emit);
    },
  };
};

export const shopifyProfile: Profile = {
  name: 'shopify',
  matches: (headers) => signatureFits(SHOPIFY_HEADERS, headers),
  open,
};
