import { Match } from 'aws-cdk-lib/assertions';
import { loadConfig } from '../../lambdas/shared/config';
import { ACCESS, serviceFunctions } from '../../lib/aws/functions';
import { METRICS, OUTPUTS, SERVICE_NAME, STAGE_NAME } from '../../lib/aws/names';
import { WAF_RATE_RULES, WAF_WINDOW_SECONDS, WELL_FORMED_AUTHORIZATION } from '../../lib/aws/web-acl';
import {
  FAILED_AUTH_THROTTLE,
  GATEWAY_REQUEST_HEADERS,
  GATEWAY_RESPONSES,
  gatewayHeaders,
  gatewayProblem,
  LOCAL_GATEWAY_RESPONSES,
  PER_CLIENT_THROTTLE,
} from '../../lib/gateway-responses';
import { ENV, QUEUES, type QueueKey, RECONCILER, ROUTES, TABLE } from '../../lib/resources';
import {
  actionsOf,
  cleanUp,
  logicalId,
  resourcesOf,
  roleStatements,
  type Statement,
  synthesized,
} from './synth';

afterAll(cleanUp);

const queueKeys = Object.keys(QUEUES) as QueueKey[];
const definitions = serviceFunctions();

const functionProps = (name: string): Record<string, unknown> => {
  const { stateless, stateless$ } = synthesized();
  const fn = stateless.functions.get(name)!;
  return stateless$.findResources('AWS::Lambda::Function')[logicalId(fn.function)]!.Properties;
};

const statementsOf = (name: string): Statement[] => {
  const { stateless, stateless$ } = synthesized();
  return roleStatements(stateless$, logicalId(stateless.functions.get(name)!.role));
};

const allActions = (name: string): string[] => statementsOf(name).flatMap(actionsOf);

describe('functions', () => {
  it('one per handler: every route, the authorizer, every consumer, the reconciler', () => {
    const { stateless$ } = synthesized();
    const expected = new Set([
      ...ROUTES.map((r) => r.handler),
      'authorizer',
      ...Object.values(QUEUES).map((q) => q.consumer),
      RECONCILER.handler,
    ]);
    expect(definitions.map((d) => d.name).sort()).toEqual([...expected].sort());
    // + the operations console's function (test/infra/console-site.test.ts).
    stateless$.resourceCountIs('AWS::Lambda::Function', expected.size + 1);
  });

  it.each(definitions.map((d) => d.name))(
    '%s runs Node 24 on ARM64 with active tracing and its own log group',
    (name) => {
      const { stateless } = synthesized();
      expect(functionProps(name)).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: logicalId(stateless.functions.get(name)!.logGroup) } },
      });
    },
  );

  it.each(definitions.map((d) => d.name))(
    '%s gets every variable lambdas/shared/config.ts requires',
    (name) => {
      const variables = (functionProps(name).Environment as { Variables: Record<string, unknown> }).Variables;
      // CloudFormation fills in the references at deploy time; here any non-empty string stands for them.
      const env = {
        ...Object.fromEntries(
          Object.entries(variables).map(([key, value]) => [
            key,
            typeof value === 'string' ? value : `<${key}>`,
          ]),
        ),
        // Lambda sets these itself in every function's environment.
        AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'ASIA...',
        AWS_SECRET_ACCESS_KEY: '...',
      };
      expect(() => loadConfig(env)).not.toThrow();
      expect(variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS.namespace,
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        ALLOW_LOOPBACK_URLS: 'false',
      });
    },
  );

  it.each(definitions.map((d) => d.name))(
    '%s keeps source maps in NODE_OPTIONS; only the job worker sizes V8 there (young and old generation)',
    (name) => {
      const variables = (functionProps(name).Environment as { Variables: Record<string, unknown> }).Variables;
      const options = String(variables.NODE_OPTIONS).split(' ');
      expect(options).toContain('--enable-source-maps');
      const heap = options.filter((o) => /^--max-(semi|old)-space-size/.test(o));
      // Lambda's runtime sets neither size when NODE_OPTIONS names one: the job worker names both, the old
      // generation at 90% of its 3008 MB, as the runtime would.
      expect(heap).toEqual(
        name === 'job-worker' ? ['--max-semi-space-size=16', '--max-old-space-size=2707'] : [],
      );
    },
  );

  it('points CALLBACKS_DLQ_URL at the callbacks dead-letter queue', () => {
    const { stateful } = synthesized();
    const variables = (functionProps('callback-worker').Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(JSON.stringify(variables[ENV.callbackDeadLetterQueueUrl])).toContain(
      logicalId(stateful.queues.callbacks.deadLetterQueue),
    );
  });

  it('log groups (functions and API access logs) keep logs for a month', () => {
    const { stateless$ } = synthesized();
    const groups = Object.values(stateless$.findResources('AWS::Logs::LogGroup'));
    // + the API access logs and the operations console's function.
    expect(groups).toHaveLength(definitions.length + 2);
    for (const group of groups) expect(group.Properties.RetentionInDays).toBe(30);
  });

  it('roles start empty: no AWS managed policies (no AWSLambdaBasicExecutionRole)', () => {
    const { stateless, stateless$ } = synthesized();
    const roles = stateless$.findResources('AWS::IAM::Role');
    for (const fn of stateless.functions.values()) {
      const managed = (roles[logicalId(fn.role)]!.Properties.ManagedPolicyArns ?? []) as unknown[];
      expect(JSON.stringify(managed)).not.toContain('iam::aws:policy');
    }
  });
});

