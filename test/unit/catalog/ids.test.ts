import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { makeEntityIds, uuidV5 } from '../../../lambdas/core/catalog/ids';

describe('uuidV5', () => {
  test('matches the RFC 9562 / Python uuid5 reference vector', () => {
    // uuid.uuid5(uuid.NAMESPACE_DNS, 'www.example.com') in Python
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  test('property: deterministic, version 5, RFC variant', () => {
    fc.assert(
      fc.property(fc.string(), fc.uuid(), (name, namespace) => {
        const id = uuidV5(name, namespace);
        expect(id).toBe(uuidV5(name, namespace));
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }),
    );
  });

  test('property: equals SHA-1 of the namespace bytes and the UTF-8 name, however long or unusual the name', () => {
    const reference = (name: string, namespace: string): string => {
      const bytes = createHash('sha1')
        .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
        .update(Buffer.from(name, 'utf8'))
        .digest();
      bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
      bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
      const hex = bytes.toString('hex', 0, 16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    const names = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 400 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.string({ maxLength: 2000 }),
      // Any UTF-16 code unit, lone surrogates included (written as U+FFFD, as Buffer.from does).
      fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
        maxLength: 100,
      }),
    );
    fc.assert(
      fc.property(names, fc.uuid(), (name, namespace) => {
        expect(uuidV5(name, namespace)).toBe(reference(name, namespace));
      }),
      { numRuns: 500 },
    );
  });

  test('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow(TypeError);
  });
});

describe('makeEntityIds', () => {
  const jobA = '0b7f6c1e-8a6a-4c3e-9f43-0c2f4f7f2a11';
  const jobB = '6a1f0a8e-2f3b-4f39-bb0c-5a3b3f2d9e55';

  test('same job and key → same id; other job, kind or key → another id', () => {
    const a = makeEntityIds(jobA);
    expect(a('item', 'pizza/margherita')).toBe(makeEntityIds(jobA)('item', 'pizza/margherita'));
    expect(a('item', 'pizza/margherita')).not.toBe(makeEntityIds(jobB)('item', 'pizza/margherita'));
    expect(a('item', 'pizza')).not.toBe(a('category', 'pizza'));
    expect(a('item', 'pizza/margherita')).not.toBe(a('item', 'pizza/marinara'));
  });

  test('an id is UUIDv5 of `kind:key` in the job id as namespace, for keys of any length', () => {
    const ids = makeEntityIds(jobA);
    for (const key of ['pizza/margherita', '', 'é'.repeat(300), 'x'.repeat(5000), 'pizza/margherita']) {
      expect(ids('variant', key)).toBe(uuidV5(`variant:${key}`, jobA));
      expect(ids('modifier_group', key)).toBe(uuidV5(`modifier_group:${key}`, jobA));
    }
  });

  test('upper-case job ids give the same namespace', () => {
    expect(makeEntityIds(jobA.toUpperCase())('item', 'x')).toBe(makeEntityIds(jobA)('item', 'x'));
  });

  test('a job id that is not a UUID still yields stable ids', () => {
    expect(makeEntityIds('job-1')('item', 'x')).toBe(makeEntityIds('job-1')('item', 'x'));
    expect(makeEntityIds('job-1')('item', 'x')).not.toBe(makeEntityIds('job-2')('item', 'x'));
  });
});
