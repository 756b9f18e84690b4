import type { HeaderTable } from '../header-table';

export type LightspeedRole =
  | 'handle'
  | 'name'
  | 'description'
  | 'category'
  | 'tags'
  | 'sku'
  | 'gtin'
  | 'price'
  | 'brand'
  | 'composite'
  | 'option_one_name'
  | 'supply_price';

/**
 * Lightspeed Retail X-Series' (formerly Vend's) product export, profile `lightspeed`; the R-Series item
 * export is tables/lightspeed-retail.ts. Its header is the same field keys in every account (`handle`,
 * `variant_option_one_name`, `retail_price`, …): English only. The option columns are numbered
 * (lightspeed.ts reads them by pattern); `option_one_name` stands for the first here.
 */
export const LIGHTSPEED_HEADERS: HeaderTable<LightspeedRole> = {
  profile: 'lightspeed',
  columns: {
    handle: { en: ['handle'] },
    name: { en: ['name'] },
    description: { en: ['description'] },
    category: { en: ['product category', 'type'] },
    tags: { en: ['tags'] },
    sku: { en: ['sku'] },
    gtin: { en: ['barcode', 'upc', 'ean'] },
    price: { en: ['retail price', 'price'] },
    brand: { en: ['brand name', 'brand'] },
    composite: { en: ['composite handle', 'composite name', 'composite sku', 'composite quantity'] },
    option_one_name: { en: ['variant option one name'] },
    supply_price: { en: ['supply price'] },
  },
  // `handle` and `name` with the first option's name, or with both `retail_price` and `supply_price`:
  // handle ∧ name ∧ (option ∨ (retail ∧ supply)), written as groups.
  signature: [['handle'], ['name'], ['option_one_name', 'price'], ['option_one_name', 'supply_price']],
  // A plain `Price` beside a handle is any spreadsheet's: only `retail_price` is Lightspeed's.
  signatureNames: { price: ['retail price'] },
  ignored: ['option_one_name', 'supply_price'],
  sources: {
    en: 'the X-Series (Vend) product export and import template as lightspeed.ts has always read them (id, handle, sku, composite_*, name, description, product_category or type, variant_option_one_name …, tags, supply_price, retail_price, brand_name); support.vendhq.com "Setting up your product catalog" describes the fields (Name, SKU, Handle, Supply Price, Retail Price); no translated export found',
  },
};
