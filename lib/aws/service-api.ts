import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  GATEWAY_REQUEST_HEADERS,
  GATEWAY_RESPONSES,
  type GatewayAnswer,
  type GatewayResponseType,
  gatewayHeaders,
  gatewayProblem,
  PER_CLIENT_THROTTLE,
} from '../gateway-responses';
import { ROUTES } from '../resources';
import { STAGE_NAME } from './names';
import { ApiWebAcl } from './web-acl';

/** SPEC 2: revocation takes effect within 60 s in AWS. */
const AUTHORIZER_CACHE_TTL_SECONDS = 60;

export interface ServiceApiProps {
  /** Route handler name (ROUTES[].handler) -> its function. */
  readonly handlers: ReadonlyMap<string, lambda.IFunction>;
  readonly authorizer: lambda.IFunction;
  readonly logRetention: logs.RetentionDays;
  /**
   * ARN of a regional WAFv2 web ACL to associate with the stage (context `catalogJobs:webAclArn`) instead of
   * the stack's own (lib/aws/web-acl.ts); it should then carry the same rate-based rules.
   */
  readonly webAclArn?: string;
}

const pathParameters = (path: string): string[] =>
  [...path.matchAll(/\{([^}+]+)\+?\}/g)].map((match) => match[1]!);

/**
 * The public REST API (SPEC 5): every route of lib/resources.ts ROUTES, each behind the API-key REQUEST
 * authorizer (cached 60 s by the Authorization header) and the per-client usage plan, with access logs,
 * execution logs (errors only, never request data) and X-Ray.
 */
