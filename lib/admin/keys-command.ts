/**
 * `npm run keys -- <command>` (bin/keys.ts): clients, API keys and webhook secrets (SPEC 2), against the
 * running local service or a deployed stack. A function of its arguments, environment and AWS clients, so
 * that the unit tests drive it with aws-sdk-client-mock.
 */

import { parseArgs } from 'node:util';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoCredentialRepository } from '../../lambdas/adapters/dynamo-credential-repository';
import { DynamoDocumentTable } from '../../lambdas/adapters/dynamo-document';
import { documentClient } from '../../lambdas/adapters/dynamo-marshalling';
import type { Scope } from '../../lambdas/core/auth';
import { DomainError } from '../../lambdas/core/errors';
import type { CredentialRepository } from '../../lambdas/core/ports';
import {
  ensureClient,
  issueKey,
  revokeKey,
  rotateWebhookSecret,
} from '../../lambdas/core/use-cases/credentials';
import { type LocalState, readRunningState } from '../local/state-file';
import { deployedNames, readOutputs, resolveRegion, type StackOutputs, TargetError } from './stack-target';
import { type Registration, registerUsageKey } from './usage-plan';

export const KEYS_USAGE = `usage: npm run keys -- <command> [options]
  create --client <id> [--scope client|operator]   prints {"client_id","scope","api_key","webhook_secret"}
  list [--client <id>]                             one JSON line per key (never the key itself)
  revoke <key_id | api_key>                        immediate locally, within 60 s in AWS
  rotate-webhook-secret --client <id>              the previous secret keeps signing for 24 h
  sync                                             attaches every client's usage key to the usage plan
options: --outputs <file>   a deployed stack's outputs (cdk-outputs.json: TableName, UsagePlanId, Region)
         --region <region>  --profile <name>       as the AWS CLI takes them (else AWS_REGION, AWS_PROFILE, ...)
Without --outputs: TABLE_NAME (and USAGE_PLAN_ID) name a deployed stack, or with AWS_ENDPOINT_URL_DYNAMODB on this
machine the emulators' table (npm run emulators); otherwise the running local service.`;

export interface KeysIo {
  out(line: string): void;
  err(line: string): void;
}

export interface KeysEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly io: KeysIo;
  /** Where `npm start` describes the running local service. */
  readonly localStateFile: string;
  /** The table's repository for a target (tests give an in-memory one). */
  readonly repository?: (target: Target) => CredentialRepository;
}

export interface Target {
  readonly local: boolean;
  readonly tableName: string;
  readonly region: string;
  readonly usagePlanId?: string;
  readonly dynamodbEndpoint?: string;
  readonly profile?: string;
}

class UsageError extends Error {}

const isLoopbackEndpoint = (endpoint: string | undefined): endpoint is string => {
  if (!endpoint) return false;
  try {
    const { hostname } = new URL(endpoint);
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
  } catch {
    return false;
  }
};

const resolveTarget = async (
  values: { outputs?: string; region?: string; profile?: string },
  environment: KeysEnvironment,
): Promise<Target> => {
  const { env } = environment;
  let outputs: StackOutputs | undefined;
  if (values.outputs) outputs = readOutputs(values.outputs);
  // The emulators' table (npm run emulators: TABLE_NAME and a DynamoDB endpoint on this machine, as for
  // sam local): local, with no usage plan, as the running local service's.
  if (!outputs && env.TABLE_NAME && isLoopbackEndpoint(env.AWS_ENDPOINT_URL_DYNAMODB)) {
    return {
      local: true,
      tableName: env.TABLE_NAME,
      dynamodbEndpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
      region: 'us-east-1',
    };
  }
  if (outputs || env.TABLE_NAME) {
    const names = deployedNames(outputs, env);
    const region = await resolveRegion({ flag: values.region, profile: values.profile, outputs, env });
    return {
      local: false,
      ...names,
      region,
      profile: values.profile,
      dynamodbEndpoint: env.AWS_ENDPOINT_URL_DYNAMODB || undefined,
    };
  }
  let state: LocalState | undefined;
  try {
    state = readRunningState(environment.localStateFile);
  } catch (error) {
    throw new TargetError((error as Error).message);
  }
  if (state) {
    return {
      local: true,
      tableName: state.tableName,
      dynamodbEndpoint: state.dynamodbEndpoint,
      region: 'us-east-1',
    };
  }
  throw new TargetError(
    'No stack found: start the local service (npm start), pass --outputs cdk-outputs.json, or set TABLE_NAME.',
  );
};

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The table's credential records through the SDK's document client: the emulator's credentials locally;
 * deployed, the SDK's own chain for the profile (SSO, assumed roles, ...), as the AWS CLI resolves it.
 */
