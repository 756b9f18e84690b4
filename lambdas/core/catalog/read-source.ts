import type { OutboundHttp } from '../ports';
import type { JobType, Language } from '../schemas/job';
import type { SheetSummary, SourceSummary } from '../schemas/results';
import type { SourceFormat, TextEncoding } from '../schemas/source-formats';
import { peekStream } from './bytes';
import { CurrencyWitness, storeCurrency } from './currency-source';
import type { Draft } from './draft';
import type { DraftingServices } from './drafts/drafting';
import { CatalogSourceError } from './errors';
import { PROFILES, WORKBOOK_PROFILES } from './headers/profiles';
import type { WorkbookContext, WorkbookReading } from './headers/profiles/workbook';
import type { JobTypeRules } from './job-types';
import { readTable } from './rows/read-table';
import type { TableContext } from './rows/types';
import { detectSource } from './sources/detect';
import { SOURCE_READERS, unknownReader } from './sources/registry';
import type { ByteStream, ReadContext, SourceDetails, Workbook } from './sources/types';
import type { CatalogWarning, WarningInput } from './warnings';
import type { WebJobContext } from './web/web-session';

/** How many bytes detection looks at (format, encoding). */
export const SNIFF_BYTES = 64 * 1024;

/** A catalog source as the job worker opens it. */
export interface SourceInput {
  /** The source as the job names it (URL or uploaded file id). */
  readonly source: string;
  readonly body: ByteStream;
  readonly contentType?: string | null;
  /** File name or final URL, for its extension. */
  readonly name?: string | null;
  /**
   * What ended the read of the bytes early, if anything, even when a reader took the failed stream for
   * its end: asked after the source is read, so that no source is ever cut short silently.
   */
  readonly failure?: () => unknown;
}

export interface SourceReadContext {
  readonly jobId: string;
  readonly jobType: JobType;
  readonly language: Language;
  readonly currency: string;
  readonly rules: JobTypeRules;
  readonly http?: OutboundHttp;
  /** The job's web-source budget and User-Agent (sources/html.ts). */
  readonly web?: WebJobContext;
  readonly drafting?: DraftingServices;
  readonly warn: (warning: CatalogWarning) => void;
  readonly emit: (draft: Draft, source: string) => void;
  /** Told the format and encoding as soon as they are detected (for the summary of a source that then fails). */
  readonly detected?: (format: SourceFormat, encoding: TextEncoding | null) => void;
}

export interface SourceReadOutcome {
  readonly summary: SourceSummary;
  /** Why a person must look at this source (job goes to `in_review`). */
  readonly review: readonly string[];
}

/** Sheet names that say nothing about what is on them: not used as a category. */
const GENERIC_SHEET =
  /^(?:sheet|feuil|feuille|tabelle|blatt|hoja|foglio|planilha|plan|blad|arkusz|лист|シート|工作表|表)\s*\d*$|^(?:menu|menus|products?|items?|catalog(?:ue)?|inventory|export|data|list|price ?list|all|library|item library)$/iu;

const defaultCategory = (sheet: string | null): readonly string[] =>
  sheet === null || sheet.trim() === '' || GENERIC_SHEET.test(sheet.trim()) ? [] : [sheet.trim()];

/** How a workbook is read when a workbook profile recognises it (Clover's inventory export), else null. */
const readWorkbook = (
  workbook: Workbook,
  source: string,
  ctx: SourceReadContext,
  currency: string,
): WorkbookReading | null => {
  const context: WorkbookContext = {
    source,
    currency,
    warn: (sheet, row, column, code, message) => ctx.warn({ source, row, column, sheet, code, message }),
  };
  for (const profile of WORKBOOK_PROFILES) {
    const reading = profile.open(workbook, context);
    if (reading !== null) return reading;
  }
  return null;
};

/**
 * Reads one source into drafts (sent to `ctx.emit`): detects its format and encoding, runs its reader,
 * and for tables the header mapping and row normalisation of the job type. Returns how it was read.
 * Throws CatalogSourceError when nothing in it can be read (no header row, invalid JSON, …); the body is
 * always closed.
 */
