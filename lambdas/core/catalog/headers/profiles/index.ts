import { bigcartelProfile } from './bigcartel';
import { bigcommerceProfile } from './bigcommerce';
import { cloverProfile, cloverWorkbookProfile } from './clover';
import { ebayProfile } from './ebay';
import { ecwidProfile } from './ecwid';
import { etsyProfile } from './etsy';
import { googleMerchantProfile } from './google-merchant';
import { lightspeedProfile } from './lightspeed';
import { lightspeedRetailProfile } from './lightspeed-retail';
import { loyverseProfile } from './loyverse';
import { magentoProfile } from './magento';
import { metaCatalogProfile } from './meta-catalog';
import { odooProfile } from './odoo';
import type { Profile } from './profile';
import { shopifyProfile } from './shopify';
import { squareProfile } from './square';
import { squarespaceProfile } from './squarespace';
import { toastProfile } from './toast';
import { wixProfile } from './wix';
import { woocommerceProfile } from './woocommerce';
import type { WorkbookProfile } from './workbook';

export type { Profile } from './profile';
export type { WorkbookProfile } from './workbook';

/** Platform exports recognised by their header signature, tried in this order; else the generic reading. */
export const PROFILES: readonly Profile[] = [
  shopifyProfile,
  squareProfile,
  woocommerceProfile,
  cloverProfile,
  toastProfile,
  loyverseProfile,
  bigcommerceProfile,
  wixProfile,
  squarespaceProfile,
  etsyProfile,
  bigcartelProfile,
  ebayProfile,
  lightspeedProfile,
  magentoProfile,
  lightspeedRetailProfile,
  ecwidProfile,
  odooProfile,
  metaCatalogProfile,
  googleMerchantProfile,
];

/** Platform exports spread over a workbook's sheets (headers/profiles/workbook.ts), tried in this order. */
export const WORKBOOK_PROFILES: readonly WorkbookProfile[] = [cloverWorkbookProfile];
