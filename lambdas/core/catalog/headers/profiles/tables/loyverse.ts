import type { HeaderTable } from '../header-table';

export type LoyverseRole =
  | 'handle'
  | 'sku'
  | 'name'
  | 'category'
  | 'description'
  | 'sold_by_weight'
  | 'option_name_1'
  | 'option_value_1'
  | 'option_name_2'
  | 'option_value_2'
  | 'option_name_3'
  | 'option_value_3'
  | 'price'
  | 'gtin'
  | 'component_sku'
  | 'component_quantity';

/**
 * Loyverse's items export (Back Office → Items → Export): the header follows the Back Office user's
 * interface language. Per-store columns (`Precio [Store]`) are loyverse-stores.ts's.
 */
export const LOYVERSE_HEADERS: HeaderTable<LoyverseRole> = {
  profile: 'loyverse',
  columns: {
    handle: { en: ['handle'], es: ['handle'], pt: ['handle'], fr: ['handle'] },
    sku: { en: ['sku'], es: ['ref'], pt: ['ref'], fr: ['ref'] },
    name: { en: ['name'], es: ['nombre'], pt: ['nome'], fr: ['nom'] },
    category: { en: ['category'], es: ['categoría', 'categoria'], pt: ['categoria'], fr: ['catégorie'] },
    description: { en: ['description'], es: ['descripción'], pt: ['descrição'], fr: ['description'] },
    sold_by_weight: {
      en: ['sold by weight'],
      es: ['vendido por peso'],
      pt: ['vendido por peso'],
      fr: ['vendu au poids'],
    },
    option_name_1: {
      en: ['option 1 name'],
      es: ['opción 1 nombre'],
      pt: ['opção 1 nome'],
      fr: ['option 1 nom'],
    },
    option_value_1: {
      en: ['option 1 value'],
      es: ['opción 1 valor'],
      pt: ['opção 1 valor'],
      fr: ['option 1 valeur'],
    },
    option_name_2: {
      en: ['option 2 name'],
      es: ['opción 2 nombre'],
      pt: ['opção 2 nome'],
      fr: ['option 2 nom'],
    },
    option_value_2: {
      en: ['option 2 value'],
      es: ['opción 2 valor'],
      pt: ['opção 2 valor'],
      fr: ['option 2 valeur'],
    },
    option_name_3: {
      en: ['option 3 name'],
      es: ['opción 3 nombre'],
      pt: ['opção 3 nome'],
      fr: ['option 3 nom'],
    },
    option_value_3: {
      en: ['option 3 value'],
      es: ['opción 3 valor'],
      pt: ['opção 3 valor'],
      fr: ['option 3 valeur'],
    },
    price: {
      en: ['default price', 'price'],
      es: ['precio predeterminado', 'precio'],
      pt: ['preço padrão', 'preço'],
      fr: ['prix par défaut', 'prix'],
    },
    gtin: {
      en: ['barcode'],
      es: ['código de barras'],
      pt: ['código de barras'],
      fr: ['code barre', 'code barres', 'code à barres'],
    },
    component_sku: {
      en: ['sku of included item'],
      es: ['ref del componente'],
      pt: ['ref do componente'],
      fr: ['ref du composant'],
    },
    component_quantity: {
      en: ['quantity of included item'],
      es: ['cantidad del componente'],
      pt: ['quantidade do componente'],
      fr: ['quantité du composant'],
    },
  },
  signature: [['handle'], ['name'], ['sold_by_weight', 'component_sku', 'component_quantity']],
  sources: {
    en: 'help.loyverse.com, "Exporting and Importing Items"',
    es: 'real Loyverse exports of Spanish and Catalan stores in public repositories (Handle, REF, Nombre, Categoria, Descripción, Vendido por peso, Opción N nombre/valor, Codigo de barras, REF del componente, Cantidad del componente, Precio [store]); a Catalan store exports with the Spanish interface (no Catalan header seen)',
  },
  unconfirmed: [
    'nome',
    'descrição',
    'opção 1 nome',
    'opção 1 valor',
    'preço padrão',
    'preço',
    'ref do componente',
    'quantidade do componente',
    'nom',
    'catégorie',
    'vendu au poids',
    'option 1 nom',
    'option 1 valeur',
    'prix par défaut',
    'prix',
    'code barre',
    'code barres',
    'code à barres',
    'ref du composant',
    'quantité du composant',
  ],
};
