/**
 * `npm run keys -- <command>`: manage clients, API keys and webhook secrets (SPEC 2).
 *
 *   create --client <id> [--scope client|operator]   prints {"client_id","scope","api_key","webhook_secret"}
 *   list [--client <id>]                             one JSON object per key (never the key itself)
 *   revoke <key_id | api_key>                        takes effect at once locally, within 60 s in AWS
 *   rotate-webhook-secret --client <id>              new secret; the previous one signs for 24 h more
 *
 * Target: the running local stack (`npm start` writes .local/runtime.json), or a deployed stack when
 * TABLE_NAME is set or `--outputs <cdk outputs file>` is given (`cdk deploy --outputs-file ...`).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  GetApiKeysCommand,
} from '@aws-sdk/client-api-gateway';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoCredentialRepository } from '../lambdas/adapters/dynamo-credential-repository';
import type { Scope } from '../lambdas/core/auth';
import { DomainError } from '../lambdas/core/errors';
import { issueKey, revokeKey, rotateWebhookSecret } from '../lambdas/core/use-cases/credentials';
import { DEFAULT_STATE_FILE } from '../lib/local/runtime';
import { type LocalState, readRunningState } from '../lib/local/state-file';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `usage: npm run keys -- <command> [options]
  create --client <id> [--scope client|operator]
  list [--client <id>]
  revoke <key_id | api_key>
  rotate-webhook-secret --client <id>
options: --outputs <file>  use a deployed stack's outputs (TableName, UsagePlanId)
         --region <region>`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    client: { type: 'string' },
    scope: { type: 'string', default: 'client' },
    outputs: { type: 'string' },
    region: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

interface Target {
  readonly tableName: string;
  readonly dynamodbEndpoint?: string;
  readonly usagePlanId?: string;
  readonly region: string;
  readonly local: boolean;
}

/** Outputs of `cdk deploy --outputs-file`: { StackName: { OutputKey: value } }. */
const readOutputs = (file: string): Record<string, string> => {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
  return Object.assign({}, ...Object.values(parsed));
};

const resolveTarget = (): Target => {
  const region = values.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  if (values.outputs) {
    const outputs = readOutputs(values.outputs);
    const tableName = outputs.TableName ?? fail(`${values.outputs} has no TableName output`);
    return { tableName, usagePlanId: outputs.UsagePlanId, region, local: false };
  }
  if (process.env.TABLE_NAME) {
    return {
      tableName: process.env.TABLE_NAME,
      usagePlanId: process.env.USAGE_PLAN_ID,
      dynamodbEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
      region,
      local: false,
    };
  }
  let state: LocalState | undefined;
  try {
    state = readRunningState(DEFAULT_STATE_FILE);
  } catch (error) {
    return fail((error as Error).message);
  }
  if (state) {
    return { tableName: state.tableName, dynamodbEndpoint: state.dynamodbEndpoint, region, local: true };
  }
  return fail(
    'No stack found: start the local service (npm start), or set TABLE_NAME, or pass --outputs <file>.',
  );
};

/** In AWS, throttling is per client through a usage plan: the client's usage key must be registered in it. */
const registerUsageKey = async (target: Target, clientId: string, usageKey: string): Promise<void> => {
  if (target.local || !target.usagePlanId) return;
  const apigw = new APIGatewayClient({ region: target.region });
  const name = `client-${clientId}`;
  const existing = await apigw.send(new GetApiKeysCommand({ nameQuery: name, includeValues: false }));
  if (existing.items?.some((k) => k.name === name)) return;
  const key = await apigw.send(new CreateApiKeyCommand({ name, value: usageKey, enabled: true }));
  await apigw.send(
    new CreateUsagePlanKeyCommand({ usagePlanId: target.usagePlanId, keyId: key.id, keyType: 'API_KEY' }),
  );
};

const main = async (): Promise<void> => {
  const [command, argument] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const target = resolveTarget();
  const dynamo = new DynamoDBClient({
    region: target.region,
    endpoint: target.dynamodbEndpoint,
    ...(target.local ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  const credentials = new DynamoCredentialRepository({
    doc: DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } }),
    tableName: target.tableName,
  });
  const deps = { credentials, clock: { now: () => new Date() } };

  switch (command) {
    case 'create': {
      const clientId = values.client ?? fail('create needs --client <id>');
      const scope = values.scope as Scope;
      if (scope !== 'client' && scope !== 'operator') fail('--scope must be client or operator');
      const issued = await issueKey(deps, { clientId, scope });
      const client = await credentials.getClient(clientId);
      if (client) await registerUsageKey(target, clientId, client.usageKey);
      console.log(
        JSON.stringify({
          client_id: issued.client_id,
          scope: issued.scope,
          api_key: issued.api_key,
          webhook_secret: issued.webhook_secret,
        }),
      );
      return;
    }
    case 'list': {
      for (const key of await credentials.listKeys(values.client)) {
        console.log(
          JSON.stringify({
            key_id: key.keyId,
            client_id: key.clientId,
            scope: key.scope,
            created_at: key.createdAt,
            revoked_at: key.revokedAt,
          }),
        );
      }
      return;
    }
    case 'revoke': {
      const key = await revokeKey(deps, argument ?? fail('revoke needs a key id (key_...) or the api key'));
      console.log(JSON.stringify({ key_id: key.keyId, client_id: key.clientId, revoked_at: key.revokedAt }));
      return;
    }
    case 'rotate-webhook-secret': {
      const clientId = values.client ?? fail('rotate-webhook-secret needs --client <id>');
      const secret = await rotateWebhookSecret(deps, clientId);
      const client = await credentials.getClient(clientId);
      const previous = client?.webhookSecrets[1];
      console.log(
        JSON.stringify({
          client_id: clientId,
          webhook_secret: secret,
          previous_secret_expires_at: previous?.expiresAt ?? null,
        }),
      );
      return;
    }
    default:
      fail(`unknown command "${command}"\n${USAGE}`);
  }
};

main().catch((error: unknown) => {
  if (error instanceof DomainError) fail(`${error.code}: ${error.message}`);
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
