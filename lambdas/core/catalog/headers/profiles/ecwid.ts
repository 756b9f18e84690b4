import type { Price } from '../../document';
import type { DraftImage, DraftVariant } from '../../draft';
import { rowCells } from '../../rows/row-cells';
import type { DraftSink, RowReader, TableContext } from '../../rows/types';
import type { TableRow } from '../../sources/types';
import type { Field } from '../aliases';
import { normaliseHeader } from '../normalise';
import { addChoice, choiceCombinations, type EcwidOption, markedUpPrice } from './ecwid-options';
import { roleNames, signatureFits } from './header-table';
import {
  addImages,
  ownColumnsOnly,
  type ProductRows,
  primaryCategory,
  productDraft,
  splitEscaped,
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
import { ECWID_HEADERS } from './tables/ecwid';

/**
 * Ecwid (Lightspeed E-Series) catalog CSV (Catalog > Products > Export, the catalog format of stores since
 * 2023): a `type` column says what each row is. A `product` row has `product_internal_id` (Ecwid's number),
 * `product_sku`, `product_name`, `product_price`, `product_brand`, `product_upc`, an HTML
 * `product_description`, `product_media_main_image_url` and `product_media_gallery_image_url_N`, and
 * `product_category_N`, each a category path of its own (`Drinks/Tea`: the product is listed in every
 * one; the deepest is read). `product_option` rows (one per choice: `product_option_name`,
 * `product_option_type`, `product_option_value`, `product_option_markup`) and `product_variation` rows
 * (`product_variation_sku`, its own price, image and UPC, the chosen values in
 * `product_variation_option_{Size}` columns) follow their product, which they name by its internal id or
 * SKU. A product with variation rows is sold in those; one with drop-down, radio or size options but no
 * variations in every combination, its price plus the choices' markups. `product_is_available` false (a
 * product disabled in the store) is not an item. Compare-to price, cost, stock, weight, tax, shipping, SEO
 * and ribbon columns are Ecwid's own.
 */

const TABLE = roleNames(ECWID_HEADERS);

type Role = keyof typeof TABLE;

const CATEGORY = /^product category (\d+)$/;
const GALLERY = /^product media gallery image url (\d+)$/;
/** `product_variation_option_{Size}` (as Ecwid writes it) or `product_variation_option_Size`. */
const VARIATION_OPTION = /^\s*product_variation_option_\{?(.+?)\}?\s*$/i;

interface Product extends ProductRows {
  readonly id: string | null;
  readonly sku: string | null;
  readonly gtin: string | null;
  readonly price: Price | null;
  readonly disabled: boolean;
  readonly options: EcwidOption[];
}

const open = (headers: readonly string[], ctx: TableContext): RowReader => {
  const map = profileColumns(headers, TABLE, { skip: ownColumnsOnly(TABLE) });
  const cells = rowCells(headers, ctx);
  const col = (role: Role | Field): readonly number[] => map.fields.get(role) ?? [];
  const columns = columnFields(map);
  const categories: { n: number; index: number }[] = [];
  const gallery: { n: number; index: number }[] = [];
  const variationOptions: { name: string; index: number }[] = [];
  headers.forEach((header, index) => {
    const normalised = normaliseHeader(header);
    const category = CATEGORY.exec(normalised);
    if (category !== null) {
      categories.push({ n: Number(category[1]), index });
      columns.set(index, 'category');
    }
    const image = GALLERY.exec(normalised);
    if (image !== null) {
      gallery.push({ n: Number(image[1]), index });
      columns.set(index, 'image_url');
    }
    const option = VARIATION_OPTION.exec(header);
    if (option?.[1] !== undefined && option[1].trim() !== '') {
      variationOptions.push({ name: option[1].trim(), index });
      columns.set(index, `option_value_${variationOptions.length}`);
    }
  });
  const CATEGORIES = categories.sort((a, b) => a.n - b.n).map((c) => c.index);
  const IMAGES = [...col('image_url'), ...gallery.sort((a, b) => a.n - b.n).map((g) => g.index)];
  const label = (role: Role, fallback: string) => {
    const index = col(role)[0];
    return index === undefined ? fallback : cells.label(index);
  };

  const products: Product[] = [];
  const byId = new Map<string, Product>();
  const bySku = new Map<string, Product>();
  let current: Product | null = null;

  const imagesOf = (row: TableRow, columns: readonly number[]): DraftImage[] =>
    columns.flatMap((index) => cells.images(row, [index]));

  const categoryOf = (row: TableRow): string[] | null =>
    primaryCategory(
      CATEGORIES.map((index) => splitEscaped(cells.text(row, [index]) ?? '', '/')).filter(
        (p) => p.length > 0,
      ),
    );

  const startFrom = (row: TableRow): Product => {
    const id = cells.text(row, col('id'));
    const sku = cells.text(row, col('sku'));
    const { cell } = cells.priceOf(row, col('price'), ctx.currency);
    const product: Product = {
      ...startProduct(id ?? sku ?? `row ${row.row}`, row.row),
      id,
      sku,
      gtin: cells.gtin(row, col('gtin')),
      price: cell.kind === 'price' ? cell.price : null,
      disabled: /^(?:false|no|0)$/i.test(cells.text(row, col('available')) ?? ''),
      options: [],
    };
    product.name = cells.text(row, col('name'));
    product.description = cells.description(row, col('description'));
    product.brand = cells.text(row, col('brand'));
    product.categoryPath = categoryOf(row);
    addImages(product, imagesOf(row, IMAGES));
    products.push(product);
    if (id !== null) byId.set(id, product);
    if (sku !== null) bySku.set(sku.toLowerCase(), product);
    return product;
  };

  /** The product an option or variation row belongs to: by its internal id, else its SKU, else the one above. */
  const ownerOf = (row: TableRow): Product | null => {
    const id = cells.text(row, col('id'));
    if (id !== null) return byId.get(id) ?? null;
    const sku = cells.text(row, col('sku'));
    if (sku !== null && bySku.has(sku.toLowerCase())) return bySku.get(sku.toLowerCase()) ?? null;
    return current;
  };

  const warnMarkups = (row: number, invalid: readonly string[]) => {
    for (const markup of invalid)
      ctx.warn(
        row,
        label('optionMarkup', 'product_option_markup'),
        'invalid_price',
        `${JSON.stringify(markup)} is not a markup; the price is the product's`,
      );
  };

  const addOption = (row: TableRow, product: Product) => {
    const name = cells.text(row, col('optionName'));
    if (name === null) return;
    const value = cells.text(row, col('optionValue'));
    addChoice(
      product.options,
      name,
      cells.text(row, col('optionType')),
      value === null ? null : { value, markup: cells.text(row, col('optionMarkup')) },
    );
  };

  const addVariation = (row: TableRow, product: Product) => {
    const options: Record<string, string> = {};
    for (const { name, index } of variationOptions) {
      const value = cells.text(row, [index]);
      if (value !== null) options[name] = value;
    }
    const own = cells.priceOf(row, [...col('variationPrice'), ...col('price')], ctx.currency).cell;
    let price: Price | null;
    if (own.kind === 'price') price = own.price;
    else {
      const marked = markedUpPrice(product.price, product.options, options);
      warnMarkups(row.row, marked.invalid);
      price = marked.price;
    }
    // A variation row may repeat its product's SKU and UPC: those are the product's, not the variation's.
    const sku = cells.text(row, [...col('variationSku'), ...col('sku')]);
    const gtin = cells.gtin(row, [...col('variationGtin'), ...col('gtin')]);
    product.variants.push({
      name: optionsName(options),
      options,
      sku: sku === product.sku ? null : sku,
      gtin: gtin === product.gtin ? null : gtin,
      price,
      pricing: own.kind === 'variable' ? 'variable' : 'fixed',
      images: imagesOf(row, IMAGES),
    });
  };

  /** Without variation rows: one variant, or one per combination of the choice options' values. */
  const ownVariants = (product: Product, row: number): DraftVariant[] => {
    const combinations = choiceCombinations(product.options);
    if (combinations.length === 0)
      return [
        {
          name: null,
          options: {},
          sku: product.sku,
          gtin: product.gtin,
          price: product.price,
          pricing: 'fixed',
        },
      ];
    return combinations.map((options) => {
      const marked = markedUpPrice(product.price, product.options, options);
      warnMarkups(row, marked.invalid);
      return {
        name: optionsName(options),
        options,
        sku: null,
        gtin: null,
        price: marked.price,
        pricing: 'fixed',
      };
    });
  };

  const emitProduct = (product: Product, emit: DraftSink) => {
    if (product.disabled) {
      ctx.warn(
        product.firstRow,
        label('available', 'product_is_available'),
        'not_an_item',
        `${JSON.stringify(product.name ?? product.key)} is disabled in the store; skipped`,
      );
      return;
    }
    if (product.variants.length === 0) product.variants.push(...ownVariants(product, product.firstRow));
    const draft = productDraft(product, ctx);
    if (
      skippedNameless(
        draft,
        ctx,
        product.firstRow,
        label('name', 'product_name'),
        'the product has no name; skipped',
      )
    )
      return;
    emit(draft);
  };

  return {
    profile: 'ecwid',
    columns,
    provides: providedFields(map),
    row(row) {
      const type = (cells.text(row, col('type')) ?? 'product').toLowerCase();
      if (type === 'product') {
        current = startFrom(row);
        return;
      }
      if (type !== 'product_option' && type !== 'product_variation') {
        ctx.warn(
          row.row,
          label('type', 'type'),
          'not_an_item',
          `a ${JSON.stringify(type)} row is not a product; skipped`,
        );
        return;
      }
      const owner = ownerOf(row);
      if (owner === null) {
        ctx.warn(
          row.row,
          label('id', 'product_internal_id'),
          'orphan_variant',
          `a ${type} row of a product not read above; skipped`,
        );
        return;
      }
      if (type === 'product_option') addOption(row, owner);
      else addVariation(row, owner);
    },
    end(emit) {
      for (const product of products) emitProduct(product, emit);
    },
  };
};

export const ecwidProfile: Profile = {
  name: 'ecwid',
  // `type` and `product_name` with a column only Ecwid's catalog format writes.
  matches: (headers) => signatureFits(ECWID_HEADERS, headers),
  open,
};
