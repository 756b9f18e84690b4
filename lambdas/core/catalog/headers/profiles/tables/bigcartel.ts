import type { HeaderTable } from '../header-table';

export type BigcartelRole = 'name' | 'description' | 'price' | 'category' | 'option_1' | 'option_1_quantity';

/**
 * Big Cartel's product export (Products → Export): `Option N`, `Option N Quantity`, `Option N Price` and
 * `Image N` are numbered (bigcartel.ts reads them by pattern, and recognises the export by an `Option N`
 * with its `Option N Quantity`, whatever N); `option_1` and `option_1_quantity` stand for the first pair.
 */
export const BIGCARTEL_HEADERS: HeaderTable<BigcartelRole> = {
  profile: 'bigcartel',
  columns: {
    name: { en: ['name', 'product name'] },
    description: { en: ['description'] },
    price: { en: ['price', 'product price'] },
    category: { en: ['category', 'categories'] },
    option_1: { en: ['option 1'] },
    option_1_quantity: { en: ['option 1 quantity'] },
  },
  // With the option pairs (a hook no table says: bigcartel.ts), the export's own Name and Price.
  signature: [['name'], ['price']],
  signatureNames: { name: ['name'], price: ['price'] },
  ignored: ['option_1', 'option_1_quantity'],
  sources: {
    en: "Big Cartel's product export as bigcartel.ts has read it (Name, Description, Price, Category, Option N, Option N Quantity, Option N Price, Image N); help.bigcartel.com, \"Importing products\" (its import template) and its settings pages. English only: Big Cartel's admin has no language setting (a shop chooses its currency, country and time zone; the country only sets the language of PayPal's checkout), and no source showed a translated header",
  },
};