describe('queue consumers', () => {
  it.each(queueKeys)(
    '%s feeds its consumer with reportBatchItemFailures and the batch size of lib/resources.ts',
    (key) => {
      const { stateful, stateless, stateless$ } = synthesized();
      const def = QUEUES[key];
      const mappings = Object.values(stateless$.findResources('AWS::Lambda::EventSourceMapping')).filter(
        (m) => JSON.stringify(m.Properties.EventSourceArn).includes(logicalId(stateful.queues[key].queue)),
      );
      expect(mappings).toHaveLength(1);
      expect(mappings[0]!.Properties).toMatchObject({
        FunctionName: { Ref: logicalId(stateless.functions.get(def.consumer)!.function) },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: def.batchSize,
      });
    },
  );

  const mappingOf = (key: QueueKey) => {
    const { stateful, stateless$ } = synthesized();
    return Object.values(stateless$.findResources('AWS::Lambda::EventSourceMapping')).find((m) =>
      JSON.stringify(m.Properties.EventSourceArn).includes(logicalId(stateful.queues[key].queue)),
    )!.Properties;
  };

  it('gives each job an invocation of its own: batch size 1 on both job queues', () => {
    expect(mappingOf('jobsRush').BatchSize).toBe(1);
    expect(mappingOf('jobsStandard').BatchSize).toBe(1);
    expect(QUEUES.jobsRush.batchSize).toBe(1);
  });

  it.each(queueKeys)(
    'caps the concurrency %s feeds its consumer at the setting of lib/resources.ts',
    (key) => {
      expect(mappingOf(key).ScalingConfig).toEqual({ MaximumConcurrency: QUEUES[key].maxConcurrency });
    },
  );

  it('leaves most of the default account quota (1,000) to the API however deep the backlogs', () => {
    const total = queueKeys.reduce((sum, key) => sum + QUEUES[key].maxConcurrency, 0);
    expect(total).toBeLessThanOrEqual(500);
    expect(QUEUES.jobsStandard.maxConcurrency).toBeLessThan(QUEUES.jobsRush.maxConcurrency);
  });

  it("takes each cap and the authorizer's reserved concurrency from context", () => {
    const { stateless, stateless$, stateful } = synthesized({
      'catalogJobs:rushJobsMaxConcurrency': 40,
      'catalogJobs:standardJobsMaxConcurrency': 8,
      'catalogJobs:authorizerReservedConcurrency': 25,
    });
    const mappings = Object.values(stateless$.findResources('AWS::Lambda::EventSourceMapping'));
    const capOf = (key: QueueKey) =>
      mappings.find((m) =>
        JSON.stringify(m.Properties.EventSourceArn).includes(logicalId(stateful.queues[key].queue)),
      )!.Properties.ScalingConfig.MaximumConcurrency;
    expect([capOf('jobsRush'), capOf('jobsStandard'), capOf('exports')]).toEqual([
      40,
      8,
      QUEUES.exports.maxConcurrency,
    ]);
    const authorizer = stateless.functions.get('authorizer')!.function;
    expect(
      stateless$.findResources('AWS::Lambda::Function')[logicalId(authorizer)]!.Properties
        .ReservedConcurrentExecutions,
    ).toBe(25);
  });

  it('reserves no concurrency by default (a new account, at its default quota, cannot)', () => {
    const { stateless$ } = synthesized();
    for (const fn of Object.values(stateless$.findResources('AWS::Lambda::Function'))) {
      expect(fn.Properties).not.toHaveProperty('ReservedConcurrentExecutions');
    }
  });

  it('the reconciler runs on its schedule', () => {
    const { stateless, stateless$ } = synthesized();
    stateless$.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: `rate(${RECONCILER.scheduleMinutes} minutes)`,
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalId(stateless.functions.get(RECONCILER.handler)!.function), 'Arn'] },
        }),
      ],
    });
  });
});

