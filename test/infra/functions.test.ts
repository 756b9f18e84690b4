import { ACCESS, defaultAccess, serviceFunctions } from '../../lib/aws/functions';
import { QUEUES, ROUTES } from '../../lib/resources';

describe('function catalogue (lib/aws/functions.ts)', () => {
  it('gives every handler of lib/resources.ts an explicit access profile', () => {
    const implicit = serviceFunctions()
      .filter((fn) => !fn.explicitAccess)
      .map((fn) => fn.name);
    // A new route without an ACCESS entry still deploys (with defaultAccess and a synth warning), but its
    // grants deserve a look: add the handler to ACCESS.
    expect(implicit).toEqual([]);
  });

  it('takes consumer timeouts from QUEUES, and every consumer consumes the queues that name it', () => {
    for (const fn of serviceFunctions().filter((f) => f.kind === 'consumer')) {
      const queues = Object.entries(QUEUES).filter(([, q]) => q.consumer === fn.name);
      expect(fn.consumes).toEqual(queues.map(([key]) => key));
      expect(fn.timeoutSeconds).toBe(Math.max(...queues.map(([, q]) => q.consumerTimeoutSeconds)));
    }
  });

  it('defaults: client GET reads; client writes read and write the table; operator routes also edit catalogs', () => {
    const route = (method: 'GET' | 'POST' | 'PUT', scope: 'client' | 'operator') => ({
      method,
      path: '/v1/x',
      handler: 'x',
      scope,
    });
    expect(defaultAccess(route('GET', 'client'))).toMatchObject({
      table: { actions: ['GetItem'], queries: [] },
      buckets: {},
      sendTo: [],
    });
    expect(defaultAccess(route('POST', 'client'))).toMatchObject({
      table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], queries: [] },
      buckets: {},
      sendTo: [],
    });
    expect(defaultAccess(route('PUT', 'operator'))).toMatchObject({
      table: { actions: ['GetItem', 'UpdateItem'], queries: ['GSI1', 'GSI3'] },
      buckets: { catalogs: 'readWrite' },
      sendTo: ['exports'],
    });
  });

  it('read-only client routes never write', () => {
    for (const route of ROUTES.filter((r) => r.method === 'GET' && r.scope === 'client')) {
      const access = ACCESS[route.handler] ?? defaultAccess(route);
      expect(access.sendTo).toEqual([]);
      const writes = access.table.actions.filter((a) => a !== 'GetItem' && a !== 'BatchGetItem');
      // get-file marks a file uploaded once its bytes are there.
      expect(writes).toEqual(route.handler === 'get-file' ? ['UpdateItem'] : []);
    }
  });
});
