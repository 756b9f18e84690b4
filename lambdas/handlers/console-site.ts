import path from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type ConsoleFiles, consoleResponse, readConsoleFiles } from '../../console/site/files';
import type { PolicyOptions } from '../../console/site/headers';
import { consoleStorageOrigins } from '../shared/console-site';

/**
 * GET /ops and /ops/{proxy+} in AWS: the operations console's built files, packaged next to this bundle
 * (console/, copied by the CDK bundling of lib/aws/console-site.ts), answered with the same headers as the
 * local runtime (console/site/headers.ts). Only files of the build are answered; a path is looked up, never
 * joined into a file system path.
 */
export const makeConsoleSiteHandler = (load: () => ConsoleFiles, policy: PolicyOptions = {}) => {
  let files: ConsoleFiles | undefined;
  return async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    files ??= load();
    const proxy = event.pathParameters?.proxy;
    const rest = proxy === undefined ? (event.path.endsWith('/') ? '/' : '') : `/${proxy}`;
    // `/prod/ops/` (what the browser asked) less `/ops/` (the resource path): the stage or base path.
    const full = event.requestContext.path ?? event.path;
    const basePath = full.endsWith(event.path) ? full.slice(0, full.length - event.path.length) : '';
    const response = consoleResponse(files, rest, {
      ...policy,
      requestId: event.requestContext.requestId,
      basePath,
    });
    const body = response.body;
    return {
      statusCode: response.statusCode,
      headers: { ...response.headers, 'x-request-id': event.requestContext.requestId },
      body: typeof body === 'string' ? body : body.toString('utf8'),
      isBase64Encoded: false,
    };
  };
};

/** Lambda runs handlers with the function's code directory as the working directory. */
export const handler = makeConsoleSiteHandler(() => readConsoleFiles(path.join(process.cwd(), 'console')), {
  storageOrigins: consoleStorageOrigins(),
});
