import { OutboundError } from '../outbound';
import type { OutboundHttp } from '../ports';
import { DEFAULT_LANGUAGE, type JobType, type Language } from '../schemas/job';
import type { JobResults, SourceSummary } from '../schemas/results';
import type { SourceFormat, TextEncoding } from '../schemas/source-formats';
import { CatalogAssembler } from './assembly/assembler';
import { CATALOG_FORMAT_VERSION, type CatalogDocument, type Item } from './document';
import type { DraftingServices } from './drafts/drafting';
import { CatalogError, CatalogLimitError, SourceCutShortError } from './errors';
import { applyClientMappings } from './finishing/client-mappings';
import { type ImageMappingOptions, mapImages } from './finishing/image-mapping';
import { summariseCatalog } from './finishing/results';
import { entityNamespace } from './ids';
import { JOB_TYPE_RULES } from './job-types';
import { defaultCurrency } from './money';
import { readSource, type SourceInput } from './read-source';
import { KEPT_WARNINGS, WarningLog } from './warnings';
import { DEFAULT_WEB_SETTINGS, type WebSourceSettings } from './web/limits';
import { WebBudget, type WebJobContext } from './web/web-session';

/** The parts of a job the pipeline needs (SPEC 3.1; `language` is absent on retail_image_mapping). */
export interface CatalogJob {
  readonly id: string;
  /** With `merchant_token`, entity ids are the merchant's, stable across jobs (ids.ts entityNamespace). */
  readonly client_id?: string;
  readonly job_type: JobType;
  readonly job_data: {
    readonly merchant_name: string;
    readonly merchant_address?: string | null;
    readonly merchant_token?: string | null;
    readonly language?: Language;
    readonly client_mappings?: Readonly<Record<string, unknown>>;
    readonly image_sources?: readonly string[];
  };
}

export interface BuildCatalogInput {
  readonly job: CatalogJob;
  /** The job's catalog sources (URLs or uploaded file ids), read in this order. */
  readonly sources: readonly string[];
  /** Opens one source: fetches the URL or reads the upload. Throws OutboundError or CatalogError. */
  readonly open: (source: string) => Promise<SourceInput>;
  /** The guarded client (image mapping; online store readers). */
  readonly http: OutboundHttp;
  /** OCR and review records for the PDF and photo readers (drafts/drafting.ts); absent: text layers only. */
  readonly drafting?: DraftingServices;
  readonly now: Date;
  /** On the last delivery a transient failure of a source counts as unreadable instead of being retried. */
  readonly lastAttempt?: boolean;
  /** Web sources' bounds and User-Agent; one budget of pages and requests is shared by the job's sources. */
  readonly web?: WebSourceSettings;
  readonly maxItems?: number;
  readonly keptWarnings?: number;
  readonly imageMapping?: ImageMappingOptions;
}

export interface SourceFailure {
  readonly source: string;
  readonly code: string;
  readonly message: string;
}

export interface BuiltCatalog {
  readonly document: CatalogDocument;
  readonly results: JobResults;
  readonly itemCount: number;
  /** Why a person must check the catalog (sources read as drafts, formats read by the operations team). */
  readonly review: readonly string[];
  /** Sources that could not be read at all. */
  readonly failures: readonly SourceFailure[];
}

const failureOf = (error: unknown): { code: string; message: string } => {
  if (error instanceof CatalogError) return { code: error.code, message: error.message };
  if (error instanceof OutboundError)
    return { code: 'source_unreadable', message: `could not be fetched: ${error.message}` };
  return { code: 'source_unreadable', message: 'could not be read' };
};

/**
 * The catalog's currency: the one most of its prices are in (a Swiss café's menu in a de_de job is in
 * francs), else the language's.
 */
const mainCurrency = (items: readonly Item[], fallback: string): string => {
  const counts = new Map<string, number>();
  for (const item of items) {
    for (const variant of item.variants) {
      if (variant.price !== null)
        counts.set(variant.price.currency, (counts.get(variant.price.currency) ?? 0) + 1);
    }
  }
  let best = fallback;
  for (const [code, n] of counts) if (n > (counts.get(best) ?? 0)) best = code;
  return best;
};

