import type { HeaderTable } from '../header-table';
import { ETSY_HEADERS } from './etsy';
import { LOYVERSE_HEADERS } from './loyverse';
import { ODOO_HEADERS } from './odoo';
import { SQUARE_HEADERS } from './square';
import { WOOCOMMERCE_HEADERS } from './woocommerce';

/** The platforms whose export header is a table (header-table.ts), for tests and tools that list them. */
export const HEADER_TABLES: readonly HeaderTable<string>[] = [
  WOOCOMMERCE_HEADERS,
  LOYVERSE_HEADERS,
  ETSY_HEADERS,
  ODOO_HEADERS,
  SQUARE_HEADERS,
] as readonly HeaderTable<string>[];
