import { cleanUp, logicalId, roleStatements, synthesized } from './synth';

afterAll(cleanUp);

/** The operations console in AWS: two public GET methods on the API, answered by a function that can do nothing else. */
describe('the operations console (lib/aws/console-site.ts)', () => {
  /** The resource `pathPart` whose parent is `parent` (the API's root when not given). */
  const resourceId = (pathPart: string, parent?: string): string => {
    const { stateless$ } = synthesized();
    const [id] = Object.entries(
      stateless$.findResources('AWS::ApiGateway::Resource', { Properties: { PathPart: pathPart } }),
    )
      .filter(([, r]) =>
        parent
          ? r.Properties.ParentId?.Ref === parent
          : JSON.stringify(r.Properties.ParentId).includes('RootResourceId'),
      )
      .map(([key]) => key);
    if (!id) throw new Error(`no resource ${pathPart}`);
    return id;
  };

  it('serves GET /ops and GET /ops/{proxy+} without the API key, through its own function', () => {
    const { stateless, stateless$ } = synthesized();
    const ops = resourceId('ops');
    const proxy = resourceId('{proxy+}', ops);
    const fn = logicalId(stateless.console.function);
    for (const resource of [ops, proxy]) {
      const methods = Object.values(
        stateless$.findResources('AWS::ApiGateway::Method', {
          Properties: { ResourceId: { Ref: resource } },
        }),
      );
      expect(methods.map((m) => m.Properties.HttpMethod)).toEqual(['GET']);
      expect(methods[0]!.Properties).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
      expect(JSON.stringify(methods[0]!.Properties.Integration.Uri)).toContain(fn);
    }
  });

  it('keeps every other route behind the authorizer and the API key', () => {
    const { stateless$ } = synthesized();
    const open = Object.values(stateless$.findResources('AWS::ApiGateway::Method')).filter(
      (m) => m.Properties.AuthorizationType !== 'CUSTOM' || m.Properties.ApiKeyRequired !== true,
    );
    expect(open).toHaveLength(2);
  });

  it('runs Node 24 on ARM64 with a role that may only write its own log group', () => {
    const { stateless, stateless$ } = synthesized();
    stateless$.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'catalog-jobs operations console: the built web page at /ops',
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      LoggingConfig: { LogGroup: { Ref: logicalId(stateless.console.logGroup) } },
    });
    const actions = roleStatements(stateless$, logicalId(stateless.console.role)).flatMap((s) =>
      Array.isArray(s.Action) ? s.Action : [s.Action],
    );
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) expect(action).toMatch(/^logs:/);
    const role = stateless$.findResources('AWS::IAM::Role')[logicalId(stateless.console.role)]!;
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('names the source buckets in the page policy (sources are viewed through presigned URLs)', () => {
    const { stateless$ } = synthesized();
    const fns = Object.values(stateless$.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Description === 'catalog-jobs operations console: the built web page at /ops',
    );
    const origins = JSON.stringify(fns[0]!.Properties.Environment.Variables.CONSOLE_STORAGE_ORIGINS);
    // CloudFormation names the buckets: the page policy reads their names from the stateful stack's outputs.
    expect(origins).toContain('"OutputName":"UploadsBucketName"');
    expect(origins).toContain('"OutputName":"CatalogsBucketName"');
    expect(origins).not.toContain('ExportsBucketName');
  });

  it('publishes the console address as an output', () => {
    const { stateless$ } = synthesized();
    const output = stateless$.findOutputs('ConsoleUrl');
    expect(JSON.stringify(output)).toContain('ops/');
  });
});
