import { hash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** RFC 9562's URL namespace, used when a job id is not itself a UUID. */
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

const uuidBytes = (uuid: string): Buffer => {
  if (!UUID.test(uuid)) throw new TypeError(`not a UUID: ${uuid}`);
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
};

const HEX = '0123456789abcdef';

/** The 36-character form, built in one buffer so that the string is flat (ids are kept for every entity). */
const formatUuid = (bytes: Uint8Array): string => {
  const out = Buffer.allocUnsafe(36);
  let o = 0;
  for (let i = 0; i < 16; i += 1) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out[o++] = 45;
    const b = bytes[i] as number;
    out[o++] = HEX.charCodeAt(b >> 4);
    out[o++] = HEX.charCodeAt(b & 15);
  }
  return out.toString('latin1');
};

/**
 * UUID version 5 (RFC 9562 section 5.5): SHA-1 of the namespace's bytes and the UTF-8 name.
 *
 * @example uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8') // '2ed6657d-e927-568b-95e1-2665a8aea6a2'
 */
export const uuidV5 = (name: string, namespace: string): string => {
  return uuidV5FromBytes(name, uuidBytes(namespace));
};

const uuidV5FromBytes = (name: string, namespace: Buffer): string => {
  const input = Buffer.allocUnsafe(16 + Buffer.byteLength(name, 'utf8'));
  namespace.copy(input, 0);
  input.write(name, 16, 'utf8');
  const bytes = hash('sha1', input, 'buffer').subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
};

export type EntityKind = 'category' | 'item' | 'variant' | 'modifier_group' | 'modifier';

/**
 * Deterministic entity ids (SPEC 5.5): UUIDv5 in the job's namespace of `kind:naturalKey`, so the same
 * input always yields the same ids and two jobs never share one.
 */
export const makeEntityIds = (jobId: string): ((kind: EntityKind, naturalKey: string) => string) => {
  const namespace = uuidBytes(UUID.test(jobId) ? jobId : uuidV5(jobId, URL_NAMESPACE));
  return (kind, naturalKey) => uuidV5FromBytes(`${kind}:${naturalKey}`, namespace);
};
