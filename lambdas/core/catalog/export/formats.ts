import type { ExportFormat } from '../../schemas/export';
import type { JobType } from '../../schemas/job';
import type { ExportWriter } from './formats-types';
import { catalogJson } from './writers/catalog-json';
import { changesJson } from './writers/changes';
import { googleMerchantTsv } from './writers/google-merchant-tsv';
import { metaCatalogCsv } from './writers/meta-catalog-csv';
import { shopifyCsv } from './writers/shopify-csv';
import { spreadsheetCsv } from './writers/spreadsheet-csv';
import { squareCatalogJson } from './writers/square-catalog-json';
import { squareCsv } from './writers/square-csv';
import { ubereatsMenuJson } from './writers/ubereats-menu-json';
import { woocommerceCsv } from './writers/woocommerce-csv';
import { xlsx } from './writers/xlsx';

/** SPEC 3.2: every export format and its writer (one file each under writers/). */
export const EXPORT_WRITERS: Readonly<Record<ExportFormat, ExportWriter>> = {
  catalog_json: catalogJson,
  shopify_csv: shopifyCsv,
  woocommerce_csv: woocommerceCsv,
  square_csv: squareCsv,
  google_merchant_tsv: googleMerchantTsv,
  meta_catalog_csv: metaCatalogCsv,
  square_catalog_json: squareCatalogJson,
  ubereats_menu_json: ubereatsMenuJson,
  csv: spreadsheetCsv,
  xlsx,
  changes: changesJson,
};

/** The job types a format fits: a menu is no Merchant Center feed, a retail catalog no Uber Eats menu. */
export const formatFitsJob = (format: ExportFormat, jobType: JobType): boolean =>
  EXPORT_WRITERS[format].jobTypes.includes(jobType);

/** The file name of part `index` of `count`: `products.csv`, or `products-2.csv` when split. */
export const exportFileName = (format: ExportFormat, index: number, count: number): string => {
  const name = EXPORT_WRITERS[format].fileName;
  if (count <= 1) return name;
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}-${index}${name.slice(dot)}`;
};
