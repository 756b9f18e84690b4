import type { HeaderTable } from '../header-table';

export type MagentoRole =
  | 'sku'
  | 'store_view'
  | 'product_type'
  | 'name'
  | 'description'
  | 'category'
  | 'price'
  | 'online'
  | 'image_url'
  | 'brand'
  | 'gtin'
  | 'attributes'
  | 'variations'
  | 'variation_labels'
  | 'attribute_set'
  | 'websites';

/** Magento 2's catalog product export (System → Data Transfer → Export): the attribute codes, never translated. */
export const MAGENTO_HEADERS: HeaderTable<MagentoRole> = {
  profile: 'magento',
  columns: {
    sku: { en: ['sku'] },
    store_view: { en: ['store view code'] },
    product_type: { en: ['product type'] },
    name: { en: ['name'] },
    description: { en: ['description', 'short description'] },
    category: { en: ['categories'] },
    price: { en: ['price'] },
    online: { en: ['product online'] },
    image_url: { en: ['base image', 'additional images'] },
    brand: { en: ['brand', 'manufacturer'] },
    gtin: { en: ['gtin', 'ean', 'upc', 'barcode'] },
    attributes: { en: ['additional attributes'] },
    variations: { en: ['configurable variations'] },
    variation_labels: { en: ['configurable variation labels'] },
    attribute_set: { en: ['attribute set code'] },
    websites: { en: ['product websites'] },
  },
  signature: [['sku'], ['store_view'], ['product_type'], ['attribute_set', 'websites', 'variations']],
  ignored: ['attribute_set', 'websites'],
  sources: {
    en: 'Adobe Commerce docs, "Product attributes" of the import/export CSV (sku, store_view_code, attribute_set_code, product_type, …)',
  },
};
