import { join } from 'node:path';
import { Aws, CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CONSOLE_PATH } from '../../console/site/headers';
import { CONSOLE_STORAGE_ORIGINS } from '../../lambdas/shared/console-site';
import { BUNDLE } from './bundling';
import { OUTPUTS } from './names';
import { serviceBucketName } from './stateful-stack';

export interface ConsoleSiteProps {
  /** The service's REST API: the console is served by it, so its calls to /v1/ops/... are same-origin. */
  readonly api: apigw.RestApi;
  readonly projectRoot: string;
  readonly logRetention: logs.RetentionDays;
}

export const CONSOLE_HANDLER_ENTRY = 'lambdas/handlers/console-site.ts';

const shellQuote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * The operations console in AWS (SPEC 5.4): `GET /ops` and `GET /ops/{proxy+}` on the service's own REST API,
 * answered by a small function that holds the built console (Vite, built by the CDK bundling step) and sets
 * the console's headers (Content-Security-Policy and the rest, console/site/headers.ts).
 *
 * Why through the API rather than S3 behind CloudFront: the page and the API share one origin, so the
 * console's calls need no CORS and its CSP is `connect-src 'self'`; nothing new to deploy first time into
 * a fresh account (no distribution, no certificate, no second origin whose cache must forward the
 * Authorization header); and cdk-nag has one new rule to answer (APIG4, below) instead of CloudFront's
 * logging, WAF, geo and TLS findings. The cost is a Lambda invocation per file, which is fine for a tool used
 * by a team (assets are cached by browsers for a year, the page is revalidated).
 *
 * The function has no access to anything: its role may only write its own log group.
 */
export class ConsoleSite extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  readonly methods: apigw.Method[];

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'LogGroup', { retention: props.logRetention });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description:
        'Runs the operations console function: it reads its own files and writes its own log group.',
    });
    this.logGroup.grantWrite(this.role);

    const root = props.projectRoot;
    this.function = new NodejsFunction(this, 'Function', {
      description: 'catalog-jobs operations console: the built web page at /ops',
      entry: join(root, CONSOLE_HANDLER_ENTRY),
      handler: 'handler',
      projectRoot: root,
      depsLockFilePath: join(root, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      environment: {
        // Sources are viewed through presigned URLs of these buckets (GET /v1/ops/jobs/{id}/sources/{n}).
        [CONSOLE_STORAGE_ORIGINS]: (['uploads', 'catalogs'] as const)
          .map((key) => `https://${serviceBucketName(key)}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`)
          .join(' '),
      },
      bundling: {
        target: BUNDLE.target,
        format: OutputFormat.CJS,
        mainFields: [...BUNDLE.mainFields],
        minify: BUNDLE.minify,
        sourceMap: BUNDLE.sourceMap,
        sourceMapMode: SourceMapMode.DEFAULT,
        sourcesContent: BUNDLE.sourcesContent,
        externalModules: [...BUNDLE.externalModules],
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          // The console's files go next to the handler (console/), built by Vite unless already current.
          afterBundling: (_inputDir: string, outputDir: string) => [
            `cd ${shellQuote(root)} && node --import tsx bin/build-console.ts --out ${shellQuote(join(outputDir, 'console'))}`,
          ],
        },
      },
    });

    const integration = new apigw.LambdaIntegration(this.function, { allowTestInvoke: false });
    const page = props.api.root.resourceForPath(CONSOLE_PATH);
    const files = page.addResource('{proxy+}');
    const open = { authorizationType: apigw.AuthorizationType.NONE, apiKeyRequired: false };
    this.methods = [
      page.addMethod('GET', integration, { ...open, operationName: 'console-page' }),
      files.addMethod('GET', integration, {
        ...open,
        operationName: 'console-files',
        requestParameters: { 'method.request.path.proxy': true },
      }),
    ];
    for (const method of this.methods) {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'These two GET methods serve the static files of the operations console (HTML, JavaScript, CSS of a ' +
          'public build), which a browser loads before anyone has signed in, so they cannot require the API key. ' +
          'They return no data: every call the console makes for jobs goes to /v1/ops/... with the operator key ' +
          'and through the REQUEST authorizer like any client.',
      });
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-COG4',
        reason:
          'The console page itself is public static content; operators authenticate with their API key on every ' +
          'data call (Authorization: Token api_key=...), checked by the Lambda REQUEST authorizer. The service ' +
          'has no Cognito user pool: its users are API keys (SPEC 2).',
      });
    }

    new CfnOutput(Stack.of(this), OUTPUTS.consoleUrl, {
      value: `${props.api.url.replace(/\/$/, '')}${CONSOLE_PATH}/`,
      description:
        'The operations console: sign in with an operator key (npm run keys -- create --scope operator).',
    });
  }
}
