import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * A request header by name, whatever its case. Its own module: the authorizer reads the Authorization header
 * with it and nothing else of the HTTP middleware (which brings middy and the request schemas along).
 */
export const header = (event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
};

/**
 * Every value a request header was sent with, whatever its case: API Gateway's `headers` keeps only the
 * last of a repeated header, `multiValueHeaders` all of them.
 */
export const headerValues = (
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>,
  name: string,
): string[] => {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, list] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === wanted) values.push(...(list ?? []));
  }
  if (values.length > 0) return values;
  const single = header(event, name);
  return single === undefined ? [] : [single];
};

/**
 * Headers of every answer of the API, from a handler or from the gateway (lib/gateway-responses.ts): an
 * answer holds a client's data (a job, a catalog's summary, a signed delivery URL), so no cache, shared or
 * the browser's, keeps it (`no-store`), and a browser never reads a JSON body as anything else (`nosniff`).
 */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};
