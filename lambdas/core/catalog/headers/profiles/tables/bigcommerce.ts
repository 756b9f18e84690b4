import type { HeaderTable } from '../header-table';

export type BigCommerceRole =
  | 'item_type'
  | 'item'
  | 'product_id'
  | 'product_name'
  | 'name'
  | 'sku'
  | 'brand'
  | 'description'
  | 'price'
  | 'category'
  | 'gtin'
  | 'options'
  | 'image_url'
  | 'variant_image'
  | 'inventory_tracking';

/** The legacy export (Bulk Edit template): its row kind, its product name, one of its product ids. */
const LEGACY: readonly (readonly BigCommerceRole[])[] = [
  ['item_type'],
  ['product_name'],
  ['sku', 'product_id'],
];

/** The modern export: its row kind, name and options, and one of its own columns. */
const MODERN: readonly (readonly BigCommerceRole[])[] = [
  ['item'],
  ['name'],
  ['options'],
  ['image_url', 'inventory_tracking', 'variant_image'],
];

/**
 * BigCommerce's product export, both generations: the legacy one (`Item Type`, `Product Name`,
 * `Product Code/SKU`) and the modern one (`Item`, `Name`, `SKU`, `Options`). Each generation's row kind
 * and name column are roles of their own, as the signature tells the generations apart; the profile reads
 * them as one type column and one name column (bigcommerce.ts). English only.
 */
export const BIGCOMMERCE_HEADERS: HeaderTable<BigCommerceRole> = {
  profile: 'bigcommerce',
  columns: {
    item_type: { en: ['item type'] },
    item: { en: ['item'] },
    product_id: { en: ['product id'] },
    product_name: { en: ['product name'] },
    name: { en: ['name'] },
    sku: { en: ['product code sku', 'product sku', 'code', 'sku'] },
    brand: { en: ['brand name', 'brand'] },
    description: { en: ['product description', 'description'] },
    price: { en: ['price'] },
    category: { en: ['category', 'categories', 'category string'] },
    gtin: { en: ['product upc ean', 'upc ean', 'gtin', 'global trade item number'] },
    options: { en: ['options'] },
    // An export writes the image BigCommerce hosts in `Internal Image URL (Export)`; an import file gives
    // `Image URL (Import)`.
    image_url: {
      en: ['image url import', 'internal image url export', 'image url export', 'product image url'],
    },
    variant_image: { en: ['variant image url'] },
    inventory_tracking: { en: ['inventory tracking'] },
  },
  // Either generation's groups all present: every legacy group or every modern one, written as one group
  // per pair of them (A ∧ B ∨ C ∧ D is (A ∨ C) ∧ (A ∨ D) ∧ (B ∨ C) ∧ (B ∨ D)).
  signature: LEGACY.flatMap((legacy) => MODERN.map((modern) => [...legacy, ...modern])),
  // The legacy export's own SKU columns and the import file's image column: a plain `SKU` or an exported
  // image URL is no sign of either generation.
  signatureNames: { sku: ['product code sku', 'product sku'], image_url: ['image url import'] },
  // Whether BigCommerce tracks stock: not a catalog column.
  ignored: ['inventory_tracking'],
  sources: {
    en: 'support.bigcommerce.com, "Importing and Exporting Products (v2)" (legacy: Item Type, Product ID, Product Name, Product Code/SKU, …) and "Supported Product Fields" (modern: Item, ID, Name, SKU, Options, Inventory Tracking, …); no translated export found',
  },
};
