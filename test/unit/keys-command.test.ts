import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  GetApiKeysCommand,
  NotFoundException,
  UpdateApiKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { keyDigest } from '../../lambdas/core/auth';
import { type KeysEnvironment, runKeys } from '../../lib/admin/keys-command';
import { FakeCredentialRepository } from '../helpers/fakes';

const apigw = mockClient(APIGatewayClient);
const dir = mkdtempSync(join(tmpdir(), 'keys-command-'));
const saved = { ...process.env };

/** The command's world: its own table (in memory), its output, and the environment it reads. */
const world = (env: NodeJS.ProcessEnv = {}) => {
  const repository = new FakeCredentialRepository();
  const out: string[] = [];
  const err: string[] = [];
  const environment: KeysEnvironment = {
    env,
    io: { out: (l) => out.push(l), err: (l) => err.push(l) },
    localStateFile: join(dir, 'no-local-service.json'),
    repository: () => repository,
  };
  const run = (...argv: string[]) => runKeys(argv, environment);
  return { repository, out, err, run };
};

const deployed = { TABLE_NAME: 'catalog', USAGE_PLAN_ID: 'plan-1', AWS_REGION: 'eu-west-1' };

/** The region the command's API Gateway client was built for. */
const regionOfCall = (n = 0): Promise<string> =>
  (apigw.call(n).thisValue as APIGatewayClient).config.region();

const conflict = () => new ConflictException({ message: 'exists', $metadata: {} });

