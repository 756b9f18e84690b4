import { unzipSync } from 'fflate';
import { CatalogSourceError } from '../errors';

/**
 * Workbooks are ZIP archives read whole (XLSX, ODS): a small archive that expands to gigabytes (a "zip
 * bomb", or a sheet no reader could hold as one string) is refused before any of it is inflated, by the
 * sizes its central directory declares.
 */
export const ZIP_LIMITS = {
  /** One entry: a sheet's XML is read whole, at ~8x its size in memory (bench/parse-csv.ts xlsx). */
  maxEntryBytes: 200 * 1024 * 1024,
  /** Every entry together. */
  maxTotalBytes: 300 * 1024 * 1024,
} as const;

const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);

/** Throws `source_too_large` when the archive declares more than the limits; anything unreadable passes. */
export const checkZipExpansion = (bytes: Uint8Array, limits: typeof ZIP_LIMITS = ZIP_LIMITS): void => {
  let total = 0;
  let largest = 0;
  try {
    unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        largest = Math.max(largest, file.originalSize);
        return false;
      },
    });
  } catch {
    return; // not a readable archive: the workbook reader says so in its own words
  }
  if (largest > limits.maxEntryBytes || total > limits.maxTotalBytes) {
    throw new CatalogSourceError(
      `the workbook expands to ${mb(total)} MB when unzipped, more than a workbook may hold ` +
        `(${mb(limits.maxEntryBytes)} MB in one part, ${mb(limits.maxTotalBytes)} MB in all): split it or save it as CSV`,
      'source_too_large',
    );
  }
};
