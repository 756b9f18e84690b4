/**
 * Defensive reads of JSON from a storefront: its shape is the platform's, but nothing in it is trusted, so
 * every field is checked where it is used and a wrong type reads as absent.
 */

export type JsonObject = Readonly<Record<string, unknown>>;

export const asObject = (value: unknown): JsonObject | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;

export const asArray = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

export const asObjects = (value: unknown): JsonObject[] =>
  asArray(value)
    .map(asObject)
    .filter((o): o is JsonObject => o !== undefined);

/** A non-blank string (trimmed), or a finite number as text; otherwise null. */
export const asText = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
};

export const asInteger = (value: unknown): number | null => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value.trim())
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
};

/** An id as the platforms write them (numbers, or strings of digits) → a string key. */
export const asId = (value: unknown): string | null =>
  typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : asText(value);
