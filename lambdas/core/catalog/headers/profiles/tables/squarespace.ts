import type { HeaderTable } from '../header-table';

export type SquarespaceRole =
  | 'product_id'
  | 'name'
  | 'description'
  | 'sku'
  | 'gtin'
  | 'price'
  | 'category'
  | 'tags'
  | 'image_url'
  | 'variant_id'
  | 'product_type';

/**
 * Squarespace Commerce's product CSV (Products → Export all; the import template has the same columns).
 * `Option Name N` / `Option Value N` are numbered (squarespace.ts reads them by pattern). The `[Non
 * Editable]` columns are Squarespace's own: with `Hosted Image URLs`, they tell its file from another
 * sheet's `Title`.
 */
export const SQUARESPACE_HEADERS: HeaderTable<SquarespaceRole> = {
  profile: 'squarespace',
  columns: {
    product_id: { en: ['product id non editable', 'product id'] },
    name: { en: ['title'] },
    description: { en: ['description'] },
    sku: { en: ['sku'] },
    gtin: { en: ['gtin', 'barcode'] },
    price: { en: ['price'] },
    category: { en: ['categories', 'category'] },
    tags: { en: ['tags'] },
    image_url: { en: ['hosted image urls', 'image urls'] },
    variant_id: { en: ['variant id non editable'] },
    product_type: { en: ['product type non editable'] },
  },
  signature: [['name'], ['product_id', 'variant_id', 'product_type', 'image_url']],
  // The export's own names: a plain `Product ID` or `Image URLs` is any sheet's.
  signatureNames: { product_id: ['product id non editable'], image_url: ['hosted image urls'] },
  ignored: ['variant_id', 'product_type'],
  sources: {
    en: 'support.squarespace.com, "Importing products from a .csv" and "Completing the product import .csv file" (an export and the template share their columns), and real exports read by public code: Product ID [Non Editable], Variant ID [Non Editable], Product Type [Non Editable], Title, Description, SKU, GTIN, Option Name/Value N, Price, Categories, Tags, Hosted Image URLs. English only: Squarespace\'s translated help pages (German "Vervollständigen der CSV-Datei für den Produktimport") keep the file\'s column headers as they are; no source showed a translated one',
  },
};
