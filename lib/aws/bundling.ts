/**
 * How every handler is bundled: ONE description, turned into NodejsFunction bundling options by the stack and
 * into esbuild build options by the bundle-size report (bench/bundle-sizes.ts), so both produce the same
 * bundle. Mirrors the flags aws-cdk-lib passes to esbuild (`--bundle --platform=node --target ... --format
 * ... --minify --keep-names --sourcemap --sources-content=false --main-fields`).
 */
import type { BuildOptions } from 'esbuild';

export const BUNDLE = {
  /** Node major of the Lambda runtime (Runtime.NODEJS_24_X). */
  target: 'node24',
  /**
   * CommonJS output (NodejsFunction's default), from ES module sources: esbuild tree-shakes them alike. Measured
   * (`npm run bundle-sizes`): an ES module bundle imports `node:http` as an ES module, whose namespace Node
   * builds by reading every export, the lazy ones included, and so loads undici (fetch, WebSocket) at init:
   * 20–40 ms of CPU for every function that holds an SDK client. `require('node:http')` leaves them lazy.
   */
  format: 'cjs',
  /** ESM packages first: smaller bundles (tree-shaking) for middy, Powertools and the AWS SDK v3. */
  mainFields: ['module', 'main'],
  minify: true,
  /** Minified, but classes keep their names: errors are logged by name (DomainError sets it from the class). */
  keepNames: true,
  /** External .map next to index.js; NODE_OPTIONS=--enable-source-maps makes stack traces readable. */
  sourceMap: true,
  /** Stack traces need the mappings, not a copy of every source file: the map shrinks about fourfold. */
  sourcesContent: false,
  /**
   * Nothing is external: the AWS SDK v3 is bundled (STYLE: pins the version the tests ran against, and
   * per-command imports tree-shake to a fraction of the runtime's copy).
   */
  externalModules: [] as string[],
} as const;

/** The bundle's file name inside the Lambda asset (NodejsFunction names CommonJS output index.js). */
export const BUNDLE_FILE = 'index.js';

/**
 * esbuild options equivalent to what NodejsFunction runs for `entry`, plus the metafile the size report reads.
 * The stack does not ask for the metafile: NodejsFunction would write it into the asset, shipping ~0.7 MB of
 * JSON in every function's zip. It does not change the bundle itself.
 */
export const esbuildOptions = (
  entry: string,
  outfile: string,
  installed: readonly string[] = [],
): BuildOptions => ({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  target: BUNDLE.target,
  format: BUNDLE.format,
  mainFields: [...BUNDLE.mainFields],
  minify: BUNDLE.minify,
  keepNames: BUNDLE.keepNames,
  sourcemap: BUNDLE.sourceMap,
  sourcesContent: BUNDLE.sourcesContent,
  metafile: true,
  // Packages a function ships installed beside its bundle (lib/aws/functions.ts Packaging) stay external.
  external: [...BUNDLE.externalModules, ...installed],
  logLevel: 'warning',
});
