/**
 * `npm run callbacks -- <command>`: operate export callbacks (SPEC 6).
 *
 *   list                         the callbacks that failed for good (the callbacks dead-letter queue)
 *   replay <export id> [--force] a new series of attempts with the same webhook-id; --force also while one
 *                                is still in flight
 *
 * Target: the running local stack (`npm start`), or a deployed stack: `--outputs cdk-outputs.json` (region
 * from its Region output), or its Lambda environment (TABLE_NAME, CALLBACKS_QUEUE_URL, CALLBACKS_DLQ_URL, ...)
 * with the region as the AWS CLI resolves it (--region, AWS_REGION, the profile's region).
 */
import { parseArgs } from 'node:util';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DomainError } from '../lambdas/core/errors';
import { replayCallback } from '../lambdas/core/use-cases/callbacks';
import { loadConfig } from '../lambdas/shared/config';
import { workQueue } from '../lambdas/shared/queue-wiring';
import { exportRepository, systemClock } from '../lambdas/shared/wiring';
import { readOutputs, resolveRegion, TargetError } from '../lib/admin/stack-target';
import { OUTPUTS } from '../lib/aws/names';
import { DEFAULT_STATE_FILE } from '../lib/local/runtime';
import { readRunningState } from '../lib/local/state-file';
import { BUCKETS, type BucketKey, ENV, QUEUES, type QueueKey } from '../lib/resources';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const USAGE = `usage: npm run callbacks -- list [--outputs cdk-outputs.json] [--region r] [--profile p]
       npm run callbacks -- replay <export id> [--force] [--outputs cdk-outputs.json] [--region r] [--profile p]`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    force: { type: 'boolean', default: false },
    outputs: { type: 'string' },
    region: { type: 'string' },
    profile: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

/** The Lambda environment of a deployed stack, from its outputs. */
const environmentOf = (file: string): Record<string, string> => {
  const outputs = Object.assign({}, ...Object.values(readOutputs(file))) as Record<string, string>;
  const need = (key: string) => outputs[key] ?? fail(`${file} has no ${key} output`);
  return {
    [ENV.tableName]: need(OUTPUTS.tableName),
    ...Object.fromEntries(
      (Object.keys(QUEUES) as QueueKey[]).map((key) => [ENV.queueUrl[key], need(OUTPUTS.queueUrl(key))]),
    ),
    [ENV.callbackDeadLetterQueueUrl]: need(OUTPUTS.deadLetterQueueUrl('callbacks')),
    ...Object.fromEntries(
      (Object.keys(BUCKETS) as BucketKey[]).map((key) => [ENV.bucket[key], need(OUTPUTS.bucketName(key))]),
    ),
  };
};

const main = async (): Promise<void> => {
  const [command, exportId] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  let local = false;
  if (values.outputs) {
    Object.assign(process.env, environmentOf(values.outputs));
  } else if (!process.env.TABLE_NAME) {
    const state =
      readRunningState(DEFAULT_STATE_FILE) ??
      fail(
        'No stack found: start the local service (npm start), pass --outputs cdk-outputs.json, or set TABLE_NAME.',
      );
    Object.assign(process.env, state.env);
    local = true;
  }
  if (!local) {
    process.env.AWS_REGION = await resolveRegion({
      flag: values.region,
      profile: values.profile,
      outputs: values.outputs ? readOutputs(values.outputs) : undefined,
      env: process.env,
    });
  }
  const sqs = new SQSClient({
    region: process.env.AWS_REGION,
    endpoint: process.env.AWS_ENDPOINT_URL_SQS,
    ...(local ? {} : { profile: values.profile }),
  });
  // Deployed: the SDK's credential chain (profiles, SSO, ...) signs the other clients' calls too.
  const config = local
    ? loadConfig(process.env)
    : {
        ...loadConfig(process.env),
        credentials: undefined,
        credentialSource: () => sqs.config.credentials(),
      };
  if (command === 'list') {
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
    const result = await replayCallback(
      { exports: exportRepository(config), queue: workQueue(config), clock: systemClock },
      id,
      { force: values.force },
    );
    console.log(
      JSON.stringify({ export_id: id, event_id: result.message.eventId, previous: result.previous }),
    );
    return;
  }
  fail(`unknown command "${command}"\n${USAGE}`);
};

main().catch((error: unknown) => {
  if (error instanceof DomainError) fail(`${error.code}: ${error.message}`);
  if (error instanceof TargetError) fail(error.message);
  if (error instanceof Error && /is not running/.test(error.message)) fail(error.message);
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
