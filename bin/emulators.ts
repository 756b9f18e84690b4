/**
 * `npm run emulators`: only the embedded emulators, with the service's table, queues and buckets. Prints
 * one JSON line with the Lambda environment that points at them, then runs until stopped. The integration
 * tests start it once per run. `-- --sam-env <file> [--sam-host <host>]` also writes that environment as the
 * `--env-vars` file of `sam local start-api` (lib/local/sam-env.ts, docs/deploying.md "SAM local").
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { startEmulators } from '../lib/local/emulators';
import { lambdaEnvironment, provisionAll } from '../lib/local/provision';
import { samEnvFile } from '../lib/local/sam-env';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values: options } = parseArgs({
  options: { 'sam-env': { type: 'string' }, 'sam-host': { type: 'string' } },
  strict: true,
});
if (options['sam-host'] !== undefined && options['sam-env'] === undefined) {
  console.error('--sam-host goes with --sam-env <file>');
  process.exit(2);
}
if (options['sam-host'] !== undefined) samEnvFile({}, options['sam-host']); // a bad host refused before starting

const emulators = await startEmulators();
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const region = 'us-east-1';
const resources = await provisionAll({
  dynamo: new DynamoDBClient({ region, endpoint: emulators.dynamodb, credentials }),
  sqs: new SQSClient({ region, endpoint: emulators.aws, credentials }),
  s3: new S3Client({ region, endpoint: emulators.aws, credentials, forcePathStyle: true }),
});
const env = lambdaEnvironment(resources, {
  dynamodb: emulators.dynamodb,
  aws: emulators.aws,
  storage: emulators.storage.url,
});
if (options['sam-env'] !== undefined) {
  writeFileSync(options['sam-env'], `${JSON.stringify(samEnvFile(env, options['sam-host']), null, 2)}\n`);
  console.error(`SAM environment written to ${options['sam-env']}`);
}
console.log(JSON.stringify({ env, deadLetterQueueUrls: resources.deadLetterQueueUrls }));

const stop = async () => {
  await emulators.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