beforeEach(() => {
  apigw.reset();
  apigw.on(GetApiKeysCommand).resolves({ items: [] });
  apigw
    .on(CreateApiKeyCommand)
    .callsFake((input) => ({ id: 'key-new', name: input.name, value: input.value }));
  apigw.on(CreateUsagePlanKeyCommand).resolves({ id: 'key-new' });
  for (const name of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE', 'AWS_CONFIG_FILE'])
    delete process.env[name];
  process.env.AWS_SHARED_CREDENTIALS_FILE = join(dir, 'no-credentials');
});

afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('keys create: the region', () => {
  it('takes the region of the AWS profile (AWS_PROFILE in AWS_CONFIG_FILE) when nothing else names one', async () => {
    const config = join(dir, 'config');
    writeFileSync(config, '[default]\nregion = us-west-2\n\n[profile acme]\nregion = eu-west-3\n');
    process.env.AWS_CONFIG_FILE = config;
    const w = world({ TABLE_NAME: 'catalog', USAGE_PLAN_ID: 'plan-1', AWS_PROFILE: 'acme' });
    process.env.AWS_PROFILE = 'acme';
    expect(await w.run('create', '--client', 'acme')).toBe(0);
    expect(await regionOfCall()).toBe('eu-west-3');
  });

  it('takes --profile as the AWS CLI does', async () => {
    const config = join(dir, 'config2');
    writeFileSync(config, '[default]\nregion = us-west-2\n\n[profile ops]\nregion = ap-southeast-2\n');
    process.env.AWS_CONFIG_FILE = config;
    const w = world({ TABLE_NAME: 'catalog', USAGE_PLAN_ID: 'plan-1' });
    expect(await w.run('create', '--client', 'acme', '--profile', 'ops')).toBe(0);
    expect(await regionOfCall()).toBe('ap-southeast-2');
  });

  it("takes the stacks' Region output from --outputs over the environment", async () => {
    const outputs = join(dir, 'cdk-outputs.json');
    writeFileSync(
      outputs,
      JSON.stringify({
        CatalogJobsStateful: { TableName: 'catalog-table', Region: 'ca-central-1' },
        CatalogJobsStateless: { UsagePlanId: 'plan-9', Region: 'ca-central-1' },
      }),
    );
    const w = world({ AWS_REGION: 'us-east-1' });
    expect(await w.run('create', '--client', 'acme', '--outputs', outputs)).toBe(0);
    expect(await regionOfCall()).toBe('ca-central-1');
    expect(apigw.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input.usagePlanId).toBe('plan-9');
    expect(await w.run('create', '--client', 'acme', '--outputs', outputs, '--region', 'us-east-1')).toBe(2);
    expect(w.err.join('\n')).toContain('contradicts');
  });

  it('stops, stores nothing and says how to give a region when none is found (no us-east-1 fallback)', async () => {
    process.env.AWS_CONFIG_FILE = join(dir, 'no-config');
    const w = world({ TABLE_NAME: 'catalog', USAGE_PLAN_ID: 'plan-1' });
    expect(await w.run('create', '--client', 'acme')).toBe(2);
    expect(w.err.join('\n')).toMatch(/No AWS region.*--region/);
    expect(w.out).toEqual([]);
    expect(w.repository.clients.size + w.repository.keys.size).toBe(0);
    expect(apigw.calls()).toHaveLength(0);
  });
});

describe('keys create: the usage plan', () => {
  it('creates the API key with the usage key as its value and attaches it, then stores and prints the key', async () => {
    const w = world(deployed);
    expect(await w.run('create', '--client', 'acme')).toBe(0);
    const usageKey = w.repository.clients.get('acme')!.usageKey;
    expect(apigw.commandCalls(CreateApiKeyCommand)[0]!.args[0].input).toEqual({
      name: 'client-acme',
      value: usageKey,
      enabled: true,
    });
    expect(apigw.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan-1',
      keyId: 'key-new',
      keyType: 'API_KEY',
    });
    const printed = JSON.parse(w.out[0]!);
    expect(Object.keys(printed)).toEqual(['client_id', 'scope', 'api_key', 'webhook_secret']);
    expect(w.repository.keys.get(keyDigest(printed.api_key))).toMatchObject({ clientId: 'acme', usageKey });
  });

  it('attaches an existing key that is not attached to this plan (a recreated stateless stack)', async () => {
    const w = world(deployed);
    await w.run('create', '--client', 'acme');
    const usageKey = w.repository.clients.get('acme')!.usageKey;
    apigw.reset();
    apigw
      .on(GetApiKeysCommand)
      .resolves({ items: [{ id: 'key-old', name: 'client-acme', value: usageKey, enabled: true }] });
    apigw.on(CreateUsagePlanKeyCommand).resolves({ id: 'key-old' });
    expect(await w.run('create', '--client', 'acme')).toBe(0);
    expect(apigw.commandCalls(CreateApiKeyCommand)).toHaveLength(0);
    expect(apigw.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toMatchObject({
      keyId: 'key-old',
    });
    expect(w.repository.keys.size).toBe(2);
  });

  it('accepts an existing key already attached (ConflictException) and enables a disabled one', async () => {
    const w = world(deployed);
    await w.run('create', '--client', 'acme');
    const usageKey = w.repository.clients.get('acme')!.usageKey;
    apigw.reset();
    apigw
      .on(GetApiKeysCommand)
      .resolves({ items: [{ id: 'key-old', name: 'client-acme', value: usageKey, enabled: false }] });
    apigw.on(UpdateApiKeyCommand).resolves({});
    apigw.on(CreateUsagePlanKeyCommand).rejects(conflict());
    expect(await w.run('create', '--client', 'acme')).toBe(0);
    expect(apigw.commandCalls(UpdateApiKeyCommand)[0]!.args[0].input).toEqual({
      apiKey: 'key-old',
      patchOperations: [{ op: 'replace', path: '/enabled', value: 'true' }],
    });
    expect(w.out).toHaveLength(2);
  });

  it('ignores a key of the same name whose value is not the usage key, and finds a renamed one by value', async () => {
    const w = world(deployed);
    await w.run('create', '--client', 'acme');
    const usageKey = w.repository.clients.get('acme')!.usageKey;
    apigw.reset();
    apigw
      .on(GetApiKeysCommand, { nameQuery: 'client-acme' })
      .resolves({ items: [{ id: 'key-stale', name: 'client-acme', value: 'usage_other' }] })
      .on(GetApiKeysCommand, { nameQuery: undefined })
      .resolves({ items: [{ id: 'key-renamed', name: 'acme (renamed)', value: usageKey, enabled: true }] });
    apigw.on(CreateApiKeyCommand).rejects(conflict());
    apigw.on(CreateUsagePlanKeyCommand).resolves({});
    expect(await w.run('create', '--client', 'acme')).toBe(0);
    expect(apigw.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input.keyId).toBe('key-renamed');
  });

  it.each([
    [
      'the usage plan is gone',
      new NotFoundException({ message: 'Invalid Usage Plan ID specified', $metadata: {} }),
    ],
    ['access is denied', Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' })],
  ])('stores and prints no key when registration fails (%s)', async (_why, error) => {
    apigw.on(CreateUsagePlanKeyCommand).rejects(error);
    const w = world(deployed);
    expect(await w.run('create', '--client', 'acme')).toBe(1);
    expect(w.out).toEqual([]);
    expect(w.repository.keys.size).toBe(0);
    expect(w.err.join('\n')).toContain(error.message);
  });

  it("issues a key into the emulators' table (TABLE_NAME with a DynamoDB endpoint on this machine) with no usage plan", async () => {
    const w = world({ TABLE_NAME: 'catalog-jobs', AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8000' });
    expect(await w.run('create', '--client', 'sam')).toBe(0);
    expect(JSON.parse(w.out[0]!)).toMatchObject({ client_id: 'sam', scope: 'client' });
    expect(apigw.calls()).toHaveLength(0);
    // Another endpoint is not the emulators: a deployed table still needs its usage plan.
    const remote = world({
      TABLE_NAME: 'catalog',
      AWS_REGION: 'eu-west-1',
      AWS_ENDPOINT_URL_DYNAMODB: 'https://dynamodb-fips.eu-west-1.amazonaws.com',
    });
    expect(await remote.run('create', '--client', 'acme')).not.toBe(0);
    expect(remote.err.join('\n')).toMatch(/No usage plan/);
  });

  it('refuses a deployed table without a usage plan, before writing or calling anything', async () => {
    const w = world({ TABLE_NAME: 'catalog', AWS_REGION: 'eu-west-1' });
    expect(await w.run('create', '--client', 'acme')).toBe(2);
    expect(w.err.join('\n')).toMatch(/No usage plan.*USAGE_PLAN_ID/s);
    expect(w.out).toEqual([]);
    expect(w.repository.clients.size + w.repository.keys.size).toBe(0);
    expect(apigw.calls()).toHaveLength(0);
  });
});

describe('keys sync', () => {
  it('re-attaches every client with a live key to the current plan, and skips clients whose keys are all revoked', async () => {
    const w = world(deployed);
    for (const client of ['acme', 'globex', 'initech']) await w.run('create', '--client', client);
    const initech = [...w.repository.keys.values()].find((k) => k.clientId === 'initech')!;
    await w.repository.revokeKey(initech.digest, new Date().toISOString());
    apigw.reset();
    const values = Object.fromEntries(
      [...w.repository.clients.values()].map((c) => [c.clientId, c.usageKey]),
    );
    apigw.on(GetApiKeysCommand).callsFake((input) => ({
      items: Object.entries(values)
        .filter(([id]) => `client-${id}` === input.nameQuery)
        .map(([id, value]) => ({ id: `key-${id}`, name: `client-${id}`, value, enabled: true })),
    }));
    apigw.on(CreateUsagePlanKeyCommand, { keyId: 'key-acme' }).rejects(conflict());
    apigw.on(CreateUsagePlanKeyCommand, { keyId: 'key-globex' }).resolves({});
    process.env.USAGE_PLAN_ID = 'plan-2';
    const sync = world({ ...deployed, USAGE_PLAN_ID: 'plan-2' });
    Object.assign(sync.repository, { keys: w.repository.keys, clients: w.repository.clients });
    expect(await sync.run('sync')).toBe(0);
    expect(sync.out.map((l) => JSON.parse(l))).toEqual([
      {
        client_id: 'acme',
        api_key_id: 'key-acme',
        created_key: false,
        attached_now: false,
        enabled_now: false,
      },
      {
        client_id: 'globex',
        api_key_id: 'key-globex',
        created_key: false,
        attached_now: true,
        enabled_now: false,
      },
    ]);
    expect(apigw.commandCalls(CreateUsagePlanKeyCommand).map((c) => c.args[0].input.usagePlanId)).toEqual([
      'plan-2',
      'plan-2',
    ]);
  });
});