describe('REST API', () => {
  it('takes the API key from the authorizer (usage plans per client)', () => {
    synthesized().stateless$.hasResourceProperties('AWS::ApiGateway::RestApi', {
      ApiKeySourceType: 'AUTHORIZER',
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
  });

  it('uses a REQUEST authorizer cached 60 s by the Authorization header', () => {
    const { stateless, stateless$ } = synthesized();
    stateless$.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    stateless$.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      // SPEC 2: a revoked key stops working within 60 s.
      AuthorizerResultTtlInSeconds: 60,
    });
    expect(JSON.stringify(stateless$.findResources('AWS::ApiGateway::Authorizer'))).toContain(
      logicalId(stateless.functions.get('authorizer')!.function),
    );
  });

  it.each(ROUTES.map((r) => [r.method, r.path, r.handler] as const))(
    '%s %s -> %s behind the authorizer, with an API key and the parameter validator',
    (method, path, handler) => {
      const { stateless, stateless$ } = synthesized();
      const methods = Object.values(stateless$.findResources('AWS::ApiGateway::Method')).filter(
        (m) =>
          m.Properties.HttpMethod === method &&
          JSON.stringify(m.Properties.Integration.Uri).includes(
            logicalId(stateless.functions.get(handler)!.function),
          ),
      );
      expect(methods).toHaveLength(1);
      const props = methods[0]!.Properties;
      expect(props).toMatchObject({
        AuthorizationType: 'CUSTOM',
        ApiKeyRequired: true,
        RequestValidatorId: { Ref: expect.stringMatching(/ParameterValidator/) },
        Integration: { Type: 'AWS_PROXY' },
      });
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (params.length > 0) {
        expect(props.RequestParameters).toEqual(
          Object.fromEntries(params.map((param) => [`method.request.path.${param}`, true])),
        );
      }
    },
  );

  it('throttles each client at 20 rps with bursts of 40 (SPEC 9)', () => {
    synthesized().stateless$.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 20, BurstLimit: 40 },
      ApiStages: [Match.objectLike({ Stage: Match.anyValue() })],
    });
  });

  it('stage has access logs, error-level execution logs without request data, and X-Ray', () => {
    synthesized().stateless$.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: STAGE_NAME,
      TracingEnabled: true,
      AccessLogSetting: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ],
    });
  });

  it('answers 401 as problem+json with WWW-Authenticate: Token', () => {
    const { stateless$ } = synthesized();
    stateless$.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseParameters: {
        'gatewayresponse.header.WWW-Authenticate': "'Token'",
        'gatewayresponse.header.Content-Type': "'application/problem+json'",
      },
      ResponseTemplates: {
        'application/json': Match.serializedJson(
          Match.objectLike({ status: 401, code: 'unauthorized', request_id: '$context.requestId' }),
        ),
      },
    });
  });

  it.each([
    ['THROTTLED', '429', 'rate_limited'],
    ['ACCESS_DENIED', '403', 'forbidden'],
    ['AUTHORIZER_FAILURE', '503', 'service_unavailable'],
    ['AUTHORIZER_CONFIGURATION_ERROR', '503', 'service_unavailable'],
    ['INTEGRATION_FAILURE', '503', 'service_unavailable'],
    ['MISSING_AUTHENTICATION_TOKEN', '404', 'not_found'],
    ['API_CONFIGURATION_ERROR', '500', 'internal_error'],
    ['DEFAULT_5XX', '503', 'service_unavailable'],
  ])('answers %s as %s problem+json (%s)', (type, status, code) => {
    synthesized().stateless$.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: type,
      StatusCode: status,
      ResponseTemplates: { 'application/json': Match.serializedJson(Match.objectLike({ code })) },
    });
  });

  it.each(['AUTHORIZER_CONFIGURATION_ERROR', 'AUTHORIZER_FAILURE', 'DEFAULT_5XX'])(
    '%s (the service could not answer) asks the client to retry: Retry-After',
    (type) => {
      synthesized().stateless$.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'5'" }),
      });
    },
  );

  it('every gateway answer carries x-request-id, mapped from $context.requestId (SPEC 7)', () => {
    const configured = Object.values(
      synthesized().stateless$.findResources('AWS::ApiGateway::GatewayResponse'),
    );
    expect(configured.length).toBe(Object.keys(GATEWAY_RESPONSES).length);
    for (const response of configured) {
      expect(response.Properties.ResponseParameters['gatewayresponse.header.x-request-id']).toBe(
        'context.requestId',
      );
    }
  });

  it('429 carries Retry-After', () => {
    synthesized().stateless$.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
    });
  });

  it('configures exactly the gateway answers of lib/gateway-responses.ts, which the local runtime gives too', () => {
    const configured = Object.values(
      synthesized().stateless$.findResources('AWS::ApiGateway::GatewayResponse'),
    ).map((r) => r.Properties);
    expect(configured.map((p) => p.ResponseType).sort()).toEqual(Object.keys(GATEWAY_RESPONSES).sort());
    for (const [type, answer] of Object.entries(GATEWAY_RESPONSES)) {
      const props = configured.find((p) => p.ResponseType === type)!;
      expect(props.StatusCode).toBe(answer.status === undefined ? undefined : String(answer.status));
      expect(props.ResponseParameters).toEqual({
        ...Object.fromEntries(
          Object.entries(gatewayHeaders(answer)).map(([name, value]) => [
            `gatewayresponse.header.${name}`,
            `'${value}'`,
          ]),
        ),
        ...Object.fromEntries(
          Object.entries(GATEWAY_REQUEST_HEADERS).map(([name, value]) => [
            `gatewayresponse.header.${name}`,
            value,
          ]),
        ),
      });
      expect(JSON.parse(props.ResponseTemplates['application/json'])).toEqual(
        gatewayProblem(answer, '$context.requestId'),
      );
    }
  });
});

