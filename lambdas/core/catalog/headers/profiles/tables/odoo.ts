import type { HeaderTable } from '../header-table';

export type OdooRole =
  | 'name'
  | 'template'
  | 'sku'
  | 'gtin'
  | 'price'
  | 'category'
  | 'description'
  | 'tags'
  | 'values';

/**
 * Odoo's product export: with field labels as headers (translated into the exporting user's language:
 * the labels are the `field_description` strings of Odoo's `product` module translations) or,
 * "import-compatible", the technical field names, which are never translated (`default_code`,
 * `list_price`, `categ_id`: kept under `en`).
 */
export const ODOO_HEADERS: HeaderTable<OdooRole> = {
  profile: 'odoo',
  columns: {
    name: { en: ['name'], es: ['nombre'], fr: ['nom'] },
    template: { en: ['product template', 'product tmpl id'], es: ['plantilla de producto'] },
    sku: {
      en: ['internal reference', 'default code'],
      es: ['referencia interna'],
      fr: ['référence interne'],
    },
    gtin: { en: ['barcode'] },
    price: {
      en: ['sales price', 'lst price', 'list price'],
      es: ['precio de venta', 'precios de venta'],
      fr: ['prix de vente'],
    },
    category: { en: ['product category', 'categ id'], es: ['categoría de producto', 'categoría interna'] },
    description: {
      en: ['sales description', 'description sale', 'description'],
      es: ['descripción de venta'],
      fr: ['description vente'],
    },
    tags: { en: ['product tags', 'product template tags', 'product tag ids', 'tags'], fr: ['étiquettes'] },
    values: {
      en: [
        'variant values',
        'attribute values',
        'product template variant value ids',
        'product template attribute value ids',
      ],
    },
  },
  signature: [['name'], ['sku'], ['price', 'category']],
  sources: {
    en: 'Odoo documentation (Inventory → Products → Export) and the field names of product.template',
    fr: 'odoo/odoo addons/product/i18n/fr.po: Name → Nom, Internal Reference → Référence interne, Sales Price → Prix de vente, Sales Description → Description vente, Tags → Étiquettes (Product Category not looked up)',
    es: 'odoo/odoo addons/product/i18n/es.po: Name → Nombre, Internal Reference → Referencia interna, Sales Price → Precios de venta, Sale Price → Precio de venta, Product Category → Categoría de producto, Internal Category → Categoría interna, Sale Description → Descripción de venta, Product Template → Plantilla de producto',
  },
};

/**
 * The root of Odoo's category tree as each language names it (`All / Saleable` → `Saleable`): the
 * `product.product_category_all` record's translations (es.po: All → Todos).
 */
export const ODOO_ROOT_CATEGORY: readonly string[] = ['all', 'todos'];
