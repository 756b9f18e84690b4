import type { ExportWriter } from '../formats-types';
import { ALL_JOBS } from '../formats-types';
import { limited, priceIn, tableExport } from '../tabular';
import { counted } from '../warnings';

/**
 * Square's item library spreadsheet as Items → Import library takes it (squareup.com help "Import items",
 * the export's own columns): one row per variation, the rows of one item next to each other and sharing
 * its `Item Name` (Square groups variations by it, so two items of one name are told apart by their
 * category), `Variation Name` (`Regular` for an item sold in one form), `Price` (`variable` for a market
 * price), `Option Name N` / `Option Value N`. Categories: Square's import takes category names, the
 * deepest of a path is written. Names are cut to the Catalog API's limits (item 512, variation 255
 * characters). Images, modifier sets and tags are set up in Square itself, not by this file.
 */
const TARGET = "Square's item library import";

const HEADER = [
  'Token',
  'Item Name',
  'Variation Name',
  'SKU',
  'Description',
  'Categories',
  'GTIN',
  'Price',
  'Option Name 1',
  'Option Value 1',
  'Option Name 2',
  'Option Value 2',
  'Option Name 3',
  'Option Value 3',
];

export const squareCsv: ExportWriter = {
  contentType: 'text/csv',
  fileName: 'items.csv',
  jobTypes: ALL_JOBS,
  write: tableExport({
    target: TARGET,
    needs: { handles: true },
    carries: new Set(['description', 'sku', 'gtin', 'category']),
    header: HEADER,
    bom: true,
    rowsFor: ({ run, index }) => {
      const { currency } = index.head;
      const w = run.warnings;
      return ({ item, sharesName, categoryPath, optionNames, variants }) => {
        const leaf = categoryPath.at(-1) ?? null;
        if (categoryPath.length > 1)
          w.add(
            'changed',
            'category',
            (n) =>
              `${counted(n, 'item')} in a subcategory were written in its deepest category: Square's import takes one category name`,
          );
        let name = item.name;
        if (sharesName) {
          // Another item has (almost) the same name: Square would make the two one item.
          name = `${item.name} (${leaf ?? item.id.slice(0, 8)})`;
          w.add(
            'changed',
            'name',
            (n) =>
              `${counted(n, 'item')} shared a name with another item; their category was added to the name, since Square groups variations by item name`,
          );
        }
        let category = leaf ?? '';
        if (category.includes(',')) {
          w.add(
            'changed',
            'category',
            (n) =>
              `${counted(n, 'category name')} had a comma, which separates Square's categories; written with a space`,
          );
          category = category.replaceAll(',', ' ');
        }
        const single = variants.length === 1 && optionNames.length === 0;
        return variants.map((row) => {
          const options = optionNames.flatMap((option, n) => [option, row.optionValues[n] ?? '']);
          const price =
            row.variant.pricing === 'variable' && row.variant.price === null
              ? 'variable'
              : (priceIn(row.variant, currency) ?? '');
          return [
            '',
            limited(w, TARGET, 'name', name, 512),
            limited(
              w,
              TARGET,
              'variants.name',
              single ? 'Regular' : (row.label ?? row.optionValues.join(', ')),
              255,
            ),
            row.variant.sku ?? '',
            item.description ?? '',
            category,
            row.variant.gtin ?? '',
            price,
            ...options,
            ...new Array<string>(6 - options.length).fill(''),
          ];
        });
      };
    },
  }),
};
