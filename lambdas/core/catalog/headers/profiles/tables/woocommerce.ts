import type { HeaderTable } from '../header-table';

export type WoocommerceRole =
  | 'id'
  | 'type'
  | 'sku'
  | 'gtin'
  | 'name'
  | 'description'
  | 'price'
  | 'category'
  | 'tags'
  | 'image_url'
  | 'parent'
  | 'brand';

/**
 * WooCommerce's product CSV (Products → Export) writes its header in the site's language: the column
 * names are WooCommerce's translated strings (`Regular price` → `Regulärer Preis`, `Reguliere prijs`).
 */
export const WOOCOMMERCE_HEADERS: HeaderTable<WoocommerceRole> = {
  profile: 'woocommerce',
  columns: {
    id: { en: ['id'] },
    type: { en: ['type'], de: ['typ'], es: ['tipo'], nl: ['type'] },
    sku: { en: ['sku'], de: ['artikelnummer'], fr: ['ugs'], nl: ['sku'] },
    gtin: {
      en: ['gtin upc ean or isbn', 'gtin', 'ean', 'upc', 'barcode'],
      de: ['gtin upc ean oder isbn'],
      fr: ['gtin upc ean ou isbn'],
      es: ['gtin upc ean o isbn'],
    },
    name: { en: ['name'], de: ['name'], fr: ['nom'], es: ['nombre'], nl: ['naam'] },
    description: {
      en: ['description', 'short description'],
      de: ['beschreibung', 'kurzbeschreibung'],
      fr: ['description', 'description courte'],
      es: ['descripción', 'descripción corta'],
      nl: ['beschrijving', 'korte beschrijving'],
    },
    price: {
      en: ['regular price'],
      de: ['regulärer preis'],
      fr: ['tarif régulier'],
      es: ['precio normal'],
      nl: ['reguliere prijs'],
    },
    category: {
      en: ['categories'],
      de: ['kategorien'],
      fr: ['catégories'],
      es: ['categorías'],
      nl: ['categorieën'],
    },
    tags: { en: ['tags'], de: ['schlagwörter'], fr: ['étiquettes'], es: ['etiquetas'], nl: ['tags'] },
    image_url: { en: ['images'], de: ['bilder'], es: ['imágenes'], nl: ['afbeeldingen'] },
    parent: { en: ['parent'], de: ['übergeordnetes produkt'], es: ['superior'] },
    brand: { en: ['brands', 'brand'], de: ['marken'], fr: ['marques'], es: ['marcas'] },
  },
  signature: [['type'], ['name'], ['price', 'parent']],
  sources: {
    en: 'WooCommerce docs, "Product CSV Import Schema" (the exporter writes the same column names)',
    de: 'public code writing German WooCommerce exports: ID, Typ, Artikelnummer, "GTIN, UPC, EAN oder ISBN", Name, Kurzbeschreibung, Beschreibung',
    nl: 'public code reading a Dutch WooCommerce export: Type, SKU, Naam, Reguliere prijs, Categorieën, Afbeeldingen, Beschrijving',
  },
  unconfirmed: [
    'regulärer preis',
    'kategorien',
    'schlagwörter',
    'bilder',
    'übergeordnetes produkt',
    'marken',
    'nom',
    'ugs',
    'description courte',
    'tarif régulier',
    'catégories',
    'étiquettes',
    'marques',
    'gtin upc ean ou isbn',
    'tipo',
    'nombre',
    'descripción',
    'descripción corta',
    'precio normal',
    'categorías',
    'etiquetas',
    'imágenes',
    'superior',
    'marcas',
    'gtin upc ean o isbn',
    'korte beschrijving',
  ],
};