export const readSource = async (input: SourceInput, ctx: SourceReadContext): Promise<SourceReadOutcome> => {
  const source = input.source;
  const peeked = await peekStream(input.body, SNIFF_BYTES);
  const details: { -readonly [K in keyof SourceDetails]: SourceDetails[K] } = {};
  const review: string[] = [];
  const warn = (w: WarningInput) => ctx.warn({ ...w, source: w.source ?? source });
  const needed = new Set(ctx.rules.needs);
  // A price that names no currency is in the store's (its country, from the file's first part), else the
  // job language's.
  const store = storeCurrency(Buffer.from(peeked.head).toString('latin1'));
  const currency = new CurrencyWitness(store ?? ctx.currency, store === null ? 'language' : 'store');
  let items = 0;
  const emit = (draft: Draft) => {
    currency.see(draft);
    if (draft.kind === 'item') {
      items += 1;
      for (const need of needed) if (draft.variants.some(need.has)) needed.delete(need);
    }
    ctx.emit(draft, source);
  };
  try {
    const probe = { head: peeked.head, contentType: input.contentType ?? null, name: input.name ?? source };
    const { reader, encoding } = detectSource(
      probe,
      SOURCE_READERS,
      unknownReader,
      peeked.head.length < SNIFF_BYTES,
    );
    ctx.detected?.(reader.format, encoding);
    const readContext: ReadContext = {
      source,
      jobId: ctx.jobId,
      jobType: ctx.jobType,
      language: ctx.language,
      currency: currency.assumed,
      http: ctx.http,
      web: ctx.web,
      drafting: ctx.drafting,
      warn,
      needsReview: (reason) => review.push(reason),
      describe: (more) => Object.assign(details, more),
    };
    const output = await reader.read({ ...probe, source, bytes: peeked.stream, encoding }, readContext);
    const columns: Record<string, string> = {};
    const ignored: string[] = [];
    const sheets: SheetSummary[] = [];
    let rows = 0;
    let headerRow: number | null = null;
    const missing: string[] = [];
    if (output.kind === 'drafts') {
      // A catalog document gives every price its currency.
      if (reader.format === 'json') currency.fileStates();
      for await (const draft of output.drafts) {
        if (draft.kind === 'item') rows += 1;
        emit(draft);
      }
    } else {
      let read = 0;
      const workbook =
        output.workbook === undefined ? null : readWorkbook(output.workbook, source, ctx, currency.assumed);
      for await (const table of output.tables) {
        const companion = table.sheet === null ? undefined : workbook?.sheets.get(table.sheet);
        if (table.sheet !== null && companion !== undefined) {
          // Read by the workbook's profile (Clover's categories and modifier groups): no items of its own.
          sheets.push({
            name: table.sheet,
            header_row: companion.headerRow,
            columns: { ...companion.columns },
            ignored_columns: [...companion.ignored],
            rows: companion.rows,
            items: 0,
          });
          for (const [column, field] of Object.entries(companion.columns)) columns[column] ??= field;
          for (const column of companion.ignored) if (!ignored.includes(column)) ignored.push(column);
          rows += companion.rows;
          continue;
        }
        const tableContext: TableContext = {
          source,
          sheet: table.sheet,
          currency: currency.assumed,
          language: ctx.language,
          defaultCategory: defaultCategory(table.sheet),
          warn: (row, column, code, message) =>
            ctx.warn({
              source,
              row,
              column,
              ...(table.sheet === null ? {} : { sheet: table.sheet }),
              code,
              message,
            }),
        };
        let sheetItems = 0;
        const outcome = await readTable(
          table,
          tableContext,
          ctx.rules.rows,
          (draft) => {
            if (draft.kind === 'item') sheetItems += 1;
            emit(draft);
          },
          workbook === null ? undefined : [...workbook.profiles, ...PROFILES],
        );
        if (table.sheet !== null) {
          sheets.push({
            name: table.sheet,
            header_row: outcome.headerRow,
            columns: { ...outcome.columns },
            ignored_columns: [...outcome.ignored],
            rows: outcome.rows,
            items: sheetItems,
          });
        }
        if (outcome.inferred !== null) {
          review.push(
            `${source}${table.sheet === null ? '' : ` (sheet ${JSON.stringify(table.sheet)})`}: columns told from their values, not named by a header (${outcome.inferred})`,
          );
        }
        if (outcome.headerRow === null && outcome.inferred === null) {
          if (outcome.missing !== null)
            missing.push(
              table.sheet === null
                ? outcome.missing
                : `sheet ${JSON.stringify(table.sheet)}: ${outcome.missing}`,
            );
          continue;
        }
        if (outcome.currencyStated) currency.fileStates();
        read += 1;
        headerRow ??= outcome.headerRow;
        details.profile ??= outcome.profile;
        Object.assign(columns, outcome.columns);
        for (const column of outcome.ignored) if (!ignored.includes(column)) ignored.push(column);
        rows += outcome.rows;
      }
      if (read === 0) {
        // What is really missing, per table (no rows at all, a header without a name column, no header).
        const why = missing.length > 0 ? missing.join('; ') : 'no table with rows of data was found';
        throw new CatalogSourceError(
          `nothing could be read: ${why}; name the columns (e.g. name, category, price) in the first row`,
          'missing_columns',
        );
      }
    }
    if (items > 0) {
      for (const need of needed) {
        warn({
          row: null,
          column: null,
          code: need.code,
          message: `no ${need.what} could be read from the source; its items are kept without them`,
        });
      }
    }
    return {
      summary: {
        source,
        format: reader.format,
        encoding: details.encoding ?? encoding,
        profile: details.profile ?? null,
        columns,
        ignored_columns: ignored,
        rows,
        items: 0,
        currency_source: currency.source,
        ...(details.delimiter === undefined ? {} : { delimiter: details.delimiter }),
        ...(headerRow === null ? {} : { header_row: headerRow }),
        ...(sheets.length > 0 ? { sheets } : {}),
        ...(details.pages === undefined ? {} : { pages: details.pages }),
      },
      review,
    };
  } finally {
    await peeked.close();
  }
};
