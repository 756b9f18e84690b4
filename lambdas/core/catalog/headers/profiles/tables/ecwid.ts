import type { HeaderTable } from '../header-table';

export type EcwidRole =
  | 'type'
  | 'id'
  | 'name'
  | 'sku'
  | 'variationSku'
  | 'price'
  | 'variationPrice'
  | 'gtin'
  | 'variationGtin'
  | 'brand'
  | 'description'
  | 'image_url'
  | 'available'
  | 'optionName'
  | 'optionType'
  | 'optionValue'
  | 'optionMarkup'
  | 'category_1';

/** Ecwid's product CSV (Catalog → Products → Export): the same English keys in every store language. */
export const ECWID_HEADERS: HeaderTable<EcwidRole> = {
  profile: 'ecwid',
  columns: {
    type: { en: ['type'] },
    id: { en: ['product internal id'] },
    name: { en: ['product name'] },
    sku: { en: ['product sku'] },
    variationSku: { en: ['product variation sku'] },
    price: { en: ['product price'] },
    variationPrice: { en: ['product variation price'] },
    gtin: { en: ['product upc'] },
    variationGtin: { en: ['product variation upc'] },
    brand: { en: ['product brand'] },
    description: { en: ['product description'] },
    image_url: { en: ['product media main image url'] },
    available: { en: ['product is available'] },
    optionName: { en: ['product option name'] },
    optionType: { en: ['product option type'] },
    optionValue: { en: ['product option value'] },
    optionMarkup: { en: ['product option markup'] },
    category_1: { en: ['product category 1'] },
  },
  signature: [
    ['type'],
    ['name'],
    ['id', 'image_url', 'variationSku', 'optionName', 'category_1', 'available'],
  ],
  ignored: ['category_1'],
  sources: {
    en: 'support.ecwid.com "Importing products via CSV file" (type, product_internal_id, product_name, …)',
  },
};
