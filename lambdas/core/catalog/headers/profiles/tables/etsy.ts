import type { HeaderTable } from '../header-table';

export type EtsyRole =
  | 'name'
  | 'description'
  | 'price'
  | 'currency'
  | 'tags'
  | 'sku'
  | 'quantity'
  | 'materials'
  | 'image_1';

/** The roles Etsy's download has that the profile does not read as columns of their own. */
export const ETSY_IGNORED = ['quantity', 'materials', 'image_1'] as const;

/**
 * Etsy's listings download (Shop Manager → Settings → Options → Download Data): the header follows the
 * seller's Etsy language; `CURRENCY_CODE` and `SKU` stay English. IMAGE1…IMAGE10 and the VARIATION
 * columns are numbered (etsy.ts reads them by pattern); `image_1` stands for the first here.
 */
export const ETSY_HEADERS: HeaderTable<EtsyRole> = {
  profile: 'etsy',
  columns: {
    name: { en: ['title'], it: ['titolo'], es: ['título'], fr: ['titre'], de: ['titel'] },
    description: {
      en: ['description'],
      it: ['descrizione'],
      es: ['descripción'],
      fr: ['description'],
      de: ['beschreibung'],
    },
    price: { en: ['price'], it: ['prezzo'], es: ['precio'], fr: ['prix'], de: ['preis'] },
    currency: { en: ['currency code'] },
    tags: { en: ['tags'], it: ['tag'], es: ['etiquetas'] },
    sku: { en: ['sku'] },
    quantity: { en: ['quantity'], it: ['quantità'], es: ['cantidad'], fr: ['quantité'], de: ['menge'] },
    materials: {
      en: ['materials'],
      it: ['materiali'],
      es: ['materiales'],
      fr: ['matériaux'],
      de: ['materialien'],
    },
    image_1: { en: ['image1'], it: ['immagine1'], es: ['imagen1'], fr: ['photo1'], de: ['bild1'] },
  },
  signature: [['name'], ['price'], ['currency', 'materials', 'quantity']],
  ignored: ETSY_IGNORED,
  sources: {
    en: 'help.etsy.com, "How to Download Your Listing Information" (EtsyListingsDownload.csv: TITLE, DESCRIPTION, PRICE, CURRENCY_CODE, QUANTITY, TAGS, MATERIALS, IMAGE1…, VARIATION 1 TYPE…, SKU)',
    it: 'a real Italian Etsy download in a public repository: TITOLO, DESCRIZIONE, PREZZO, CURRENCY_CODE, QUANTITÀ, TAG, MATERIALI, IMMAGINE1…, TIPO/NOME/VALORI VARIANTE N, SKU',
  },
  unconfirmed: [
    'título',
    'titre',
    'titel',
    'descripción',
    'beschreibung',
    'precio',
    'prix',
    'preis',
    'etiquetas',
    'cantidad',
    'quantité',
    'menge',
    'materiales',
    'matériaux',
    'materialien',
    'imagen1',
    'photo1',
    'bild1',
  ],
};
