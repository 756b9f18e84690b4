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
