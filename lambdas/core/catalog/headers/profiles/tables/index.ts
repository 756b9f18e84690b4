import type { HeaderTable } from '../header-table';
import { BIGCARTEL_HEADERS } from './bigcartel';
import { BIGCOMMERCE_HEADERS } from './bigcommerce';
import { CLOVER_HEADERS } from './clover';
import { ECWID_HEADERS } from './ecwid';
import { ETSY_HEADERS } from './etsy';
import { LIGHTSPEED_HEADERS } from './lightspeed';
import { LIGHTSPEED_RETAIL_HEADERS } from './lightspeed-retail';
import { LOYVERSE_HEADERS } from './loyverse';
import { MAGENTO_HEADERS } from './magento';
import { ODOO_HEADERS } from './odoo';
import { SHOPIFY_HEADERS } from './shopify';
import { SQUARE_HEADERS } from './square';
import { SQUARESPACE_HEADERS } from './squarespace';
import { TOAST_HEADERS } from './toast';
import { WIX_HEADERS } from './wix';
import { WOOCOMMERCE_HEADERS } from './woocommerce';

/** The platforms whose export header is a table (header-table.ts), for tests and tools that list them. */
export const HEADER_TABLES: readonly HeaderTable<string>[] = [
  WOOCOMMERCE_HEADERS,
  LOYVERSE_HEADERS,
  ETSY_HEADERS,
  ODOO_HEADERS,
  SQUARE_HEADERS,
  WIX_HEADERS,
  MAGENTO_HEADERS,
  ECWID_HEADERS,
  SHOPIFY_HEADERS,
  TOAST_HEADERS,
  LIGHTSPEED_RETAIL_HEADERS,
  SQUARESPACE_HEADERS,
  BIGCARTEL_HEADERS,
  LIGHTSPEED_HEADERS,
  CLOVER_HEADERS,
  BIGCOMMERCE_HEADERS,
] as readonly HeaderTable<string>[];
