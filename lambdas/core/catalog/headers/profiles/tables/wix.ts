import type { HeaderTable } from '../header-table';

export type WixRole =
  | 'handle'
  | 'field_type'
  | 'name'
  | 'description'
  | 'image_url'
  | 'category'
  | 'sku'
  | 'gtin'
  | 'price'
  | 'surcharge'
  | 'visible'
  | 'brand';

/** Wix Stores' product CSV (Catalog → Products → Export): English headers whatever the site's language. */
export const WIX_HEADERS: HeaderTable<WixRole> = {
  profile: 'wix',
  columns: {
    handle: { en: ['handleid', 'handle'] },
    field_type: { en: ['fieldtype'] },
    name: { en: ['name'] },
    description: { en: ['description', 'plaindescription'] },
    image_url: { en: ['productimageurl', 'media'] },
    category: { en: ['collection'] },
    sku: { en: ['sku'] },
    gtin: { en: ['barcode'] },
    price: { en: ['price'] },
    surcharge: { en: ['surcharge'] },
    visible: { en: ['visible'] },
    brand: { en: ['brand'] },
  },
  signature: [['handle'], ['field_type'], ['name']],
  sources: {
    en: 'support.wix.com "Wix Stores: Importing and Exporting Products" (handleId, fieldType, name, …)',
  },
};
