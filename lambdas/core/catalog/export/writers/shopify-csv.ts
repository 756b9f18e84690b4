import type { ExportWriter } from '../formats-types';
import { RETAIL_JOBS } from '../formats-types';
import { limited, priceIn, tableExport } from '../tabular';
import { textToHtml } from '../text';
import { counted } from '../warnings';

/**
 * Shopify's product CSV as its importer takes it today (help.shopify.com "Using CSV files to import and
 * export products", the 2025 template's header): rows sharing a `URL handle` are one product, the first
 * carrying the product's fields and option names, each variant a row with its option values, SKU, barcode
 * and price, each further image a row of its own with its position. Shopify's limits: 3 options (the
 * catalog never has more), 2,048 variants (it has at most 1,000), titles and option values of 255
 * characters, handles unique, a price on every variant, 15 MB a file (larger catalogs are split, a
 * product never across files). Categories go to `Type` (Shopify's `Product category` takes only its own
 * taxonomy); a variant without a price is written at 0.00 and its product as a draft.
 */
const TARGET = 'a Shopify product CSV';
const MAX_BYTES = 15_000_000;
const MAX_TEXT = 255;

const HEADER = [
  'Title',
  'URL handle',
  'Description',
  'Vendor',
  'Product category',
  'Type',
  'Tags',
  'Published on online store',
  'Status',
  'SKU',
  'Barcode',
  'Option1 name',
  'Option1 value',
  'Option2 name',
  'Option2 value',
  'Option3 name',
  'Option3 value',
  'Price',
  'Product image URL',
  'Image position',
  'Variant image URL',
] as const;

const COLUMNS = HEADER.length;

export const shopifyCsv: ExportWriter = {
  contentType: 'text/csv',
  fileName: 'products.csv',
  jobTypes: RETAIL_JOBS,
  write: tableExport({
    target: TARGET,
    needs: { handles: true },
    carries: new Set(['description', 'brand', 'tags', 'images', 'variant_images', 'sku', 'gtin', 'category']),
    header: HEADER,
    bom: true,
    maxBytes: MAX_BYTES,
    rowsFor: ({ run, index }) => {
      const { currency } = index.head;
      const w = run.warnings;
      return ({ item, handle, categoryPath, optionNames, variants }) => {
        const prices = variants.map((v) => priceIn(v.variant, currency));
        const unpriced = prices.filter((p) => p === null).length;
        if (unpriced > 0)
          w.add(
            'no_price',
            'variants.price',
            (n) =>
              `${counted(n, 'variant')} had no price in ${currency} (a market price, none read, or another currency); Shopify needs one, so they were written at 0.00 and their products as drafts`,
            unpriced,
          );
        const tags = item.tags.map((tag) => {
          if (!tag.includes(',')) return tag;
          w.add(
            'changed',
            'tags',
            (n) => `${counted(n, 'tag')} had a comma, which separates Shopify tags; written with a space`,
          );
          return tag.replaceAll(',', ' ').replace(/\s+/g, ' ').trim();
        });
        const brand = item.brand !== null && item.brand.length >= 2 ? item.brand : null;
        if (item.brand !== null && brand === null)
          w.add(
            'left_out',
            'brand',
            (n) => `${counted(n, 'brand')} shorter than Shopify's 2 characters were left out`,
          );
        const lines: string[][] = [];
        variants.forEach((row, i) => {
          const cells = new Array<string>(COLUMNS).fill('');
          cells[1] = handle;
          if (i === 0) {
            cells[0] = limited(w, TARGET, 'name', item.name, MAX_TEXT);
            cells[2] = item.description === null ? '' : textToHtml(item.description);
            cells[3] = brand === null ? '' : limited(w, TARGET, 'brand', brand, MAX_TEXT);
            cells[5] = limited(w, TARGET, 'category', categoryPath.join(' > '), MAX_TEXT);
            cells[6] = tags.join(', ');
            cells[7] = 'TRUE';
            cells[8] = unpriced > 0 ? 'draft' : 'active';
            optionNames.forEach((name, n) => {
              cells[11 + 2 * n] = limited(w, TARGET, 'option_names', name, MAX_TEXT);
            });
            const [image] = item.images;
            if (image !== undefined) {
              cells[18] = image.url;
              cells[19] = '1';
            }
          }
          cells[9] = row.variant.sku ?? '';
          cells[10] = row.variant.gtin ?? '';
          row.optionValues.forEach((value, n) => {
            cells[12 + 2 * n] = limited(w, TARGET, 'variants.options', value, MAX_TEXT);
          });
          cells[17] = prices[i] ?? '0.00';
          const [variantImage, ...more] = row.variant.images;
          cells[20] = variantImage?.url ?? '';
          if (more.length > 0)
            w.add(
              'not_carried',
              'variants.images',
              (n) =>
                `${counted(n, 'variant image')} beyond each variant's first were left out: Shopify keeps one image per variant`,
              more.length,
            );
          lines.push(cells);
        });
        item.images.slice(1).forEach((image, i) => {
          const cells = new Array<string>(COLUMNS).fill('');
          cells[1] = handle;
          cells[18] = image.url;
          cells[19] = String(i + 2);
          lines.push(cells);
        });
        return lines;
      };
    },
  }),
};
