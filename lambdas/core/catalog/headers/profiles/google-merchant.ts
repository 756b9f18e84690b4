import { normaliseHeader } from '../normalise';
import { feedHeader, isProductFeed, openProductFeed } from './product-feed';
import type { Profile } from './profile';

/**
 * A Google Merchant Center product feed as delimited text (tab-separated `.txt` / `.tsv`, or a sheet):
 * support.google.com/merchants "Product data specification" and "Supported file formats". Read as a
 * product feed (product-feed.ts). Meta's catalogs take the same attributes: a feed with Meta's own
 * columns is Meta's (meta-catalog.ts); one with only the shared attributes is told apart by how it spells
 * availability (Google `in_stock`, Meta `in stock`) and, failing that, is Google's.
 */

/** Attributes only Google's specification has. */
const GOOGLE_ONLY = [
  'identifier exists',
  'excluded destination',
  'included destination',
  'shopping ads excluded country',
  'ads redirect',
  'ads labels',
  'promotion id',
  'unit pricing measure',
  'unit pricing base measure',
  'energy efficiency class',
  'multipack',
  'is bundle',
  'adult',
  'cost of goods sold',
  'product highlight',
  'product detail',
  'lifestyle image link',
  'transit time label',
  'shipping label',
  'certification',
];

/** Meta's spelling of availability: words with spaces (`in stock`, `available for order`). */
const META_AVAILABILITY = /^(?:in stock|out of stock|available for order|discontinued)$/;

export const googleMerchantProfile: Profile = {
  name: 'google_merchant',
  matches: isProductFeed,
  open: (headers, ctx) => {
    const normalised = headers.map((h) => feedHeader(normaliseHeader(h)));
    const google = GOOGLE_ONLY.some((name) => normalised.includes(name));
    return openProductFeed(headers, ctx, (availability) =>
      !google && [...availability].some((a) => META_AVAILABILITY.test(a)) ? 'meta' : 'google_merchant',
    );
  },
};
