import { bigcommerceProfile } from './bigcommerce';
import { etsyProfile } from './etsy';
import { googleMerchantProfile } from './google-merchant';
import { lightspeedProfile } from './lightspeed';
import { metaCatalogProfile } from './meta-catalog';
import type { Profile } from './profile';
import { shopifyProfile } from './shopify';
import { squareProfile } from './square';
import { squarespaceProfile } from './squarespace';
import { wixProfile } from './wix';
import { woocommerceProfile } from './woocommerce';

export type { Profile } from './profile';

/** Platform exports recognised by their header signature, tried in this order; else the generic reading. */
export const PROFILES: readonly Profile[] = [
  shopifyProfile,
  squareProfile,
  woocommerceProfile,
  bigcommerceProfile,
  wixProfile,
  squarespaceProfile,
  etsyProfile,
  lightspeedProfile,
  metaCatalogProfile,
  googleMerchantProfile,
];
