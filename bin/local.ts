/**
 * `npm start`: the whole service on this machine (SPEC 10). Emulators, resources, the HTTP API and the
 * queue consumers, in one process. Ctrl-C stops everything.
 */
import { consoleRoutes, prepareConsole } from '../lib/local/console';
import { docsRoutes } from '../lib/local/docs';
import { startLocalRuntime } from '../lib/local/runtime';

// The warning is about the SDK's future Node support; Lambda runs Node 24.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not "${process.env.PORT}"`);
  process.exit(1);
}
const quiet = process.env.LOG_REQUESTS === 'false';

// The operations console is built on start when its sources changed since the last build (a few seconds).
const consoleFiles = await prepareConsole().catch((error: unknown) => {
  console.error(
    `could not build the operations console: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});

// Filled in below once the emulators run: the console's policy names the object store's origin.
const staticRoutes = new Map(docsRoutes());
const runtime = await startLocalRuntime({
  port,
  devApiKey: process.env.DEV_API_KEY || undefined,
  devWebhookSecret: process.env.DEV_WEBHOOK_SECRET || undefined,
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
  storageOrigins: [new URL(runtime.emulators.aws).origin],
}))
  staticRoutes.set(path, route);

if (runtime.dev.generated) {
  console.log(
    [
      'Seeded client "dev" (set DEV_API_KEY and DEV_WEBHOOK_SECRET to choose your own):',
      `  DEV_API_KEY=${runtime.dev.apiKey}`,
      `  DEV_WEBHOOK_SECRET=${runtime.dev.webhookSecret}`,
    ].join('\n'),
  );
} else {
  console.log('Seeded client "dev" with DEV_API_KEY from the environment.');
}
console.log(`emulators: dynamodb ${runtime.emulators.dynamodb}, sqs+s3 ${runtime.emulators.aws}`);
console.log(
  `operations console: ${runtime.url}/ops/ (sign in with an operator key: npm run keys -- create --client ops --scope operator)`,
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
