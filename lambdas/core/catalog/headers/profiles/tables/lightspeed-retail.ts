import type { HeaderTable } from '../header-table';

export type LightspeedRetailRole =
  | 'name'
  | 'matrix'
  | 'attributeSet'
  | 'sku'
  | 'gtin'
  | 'price'
  | 'brand'
  | 'category'
  | 'tags'
  | 'system_id';

/** Lightspeed Retail (R-Series) item export / import template: English only. */
export const LIGHTSPEED_RETAIL_HEADERS: HeaderTable<LightspeedRetailRole> = {
  profile: 'lightspeed_retail',
  columns: {
    name: { en: ['description', 'item'] },
    matrix: { en: ['matrix description'] },
    attributeSet: { en: ['matrix attribute set'] },
    sku: { en: ['custom sku', 'manufact sku', 'manufacturer sku'] },
    gtin: { en: ['upc', 'ean'] },
    price: { en: ['price', 'default price'] },
    brand: { en: ['brand'] },
    category: { en: ['category'] },
    tags: { en: ['tags'] },
    system_id: { en: ['system id'] },
  },
  signature: [['system_id'], ['sku'], ['name', 'matrix']],
  // The Items list's `Item` column alone is no sign of the export.
  signatureNames: { name: ['description'] },
  ignored: ['system_id'],
  sources: {
    en: 'Lightspeed Retail (R-Series) help, "Importing items" template (System ID, Description, Custom SKU, Manufact. SKU, UPC, EAN, Matrix Description, …)',
  },
};