/**
 * The catalog pipeline's one entry point (SPEC 5.2, 5.5): reads every source (readers → header mapping →
 * row normalisers → drafts), assembles the catalog, applies client mappings and image mapping, and
 * returns the format 2 document with its `results`.
 *
 * A source that cannot be read is recorded (a warning, its summary's `error`, `failures`) and the others
 * are read; a transient failure (OutboundError marked retryable) is thrown so that the job is retried,
 * unless this is the last attempt. A catalog over SPEC 9's item limit throws CatalogLimitError.
 *
 * @example
 * const built = await buildCatalog({ job, sources: job.job_data.catalog_sources, open, http, now: new Date() });
 */
export const buildCatalog = async (input: BuildCatalogInput): Promise<BuiltCatalog> => {
  const { job } = input;
  const rules = JOB_TYPE_RULES[job.job_type];
  const language = job.job_data.language ?? DEFAULT_LANGUAGE;
  const currency = defaultCurrency(language);
  const log = new WarningLog(input.keptWarnings ?? KEPT_WARNINGS);
  const warn = log.add.bind(log);
  const assembler = new CatalogAssembler({
    jobId: entityNamespace({
      id: job.id,
      clientId: job.client_id,
      merchantToken: job.job_data.merchant_token,
    }),
    identity: rules.identity,
    maxItems: input.maxItems,
    warn,
  });
  const sources: SourceSummary[] = [];
  const review: string[] = [];
  const failures: SourceFailure[] = [];
  const settings = input.web ?? DEFAULT_WEB_SETTINGS;
  const web: WebJobContext = {
    budget: new WebBudget(settings.limits),
    userAgent: settings.userAgent,
    lastAttempt: input.lastAttempt ?? false,
  };

  for (const source of input.sources) {
    const before = assembler.itemCount;
    const warningsBefore = log.count;
    let format: SourceFormat = 'unknown';
    let encoding: TextEncoding | null = null;
    try {
      const opened = await input.open(source);
      const outcome = await readSource(opened, {
        jobId: job.id,
        jobType: job.job_type,
        language,
        currency,
        rules,
        http: input.http,
        web,
        drafting: input.drafting,
        warn,
        emit: (draft, from) => assembler.add(draft, from),
        detected: (f, e) => {
          format = f;
          encoding = e;
        },
      });
      const cut = opened.failure?.();
      if (cut !== undefined) throw cut;
      sources.push({ ...outcome.summary, items: assembler.itemCount - before });
      review.push(...outcome.review);
    } catch (error) {
      if (error instanceof CatalogLimitError || error instanceof SourceCutShortError) throw error;
      const transient = error instanceof OutboundError && error.retryable;
      const permanent = error instanceof CatalogError || (error instanceof OutboundError && !error.retryable);
      if (!permanent && !(transient && input.lastAttempt)) throw error;
      const failure = failureOf(error);
      // Part of it is in the catalog already: a catalog built from part of a source would be silently short.
      if (assembler.itemCount > before || log.count > warningsBefore) {
        throw new SourceCutShortError(
          failure.code === 'source_too_large' ? 'source_too_large' : 'source_unreadable',
          `${source} ${failure.message}; part of it had already been read, so no catalog is built from it`,
          { cause: error },
        );
      }
      failures.push({ source, ...failure });
      warn({ source, row: null, column: null, code: 'source_unreadable', message: failure.message });
      sources.push({
        source,
        format,
        encoding,
        profile: null,
        columns: {},
        ignored_columns: [],
        rows: 0,
        items: 0,
        error: failure,
      });
    }
  }

  const catalog = assembler.finish();
  applyClientMappings(job.job_data.client_mappings, catalog, warn);
  const images =
    rules.mapsImages && (job.job_data.image_sources?.length ?? 0) > 0
      ? await mapImages(input.http, catalog.items, job.job_data.image_sources ?? [], input.imageMapping)
      : null;
  const document: CatalogDocument = {
    format_version: CATALOG_FORMAT_VERSION,
    job_id: job.id,
    job_type: job.job_type,
    generated_at: input.now.toISOString(),
    language,
    currency: mainCurrency(catalog.items, currency),
    merchant: {
      name: job.job_data.merchant_name,
      address: job.job_data.merchant_address ?? null,
      token: job.job_data.merchant_token ?? null,
    },
    categories: catalog.categories,
    items: catalog.items,
    modifier_groups: catalog.modifierGroups,
    image_mappings: images?.imageMappings ?? [],
  };
  const results: JobResults = {
    catalog: summariseCatalog(document),
    warnings: [...log.warnings],
    warning_count: log.count,
    sources,
    ...(images?.results ?? {}),
  };
  return { document, results, itemCount: catalog.items.length, review, failures };
};
