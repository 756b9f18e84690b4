import type { HeaderTable } from '../header-table';

export type ShopifyRole =
  | 'handle'
  | 'name'
  | 'description'
  | 'brand'
  | 'category'
  | 'tags'
  | 'option_name_1'
  | 'option_value_1'
  | 'option_name_2'
  | 'option_value_2'
  | 'option_name_3'
  | 'option_value_3'
  | 'sku'
  | 'price'
  | 'gtin'
  | 'image_url'
  | 'image_position'
  | 'variant_image';

/**
 * Shopify's product CSV, both header generations: the classic one (`Handle`, `Variant SKU`) and 2025's
 * (`URL handle`, `SKU`). Shopify writes the header in English whatever the admin's language (its
 * "Product CSV file format" page lists the columns once, untranslated, in every locale of the help center).
 */
export const SHOPIFY_HEADERS: HeaderTable<ShopifyRole> = {
  profile: 'shopify',
  columns: {
    handle: { en: ['handle', 'url handle'] },
    name: { en: ['title'] },
    description: { en: ['body (html)', 'body html', 'description', 'body'] },
    brand: { en: ['vendor'] },
    category: { en: ['product category', 'type', 'product type'] },
    tags: { en: ['tags'] },
    option_name_1: { en: ['option1 name'] },
    option_value_1: { en: ['option1 value'] },
    option_name_2: { en: ['option2 name'] },
    option_value_2: { en: ['option2 value'] },
    option_name_3: { en: ['option3 name'] },
    option_value_3: { en: ['option3 value'] },
    sku: { en: ['variant sku', 'sku'] },
    price: { en: ['variant price', 'price'] },
    gtin: { en: ['variant barcode', 'barcode'] },
    image_url: { en: ['image src', 'product image url'] },
    image_position: { en: ['image position'] },
    variant_image: { en: ['variant image', 'variant image url'] },
  },
  signature: [['handle'], ['name'], ['price', 'option_name_1', 'sku']],
  // A plain `SKU` column is every spreadsheet's: only the classic `Variant SKU` is Shopify's sign.
  signatureNames: { sku: ['variant sku'] },
  sources: { en: 'help.shopify.com, "Product CSV file format" (both header generations)' },
};
