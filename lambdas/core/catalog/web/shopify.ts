import type { DraftImage, DraftItem, DraftVariant } from '../draft';
import { absoluteUrl } from './html';
import { asArray, asId, asObject, asObjects, asText, type JsonObject } from './json-fields';
import { cleanDescription, cleanText } from './text';
import type { WebExtraction, WebWarning } from './types';
import { readDimension, readGtin, readPrice, uniqueImages } from './values';

/**
 * A Shopify store's public catalog, `/products.json` (and `/collections/{handle}/products.json`), page by
 * page: `{ "products": [{ id, title, handle, body_html, vendor, product_type, tags, variants: [{ id, title,
 * option1..3, sku, price: "19.99", barcode? }], images: [{ src, width, height, variant_ids }], options:
 * [{ name, values }] }] }`. Prices are decimal strings in the store's currency (which the endpoint does not
 * name: the caller finds it on the store's pages). `barcode` is present only on some stores.
 */

/** Products per page: the endpoint's maximum. */
export const SHOPIFY_PAGE_SIZE = 250;

/** The products of one `/products.json` page, or undefined when the body is not that endpoint's answer. */
export const shopifyProductsOf = (body: unknown): JsonObject[] | undefined => {
  const products = asObject(body)?.products;
  return Array.isArray(products) ? asObjects(products) : undefined;
};

const DEFAULT_TITLE = 'Default Title';

const tagsOf = (value: unknown): string[] => {
  const list =
    typeof value === 'string'
      ? value.split(',')
      : asArray(value).filter((t): t is string => typeof t === 'string');
  return [...new Set(list.map((t) => cleanText(t)).filter((t) => t !== ''))];
};

const imageOf = (value: unknown, storeUrl: string): DraftImage | undefined => {
  const object = asObject(value);
  const url = absoluteUrl(object ? asText(object.src) : asText(value), storeUrl);
  if (!url) return undefined;
  return { url, width: readDimension(object?.width), height: readDimension(object?.height) };
};

const optionNamesOf = (product: JsonObject): string[] =>
  asArray(product.options)
    .map((o) => (typeof o === 'string' ? o : asText(asObject(o)?.name)))
    .map((n) => (n ? cleanText(n) : ''))
    .filter((n) => n !== '');

const variantOf = (
  variant: JsonObject,
  optionNames: readonly string[],
  single: boolean,
  images: readonly { image: DraftImage; variantIds: readonly string[] }[],
  name: string,
  store: { readonly currency: string; readonly storeUrl: string },
  warnings: WebWarning[],
): DraftVariant => {
  const options: Record<string, string> = {};
  optionNames.forEach((optionName, index) => {
    const value = asText(variant[`option${index + 1}`]);
    if (value !== null && !(single && value === DEFAULT_TITLE)) options[optionName] = cleanText(value);
  });
  const title = asText(variant.title);
  const raw = variant.price;
  let price: DraftVariant['price'] = null;
  let pricing: DraftVariant['pricing'] = 'fixed';
  if (typeof raw === 'string' || typeof raw === 'number') {
    const read = readPrice(raw, store.currency);
    if (read.ok) ({ price, pricing } = read);
    else
      warnings.push({
        code: read.code,
        message: `${name}: ${read.message}; kept without a price`,
        field: 'price',
      });
  }
  let gtin: string | null = null;
  const barcode = asText(variant.barcode);
  if (barcode !== null) {
    const read = readGtin(barcode);
    if (read.ok) gtin = read.value;
    else
      warnings.push({
        code: read.code,
        message: `${name}: barcode ${read.message}; kept without it`,
        field: 'barcode',
      });
  }
  const id = asId(variant.id);
  const featured = imageOf(variant.featured_image, store.storeUrl);
  return {
    name: single || title === null || title === DEFAULT_TITLE ? null : cleanText(title),
    options,
    price,
    pricing,
    sku: asText(variant.sku),
    gtin,
    images: uniqueImages([
      ...images.filter((i) => id !== null && i.variantIds.includes(id)).map((i) => i.image),
      ...(featured ? [featured] : []),
    ]),
  };
};

/**
 * One page of Shopify products as catalog items: the product type is the category, the vendor the brand,
 * tags (a list, or a comma-separated string) the tags; each variant keeps its options, price (decimal
 * string → minor units of `currency`), SKU, barcode (when the store publishes it and it is a valid GTIN)
 * and the images linked to it. A product with the single "Default Title" variant is sold in one form.
 */
export const mapShopifyProducts = (
  products: readonly JsonObject[],
  options: { readonly currency: string; readonly storeUrl: string },
): WebExtraction => {
  const items: DraftItem[] = [];
  const warnings: WebWarning[] = [];
  for (const product of products) {
    const title = asText(product.title);
    const name = title === null ? '' : cleanText(title);
    if (name === '') {
      warnings.push({
        code: 'missing_name',
        message: `product ${asId(product.id) ?? '?'} has no title and was skipped`,
        field: 'title',
      });
      continue;
    }
    const variants = asObjects(product.variants);
    const single = variants.length <= 1;
    const optionNames = single ? [] : optionNamesOf(product);
    const images = asArray(product.images)
      .map((value) => ({
        image: imageOf(value, options.storeUrl),
        variantIds: asArray(asObject(value)?.variant_ids)
          .map(asId)
          .filter((v): v is string => v !== null),
      }))
      .filter((i): i is { image: DraftImage; variantIds: string[] } => i.image !== undefined);
    const read = (variants.length > 0 ? variants : [{}]).map((v) =>
      variantOf(v, optionNames, single, images, name, options, warnings),
    );
    const productType = asText(product.product_type);
    items.push({
      kind: 'item',
      categoryPath: productType ? [cleanText(productType)] : [],
      name,
      description: cleanDescription(asText(product.body_html)),
      brand: asText(product.vendor) ? cleanText(asText(product.vendor) as string) : null,
      tags: tagsOf(product.tags),
      calories: null,
      images: uniqueImages(images.map((i) => i.image)),
      optionNames,
      variants: read.map((v) => ({ ...v, images: single ? [] : v.images })),
    });
  }
  return { items, warnings };
};

/** Whether a page of products was the last one (fewer than asked for). */
export const isLastShopifyPage = (count: number, pageSize = SHOPIFY_PAGE_SIZE): boolean => count < pageSize;
