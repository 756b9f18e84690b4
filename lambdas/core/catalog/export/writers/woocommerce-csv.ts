import { markLikeWooCommerce } from '../../formula-text';
import type { ExportWriter } from '../formats-types';
import { RETAIL_JOBS } from '../formats-types';
import { priceIn, tableExport } from '../tabular';
import { textToHtml } from '../text';
import { counted } from '../warnings';

/**
 * WooCommerce's product CSV as its importer takes it (github.com/woocommerce/woocommerce wiki "Product CSV
 * Import Schema"): an item sold in one form is a `simple` product; one with variants is a `variable`
 * product row followed by a `variation` row per variant naming it in `Parent` (by the parent's SKU, since
 * an `ID` would overwrite whatever product has that id in the store), with `Attribute N name` /
 * `Attribute N value(s)` (custom attributes, not global ones, so no store taxonomy is needed). Lists are
 * comma-separated with `\,` for a comma inside a value, categories are `A > B` paths. WooCommerce has no
 * file size limit of its own (the site's upload limit applies, shown on its import page), so the file is
 * not split.
 */
const TARGET = 'a WooCommerce product CSV';

const ATTRIBUTES = [1, 2, 3] as const;
const HEADER = [
  'Type',
  'SKU',
  'GTIN, UPC, EAN, or ISBN',
  'Name',
  'Published',
  'Description',
  'Regular price',
  'Categories',
  'Tags',
  'Images',
  'Parent',
  'Brands',
  ...ATTRIBUTES.flatMap((n) => [
    `Attribute ${n} name`,
    `Attribute ${n} value(s)`,
    `Attribute ${n} visible`,
    `Attribute ${n} global`,
  ]),
];
const ATTRIBUTE_AT = 12;

/** A value inside a WooCommerce list: its commas escaped. */
const listValue = (value: string): string => value.replaceAll(',', '\\,');

export const woocommerceCsv: ExportWriter = {
  contentType: 'text/csv',
  fileName: 'products.csv',
  jobTypes: RETAIL_JOBS,
  write: tableExport({
    target: TARGET,
    needs: { handles: true, skus: true },
    carries: new Set(['description', 'brand', 'tags', 'images', 'variant_images', 'sku', 'gtin', 'category']),
    header: HEADER,
    bom: true,
    // Its importer takes an apostrophe before =, +, - or @ off (formula-text.ts): the file may be opened safely.
    markFormulas: markLikeWooCommerce,
    rowsFor: ({ run, index }) => {
      const { currency } = index.head;
      const w = run.warnings;
      const parentSkus = new Set<string>();
      return ({ item, handle, categoryPath, optionNames, variants }) => {
        const blank = () => new Array<string>(HEADER.length).fill('');
        const product = blank();
        product[3] = item.name;
        product[4] = '1';
        product[5] = item.description === null ? '' : textToHtml(item.description);
        product[7] = categoryPath
          .map((name) => {
            if (!name.includes('>')) return listValue(name);
            w.add(
              'changed',
              'category',
              (n) =>
                `${counted(n, 'category name')} had a '>', which separates WooCommerce's category levels; written with '-'`,
            );
            return listValue(name.replaceAll('>', '-'));
          })
          .join(' > ');
        product[8] = item.tags.map(listValue).join(', ');
        product[9] = item.images.map((i) => i.url.replaceAll(',', '%2C')).join(', ');
        product[11] = item.brand === null ? '' : listValue(item.brand);
        const pricing = (variant: (typeof variants)[number]['variant']) => {
          if (variant.pricing === 'variable')
            w.add(
              'not_carried',
              'variants.pricing',
              (n) =>
                `${counted(n, 'variant')} had a market price, which WooCommerce has no place for: written without a price`,
            );
          return priceIn(variant, currency) ?? '';
        };
        const [only] = variants;
        if (optionNames.length === 0 && only !== undefined) {
          product[0] = 'simple';
          product[1] = only.variant.sku ?? '';
          product[2] = only.variant.gtin ?? '';
          product[6] = pricing(only.variant);
          return [product];
        }
        let parentSku = handle;
        while (index.hasSku(parentSku) || parentSkus.has(parentSku.toLowerCase()))
          parentSku = `${parentSku}-parent`;
        parentSkus.add(parentSku.toLowerCase());
        product[0] = 'variable';
        product[1] = parentSku;
        optionNames.forEach((name, n) => {
          const at = ATTRIBUTE_AT + 4 * n;
          product[at] = name;
          product[at + 1] = [...new Set(variants.map((v) => v.optionValues[n] ?? ''))]
            .map(listValue)
            .join(', ');
          product[at + 2] = '1';
          product[at + 3] = '0';
        });
        return [
          product,
          ...variants.map((row) => {
            const line = blank();
            line[0] = 'variation';
            line[1] = row.variant.sku ?? '';
            line[2] = row.variant.gtin ?? '';
            line[3] = `${item.name} - ${row.optionValues.join(', ')}`;
            line[4] = '1';
            line[6] = pricing(row.variant);
            line[9] = row.variant.images[0]?.url.replaceAll(',', '%2C') ?? '';
            if (row.variant.images.length > 1)
              w.add(
                'not_carried',
                'variants.images',
                (n) =>
                  `${counted(n, 'variant image')} beyond each variation's first were left out: WooCommerce keeps one image per variation`,
                row.variant.images.length - 1,
              );
            line[10] = parentSku;
            optionNames.forEach((name, n) => {
              line[ATTRIBUTE_AT + 4 * n] = name;
              line[ATTRIBUTE_AT + 4 * n + 1] = row.optionValues[n] ?? '';
              line[ATTRIBUTE_AT + 4 * n + 3] = '0';
            });
            return line;
          }),
        ];
      };
    },
  }),
};