describe('web ACL on the API stage (issue 25: failed authentications throttled per source)', () => {
  const webAcl = () => {
    const acls = Object.values(synthesized().stateless$.findResources('AWS::WAFv2::WebACL'));
    expect(acls).toHaveLength(1);
    return acls[0]!.Properties;
  };
  const rule = (name: string) => webAcl().Rules.find((r: { Name: string }) => r.Name === name);

  it('is regional, allows by default and is associated with the stage', () => {
    const { stateless$ } = synthesized();
    expect(webAcl()).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const [association] = Object.values(stateless$.findResources('AWS::WAFv2::WebACLAssociation'));
    expect(association!.Properties.WebACLArn).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/RateRulesWebAcl/), 'Arn'],
    });
    const arn = JSON.stringify(association!.Properties.ResourceArn);
    expect(arn).toContain('"/stages/",{"Ref":"ApiRestApiDeploymentStage');
    expect(arn).toContain(`DeploymentStage${STAGE_NAME}`);
  });

  it("limits requests without a well-formed key per address at the local gateway's rate of failures", () => {
    const limited = rule('WithoutWellFormedKeyPerSource');
    expect(limited.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: FAILED_AUTH_THROTTLE.rateLimit * WAF_WINDOW_SECONDS,
      EvaluationWindowSec: WAF_WINDOW_SECONDS,
    });
    const scope = JSON.stringify(limited.Statement.RateBasedStatement.ScopeDownStatement);
    expect(scope).toContain('"NotStatement"');
    expect(scope).toContain(JSON.stringify(WELL_FORMED_AUTHORIZATION));
    // The regex is the authorizer's idea of a well-formed key, lowercased as WAF's transformation does.
    const wellFormed = new RegExp(WELL_FORMED_AUTHORIZATION);
    expect(wellFormed.test('Token api_key=cjk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345'.toLowerCase())).toBe(
      true,
    );
    for (const refused of [
      '',
      'Bearer abcdefghijklmnopqrstuvwxyz',
      'Token api_key=short',
      'Token api_key=a b c d e f g h i j k',
    ])
      expect(wellFormed.test(refused.toLowerCase())).toBe(false);
  });

  it('limits any request per address at five clients worth of the usage plan', () => {
    expect(rule('RequestsPerSource').Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: PER_CLIENT_THROTTLE.rateLimit * 5 * WAF_WINDOW_SECONDS,
      EvaluationWindowSec: WAF_WINDOW_SECONDS,
    });
    expect(WAF_RATE_RULES.anyRequest).toBeGreaterThan(WAF_RATE_RULES.withoutWellFormedKey);
  });

  it('answers a refused request as the local gateway does: 429, Retry-After, problem+json', () => {
    const answer = LOCAL_GATEWAY_RESPONSES.SOURCE_THROTTLED;
    for (const r of webAcl().Rules) {
      expect(r.Action.Block.CustomResponse).toMatchObject({
        ResponseCode: 429,
        CustomResponseBodyKey: 'throttled',
      });
      expect(r.Action.Block.CustomResponse.ResponseHeaders).toContainEqual({
        Name: 'Retry-After',
        Value: '60',
      });
    }
    const body = webAcl().CustomResponseBodies.throttled;
    expect(body.ContentType).toBe('APPLICATION_JSON');
    const { request_id: _, ...problem } = gatewayProblem(answer, '');
    expect(JSON.parse(body.Content)).toEqual(problem);
  });
});

