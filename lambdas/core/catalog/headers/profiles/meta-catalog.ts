import { isProductFeed, openProductFeed } from './product-feed';
import type { Profile } from './profile';

/**
 * A Meta (Facebook, Instagram) catalog feed as CSV or TSV (developers.facebook.com "Catalog fields",
 * "Supported feed formats"), such as Meta's downloadable template filled in (its `# Required | …` hints
 * row above the header is not a header and is skipped as a title row). The attributes are Google's
 * (product-feed.ts) plus Meta's own, by which it is recognised here; a feed with only the shared ones is
 * recognised as Google's and named Meta's by its availability values (google-merchant.ts).
 */

/** Columns only Meta's catalogs have. */
const META_ONLY = [
  'fb product category',
  'quantity to sell on facebook',
  'rich text description',
  'additional variant attribute',
  'commerce tax category',
  'video 0 url',
  'product tags 0',
  'internal label',
  'marked for product launch',
  'wa compliance category',
  'origin country',
  'importer name',
];

export const metaCatalogProfile: Profile = {
  name: 'meta',
  matches: (headers) =>
    isProductFeed(headers) && META_ONLY.some((name) => headers.has(name) || headers.has(`g ${name}`)),
  open: (headers, ctx) => openProductFeed(headers, ctx, () => 'meta'),
};