export class ServiceApi extends Construct {
  readonly api: apigw.RestApi;
  readonly usagePlan: apigw.UsagePlan;
  readonly accessLogGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);

    this.accessLogGroup = new logs.LogGroup(this, 'AccessLogs', { retention: props.logRetention });
    this.api = new apigw.RestApi(this, 'RestApi', {
      restApiName: 'catalog-jobs',
      description: 'Catalog jobs and data exports (SPEC 5).',
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      // The authorizer's usageIdentifierKey selects the client's API key of the usage plan (SPEC 2, 9).
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      // Execution logging needs the account-level CloudWatch role; this creates it (retained on delete).
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      failOnWarnings: true,
      deployOptions: {
        stageName: STAGE_NAME,
        accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: apigw.AccessLogFormat.custom(
          JSON.stringify({
            requestId: apigw.AccessLogField.contextRequestId(),
            extendedRequestId: apigw.AccessLogField.contextExtendedRequestId(),
            requestTime: apigw.AccessLogField.contextRequestTime(),
            ip: apigw.AccessLogField.contextIdentitySourceIp(),
            userAgent: apigw.AccessLogField.contextIdentityUserAgent(),
            httpMethod: apigw.AccessLogField.contextHttpMethod(),
            resourcePath: apigw.AccessLogField.contextResourcePath(),
            path: apigw.AccessLogField.contextPath(),
            protocol: apigw.AccessLogField.contextProtocol(),
            status: apigw.AccessLogField.contextStatus(),
            responseLength: apigw.AccessLogField.contextResponseLength(),
            responseLatency: apigw.AccessLogField.contextResponseLatency(),
            integrationLatency: apigw.AccessLogField.contextIntegrationLatency(),
            integrationStatus: apigw.AccessLogField.contextIntegrationStatus(),
            clientId: apigw.AccessLogField.contextAuthorizer('clientId'),
            keyId: apigw.AccessLogField.contextAuthorizer('keyId'),
            errorType: apigw.AccessLogField.contextErrorResponseType(),
            errorMessage: apigw.AccessLogField.contextErrorMessage(),
            xrayTraceId: apigw.AccessLogField.contextXrayTraceId(),
          }),
        ),
        // ERROR, not INFO, and no data trace: execution logs must never carry the Authorization header.
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
        tracingEnabled: true,
      },
    });

    const authorizer = new apigw.RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      authorizerName: 'api-key',
      handler: props.authorizer,
      identitySources: [apigw.IdentitySource.header('Authorization')],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });

    // Bodies are validated by the handlers (Zod), because SPEC 7 wants JSON Pointers to each bad field,
    // which the gateway's validator cannot produce; the gateway checks the declared parameters.
    const validator = new apigw.RequestValidator(this, 'ParameterValidator', {
      restApi: this.api,
      requestValidatorName: 'parameters',
      validateRequestParameters: true,
      validateRequestBody: false,
    });

    for (const route of ROUTES) {
      const handler = props.handlers.get(route.handler);
      if (!handler)
        throw new Error(`No function for the handler ${route.handler} of ${route.method} ${route.path}`);
      const resource = this.api.root.resourceForPath(route.path);
      resource.addMethod(route.method, new apigw.LambdaIntegration(handler, { allowTestInvoke: false }), {
        operationName: route.handler,
        authorizer,
        authorizationType: apigw.AuthorizationType.CUSTOM,
        apiKeyRequired: true,
        requestValidator: validator,
        requestParameters: Object.fromEntries(
          pathParameters(route.path).map((name) => [`method.request.path.${name}`, true]),
        ),
      });
    }

    // Answers the gateway gives by itself (lib/gateway-responses.ts, the table the local runtime answers
    // from too), in the problem+json shape of SPEC 7. `$context.requestId` is the id handlers put in
    // `request_id` and `x-request-id`.
    for (const [type, answer] of Object.entries(GATEWAY_RESPONSES) as [
      GatewayResponseType,
      GatewayAnswer,
    ][]) {
      this.api.addGatewayResponse(`Gateway${type}`, {
        type: apigw.ResponseType.of(type),
        statusCode: answer.status === undefined ? undefined : String(answer.status),
        responseHeaders: {
          ...Object.fromEntries(
            Object.entries(gatewayHeaders(answer)).map(([name, value]) => [name, `'${value}'`]),
          ),
          ...GATEWAY_REQUEST_HEADERS,
        },
        templates: { 'application/json': JSON.stringify(gatewayProblem(answer, '$context.requestId')) },
      });
    }

    this.usagePlan = this.api.addUsagePlan('PerClientUsagePlan', {
      name: 'catalog-jobs-per-client',
      description: `SPEC 9: each client (one API key per client, value = the usageKey the authorizer returns) gets ${PER_CLIENT_THROTTLE.rateLimit} rps, bursts of ${PER_CLIENT_THROTTLE.burstLimit}.`,
      throttle: { ...PER_CLIENT_THROTTLE },
      apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
    });

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-COG4',
      reason:
        'The API is machine-to-machine and authenticated by API keys (SPEC 2: Authorization: Token ' +
        'api_key=...). Every method uses the Lambda REQUEST authorizer, which checks the key digest against ' +
        'the table and feeds the per-client usage plan; there are no end users for a Cognito user pool.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated, in two places: the gateway\'s "parameters" RequestValidator checks the ' +
        'declared path parameters, and every handler validates its body with Zod (unknown fields rejected). ' +
        'Body validation is not done by API Gateway models on purpose: SPEC 7 requires problem+json errors ' +
        'with a JSON Pointer per invalid field and identical answers from the local runtime, which a gateway ' +
        'model cannot give. cdk-nag accepts only a validator with validateRequestBody enabled.',
    });

    // The stage's web ACL: the one the account names (context catalogJobs:webAclArn), or this stack's own,
    // with the per-source rate rules of lib/aws/web-acl.ts.
    new wafv2.CfnWebACLAssociation(this, 'WebAcl', {
      resourceArn: this.api.deploymentStage.stageArn,
      webAclArn: props.webAclArn ?? new ApiWebAcl(this, 'RateRules').webAcl.attrArn,
    });

    const cloudWatchRole = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'This is the account-level role API Gateway assumes to write execution and access logs. AWS ' +
          'provides AmazonAPIGatewayPushToCloudWatchLogs for exactly this role; only apigateway.amazonaws.com ' +
          'can assume it, and no function or person uses it.',
      });
    }
  }
}
