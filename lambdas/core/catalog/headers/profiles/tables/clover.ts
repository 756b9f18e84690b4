import type { HeaderTable } from '../header-table';

export type CloverRole =
  | 'name'
  | 'price'
  | 'price_type'
  | 'price_unit'
  | 'sku'
  | 'gtin'
  | 'modifier_group'
  | 'category'
  | 'description'
  | 'clover_id'
  | 'alternate_name'
  | 'non_revenue_item'
  | 'printer_labels';

/**
 * The `Items` sheet of Clover's inventory workbook (Web Dashboard → Inventory → Items → Export), or a CSV
 * saved from it: English only. The workbook's other sheets (Categories, Modifier Groups) are read by
 * clover-sheets.ts.
 */
export const CLOVER_HEADERS: HeaderTable<CloverRole> = {
  profile: 'clover',
  columns: {
    name: { en: ['name'] },
    price: { en: ['price'] },
    price_type: { en: ['price type'] },
    price_unit: { en: ['price unit'] },
    sku: { en: ['sku'] },
    gtin: { en: ['product code', 'upc', 'barcode'] },
    modifier_group: { en: ['modifier groups', 'modifier group'] },
    category: { en: ['categories', 'category'] },
    description: { en: ['description'] },
    clover_id: { en: ['clover id'] },
    alternate_name: { en: ['alternate name'] },
    non_revenue_item: { en: ['non revenue item'] },
    printer_labels: { en: ['printer labels'] },
  },
  // Name, Price and Price Type beside one of the columns only Clover's Items sheet has.
  signature: [
    ['name'],
    ['price'],
    ['price_type'],
    ['clover_id', 'price_unit', 'gtin', 'alternate_name', 'non_revenue_item', 'printer_labels'],
  ],
  // Clover's `Product Code`, not any sheet's `UPC` or `Barcode`.
  signatureNames: { gtin: ['product code'] },
  // Clover's ids, the kitchen name and its flags are Clover's own settings, not catalog columns.
  ignored: ['clover_id', 'alternate_name', 'non_revenue_item', 'printer_labels'],
  sources: {
    en: 'the Items sheet of Clover’s inventory export (Clover ID, Name, Alternate Name, Price, Price Type, Price Unit, Tax Rates, Cost, Product Code, SKU, Modifier Groups, Printer Labels, Non-revenue item), the same header tools writing Clover’s import sheet use; no translated export found in Clover’s help or elsewhere',
  },
};
