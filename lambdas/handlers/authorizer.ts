import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { UnauthorizedError } from '../core/errors';
import { authenticate } from '../core/use-cases/credentials';
import { loadConfig } from '../shared/config';
import type { AppDeps } from '../shared/deps';
import { header } from '../shared/headers';
import { lazy } from '../shared/lazy';
import { credentialRepository, logger, systemClock } from '../shared/wiring';

/** The whole API of the stage: the result is cached by Authorization header, so it must cover every route. */
const stageWildcard = (methodArn: string): string => {
  const [arnPrefix, rest = ''] = methodArn.split(':execute-api:');
  const [region, account, path = ''] = rest.split(':');
  const [apiId, stage] = path.split('/');
  return `${arnPrefix}:execute-api:${region}:${account}:${apiId}/${stage}/*/*`;
};

/**
 * API Gateway REQUEST authorizer (SPEC 2). Unknown, malformed or revoked keys are refused with the
 * "Unauthorized" error API Gateway turns into a 401; a dependency failure is thrown as-is (a 5xx gateway
 * response), never as an authorization decision. The tenant id reaches handlers through the context.
 */
export const makeAuthorizerHandler =
  (deps: Pick<AppDeps, 'credentials' | 'clock' | 'logger'>) =>
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    try {
      const principal = await authenticate(deps, header({ headers: event.headers ?? {} }, 'authorization'));
      return {
        principalId: principal.clientId,
        policyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWildcard(event.methodArn) },
          ],
        },
        context: { clientId: principal.clientId, scope: principal.scope, keyId: principal.keyId },
        usageIdentifierKey: principal.usageKey,
      };
    } catch (error) {
      if (error instanceof UnauthorizedError) {
        deps.logger.info('authorization refused');
        throw new Error('Unauthorized');
      }
      deps.logger.error('authorizer failed', { error: error as Error });
      throw error;
    }
  };

/** On the cold path of every first request: one table read, a logger, nothing else (no SQS, S3, tracer). */
export const handler = lazy(() => {
  const config = loadConfig();
  return makeAuthorizerHandler({
    credentials: credentialRepository(config),
    clock: systemClock,
    logger: logger(config),
  });
});
