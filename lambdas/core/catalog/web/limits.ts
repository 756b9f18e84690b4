/**
 * The bounds on reading a merchant's web pages and storefront (SPEC 9, README "Web pages and online
 * stores"): what one job may fetch, how fast, and how much. Reaching a bound stops the reading with a
 * warning in the job's results; it never cuts a catalog short silently.
 */
export interface WebLimits {
  /** Pages (HTML pages and catalog API pages) one job fetches, over all its web sources. */
  readonly maxPagesPerJob: number;
  /** HTTP requests one job makes for its web sources: pages, robots.txt, category lists, retries. */
  readonly maxRequestsPerJob: number;
  /** One page's body. */
  readonly maxPageBytes: number;
  /** All pages of one source together (SPEC 9: 100 MB per source). */
  readonly maxSourceBytes: number;
  /** One request, connection to last byte. */
  readonly requestTimeoutMs: number;
  /** Everything one web source takes, waits included. */
  readonly sourceTimeMs: number;
  /** Everything a job's web sources take together (the job worker has 15 minutes for the whole job). */
  readonly jobTimeMs: number;
  /** The least time between two requests to the same host. */
  readonly minIntervalMs: number;
  /** A robots.txt `Crawl-delay` is honoured up to this. */
  readonly maxCrawlDelayMs: number;
  /** A `Retry-After` (429, 503) is honoured up to this, once per request. */
  readonly maxRetryAfterMs: number;
  /** robots.txt is read up to this size (RFC 9309 asks for at least 500 KiB). */
  readonly robotsMaxBytes: number;
  /** Pages linked from the given page (a restaurant's menu page) that are followed when it has no menu itself. */
  readonly maxFollowedLinks: number;
}

export const DEFAULT_WEB_LIMITS: WebLimits = {
  maxPagesPerJob: 100,
  maxRequestsPerJob: 150,
  maxPageBytes: 16 * 1024 * 1024,
  maxSourceBytes: 100 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  sourceTimeMs: 300_000,
  jobTimeMs: 600_000,
  minIntervalMs: 250,
  maxCrawlDelayMs: 5_000,
  maxRetryAfterMs: 10_000,
  robotsMaxBytes: 512 * 1024,
  maxFollowedLinks: 3,
};

/** The robots.txt product token the service answers to. */
export const ROBOTS_TOKEN = 'CatalogJobsBot';

/**
 * The User-Agent of every web-source request: the service's name, its version, and where a site owner
 * reads what it does (`contact`, from the deployment's configuration).
 */
export const webUserAgent = (contact?: string | null): string =>
  `${ROBOTS_TOKEN}/1.0 (catalog-jobs-service; reads a merchant's own menu or store on the merchant's request${
    contact ? `; +${contact}` : ''
  })`;

/** What a deployment sets for web sources: the bounds and the User-Agent (with its contact, if any). */
export interface WebSourceSettings {
  readonly limits: WebLimits;
  readonly userAgent: string;
}

export const DEFAULT_WEB_SETTINGS: WebSourceSettings = {
  limits: DEFAULT_WEB_LIMITS,
  userAgent: webUserAgent(),
};
