/**
 * `npm start`: the whole service on this machine (SPEC 10). Emulators, resources, the HTTP API and the
 * queue consumers, in one process, on Lambda's Node.js major. State is kept in LOCAL_DATA_DIR (.local/data)
 * across restarts and crashes; `npm start -- --reset` starts empty. Ctrl-C stops everything.
 */
import { parseArgs } from 'node:util';
import { nodeVersionProblem } from '../lib/local/node-version';

const USAGE = `usage: npm start [-- --reset]
  --reset   forget everything kept in LOCAL_DATA_DIR (.local/data) and start empty`;

let args: { reset?: boolean; help?: boolean };
try {
  args = parseArgs({
    options: { reset: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  }).values;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const wrongNode = nodeVersionProblem();
if (wrongNode) {
  console.error(wrongNode);
  process.exit(1);
}

// The warning is about the SDK's future Node support; Lambda runs Node 24.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not "${process.env.PORT}"`);
  process.exit(1);
}
const quiet = process.env.LOG_REQUESTS === 'false';

// Imported once the Node.js version is known to be right (they need node:sqlite).
const { defaultDataDir } = await import('../lib/local/data-dir');
const { docsRoutes } = await import('../lib/local/docs');
const { startLocalRuntime } = await import('../lib/local/runtime');
const { consoleRoutes, prepareConsole } = await import('../lib/local/console');

// The operations console is built on start when its sources changed since the last build (a few seconds).
const consoleFiles = await prepareConsole().catch((error: unknown) => {
  console.error(
    `could not build the operations console: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});

const dataDir = defaultDataDir();
console.log(`node ${process.version}, data in ${dataDir}${args.reset ? ' (reset: starting empty)' : ''}`);

// Filled in below once the emulators run: the console's policy names the object store's origin.
const staticRoutes = new Map(docsRoutes());
const runtime = await startLocalRuntime({
  port,
  devApiKey: process.env.DEV_API_KEY || undefined,
  devWebhookSecret: process.env.DEV_WEBHOOK_SECRET || undefined,
  dataDir,
  reset: args.reset,
  staticRoutes,
  env: {
    ALLOW_LOOPBACK_URLS: process.env.ALLOW_LOOPBACK_URLS ?? 'true',
    CALLBACK_RETRY_DELAYS: process.env.CALLBACK_RETRY_DELAYS,
  },
  log: (line) => {
    if (!quiet) console.log(JSON.stringify({ source: 'local-gateway', ...line }));
  },
}).catch((error: unknown) => {
  console.error(`could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

for (const [path, route] of consoleRoutes(consoleFiles, {
  storageOrigins: [new URL(runtime.emulators.storage.url).origin],
}))
  staticRoutes.set(path, route);

// A consumer whose handler cannot load would leave every job queued for good: stop, and say why.
runtime.consumersReady.then(
  () => console.log('queue consumers ready'),
  async (error: unknown) => {
    console.error(`could not start: ${error instanceof Error ? error.message : String(error)}`);
    await runtime.stop().catch(() => undefined);
    process.exit(1);
  },
);

const { dev, recovery } = runtime;
if (dev.origin === 'environment') {
  console.log('Client "dev" uses DEV_API_KEY from the environment.');
} else {
  console.log(
    [
      dev.origin === 'generated'
        ? 'Seeded client "dev" (set DEV_API_KEY and DEV_WEBHOOK_SECRET to choose your own):'
        : 'Client "dev", kept from the last run (npm start -- --reset forgets it):',
      `  DEV_API_KEY=${dev.apiKey}`,
      `  DEV_WEBHOOK_SECRET=${dev.webhookSecret}`,
    ].join('\n'),
  );
}
if (recovery.leasesReleased + recovery.messagesReleased + recovery.requeued + recovery.keysReleased > 0) {
  console.log(
    `resumed the previous run's work: ${recovery.messagesReleased} in-flight messages, ` +
      `${recovery.leasesReleased} job leases, ${recovery.requeued} open jobs and exports enqueued again, ` +
      `${recovery.keysReleased} idempotency keys in flight`,
  );
}
console.log(
  `emulators: dynamodb ${runtime.emulators.dynamodb}, sqs+s3 ${runtime.emulators.aws}, storage (signed URLs) ${runtime.emulators.storage.url}`,
);
console.log(
  `operations console: ${runtime.url}/ops (sign in with an operator key: npm run keys -- create --client ops --scope operator)`,
);
console.log(`listening on ${runtime.url}`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
