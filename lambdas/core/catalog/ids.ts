import { hash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** RFC 9562's URL namespace, used when a job id is not itself a UUID. */
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

const uuidBytes = (uuid: string): Buffer => {
  if (!UUID.test(uuid)) throw new TypeError(`not a UUID: ${uuid}`);
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
};

/** `8`, `9`, `a`, `b`: the variant nibble (10xx) for each value of a digest nibble's low two bits. */
const VARIANT = [56, 57, 97, 98] as const;
const DASH = 45;
const FIVE = 53;

/**
 * Hashes names in one namespace: SHA-1 of the namespace's 16 bytes and the UTF-8 name, written into one
 * reused buffer (no allocation per name), digested by Node's one-shot `crypto.hash` as hex text, and
 * formatted with a single `String.fromCharCode` so that the id is one flat string (ids are kept for every
 * entity; a string built by concatenation would keep its pieces).
 */
class UuidV5Hasher {
  private scratch: Buffer;
  private readonly codes: number[] = new Array<number>(36).fill(0);

  constructor(namespace: Buffer) {
    this.scratch = Buffer.allocUnsafe(256);
    namespace.copy(this.scratch, 0);
  }

  /** The id of `prefix + name` (the prefix is ASCII), without building that string. */
  id(prefix: string, name: string): string {
    const needed = 16 + prefix.length + name.length * 3;
    if (needed > this.scratch.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.scratch.length * 2));
      this.scratch.copy(grown, 0, 0, 16);
      this.scratch = grown;
    }
    let end = 16 + this.scratch.write(prefix, 16, 'latin1');
    end += this.scratch.write(name, end, 'utf8');
    const hex = hash('sha1', this.scratch.subarray(0, end), 'hex');
    const codes = this.codes;
    let o = 0;
    for (let i = 0; i < 32; i += 1) {
      if (i === 8 || i === 12 || i === 16 || i === 20) codes[o++] = DASH;
      let c = hex.charCodeAt(i);
      if (i === 12) c = FIVE;
      else if (i === 16) c = VARIANT[(c <= 57 ? c - 48 : c - 87) & 3] as number;
      codes[o++] = c;
    }
    return String.fromCharCode.apply(null, codes);
  }
}

/**
 * UUID version 5 (RFC 9562 section 5.5): SHA-1 of the namespace's bytes and the UTF-8 name.
 *
 * @example uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8') // '2ed6657d-e927-568b-95e1-2665a8aea6a2'
 */
export const uuidV5 = (name: string, namespace: string): string =>
  new UuidV5Hasher(uuidBytes(namespace)).id('', name);

export type EntityKind = 'category' | 'item' | 'variant' | 'modifier_group' | 'modifier';

const PREFIX: Readonly<Record<EntityKind, string>> = {
  category: 'category:',
  item: 'item:',
  variant: 'variant:',
  modifier_group: 'modifier_group:',
  modifier: 'modifier:',
};

/**
 * The namespace of a catalog's entity ids (SPEC 5.5): the job's id; or, when the job names its merchant
 * (`merchant_token`), one derived from the client and the token, so that one merchant's entities keep their
 * ids from one job to the next (what lets `results.changes` match them) while two clients never share one.
 */
export const entityNamespace = (job: {
  readonly id: string;
  readonly clientId?: string | null;
  readonly merchantToken?: string | null;
}): string =>
  job.clientId && job.merchantToken
    ? uuidV5(`merchant:${job.clientId.length}:${job.clientId}:${job.merchantToken}`, URL_NAMESPACE)
    : job.id;

/**
 * Deterministic entity ids (SPEC 5.5): UUIDv5 in the namespace of `kind:naturalKey` (entityNamespace), so
 * the same input always yields the same ids and two jobs of different merchants never share one.
 */
export const makeEntityIds = (jobId: string): ((kind: EntityKind, naturalKey: string) => string) => {
  const hasher = new UuidV5Hasher(uuidBytes(UUID.test(jobId) ? jobId : uuidV5(jobId, URL_NAMESPACE)));
  return (kind, naturalKey) => hasher.id(PREFIX[kind], naturalKey);
};
