import { defineConfig } from 'vite';

/**
 * The operations console (SPEC 5.4): a single page served under `/ops/` by the local runtime and, in AWS,
 * by the API itself (lib/aws/console-site.ts). Asset URLs are relative (`./assets/...`), so the same build
 * works under `/ops/` locally and under `/<stage>/ops/` in API Gateway.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    target: 'es2022',
    emptyOutDir: true,
    sourcemap: false,
    // Everything the page needs is in the build: no inlined data: URLs (the CSP allows none for scripts).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 2048,
    rolldownOptions: {
      // The catalog schema's module imports lambdas/core/catalog/ids.ts (UUIDv5 on node:crypto) for the
      // format 1 upgrade, which the console never calls: nothing of it is bundled, so the notice is noise.
      onLog(level, log, handler) {
        if (log.message.includes('"node:crypto" has been externalized')) return;
        handler(level, log);
      },
    },
  },
});
