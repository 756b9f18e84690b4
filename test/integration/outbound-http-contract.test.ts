import { GuardedHttp } from '../../lambdas/adapters/guarded-http';
import { readBody } from '../../lambdas/core/outbound';
import type { OutboundHttp, OutboundRequest } from '../../lambdas/core/ports';
import { ScriptedHttp } from '../helpers/fakes';
import { startTestServer, type TestServer } from '../helpers/pipeline';

/** What the receiving end answers, the same for the real server and the fake's script. */
const SCRIPT: Record<string, { status: number; headers: Record<string, string>; body: string }> = {
  '/menu.csv': {
    status: 200,
    headers: { 'Content-Type': 'text/csv', 'X-Trace': 'abc' },
    body: 'name\nPizza\n',
  },
  '/gone': { status: 410, headers: {}, body: '' },
};

/**
 * One suite, two implementations of the OutboundHttp port: GuardedHttp talking to a real server (loopback
 * allowed, as in tests), and the ScriptedHttp the unit tests use, answering the same script.
 */
describe.each([
  ['GuardedHttp', (): OutboundHttp => new GuardedHttp({ allowLoopback: true })],
  [
    'ScriptedHttp',
    (): OutboundHttp =>
      new ScriptedHttp((request) => SCRIPT[new URL(request.url).pathname] ?? { status: 404 }),
  ],
])('OutboundHttp: %s', (_name, make) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      const answer = SCRIPT[req.url] ?? { status: 404, headers: {}, body: '' };
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  afterAll(async () => {
    await server.stop();
  });
  const request = (path: string): OutboundRequest => ({
    url: `${server.url}${path}`,
    method: 'GET',
    timeoutMs: 5000,
    maxBytes: 1024,
    followRedirects: false,
  });

  it('answers with the status, lower-cased headers, the URL and the body as a stream', async () => {
    const http = make();
    const response = await http.request(request('/menu.csv'));
    expect(response).toMatchObject({
      status: 200,
      url: `${server.url}/menu.csv`,
      headers: expect.objectContaining({ 'content-type': 'text/csv', 'x-trace': 'abc' }),
    });
    expect((await readBody(response)).toString()).toBe('name\nPizza\n');
  });

  it('answers an HTTP error status as a response, not an error', async () => {
    const http = make();
    expect((await http.request(request('/gone'))).status).toBe(410);
    expect((await http.request(request('/nothing'))).status).toBe(404);
  });
});
