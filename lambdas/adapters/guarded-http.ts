import { promises as dns } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress, isAllowedAddress, isLocalhostName } from '../core/address-policy';
import {
  OutboundBlockedError,
  OutboundError,
  OutboundNetworkError,
  OutboundTooLargeError,
} from '../core/outbound';
import type { OutboundHttp, OutboundRequest, OutboundResponse } from '../core/ports';
import { ACCEPT_ENCODING, contentCodings, decodeContent } from './content-coding';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has. Injected in tests so they never touch DNS. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The operating system's resolver (getaddrinfo), every address, in its order. */
export const systemResolver: Resolver = async (hostname) => {
  const addresses = await dns.lookup(hostname, { all: true, verbatim: true });
  return addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export {
  type AddressRange,
  classifyAddress,
  isAllowedAddress,
  isLocalhostName,
} from '../core/address-policy';

export interface GuardedHttpOptions {
  /** The local runtime's `ALLOW_LOOPBACK_URLS`: loopback targets allowed, every other internal range still refused. */
  readonly allowLoopback?: boolean;
  readonly resolver?: Resolver;
  /** SPEC 8: 3. */
  readonly maxRedirects?: number;
  readonly userAgent?: string;
  /**
   * Loopback ports never reached even when `allowLoopback`: the local runtime's own emulators (DynamoDB,
   * SQS, S3 and its upload server), which answer unsigned requests there. A job source must not read
   * another client's objects or list the buckets through them.
   */
  readonly refusedLoopbackPorts?: readonly number[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

interface Target {
  readonly url: URL;
  /** The host without IPv6 brackets. */
  readonly host: string;
}

/**
 * A `lookup` that answers with the address already checked: the socket cannot reach anything else.
 *
 * It answers asynchronously, as a real lookup does. Answered synchronously, a connection that fails at once
 * (no route to the address, EINVAL, ...) emits its 'error' before the request has attached its listeners
 * to the socket, and that unhandled 'error' event kills the process.
 */
const pinnedLookup = (address: ResolvedAddress): LookupFunction =>
  ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    setImmediate(() => {
      if (options?.all) callback(null, [{ address: address.address, family: address.family }]);
      else callback(null, address.address, address.family);
    });
  }) as unknown as LookupFunction;

const networkError = (error: unknown, signal: AbortSignal): OutboundError => {
  if (error instanceof OutboundError) return error;
  if (signal.aborted && signal.reason instanceof OutboundError) return signal.reason;
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new OutboundNetworkError(typeof code === 'string' ? `${code}: ${message}` : message, {
    cause: error,
  });
};

/**
 * The guarded outbound HTTP client of SPEC 8, used for every URL the service fetches or posts to:
 * - `http:` and `https:` only;
 * - the host is resolved once and EVERY address is checked (`isAllowedAddress`); IP literals in any
 *   spelling are normalised by the WHATWG URL parser and checked the same way;
 * - the connection is pinned to the checked address through the socket's `lookup`, so a second, different
 *   DNS answer (rebinding) can never be used; TLS still verifies the certificate against the host name;
 * - redirects are followed by hand (at most 3), each target checked again; credentials are dropped when
 *   the origin changes;
 * - one time limit covers the whole exchange, resolution to last byte; the body is cut off past `maxBytes`.
 *
 * Errors: OutboundBlockedError (scheme, address, too many redirects), OutboundTooLargeError,
 * OutboundNetworkError (time-out, DNS failure, refused or reset connection, TLS failure).
 */
export class GuardedHttp implements OutboundHttp {
  private readonly allowLoopback: boolean;
  private readonly resolver: Resolver;
  private readonly maxRedirects: number;
  private readonly userAgent: string;
  private readonly refusedLoopbackPorts: ReadonlySet<number>;

  constructor(options: GuardedHttpOptions = {}) {
    this.allowLoopback = options.allowLoopback ?? false;
    this.resolver = options.resolver ?? systemResolver;
    this.maxRedirects = options.maxRedirects ?? 3;
    this.userAgent = options.userAgent ?? 'catalog-jobs/1';
    this.refusedLoopbackPorts = new Set(options.refusedLoopbackPorts ?? []);
  }

  async request(request: OutboundRequest): Promise<OutboundResponse> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new OutboundNetworkError(`timed out after ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    timer.unref();
    const { signal } = controller;
    let url = request.url;
    let method = request.method;
    let body = request.body;
    let headers: Record<string, string> = Object.fromEntries(
      Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    try {
      for (let redirects = 0; ; redirects += 1) {
        const target = this.parse(url);
        const address = await this.resolve(target, signal);
        const response = await this.send(target, address, method, headers, body, signal);
        const location = response.headers.location;
        if (request.followRedirects && REDIRECTS.has(response.statusCode ?? 0) && location) {
          response.destroy();
          if (redirects >= this.maxRedirects) {
            throw new OutboundBlockedError(`more than ${this.maxRedirects} redirects (last to ${location})`);
          }
          let next: URL;
          try {
            next = new URL(location, target.url);
          } catch (error) {
            throw new OutboundBlockedError(`redirect to an invalid URL: ${location}`, { cause: error });
          }
          if (next.origin !== target.url.origin) {
            headers = Object.fromEntries(
              Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k)),
            );
          }
          const status = response.statusCode ?? 0;
          if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
            headers = Object.fromEntries(
              Object.entries(headers).filter(([k]) => k !== 'content-type' && k !== 'content-length'),
            );
          }
          url = next.toString();
          continue;
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > request.maxBytes) {
          response.destroy();
          throw new OutboundTooLargeError(
            `${url}: ${declared} bytes, more than the limit of ${request.maxBytes}`,
          );
        }
        // The body is handed over decoded, so the headers that describe its encoded form go.
        const codings = contentCodings(response.headers['content-encoding']);
        const encodedOnly = codings.length > 0 ? ['content-encoding', 'content-length'] : [];
        return {
          status: response.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(response.headers)
              .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
              .filter(([k]) => !encodedOnly.includes(k))
              .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
          ),
          url,
          body: this.bodyOf(response, codings, url, request.maxBytes, signal, () => clearTimeout(timer)),
        };
      }
    } catch (error) {
      clearTimeout(timer);
      throw networkError(error, signal);
    }
  }

  private parse(raw: string): Target {
    let url: URL;
    try {
      url = new URL(raw);
    } catch (error) {
      throw new OutboundBlockedError(`not a valid URL: ${raw.slice(0, 200)}`, { cause: error });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundBlockedError(`only http and https URLs are allowed, not ${url.protocol}`);
    }
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (host === '') throw new OutboundBlockedError('the URL has no host');
    return { url, host };
  }

  private async resolve(target: Target, signal: AbortSignal): Promise<ResolvedAddress> {
    let addresses: readonly ResolvedAddress[];
    const literal = isIP(target.host);
    if (literal !== 0) {
      addresses = [{ address: target.host, family: literal === 6 ? 6 : 4 }];
    } else if (isLocalhostName(target.host)) {
      // RFC 6761: this machine, whatever DNS would say; never asked.
      if (!this.allowLoopback)
        throw new OutboundBlockedError(`${target.url.host} is this machine, which may not be reached`);
      addresses = [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    } else {
      let abortListener: (() => void) | undefined;
      const aborted = new Promise<never>((_, reject) => {
        abortListener = () => reject(signal.reason);
        signal.addEventListener('abort', abortListener, { once: true });
      });
      try {
        addresses = await Promise.race([this.resolver(target.host), aborted]);
      } catch (error) {
        if (error instanceof OutboundError) throw error;
        throw new OutboundNetworkError(`cannot resolve ${target.host}: ${(error as Error).message}`, {
          cause: error,
        });
      } finally {
        if (abortListener) signal.removeEventListener('abort', abortListener);
      }
    }
    if (addresses.length === 0) throw new OutboundNetworkError(`${target.host} has no address`);
    for (const { address } of addresses) {
      if (!isAllowedAddress(address, { allowLoopback: this.allowLoopback })) {
        const where = literal !== 0 ? `${target.url.host} is` : `${target.url.host} resolves to`;
        throw new OutboundBlockedError(
          `${where} ${address} (${classifyAddress(address)}), which may not be reached`,
        );
      }
    }
    const port = Number(target.url.port || (target.url.protocol === 'https:' ? 443 : 80));
    if (
      this.refusedLoopbackPorts.has(port) &&
      addresses.some(({ address }) => classifyAddress(address) === 'loopback')
    ) {
      throw new OutboundBlockedError(
        `${target.url.host} is the service's own storage, which may not be reached`,
      );
    }
    // Lambda has no IPv6 egress unless configured for it: prefer IPv4 when the host has both.
    return addresses.find((a) => a.family === 4) ?? (addresses[0] as ResolvedAddress);
  }

  private send(
    target: Target,
    address: ResolvedAddress,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const payload =
      body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const client = target.url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(
        {
          protocol: target.url.protocol,
          host: target.host,
          port: target.url.port || undefined,
          path: `${target.url.pathname}${target.url.search}`,
          method,
          headers: {
            'user-agent': this.userAgent,
            // Without it any coding is acceptable (RFC 9110 12.5.3): name the ones bodyOf decodes.
            'accept-encoding': ACCEPT_ENCODING,
            ...headers,
            host: target.url.host,
            ...(payload === undefined ? {} : { 'content-length': String(payload.byteLength) }),
          },
          lookup: pinnedLookup(address),
          // SNI and the certificate check use the name without a trailing dot (RFC 6066).
          ...(isIP(target.host) === 0 ? { servername: target.host.replace(/\.$/, '') } : {}),
          agent: false,
          signal,
        },
        resolve,
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * The body, decoded from its Content-Encoding (gzip, deflate, br): `maxBytes` bounds the decoded bytes,
   * so a small body that inflates to gigabytes is cut off at the limit.
   */
  private bodyOf(
    response: IncomingMessage,
    codings: readonly string[],
    url: string,
    maxBytes: number,
    signal: AbortSignal,
    done: () => void,
  ): AsyncIterable<Uint8Array> {
    return {
      [Symbol.asyncIterator]: () => {
        const chunks = (
          codings.length > 0 ? decodeContent(response, codings) : response[Symbol.asyncIterator]()
        ) as AsyncIterator<Buffer>;
        let received = 0;
        const finish = () => {
          done();
          response.destroy();
          chunks.return?.().catch(() => undefined);
        };
        return {
          next: async (): Promise<IteratorResult<Uint8Array>> => {
            try {
              const next = await chunks.next();
              if (next.done) {
                finish();
                return { done: true, value: undefined };
              }
              received += next.value.length;
              if (received > maxBytes) {
                throw new OutboundTooLargeError(
                  `${url}: the response is larger than the limit of ${maxBytes} bytes`,
                );
              }
              return { done: false, value: next.value };
            } catch (error) {
              finish();
              throw networkError(error, signal);
            }
          },
          return: async (): Promise<IteratorResult<Uint8Array>> => {
            finish();
            return { done: true, value: undefined };
          },
        };
      },
    };
  }
}
