import type { Profile } from './profile';
import { shopifyProfile } from './shopify';
import { squareProfile } from './square';
import { woocommerceProfile } from './woocommerce';

export type { Profile } from './profile';

/** Platform exports recognised by their header signature, tried in this order; else the generic reading. */
export const PROFILES: readonly Profile[] = [shopifyProfile, squareProfile, woocommerceProfile];
