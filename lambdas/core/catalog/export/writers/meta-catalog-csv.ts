import { feedOffers } from '../feed-rows';
import type { ExportWriter } from '../formats-types';
import { RETAIL_JOBS } from '../formats-types';
import { tableExport } from '../tabular';

/**
 * A Meta (Facebook, Instagram) catalog data feed as CSV (developers.facebook.com "Catalog fields",
 * "Supported feed formats"): one row per offer with Meta's required fields (id, title, description,
 * availability, condition, price, link, image_link, brand), `item_group_id` for variants and
 * `additional_variant_attribute` (`Flavor:Mint`) for an option Meta has no field for. Meta's limits are
 * applied: id 100, title 200, description 9,999, brand 100 characters, 20 additional images.
 */
const TARGET = 'a Meta catalog feed';

const HEADER = [
  'id',
  'title',
  'description',
  'availability',
  'condition',
  'price',
  'link',
  'image_link',
  'brand',
  'additional_image_link',
  'item_group_id',
  'color',
  'size',
  'material',
  'pattern',
  'additional_variant_attribute',
  'product_type',
  'gtin',
];

export const metaCatalogCsv: ExportWriter = {
  contentType: 'text/csv',
  fileName: 'catalog.csv',
  jobTypes: RETAIL_JOBS,
  write: tableExport({
    target: TARGET,
    needs: { handles: true },
    carries: new Set(['description', 'brand', 'images', 'variant_images', 'sku', 'gtin', 'category']),
    header: HEADER,
    rowsFor: ({ run, index }) => {
      const merchant = index.head.merchant.name;
      return (item) =>
        feedOffers(item, run, merchant, {
          target: TARGET,
          id: 100,
          title: 200,
          description: 9999,
          brand: 100,
          productType: 750,
          moreImages: 20,
        }).map((offer) => [
          offer.id,
          offer.title,
          offer.description,
          'in stock',
          'new',
          offer.price,
          offer.link,
          offer.image,
          offer.brand,
          offer.moreImages.join(','),
          offer.groupId ?? '',
          offer.attributes.get('color') ?? '',
          offer.attributes.get('size') ?? '',
          offer.attributes.get('material') ?? '',
          offer.attributes.get('pattern') ?? '',
          [...offer.otherOptions]
            .map(([name, value]) => `${name.replace(/[:,]/g, ' ')}:${value.replace(/[,;]/g, ' ')}`)
            .join(','),
          offer.productType,
          offer.gtin,
        ]);
    },
  }),
};
