import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsWorkQueue } from '../adapters/sqs-work-queue';
import type { Config } from './config';
import { clientOptions, once } from './wiring';

/** The function's SQS client (wiring.ts says why a module of its own). */
export const sqsClient = (config: Config): SQSClient =>
  once(config, 'sqs', () => new SQSClient(clientOptions(config, config.endpoints.sqs)));

/** Every queue of the service (jobs, exports, callbacks and the callbacks' dead letters). */
export const workQueue = (config: Config): SqsWorkQueue =>
  once(
    config,
    'queue',
    () =>
      new SqsWorkQueue(sqsClient(config), {
        ...config.queueUrls,
        callbackDeadLetters: config.callbackDeadLetterQueueUrl,
      }),
  );
