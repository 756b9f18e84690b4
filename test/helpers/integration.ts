import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { loadConfig } from '../../lambdas/shared/config';
import { type AppDeps, awsClients, buildDeps } from '../../lambdas/shared/deps';
import { silentLogger } from './fakes';

/** Dependencies wired to the emulators started by the integration global setup. */
export const emulatorDeps = (overrides: Partial<AppDeps> = {}): AppDeps =>
  buildDeps(loadConfig(process.env), { logger: silentLogger(), allowHttpCallbacks: true, ...overrides });

export const emulatorClients = () => awsClients(loadConfig(process.env));

export const sqsClient = () =>
  new SQSClient({ region: 'us-east-1', endpoint: process.env.AWS_ENDPOINT_URL_SQS });

/** A client id no other test uses, so tests share the emulators without seeing each other's data. */
export const uniqueClient = (): string => `c-${randomUUID().slice(0, 12)}`;
