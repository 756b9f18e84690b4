import robotsParser from 'robots-parser';
import { discardBody, OutboundError, OutboundTooLargeError, readBody } from '../../outbound';
import type { OutboundHttp, OutboundResponse } from '../../ports';
import { DEFAULT_WEB_LIMITS, ROBOTS_TOKEN, type WebLimits, webUserAgent } from './limits';
import type { WebWarning } from './types';

/**
 * The one way web sources are fetched: every request through the guarded OutboundHttp port (SPEC 8), with
 * the service's User-Agent, robots.txt honoured for everything beyond the URL the client gave, a pause
 * between requests to one host, and the job's bounds on pages, requests, bytes and time. Reaching a bound
 * is an outcome the caller turns into a warning, never an exception and never a silent stop.
 */

export interface Fetched {
  readonly ok: true;
  readonly status: number;
  /** The URL that answered, after redirects. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface NotFetched {
  readonly ok: false;
  /** `limit`: a bound of WebLimits; `robots`: robots.txt disallows it; `http`: an error status; `network`. */
  readonly reason: 'limit' | 'robots' | 'http' | 'network' | 'too_large';
  readonly status?: number;
  readonly message: string;
  /** Trying again later may help (a time-out, a 5xx, a 429). */
  readonly retryable: boolean;
}

export type FetchOutcome = Fetched | NotFetched;

/** What one job may still spend on web sources; shared by all of its sources. */
export class WebBudget {
  pages = 0;
  requests = 0;
  /** When the job's first web source started (its time bound counts from there). */
  startedAt: number | null = null;
  constructor(readonly limits: WebLimits = DEFAULT_WEB_LIMITS) {}
}

/**
 * What a job gives its web sources (SPEC 5.2, 9): one budget for all of them, the User-Agent, and whether
 * this is the job's last delivery (a store that fails part-way then keeps what was read, with a warning,
 * rather than fail the attempt so that it is retried).
 */
