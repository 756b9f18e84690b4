/**
 * Protocol Buffers at the wire level: a message as its list of fields, each kept as the bytes it was read
 * from, so that a message can be changed in a few fields and written back with every other field as it was
 * (model-fusion.ts rewrites ONNX models so; a schema decoder would drop the fields its schema does not name).
 */

/** A field as it is on the wire: varint (0), 64-bit (1), length-delimited (2) or 32-bit (5). */
export interface Field {
  readonly number: number;
  readonly wire: number;
  readonly value: bigint | Uint8Array;
}

export const readVarint = (bytes: Uint8Array, at: number): [bigint, number] => {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < bytes.length && shift < 70n; i++) {
    const byte = bytes[i]!;
    value |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if ((byte & 0x80) === 0) return [value, i + 1];
  }
  throw new Error('malformed varint');
};

export const readFields = (bytes: Uint8Array): Field[] => {
  const fields: Field[] = [];
  let at = 0;
  while (at < bytes.length) {
    const [key, afterKey] = readVarint(bytes, at);
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    at = afterKey;
    if (wire === 0) {
      const [value, next] = readVarint(bytes, at);
      fields.push({ number, wire, value });
      at = next;
      continue;
    }
    let length: number;
    if (wire === 1) length = 8;
    else if (wire === 5) length = 4;
    else if (wire === 2) {
      const [size, next] = readVarint(bytes, at);
      length = Number(size);
      at = next;
    } else throw new Error(`unsupported wire type ${wire}`);
    if (at + length > bytes.length) throw new Error('truncated field');
    fields.push({ number, wire, value: bytes.subarray(at, at + length) });
    at += length;
  }
  return fields;
};

const varintBytes = (value: bigint): number[] => {
  const out: number[] = [];
  let rest = BigInt.asUintN(64, value);
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest > 0n ? low | 0x80 : low);
  } while (rest > 0n);
  return out;
};

export const writeFields = (fields: readonly Field[]): Uint8Array => {
  const parts: Uint8Array[] = [];
  let size = 0;
  const push = (part: Uint8Array): void => {
    parts.push(part);
    size += part.length;
  };
  for (const field of fields) {
    push(Uint8Array.from(varintBytes(BigInt((field.number << 3) | field.wire))));
    if (typeof field.value === 'bigint') push(Uint8Array.from(varintBytes(field.value)));
    else {
      if (field.wire === 2) push(Uint8Array.from(varintBytes(BigInt(field.value.length))));
      push(field.value);
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};
