/**
 * `npm run emulators`: only the embedded emulators, with the service's table, queues and buckets. Prints
 * one JSON line with the Lambda environment that points at them, then runs until stopped. The integration
 * tests start it once per run.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { startEmulators } from '../lib/local/emulators';
import { lambdaEnvironment, provisionAll } from '../lib/local/provision';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const emulators = await startEmulators();
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const region = 'us-east-1';
const resources = await provisionAll({
  dynamo: new DynamoDBClient({ region, endpoint: emulators.dynamodb, credentials }),
  sqs: new SQSClient({ region, endpoint: emulators.aws, credentials }),
  s3: new S3Client({ region, endpoint: emulators.aws, credentials, forcePathStyle: true }),
});
console.log(
  JSON.stringify({
    env: lambdaEnvironment(resources, {
      dynamodb: emulators.dynamodb,
      aws: emulators.aws,
      storage: emulators.storage.url,
    }),
    deadLetterQueueUrls: resources.deadLetterQueueUrls,
  }),
);

const stop = async () => {
  await emulators.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