export interface WebJobContext {
  readonly budget: WebBudget;
  readonly userAgent?: string;
  readonly lastAttempt: boolean;
  readonly wait?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export interface WebSessionOptions {
  readonly http: OutboundHttp;
  readonly budget: WebBudget;
  readonly userAgent?: string;
  /** Waits between requests; tests pass a recorder. */
  readonly wait?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

type Robots = ReturnType<typeof robotsParser>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const retryAfterMs = (value: string | undefined, now: number): number | undefined => {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** The first `limit` bytes of a body, up to the last line break within them; the rest is not read. */
const readLines = async (response: OutboundResponse, limit: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = response.body[Symbol.asyncIterator]();
  try {
    while (size <= limit) {
      const next = await iterator.next();
      if (next.done) return Buffer.concat(chunks);
      chunks.push(Buffer.from(next.value));
      size += next.value.length;
    }
  } finally {
    await iterator.return?.();
  }
  const head = Buffer.concat(chunks).subarray(0, limit);
  return head.subarray(0, head.lastIndexOf(0x0a) + 1);
};

/** One web source being read: its own byte and time bounds, the job's page and request bounds. */
export class WebSession {
  readonly warnings: WebWarning[] = [];
  /** Pages this source fetched (the first page included). */
  pages = 0;
  bytes = 0;
  private readonly robots = new Map<string, Robots | 'disallow-all'>();
  private readonly lastRequest = new Map<string, number>();
  private readonly wait: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly userAgent: string;
  private readonly deadline: number;
  private readonly deadlineMessage: string;

  constructor(private readonly options: WebSessionOptions) {
    this.wait = options.wait ?? sleep;
    this.now = options.now ?? Date.now;
    this.userAgent = options.userAgent ?? webUserAgent();
    const now = this.now();
    options.budget.startedAt ??= now;
    const forJob = options.budget.startedAt + this.limits.jobTimeMs;
    this.deadline = Math.min(now + this.limits.sourceTimeMs, forJob);
    this.deadlineMessage =
      forJob < now + this.limits.sourceTimeMs
        ? `the time limit of ${this.limits.jobTimeMs / 1000} s for a job's web sources was reached`
        : `the time limit of ${this.limits.sourceTimeMs / 1000} s per web source was reached`;
  }

  get limits(): WebLimits {
    return this.options.budget.limits;
  }

  /**
   * Counts a page the caller fetched itself (the client's URL, read before anyone knew it was HTML)
   * against the bounds.
   */
  countFirstPage(url: string, bytes: number): void {
    this.options.budget.pages += 1;
    this.options.budget.requests += 1;
    this.pages += 1;
    this.bytes += bytes;
    this.lastRequest.set(new URL(url).host, this.now());
  }

  /** Bytes one more response may have: the page bound, or what is left of the source's. */
  remainingBytes(): number {
    return Math.min(this.limits.maxPageBytes, this.limits.maxSourceBytes - this.bytes);
  }

  /** Fetches a page or an API page beyond the client's URL: robots.txt is consulted first. */
  async fetch(url: string, accept: string): Promise<FetchOutcome> {
    const budget = this.options.budget;
    if (budget.pages >= this.limits.maxPagesPerJob) {
      return this.limit(`the limit of ${this.limits.maxPagesPerJob} pages per job was reached`);
    }
    const allowed = await this.allowedByRobots(url);
    if (allowed !== true) return allowed;
    const outcome = await this.request(url, accept, this.remainingBytes());
    if (outcome.ok) {
      budget.pages += 1;
      this.pages += 1;
      this.bytes += outcome.body.length;
    }
    return outcome;
  }

  private limit(message: string): NotFetched {
    return { ok: false, reason: 'limit', message, retryable: false };
  }

  /** true, or why not: robots.txt of the URL's origin (fetched once per origin and source) decides. */
  private async allowedByRobots(url: string): Promise<true | NotFetched> {
    const origin = new URL(url).origin;
    let robots = this.robots.get(origin);
    if (robots === undefined) {
      const read = await this.readRobots(origin);
      // A bound reached while asking for robots.txt is that bound, not an unreadable robots.txt.
      if (typeof read === 'object' && 'reason' in read) return read;
      robots = read;
      this.robots.set(origin, robots);
    }
    if (robots === 'disallow-all') {
      return {
        ok: false,
        reason: 'robots',
        message: `${origin}/robots.txt could not be read, so nothing beyond the given page was fetched`,
        retryable: false,
      };
    }
    if (robots.isAllowed(url, ROBOTS_TOKEN) === false) {
      return {
        ok: false,
        reason: 'robots',
        message: `${origin}/robots.txt does not allow ${new URL(url).pathname}`,
        retryable: false,
      };
    }
    return true;
  }

  /**
   * RFC 9309: 4xx → no rules; 5xx or unreachable → everything disallowed (for now). A robots.txt longer than
   * the bound is read up to it (the last, cut line dropped), as the RFC lets a crawler: its rules there apply.
   */
  private async readRobots(origin: string): Promise<Robots | 'disallow-all' | NotFetched> {
    const url = `${origin}/robots.txt`;
    const outcome = await this.request(
      url,
      'text/plain',
      Number.MAX_SAFE_INTEGER,
      false,
      this.limits.robotsMaxBytes,
    );
    if (outcome.ok) return robotsParser(url, outcome.body.toString('utf8'));
    if (
      outcome.reason === 'http' &&
      outcome.status !== undefined &&
      outcome.status < 500 &&
      outcome.status !== 429
    ) {
      return robotsParser(url, '');
    }
    if (outcome.reason === 'too_large') return robotsParser(url, '');
    if (outcome.reason === 'limit') return outcome;
    this.warnings.push({ code: 'robots_unreadable', message: `${url}: ${outcome.message}`, url });
    return 'disallow-all';
  }

  /** One GET with the session's pacing, time and request bounds, and one retry of a transient failure. */
  private async request(
    url: string,
    accept: string,
    maxBytes: number,
    retry = true,
    /** Read only this many bytes of the body, whole lines (robots.txt); the rest is not downloaded. */
    prefix?: number,
  ): Promise<FetchOutcome> {
    const budget = this.options.budget;
    if (budget.requests >= this.limits.maxRequestsPerJob) {
      return this.limit(`the limit of ${this.limits.maxRequestsPerJob} requests per job was reached`);
    }
    if (maxBytes <= 0) {
      return {
        ok: false,
        reason: 'too_large',
        message: `the source reached ${this.limits.maxSourceBytes} bytes`,
        retryable: false,
      };
    }
    await this.pace(url);
    const timeoutMs = Math.min(this.limits.requestTimeoutMs, this.deadline - this.now());
    if (timeoutMs <= 0) return this.limit(this.deadlineMessage);
    budget.requests += 1;
    const outcome = await this.once(url, accept, maxBytes, timeoutMs, prefix);
    if (outcome.ok || !outcome.retryable || !retry) return outcome;
    const delay = Math.min(
      this.limits.maxRetryAfterMs,
      (outcome as { retryAfter?: number }).retryAfter ?? 1000,
    );
    if (this.now() + delay >= this.deadline) return outcome;
    await this.wait(delay);
    return this.request(url, accept, maxBytes, false, prefix);
  }

  private async pace(url: string): Promise<void> {
    const host = new URL(url).host;
    const robots = this.robots.get(new URL(url).origin);
    const crawlDelay =
      robots && robots !== 'disallow-all' ? (robots.getCrawlDelay(ROBOTS_TOKEN) ?? 0) * 1000 : 0;
    const interval = Math.max(this.limits.minIntervalMs, Math.min(crawlDelay, this.limits.maxCrawlDelayMs));
    const last = this.lastRequest.get(host);
    const due = last === undefined ? 0 : last + interval - this.now();
    if (due > 0) await this.wait(due);
    this.lastRequest.set(host, this.now());
  }

  private async once(
    url: string,
    accept: string,
    maxBytes: number,
    timeoutMs: number,
    prefix?: number,
  ): Promise<FetchOutcome & { retryAfter?: number }> {
    try {
      const response = await this.options.http.request({
        url,
        method: 'GET',
        headers: { accept, 'user-agent': this.userAgent },
        timeoutMs,
        maxBytes,
        followRedirects: true,
      });
      if (response.status < 200 || response.status > 299) {
        await discardBody(response);
        const retryable = response.status >= 500 || response.status === 429;
        return {
          ok: false,
          reason: 'http',
          status: response.status,
          message: `${url} answered HTTP ${response.status}`,
          retryable,
          ...(retryable ? { retryAfter: retryAfterMs(response.headers['retry-after'], this.now()) } : {}),
        };
      }
      return {
        ok: true,
        status: response.status,
        url: response.url,
        headers: response.headers,
        body: prefix === undefined ? await readBody(response) : await readLines(response, prefix),
      };
    } catch (error) {
      if (error instanceof OutboundTooLargeError) {
        return { ok: false, reason: 'too_large', message: error.message, retryable: false };
      }
      if (error instanceof OutboundError) {
        return {
          ok: false,
          reason: 'network',
          message: `${url}: ${error.message}`,
          retryable: error.retryable,
        };
      }
      throw error;
    }
  }
}
