/**
 * `npm run callbacks -- <command>`: operate export callbacks (SPEC 6).
 *
 *   list                         the callbacks that failed for good (the callbacks dead-letter queue)
 *   replay <export id> [--force] a new series of attempts with the same webhook-id; --force also while one
 *                                is still in flight
 *
 * Target: the running local stack (`npm start`), or a deployed stack when its Lambda environment
 * (TABLE_NAME, CALLBACKS_QUEUE_URL, CALLBACKS_DLQ_URL, ...) is set.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DomainError } from '../lambdas/core/errors';
import { replayCallback } from '../lambdas/core/use-cases/callbacks';
import { loadConfig } from '../lambdas/shared/config';
import { buildDeps } from '../lambdas/shared/deps';
import { DEFAULT_STATE_FILE } from '../lib/local/runtime';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const USAGE = `usage: npm run callbacks -- list
       npm run callbacks -- replay <export id> [--force]`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
});

const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

if (!process.env.TABLE_NAME) {
  if (!existsSync(DEFAULT_STATE_FILE)) {
    fail(
      'No stack found: start the local service (npm start), or set the deployed stack’s Lambda environment.',
    );
  }
  const state = JSON.parse(readFileSync(DEFAULT_STATE_FILE, 'utf8')) as { env: Record<string, string> };
  Object.assign(process.env, state.env);
}

const main = async (): Promise<void> => {
  const [command, exportId] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig(process.env);
  const deps = buildDeps(config);
  if (command === 'list') {
    const sqs = new SQSClient({ region: config.region, endpoint: config.endpoints.sqs });
    const seen = new Set<string>();
    for (let round = 0; round < 10; round++) {
      // Visibility 0: the letters stay where they are; this only looks.
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: config.callbackDeadLetterQueueUrl,
          MaxNumberOfMessages: 10,
          VisibilityTimeout: 0,
        }),
      );
      const fresh = Messages.filter((m) => !seen.has(m.MessageId!));
      if (fresh.length === 0) break;
      for (const m of fresh) {
        seen.add(m.MessageId!);
        const letter = JSON.parse(m.Body!) as Record<string, unknown>;
        // `kind` tells a callback given up on (callback_dead_letter) from a message SQS redrove after
        // repeated worker failures (callback); the event body itself is left out of the listing.
        const { event: _event, ...summary } = letter;
        console.log(JSON.stringify(summary));
      }
    }
    return;
  }
  if (command === 'replay') {
    const id = exportId ?? fail('replay needs an export id');
    const result = await replayCallback({ exports: deps.exports, queue: deps.queue, clock: deps.clock }, id, {
      force: values.force,
    });
    console.log(
      JSON.stringify({ export_id: id, event_id: result.message.eventId, previous: result.previous }),
    );
    return;
  }
  fail(`unknown command "${command}"\n${USAGE}`);
};

main().catch((error: unknown) => {
  if (error instanceof DomainError) fail(`${error.code}: ${error.message}`);
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
