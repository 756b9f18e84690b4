import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Returns `value` with every plain object that has its own `constructor` key replaced by a Map of its
 * entries (the same reference when there is none, which is nearly always).
 *
 * The SDK's marshaller (util-dynamodb) tells what a value is by `value.constructor.name`, so a client's
 * plain object with its own `constructor` key is mistaken for something else: `{"constructor": "c"}` in
 * metadata for a class instance (an error, so a 500), `{"constructor": {"name": "Set"}}` in
 * client_mappings for a Set. As Maps they are marshalled entry by entry whatever the keys; reading them
 * back needs nothing (unmarshalling builds plain objects).
 */
export const shieldConstructorKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const shielded = shieldConstructorKeys(item);
      changed ||= shielded !== item;
      return shielded;
    });
    return changed ? items : value;
  }
  if (!isPlainObject(value)) return value;
  let changed = Object.hasOwn(value, 'constructor');
  const entries = Object.entries(value).map(([key, item]): [string, unknown] => {
    const shielded = shieldConstructorKeys(item);
    changed ||= shielded !== item;
    return [key, shielded];
  });
  if (!changed) return value;
  return Object.hasOwn(value, 'constructor') ? new Map(entries) : Object.fromEntries(entries);
};

/**
 * The SDK's marshaller (util-dynamodb) tells what a value is by `value.constructor.name`, so a client's
 * plain object with its own `constructor` key is mistaken for something else: `{"constructor": "c"}` in
 * metadata for a class instance (an error, so a 500), `{"constructor": {"name": "Set"}}` in
 * client_mappings for a Set. This middleware hands such objects to it as Maps, which it marshals entry by
 * entry whatever the keys; reading them back needs nothing (unmarshalling builds plain objects).
 */
export const shieldMarshalling = (doc: DynamoDBDocumentClient): DynamoDBDocumentClient => {
  doc.middlewareStack.add(
    (next) => async (args) =>
      next({ ...args, input: shieldConstructorKeys(args.input) as typeof args.input }),
    { step: 'initialize', name: 'shieldConstructorKeys' },
  );
  return doc;
};

/**
 * The document client every repository writes through: undefined attributes left out (optional fields of
 * the records), no class instance taken for a map, and client objects with a `constructor` key shielded.
 */
export const documentClient = (client: DynamoDBClient): DynamoDBDocumentClient =>
  shieldMarshalling(
    DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    }),
  );
