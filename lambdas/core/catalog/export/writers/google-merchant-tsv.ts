import { feedOffers } from '../feed-rows';
import type { ExportWriter } from '../formats-types';
import { RETAIL_JOBS } from '../formats-types';
import { tableExport } from '../tabular';
import { counted } from '../warnings';

/**
 * A Google Merchant Center primary feed as tab-separated text (support.google.com/merchants "Product data
 * specification", "Supported file formats"): one line per offer, `item_group_id` for the offers of one
 * product, `price` as `12.50 USD`, `product_type` the category path. Google's limits are applied: id 50,
 * title 150, description 5,000, brand 70, product_type 750 characters, 10 additional images; every offer
 * needs a price, an image and a `link` (from the request's `link_template`). An option Google has no
 * attribute for (color, size, material, pattern) is written in the title, which is how Merchant Center
 * tells such variants apart. TSV cells cannot hold tabs or line breaks: they are written as spaces.
 */
const TARGET = 'a Merchant Center feed';

const HEADER = [
  'id',
  'item_group_id',
  'title',
  'description',
  'link',
  'image_link',
  'additional_image_link',
  'availability',
  'condition',
  'price',
  'brand',
  'gtin',
  'identifier_exists',
  'product_type',
  'color',
  'size',
  'material',
  'pattern',
];

export const googleMerchantTsv: ExportWriter = {
  contentType: 'text/tab-separated-values',
  fileName: 'products.tsv',
  jobTypes: RETAIL_JOBS,
  write: tableExport({
    target: TARGET,
    needs: { handles: true },
    carries: new Set(['description', 'brand', 'images', 'variant_images', 'sku', 'gtin', 'category']),
    header: HEADER,
    delimiter: '\t',
    rowsFor: ({ run, index }) => {
      const merchant = index.head.merchant.name;
      const w = run.warnings;
      return (item) =>
        feedOffers(item, run, merchant, {
          target: TARGET,
          id: 50,
          title: 150,
          description: 5000,
          brand: 70,
          productType: 750,
          moreImages: 10,
        }).map((offer) => {
          let title = offer.title;
          if (offer.otherOptions.size > 0) {
            title = `${title} - ${[...offer.otherOptions.values()].join(' / ')}`.slice(0, 150);
            w.add(
              'changed',
              'option_names',
              (n) =>
                `${counted(n, 'offer')} had options Google has no attribute for; their values were written in the title`,
            );
          }
          return [
            offer.id,
            offer.groupId ?? '',
            title,
            offer.description,
            offer.link,
            offer.image,
            offer.moreImages.join(','),
            'in_stock',
            'new',
            offer.price,
            offer.brand,
            offer.gtin,
            offer.gtin === '' ? 'no' : 'yes',
            offer.productType,
            offer.attributes.get('color') ?? '',
            offer.attributes.get('size') ?? '',
            offer.attributes.get('material') ?? '',
            offer.attributes.get('pattern') ?? '',
          ];
        });
    },
  }),
};