const dynamoRepository = (target: Target): CredentialRepository =>
  new DynamoCredentialRepository({
    db: new DynamoDocumentTable(
      documentClient(
        new DynamoDBClient({
          region: target.region,
          ...(target.dynamodbEndpoint ? { endpoint: target.dynamodbEndpoint } : {}),
          ...(target.local ? { credentials: LOCAL_CREDENTIALS } : { profile: target.profile }),
        }),
      ),
    ),
    tableName: target.tableName,
  });

/**
 * Without a usage plan, a key issued in AWS would answer 403 to every request: refuse before anything is
 * written, and say where the plan's id is.
 */
const usagePlanOf = (target: Target): string | undefined => {
  if (target.local) return undefined;
  if (!target.usagePlanId) {
    throw new UsageError(
      "No usage plan: in AWS a key works only once its client is attached to the stage's usage plan. Pass " +
        '--outputs cdk-outputs.json (UsagePlanId of CatalogJobsStateless) or set USAGE_PLAN_ID. Nothing was written.',
    );
  }
  return target.usagePlanId;
};

const registrationLine = (r: Registration) =>
  JSON.stringify({
    client_id: r.clientId,
    api_key_id: r.apiKeyId,
    created_key: r.createdKey,
    attached_now: r.attachedNow,
    enabled_now: r.enabledNow,
  });

/** Runs one command; resolves to the process's exit code (0 done, 2 usage or refusal, 1 failure). */
export const runKeys = async (argv: readonly string[], environment: KeysEnvironment): Promise<number> => {
  const { io } = environment;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n${KEYS_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, argument] = positionals;
  if (values.help || !command) {
    io.out(KEYS_USAGE);
    return 0;
  }
  try {
    const target = await resolveTarget(values, environment);
    const apigw = target.local
      ? undefined
      : new APIGatewayClient({ region: target.region, profile: target.profile });
    const credentials = (environment.repository ?? dynamoRepository)(target);
    const deps = { credentials, clock: { now: () => new Date() } };

    switch (command) {
      case 'create': {
        const clientId = values.client ?? fail('create needs --client <id>');
        const scope = values.scope as Scope;
        if (scope !== 'client' && scope !== 'operator') fail('--scope must be client or operator');
        const usagePlanId = usagePlanOf(target);
        // Register first, store after: a registration that fails leaves no key stored or printed.
        const client = await ensureClient(deps, { clientId });
        if (apigw && usagePlanId) {
          await registerUsageKey(apigw, { usagePlanId, clientId, usageKey: client.usageKey });
        }
        const issued = await issueKey(deps, { clientId, scope });
        io.out(
          JSON.stringify({
            client_id: issued.client_id,
            scope: issued.scope,
            api_key: issued.api_key,
            webhook_secret: issued.webhook_secret,
          }),
        );
        return 0;
      }
      case 'sync': {
        const usagePlanId = usagePlanOf(target);
        if (!apigw || !usagePlanId) {
          io.out(JSON.stringify({ note: 'the local service has no usage plan: nothing to attach' }));
          return 0;
        }
        const clients = [
          ...new Set(
            (await credentials.listKeys()).filter((k) => k.revokedAt === null).map((k) => k.clientId),
          ),
        ];
        for (const clientId of clients) {
          const client = await credentials.getClient(clientId);
          if (!client) continue;
          io.out(
            registrationLine(
              await registerUsageKey(apigw, { usagePlanId, clientId, usageKey: client.usageKey }),
            ),
          );
        }
        return 0;
      }
      case 'list': {
        for (const key of await credentials.listKeys(values.client)) {
          io.out(
            JSON.stringify({
              key_id: key.keyId,
              client_id: key.clientId,
              scope: key.scope,
              created_at: key.createdAt,
              revoked_at: key.revokedAt,
            }),
          );
        }
        return 0;
      }
      case 'revoke': {
        const key = await revokeKey(deps, argument ?? fail('revoke needs a key id (key_...) or the api key'));
        io.out(JSON.stringify({ key_id: key.keyId, client_id: key.clientId, revoked_at: key.revokedAt }));
        return 0;
      }
      case 'rotate-webhook-secret': {
        const clientId = values.client ?? fail('rotate-webhook-secret needs --client <id>');
        const secret = await rotateWebhookSecret(deps, clientId);
        const client = await credentials.getClient(clientId);
        io.out(
          JSON.stringify({
            client_id: clientId,
            webhook_secret: secret,
            previous_secret_expires_at: client?.webhookSecrets[1]?.expiresAt ?? null,
          }),
        );
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"\n${KEYS_USAGE}`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof TargetError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof DomainError) {
      io.err(`${error.code}: ${error.message}`);
      return 2;
    }
    io.err(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    return 1;
  }
};

const parse = (argv: readonly string[]) =>
  parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      client: { type: 'string' },
      scope: { type: 'string', default: 'client' },
      outputs: { type: 'string' },
      region: { type: 'string' },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

const fail = (message: string): never => {
  throw new UsageError(message);
};
