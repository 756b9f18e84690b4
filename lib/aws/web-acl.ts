import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  FAILED_AUTH_THROTTLE,
  type GatewayAnswer,
  gatewayHeaders,
  gatewayProblem,
  LOCAL_GATEWAY_RESPONSES,
  PER_CLIENT_THROTTLE,
} from '../gateway-responses';

/** WAF counts requests per source address over this window (its default, 5 minutes). */
export const WAF_WINDOW_SECONDS = 300;

/**
 * The web ACL's rate-based rules, per source address (issue 25). WAF sees requests, never the authorizer's
 * answer, so "failed authentication" is what it can tell without it: a request to the API that carries no
 * well-formed API key (no Authorization header, another scheme, a key of the wrong shape) may come at
 * FAILED_AUTH_THROTTLE's rate, as locally; and any request at most at five clients' worth of
 * PER_CLIENT_THROTTLE, which bounds well-formed unknown keys from one address (the authorizer's cache by
 * Authorization header cannot, as each guess is a new header).
 */
export const WAF_RATE_RULES = {
  withoutWellFormedKey: FAILED_AUTH_THROTTLE.rateLimit * WAF_WINDOW_SECONDS,
  anyRequest: PER_CLIENT_THROTTLE.rateLimit * 5 * WAF_WINDOW_SECONDS,
} as const;

/** lambdas/core/auth.ts parseAuthorization, after WAF's LOWERCASE transformation. */
export const WELL_FORMED_AUTHORIZATION = '^\\s*token\\s+api_key=[a-z0-9._~-]{16,256}\\s*$';

const THROTTLED_BODY = 'throttled';

const problemBody = (answer: GatewayAnswer): string => {
  // WAF cannot fill in the request id: the body is the problem without it.
  const { request_id: _, ...problem } = gatewayProblem(answer, '');
  return JSON.stringify(problem);
};

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/**
 * A regional web ACL for the API stage, with the rate-based rules of WAF_RATE_RULES. A refused request gets
 * 429 with Retry-After and the problem+json body of LOCAL_GATEWAY_RESPONSES.SOURCE_THROTTLED, as the local
 * gateway answers it.
 */
export class ApiWebAcl extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const answer = LOCAL_GATEWAY_RESPONSES.SOURCE_THROTTLED;
    const block: wafv2.CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: answer.status,
          customResponseBodyKey: THROTTLED_BODY,
          responseHeaders: Object.entries(gatewayHeaders(answer))
            .filter(([name]) => name.toLowerCase() !== 'content-type')
            .map(([name, value]) => ({ name, value })),
        },
      },
    };
    const apiPath: wafv2.CfnWebACL.StatementProperty = {
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'CONTAINS',
        searchString: '/v1/',
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    };
    const wellFormedKey: wafv2.CfnWebACL.StatementProperty = {
      regexMatchStatement: {
        fieldToMatch: { singleHeader: { Name: 'authorization' } },
        regexString: WELL_FORMED_AUTHORIZATION,
        textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
      },
    };
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'catalog-jobs API: rate-based rules per source address',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('catalog-jobs-api'),
      customResponseBodies: {
        [THROTTLED_BODY]: { contentType: 'APPLICATION_JSON', content: problemBody(answer) },
      },
      rules: [
        {
          name: 'WithoutWellFormedKeyPerSource',
          priority: 0,
          action: block,
          visibilityConfig: visibility('catalog-jobs-without-key-per-source'),
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: WAF_RATE_RULES.withoutWellFormedKey,
              evaluationWindowSec: WAF_WINDOW_SECONDS,
              scopeDownStatement: {
                andStatement: { statements: [apiPath, { notStatement: { statement: wellFormedKey } }] },
              },
            },
          },
        },
        {
          name: 'RequestsPerSource',
          priority: 1,
          action: block,
          visibilityConfig: visibility('catalog-jobs-requests-per-source'),
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: WAF_RATE_RULES.anyRequest,
              evaluationWindowSec: WAF_WINDOW_SECONDS,
            },
          },
        },
      ],
    });
  }
}
