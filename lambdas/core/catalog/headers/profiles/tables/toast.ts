import type { HeaderTable } from '../header-table';

export type ToastRole =
  | 'menu'
  | 'group'
  | 'subgroup'
  | 'name'
  | 'price'
  | 'sku'
  | 'tags'
  | 'master_id'
  | 'item_id';

/** Toast's "All items" data export (doc.toasttab.com, "Data export field reference"): English only. */
export const TOAST_HEADERS: HeaderTable<ToastRole> = {
  profile: 'toast',
  columns: {
    menu: { en: ['menu name', 'menu'] },
    group: { en: ['menu group'] },
    subgroup: { en: ['subgroup', 'menu subgroup'] },
    name: { en: ['menu item', 'menu item name'] },
    // A list price, where a report has one, before the average.
    price: { en: ['price', 'base price', 'menu price', 'avg price', 'average price'] },
    sku: { en: ['sku', 'plu'] },
    tags: { en: ['tags'] },
    master_id: { en: ['master id'] },
    item_id: { en: ['item id'] },
  },
  signature: [['name'], ['group'], ['price', 'master_id', 'item_id', 'menu']],
  // The export's own names: another sheet's `Menu`, `Price` or `Menu Item Name` is no sign of Toast.
  signatureNames: { name: ['menu item'], price: ['avg price'], menu: ['menu name'] },
  ignored: ['master_id', 'item_id'],
  sources: { en: 'doc.toasttab.com, "Data export field reference" (AllItemsReport.csv)' },
};
