import type { HeaderTable } from '../header-table';

export type SquareRole =
  | 'name'
  | 'variant'
  | 'sku'
  | 'gtin'
  | 'description'
  | 'category'
  | 'price'
  | 'option_name_1'
  | 'option_value_1'
  | 'option_name_2'
  | 'option_value_2'
  | 'option_name_3'
  | 'option_value_3';

/**
 * Square's item library export (Items → Actions → Export library): the header follows the Dashboard's
 * language (Square's item-import spreadsheet glossary, per locale, names each field).
 */
export const SQUARE_HEADERS: HeaderTable<SquareRole> = {
  profile: 'square',
  columns: {
    name: { en: ['item name'], ca: ['nom de l’article'] },
    variant: { en: ['variation name'], ca: ['nom de la variant'] },
    sku: { en: ['sku'], ca: ['sku'] },
    gtin: { en: ['gtin', 'upc', 'barcode'] },
    description: { en: ['description', 'item description'], ca: ['descripció'] },
    category: { en: ['categories', 'category', 'reporting category'], ca: ['categoria'] },
    price: { en: ['price'] },
    option_name_1: { en: ['option name 1'] },
    option_value_1: { en: ['option value 1'] },
    option_name_2: { en: ['option name 2'] },
    option_value_2: { en: ['option value 2'] },
    option_name_3: { en: ['option name 3'] },
    option_value_3: { en: ['option value 3'] },
  },
  signature: [['name'], ['variant']],
  sources: {
    en: 'squareup.com/help "Item import spreadsheet glossary" and the export itself (Token, Item Name, Variation Name, SKU, Description, Category, Price, Option Name N / Option Value N)',
    ca: 'squareup.com/help/es/ca/article/8211 "Glossari del full de càlcul per importar articles": Nom de l’article, Nom de la variant, SKU, Descripció, Categoria',
  },
};
