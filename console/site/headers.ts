/**
 * The console's HTTP answers, the same locally (lib/local/console.ts) and in AWS (the console-site function):
 * a strict Content-Security-Policy (scripts, styles and workers only from the console's own origin, no inline
 * script or style, no eval, no framing) and the usual hardening headers. One definition for both, so that
 * they cannot drift apart.
 */

/** Where the console lives, relative to the API root (`http://127.0.0.1:3000/ops/`, `.../prod/ops/`). */
export const CONSOLE_PATH = '/ops';

export interface PolicyOptions {
  /**
   * Origins of the object store that serves a job's sources (`GET /v1/ops/jobs/{id}/sources/{n}` answers a
   * presigned URL of it): the page may show images from them and fetch PDFs and CSVs from them.
   */
  readonly storageOrigins?: readonly string[];
}

export const contentSecurityPolicy = (options: PolicyOptions = {}): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Sources are shown from the object store or from blob: URLs of their bytes; data: is the empty favicon.
    `img-src ${["'self'", 'blob:', 'data:', ...(options.storageOrigins ?? [])].join(' ')}`,
    "font-src 'self'",
    `connect-src ${["'self'", ...(options.storageOrigins ?? [])].join(' ')}`,
    // pdf.js renders in a module worker loaded from the console's own assets.
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');

/** Headers of every console answer (HTML and assets alike). */
export const securityHeaders = (options: PolicyOptions = {}): Record<string, string> => ({
  'Content-Security-Policy': contentSecurityPolicy(options),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  // Ignored over plain http (the local runtime); API Gateway only speaks https.
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
});

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The content type of a console file, or undefined for a kind the console does not serve. Only text: API
 * Gateway's REST API passes text bodies through untouched, while binary ones would need binary media types
 * on the whole API (which would change how every JSON route receives its body).
 */
export const contentTypeOf = (path: string): string | undefined => {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? undefined : CONTENT_TYPES[path.slice(dot).toLowerCase()];
};

/** Hashed build assets never change under their name; the page itself is checked on every load. */
export const cacheControlOf = (path: string): string =>
  path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
