import { cloverProfile, cloverWorkbookProfile } from './clover';
import { loyverseProfile } from './loyverse';
import type { Profile } from './profile';
import { shopifyProfile } from './shopify';
import { squareProfile } from './square';
import { toastProfile } from './toast';
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
];

/** Platform exports spread over a workbook's sheets (headers/profiles/workbook.ts), tried in this order. */
export const WORKBOOK_PROFILES: readonly WorkbookProfile[] = [cloverWorkbookProfile];
