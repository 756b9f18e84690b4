import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { consoleResponse, readConsoleFiles } from '../../../console/site/files';
import { contentSecurityPolicy, securityHeaders } from '../../../console/site/headers';
import { makeConsoleSiteHandler } from '../../../lambdas/handlers/console-site';
import { apiEvent } from '../../helpers/factories';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'console-site-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<script type="module" src="./assets/index-abc.js"></script><link href="./assets/index-abc.css">',
  );
  writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(path.join(dir, 'assets', 'font.woff2'), Buffer.from([0, 1, 2]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the console site', () => {
  it('has a strict policy: own scripts only, no inline code, no eval, no framing', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe|\*|http:|https:/);
    const withStore = contentSecurityPolicy({ storageOrigins: ['https://bucket.s3.amazonaws.com'] });
    expect(withStore).toContain("connect-src 'self' https://bucket.s3.amazonaws.com");
    expect(withStore).toContain("img-src 'self' blob: data: https://bucket.s3.amazonaws.com");
    expect(securityHeaders()).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });

  it('serves only text files of the build, the page with absolute asset URLs under the base path', () => {
    const files = readConsoleFiles(dir);
    expect([...files.keys()].sort()).toEqual(['assets/index-abc.css', 'assets/index-abc.js', 'index.html']);
    const page = consoleResponse(files, '/', { basePath: '/prod' });
    expect(page.statusCode).toBe(200);
    expect(String(page.body)).toBe(
      '<script type="module" src="/prod/ops/assets/index-abc.js"></script><link href="/prod/ops/assets/index-abc.css">',
    );
    expect(page.headers['Cache-Control']).toBe('no-cache');
    expect(String(consoleResponse(files, '', { basePath: '"><script>' }).body)).toContain(
      'src="/ops/assets/',
    );
    const asset = consoleResponse(files, '/assets/index-abc.js');
    expect(asset.headers).toMatchObject({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    for (const rest of ['/assets/font.woff2', '/../package.json', '/assets/../index.html', '/nothing']) {
      expect(consoleResponse(files, rest).statusCode).toBe(404);
    }
  });

  it('the Lambda handler answers API Gateway events, with the stage as base path and the request id', async () => {
    const handler = makeConsoleSiteHandler(() => readConsoleFiles(dir));
    const base = apiEvent({});
    const event = (path: string, proxy?: string) => ({
      ...base,
      path,
      pathParameters: proxy === undefined ? null : { proxy },
      requestContext: { ...base.requestContext, path: `/prod${path}`, requestId: 'req-1' },
    });
    const page = await handler(event('/ops'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('src="/prod/ops/assets/index-abc.js"');
    expect(page.headers).toMatchObject({ 'x-request-id': 'req-1', 'X-Frame-Options': 'DENY' });
    expect((await handler(event('/ops/assets/index-abc.js', 'assets/index-abc.js'))).body).toBe(
      'console.log(1)',
    );
    const missing = await handler(event('/ops/x', 'x'));
    expect([missing.statusCode, JSON.parse(missing.body).request_id]).toEqual([404, 'req-1']);
  });
});