describe('least privilege', () => {
  it('no function role has a statement on "*"', () => {
    for (const { name } of definitions) {
      for (const statement of statementsOf(name)) expect(resourcesOf(statement)).not.toContain('*');
    }
  });

  it('X-Ray actions live in one managed policy, and nowhere else', () => {
    const { stateless$ } = synthesized();
    stateless$.resourceCountIs('AWS::IAM::ManagedPolicy', 1);
    stateless$.hasResourceProperties('AWS::IAM::ManagedPolicy', {
      PolicyDocument: {
        Statement: [
          { Effect: 'Allow', Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Resource: '*' },
        ],
      },
    });
    for (const { name } of definitions)
      expect(allActions(name).filter((a) => a.startsWith('xray:'))).toEqual([]);
  });

  const dynamoActions = (name: string) => allActions(name).filter((a) => a.startsWith('dynamodb:'));
  const WRITES = [
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ];

  it.each([
    ['authorizer', ['dynamodb:GetItem']],
    ['get-job', ['dynamodb:GetItem']],
    ['get-export', ['dynamodb:GetItem']],
    ['list-jobs', ['dynamodb:BatchGetItem', 'dynamodb:Query']],
    ['create-file', ['dynamodb:PutItem']],
  ])('%s gets exactly the DynamoDB actions it uses: %p', (name, expected) => {
    expect(dynamoActions(name as string).sort()).toEqual([...(expected as string[])].sort());
  });

  it.each(['get-job', 'list-jobs', 'authorizer', 'get-export', 'ops-list-jobs', 'ops-get-job'])(
    '%s only reads: no table, object or queue writes',
    (name) => {
      for (const write of [...WRITES, 's3:PutObject', 'sqs:SendMessage']) {
        expect(allActions(name)).not.toContain(write);
      }
    },
  );

  it('no function gets BatchWriteItem, ConditionCheckItem, Scan or transactions: none uses them', () => {
    for (const { name } of definitions) {
      for (const action of dynamoActions(name)) {
        expect(action).not.toMatch(/BatchWriteItem|ConditionCheckItem|Scan|Transact|PartiQL/);
      }
    }
  });

  it.each(definitions.map((d) => d.name))(
    '%s may Query only the indexes it queries, and never the table itself',
    (name) => {
      const { stateful } = synthesized();
      const granted = ACCESS[name]!.table.queries;
      const query = statementsOf(name).filter((s) => actionsOf(s).includes('dynamodb:Query'));
      const resources = query.flatMap(resourcesOf).map((r) => JSON.stringify(r));
      expect(resources).toHaveLength(granted.length);
      for (const index of TABLE.indexes) {
        const named = resources.filter((r) => r.includes(`/index/${index.name}`));
        expect(named).toHaveLength(granted.includes(index.name) ? 1 : 0);
      }
      for (const r of resources) {
        expect(r).toContain(logicalId(stateful.table));
        expect(r).not.toContain('/index/*');
      }
      // Item actions name the table alone.
      const items = statementsOf(name).find((s) => s.Sid === 'Table');
      if (items) expect(resourcesOf(items)).toHaveLength(1);
    },
  );

  it('only the listings read in batches (BatchGetItem): list-jobs and ops-list-jobs', () => {
    const batch = definitions
      .map((d) => d.name)
      .filter((n) => dynamoActions(n).includes('dynamodb:BatchGetItem'));
    expect(batch.sort()).toEqual(['list-jobs', 'ops-list-jobs']);
  });

  it('create-job sends to the two job queues and nothing else', () => {
    const { stateful } = synthesized();
    const send = statementsOf('create-job').filter((s) => actionsOf(s).includes('sqs:SendMessage'));
    const targets = JSON.stringify(send.flatMap(resourcesOf));
    expect(targets).toContain(logicalId(stateful.queues.jobsRush.queue));
    expect(targets).toContain(logicalId(stateful.queues.jobsStandard.queue));
    expect(targets).not.toContain(logicalId(stateful.queues.exports.queue));
    expect(targets).not.toContain(logicalId(stateful.queues.callbacks.queue));
  });

  it('create-file may PUT uploads (to presign) but read no bucket and touch no other bucket', () => {
    const statements = statementsOf('create-file').filter((s) =>
      actionsOf(s).some((a) => a.startsWith('s3:')),
    );
    expect(statements.flatMap(actionsOf).sort()).toEqual(['s3:AbortMultipartUpload', 's3:PutObject']);
    expect(JSON.stringify(statements.flatMap(resourcesOf))).toContain('"UploadsBucketName"');
    expect(JSON.stringify(statements.flatMap(resourcesOf))).not.toMatch(/"(Exports|Catalogs)BucketName"/);
  });

  it('get-export reads the exports bucket only', () => {
    const s3 = statementsOf('get-export').filter((s) => actionsOf(s).some((a) => a.startsWith('s3:')));
    expect(s3.flatMap(actionsOf).sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    expect(JSON.stringify(s3.flatMap(resourcesOf))).toContain('"ExportsBucketName"');
    expect(JSON.stringify(s3.flatMap(resourcesOf))).not.toMatch(/"(Uploads|Catalogs)BucketName"/);
  });

  it('consumers may receive and delete from their own queues only', () => {
    const { stateful } = synthesized();
    const receive = statementsOf('job-worker').filter((s) => actionsOf(s).includes('sqs:DeleteMessage'));
    const queues = JSON.stringify(receive.flatMap(resourcesOf));
    expect(queues).toContain(logicalId(stateful.queues.jobsRush.queue));
    expect(queues).toContain(logicalId(stateful.queues.jobsStandard.queue));
    expect(queues).not.toContain(logicalId(stateful.queues.callbacks.queue));
  });

  it('only callback-worker may send to a dead-letter queue (callbacks that failed for good)', () => {
    const { stateful } = synthesized();
    const dlqs = queueKeys.map((key) => logicalId(stateful.queues[key].deadLetterQueue));
    for (const { name } of definitions) {
      const sends = statementsOf(name).filter((s) => actionsOf(s).includes('sqs:SendMessage'));
      const targets = JSON.stringify(sends.flatMap(resourcesOf));
      const hits = dlqs.filter((dlq) => targets.includes(dlq));
      expect(hits).toEqual(
        name === 'callback-worker' ? [logicalId(stateful.queues.callbacks.deadLetterQueue)] : [],
      );
    }
  });

  it('no function may delete objects or change bucket or queue configuration', () => {
    for (const { name } of definitions) {
      for (const action of allActions(name)) {
        expect(action).not.toMatch(
          /^s3:(Delete|PutBucket|PutLifecycle)|^sqs:(SetQueueAttributes|DeleteQueue|Purge)/,
        );
        expect(action).not.toContain('*');
      }
    }
  });
});

describe('alarms', () => {
  const alarms = () => Object.values(synthesized().stateless$.findResources('AWS::CloudWatch::Alarm'));

  it.each(queueKeys)("%s's dead-letter queue alarms as soon as it holds a message", (key) => {
    const { stateful } = synthesized();
    const dlq = logicalId(stateful.queues[key].deadLetterQueue);
    const matching = alarms().filter(
      (a) =>
        a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        JSON.stringify(a.Properties.Dimensions).includes(dlq),
    );
    expect(matching).toHaveLength(1);
    expect(matching[0]!.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      AlarmActions: [expect.anything()],
    });
  });

  it('alarms on the API 5xx rate', () => {
    const api = alarms().find((a) =>
      (a.Properties.Metrics as { Expression?: string }[] | undefined)?.some((m) =>
        m.Expression?.includes('errors'),
      ),
    );
    expect(api?.Properties).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 5 });
    expect(JSON.stringify(api?.Properties.Metrics)).toContain('5XXError');
  });

  it('alarms on stuck jobs from the metric the reconciler emits', () => {
    const stuck = alarms().find((a) => a.Properties.MetricName === METRICS.stuckJobs);
    expect(stuck?.Properties).toMatchObject({
      Namespace: METRICS.namespace,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
    });
  });

  it('alarms when the reconciler fails or stops running', () => {
    const names = alarms().map((a) => `${a.Properties.MetricName}:${a.Properties.TreatMissingData}`);
    expect(names).toEqual(expect.arrayContaining(['Errors:notBreaching', 'Invocations:breaching']));
  });

  it('every alarm notifies the encrypted alarm topic', () => {
    const { stateless, stateless$ } = synthesized();
    const topic = logicalId(stateless.monitoring.topic);
    for (const alarm of alarms()) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
    stateless$.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    stateless$.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });
});

