import { markAsText } from '../../formula-text';
import type { ExportWriter } from '../formats-types';
import { ALL_JOBS } from '../formats-types';
import { SPREADSHEET_HEADER, spreadsheetItems, spreadsheetRows } from '../spreadsheet-rows';
import { tableParts } from '../tabular';

/**
 * `csv`: the catalog as one CSV, one row per variant (spreadsheet-rows.ts), UTF-8 with a BOM for Excel. It is
 * opened by people in spreadsheet programs, so text that would run as a formula is marked as text with an
 * apostrophe (formula-text.ts), which the service's CSV reader takes off when the file is read back.
 */
export const spreadsheetCsv: ExportWriter = {
  contentType: 'text/csv',
  fileName: 'catalog.csv',
  jobTypes: ALL_JOBS,
  async *write(run) {
    const catalog = await run.catalog();
    yield* tableParts(spreadsheetItems(catalog, run), {
      header: SPREADSHEET_HEADER,
      bom: true,
      rows: (item) => spreadsheetRows(item, run),
      formulas: { mark: markAsText },
    });
  },
};
