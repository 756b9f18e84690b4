import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Contract checks: does a response (status, headers, body) match what the OpenAPI document says the
 * operation answers? The document is the committed docs/openapi.json, the one clients read (a unit test
 * keeps it equal to what the code generates). Bodies are validated with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1) and ajv-formats.
 */

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is open-ended JSON
type Json = any;

export interface ObservedResponse {
  readonly method: string;
  /** The request path, optionally with its query string. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers | Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
}

const DOCUMENT_ID = 'openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const escapePointer = (segment: string): string =>
  encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'));

const headerOf = (headers: ObservedResponse['headers'], name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
};

const describeErrors = (errors: ErrorObject[] | null | undefined): string =>
  (errors ?? [])
    .map(
      (e) =>
        `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    )
    .join('; ');

export class OpenApiContract {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp; params: number }[];
  /** Which operations and statuses were seen, for a coverage report. */
  readonly seen = new Set<string>();

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.templates = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{[^/]+\}/g, '[^/]+')}/?$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** The committed document. */
  static load(file = path.join(process.cwd(), 'docs', 'openapi.json')): OpenApiContract {
    return new OpenApiContract(JSON.parse(readFileSync(file, 'utf8')));
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private resolve(value: Json, pointer: string): { value: Json; pointer: string } {
    if (value && typeof value.$ref === 'string') {
      const target = value.$ref.replace(/^#/, '');
      const resolved = target
        .split('/')
        .slice(1)
        .map((s: string) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce((node: Json, key: string) => node?.[key], this.document);
      return {
        value: resolved,
        pointer: target
          .split('/')
          .map((s: string) => encodeURIComponent(s))
          .join('/'),
      };
    }
    return { value, pointer };
  }

  /** Validates `value` against the schema at `pointer` in the document; an error message or undefined. */
  validateSchema(pointer: string, value: unknown): string | undefined {
    const validate = this.validator(pointer);
    return validate(value) ? undefined : describeErrors(validate.errors);
  }

  /** Validates a value against a component schema, e.g. `schemaErrors('DataExportEvent', body)`. */
  schemaErrors(component: string, value: unknown): string | undefined {
    return this.validateSchema(`/components/schemas/${escapePointer(component)}`, value);
  }

  /** Every way `response` departs from the document; empty when it conforms. */
  check(response: ObservedResponse): string[] {
    const problems: string[] = [];
    const method = response.method.toLowerCase();
    const pathname = new URL(response.path, 'http://contract.local').pathname;
    const label = `${response.method.toUpperCase()} ${pathname} → ${response.status}`;
    const match = this.templates.find((t) => t.pattern.test(pathname));
    const contentType = headerOf(response.headers, 'content-type')?.split(';')[0]?.trim();

    const problemBody = (status: number) => {
      if (response.status !== status) problems.push(`${label}: expected ${status} here`);
      if (contentType !== 'application/problem+json') problems.push(`${label}: content-type ${contentType}`);
      const error = this.schemaErrors('Problem', response.body);
      if (error) problems.push(`${label}: body is not a Problem: ${error}`);
    };

    if (!match) {
      // No route: the gateway's 404 (documented in the description, not per operation).
      this.seen.add(`(no route) ${response.status}`);
      problemBody(404);
      return problems;
    }
    const pathItem = this.document.paths[match.template];
    const operation = pathItem[method];
    if (!operation) {
      // The path exists, the method does not: 405 with Allow listing the documented methods.
      this.seen.add(`(no method) ${response.status}`);
      problemBody(405);
      const allow = new Set((headerOf(response.headers, 'allow') ?? '').split(/,\s*/).filter(Boolean));
      const documented = new Set(METHODS.filter((m) => pathItem[m]).map((m) => m.toUpperCase()));
      if ([...allow].sort().join() !== [...documented].sort().join()) {
        problems.push(
          `${label}: Allow "${[...allow].join(', ')}" but the document has ${[...documented].join(', ')}`,
        );
      }
      return problems;
    }

    const base = `/paths/${escapePointer(match.template)}/${method}/responses`;
    const key = [String(response.status), `${String(response.status)[0]}XX`, 'default'].find(
      (k) => operation.responses[k] !== undefined,
    );
    this.seen.add(`${operation.operationId} ${response.status}`);
    if (!key) {
      problems.push(`${label}: status not documented for ${operation.operationId}`);
      return problems;
    }
    const { value: documented, pointer } = this.resolve(
      operation.responses[key],
      `${base}/${escapePointer(key)}`,
    );

    for (const [name, raw] of Object.entries<Json>(documented.headers ?? {})) {
      const { value: spec } = this.resolve(raw, '');
      const value = headerOf(response.headers, name);
      if (value === undefined) {
        if (spec.required) problems.push(`${label}: required header ${name} is missing`);
        continue;
      }
      const typed = spec.schema?.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      const ajvError = this.ajv.validate({ ...spec.schema }, typed)
        ? undefined
        : describeErrors(this.ajv.errors);
      if (ajvError) problems.push(`${label}: header ${name}="${value}": ${ajvError}`);
    }

    const content = documented.content as Record<string, Json> | undefined;
    if (!content) {
      if (response.body !== null && response.body !== undefined && response.body !== '') {
        problems.push(`${label}: a body where the document has none`);
      }
      return problems;
    }
    if (!contentType || !content[contentType]) {
      problems.push(`${label}: content-type ${contentType} is not one of ${Object.keys(content).join(', ')}`);
      return problems;
    }
    const error = this.validateSchema(
      `${pointer}/content/${escapePointer(contentType)}/schema`,
      response.body,
    );
    if (error) problems.push(`${label}: body does not match the schema: ${error}`);
    return problems;
  }

  /** Throws with every departure, for tests: `contract.assert(response)`. */
  assert(response: ObservedResponse): void {
    const problems = this.check(response);
    if (problems.length > 0) {
      throw new Error(
        `response departs from docs/openapi.json:\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(response.body)}`,
      );
    }
  }
}