describe('outputs', () => {
  it('publishes the region, the API URL, the usage plan and the alarm topic', () => {
    const outputs = Object.keys(synthesized().stateless$.findOutputs('*'));
    expect(outputs).toEqual(
      expect.arrayContaining([
        OUTPUTS.region,
        OUTPUTS.apiUrl,
        OUTPUTS.restApiId,
        OUTPUTS.usagePlanId,
        OUTPUTS.alarmTopicArn,
      ]),
    );
  });

  it('ApiUrl is https://<api>.execute-api.<region>.<suffix>/<stage>, without a trailing slash ($API/v1 works)', () => {
    const { stateless, stateless$ } = synthesized();
    const value = stateless$.findOutputs(OUTPUTS.apiUrl)[OUTPUTS.apiUrl]!.Value as {
      'Fn::Join': [string, unknown[]];
    };
    const parts = value['Fn::Join'][1];
    // Render the join with the pseudo parameters and references by name, as CloudFormation would fill them.
    const rendered = parts
      .map((p) => (typeof p === 'string' ? p : `<${(p as { Ref: string }).Ref}>`))
      .join(value['Fn::Join'][0]);
    const api = logicalId(stateless.api.api);
    expect(rendered).toMatch(
      new RegExp(`^https://<${api}>\\.execute-api\\.<AWS::Region>\\.<AWS::URLSuffix>/<[^>]+>$`),
    );
    expect(rendered.endsWith('/')).toBe(false);
  });

  it("functions get the bucket names CloudFormation chose, from the stateful stack's outputs", () => {
    const variables = (functionProps('create-file').Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(Object.keys(variables[ENV.bucket.uploads] as object)).toEqual(['Fn::GetStackOutput']);
    expect(JSON.stringify(variables[ENV.bucket.uploads])).toContain(
      `"OutputName":"${OUTPUTS.bucketName('uploads')}"`,
    );
  });
});
