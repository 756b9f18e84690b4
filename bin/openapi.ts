/**
 * `npm run openapi`: writes the OpenAPI document built from the code to docs/openapi.json.
 * `npm run openapi -- --check` writes nothing and fails when docs/openapi.json is not up to date.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../lib/openapi/document';

const target = path.join(process.cwd(), 'docs', 'openapi.json');
const text = serializeOpenApiDocument(buildOpenApiDocument());

if (process.argv.includes('--check')) {
  const current = await readFile(target, 'utf8').catch(() => '');
  if (current !== text) {
    console.error(`${path.relative(process.cwd(), target)} is stale: run npm run openapi`);
    process.exit(1);
  }
  console.log(`${path.relative(process.cwd(), target)} is up to date`);
} else {
  await writeFile(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)} (${Buffer.byteLength(text)} bytes)`);
}
