import * as z from 'zod';
import { JOB_TYPES, LANGUAGES } from '../schemas/job';

/**
 * SPEC 5.5: the catalog document. It is the export file, the format operators upload through
 * PUT /v1/ops/jobs/{id}/catalog, and one of the JSON source formats of SPEC 5.2.
 *
 * Objects are strict (an unknown key is an error, so a typo never passes silently). Nullable fields and
 * empty arrays may be omitted on input and are filled in with `null` / `[]`, so the parsed output always
 * has every field. References (category_id, parent_id, modifier_group_ids, image_mappings[].item_id) must
 * point at entities of the same document, and ids are unique per entity kind.
 */

export const CATALOG_FORMAT_VERSION = 1;

/** SPEC 9: at most this many items per catalog. */
export const MAX_CATALOG_ITEMS = 200_000;

/** Field lengths a catalog accepts; the builder warns about (and drops) values beyond them. */
export const FIELD_LIMITS = {
  id: 255,
  name: 1000,
  description: 20_000,
  code: 255,
  url: 2048,
  tags: 100,
  tag: 255,
  modifiers: 1000,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const id = z.string().regex(UUID, { message: 'must be a UUID' });
const name = z
  .string()
  .max(FIELD_LIMITS.name)
  .refine((s) => s.trim().length > 0, { message: 'must not be blank' });
const text = (max: number) => z.string().max(max).nullable().default(null);
const externalId = z.string().max(FIELD_LIMITS.code).nullable().default(null);
const httpUrl = z
  .string()
  .max(FIELD_LIMITS.url)
  .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), { message: 'must be an absolute http(s) URL' });
const dimension = z.number().int().positive().nullable().default(null);

/** ISO 4217 alphabetic code. */
export const currencyCodeSchema = z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code' });

/** An amount in the currency's minor units (cents; yen for JPY). */
export const priceSchema = z.strictObject({
  amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  currency: currencyCodeSchema,
});

export const categorySchema = z.strictObject({
  id,
  name,
  parent_id: id.nullable().default(null),
  sort: z.number().int().min(0).default(0),
  external_id: externalId,
});

export const itemImageSchema = z.strictObject({
  url: httpUrl,
  width: dimension,
  height: dimension,
});

export const itemSchema = z.strictObject({
  id,
  name,
  description: text(FIELD_LIMITS.description),
  category_id: id.nullable().default(null),
  sku: text(FIELD_LIMITS.code),
  gtin: z
    .string()
    .regex(/^(\d{8}|\d{12}|\d{13}|\d{14})$/, { message: 'must be 8, 12, 13 or 14 digits' })
    .nullable()
    .default(null),
  brand: text(FIELD_LIMITS.name),
  size: text(FIELD_LIMITS.code),
  unit: text(FIELD_LIMITS.code),
  price: priceSchema.nullable().default(null),
  tags: z.array(z.string().min(1).max(FIELD_LIMITS.tag)).max(FIELD_LIMITS.tags).default([]),
  calories: z.number().int().min(0).nullable().default(null),
  modifier_group_ids: z.array(id).default([]),
  images: z.array(itemImageSchema).default([]),
  external_id: externalId,
});

export const modifierSchema = z.strictObject({
  id,
  name,
  price: priceSchema.nullable().default(null),
});

export const modifierGroupSchema = z
  .strictObject({
    id,
    name,
    min: z.number().int().min(0),
    max: z.number().int().min(0),
    modifiers: z.array(modifierSchema).max(FIELD_LIMITS.modifiers).default([]),
  })
  .refine((g) => g.min <= g.max, { message: 'min must not exceed max', path: ['min'] });

export const imageMappingSchema = z.strictObject({
  image_url: httpUrl,
  item_id: id,
  matched_by: z.enum(['gtin', 'sku']),
  width: dimension,
  height: dimension,
});

const duplicateIds = (
  entities: readonly { id: string }[],
  path: string,
  ctx: z.RefinementCtx,
): Set<string> => {
  const seen = new Set<string>();
  entities.forEach((entity, index) => {
    if (seen.has(entity.id)) {
      ctx.addIssue({ code: 'custom', message: 'duplicate id', path: [path, index, 'id'] });
    }
    seen.add(entity.id);
  });
  return seen;
};

export const catalogDocumentSchema = z
  .strictObject({
    format_version: z.literal(CATALOG_FORMAT_VERSION),
    job_id: id,
    job_type: z.enum(JOB_TYPES),
    generated_at: z.iso.datetime({ offset: true }),
    language: z.enum(LANGUAGES),
    currency: currencyCodeSchema,
    merchant: z.strictObject({
      name,
      address: text(1000),
      token: text(255),
    }),
    categories: z.array(categorySchema).default([]),
    items: z
      .array(itemSchema)
      .max(MAX_CATALOG_ITEMS, { message: `must have at most ${MAX_CATALOG_ITEMS} items` })
      .default([]),
    modifier_groups: z.array(modifierGroupSchema).default([]),
    image_mappings: z.array(imageMappingSchema).default([]),
  })
  .superRefine((doc, ctx) => {
    const categoryIds = duplicateIds(doc.categories, 'categories', ctx);
    const itemIds = duplicateIds(doc.items, 'items', ctx);
    const groupIds = duplicateIds(doc.modifier_groups, 'modifier_groups', ctx);
    const parents = new Map(doc.categories.map((c) => [c.id, c.parent_id]));
    doc.categories.forEach((category, index) => {
      if (category.parent_id === null) return;
      if (!categoryIds.has(category.parent_id)) {
        ctx.addIssue({
          code: 'custom',
          message: 'unknown parent category',
          path: ['categories', index, 'parent_id'],
        });
        return;
      }
      // Walk up the chain: a cycle would make the tree unusable for every consumer.
      let current: string | null = category.parent_id;
      for (let steps = 0; current !== null; steps += 1) {
        if (current === category.id || steps > doc.categories.length) {
          ctx.addIssue({
            code: 'custom',
            message: 'category parents form a cycle',
            path: ['categories', index, 'parent_id'],
          });
          return;
        }
        current = parents.get(current) ?? null;
      }
    });
    doc.items.forEach((item, index) => {
      if (item.category_id !== null && !categoryIds.has(item.category_id)) {
        ctx.addIssue({ code: 'custom', message: 'unknown category', path: ['items', index, 'category_id'] });
      }
      item.modifier_group_ids.forEach((groupId, groupIndex) => {
        if (!groupIds.has(groupId)) {
          ctx.addIssue({
            code: 'custom',
            message: 'unknown modifier group',
            path: ['items', index, 'modifier_group_ids', groupIndex],
          });
        }
      });
    });
    doc.image_mappings.forEach((mapping, index) => {
      if (!itemIds.has(mapping.item_id)) {
        ctx.addIssue({ code: 'custom', message: 'unknown item', path: ['image_mappings', index, 'item_id'] });
      }
    });
  });

/** The document as accepted on input (nullable fields and empty arrays may be omitted). */
export type CatalogDocumentInput = z.input<typeof catalogDocumentSchema>;
/** The document with every field present. */
export type CatalogDocument = z.output<typeof catalogDocumentSchema>;
export type Category = z.output<typeof categorySchema>;
export type Item = z.output<typeof itemSchema>;
export type ItemImage = z.output<typeof itemImageSchema>;
export type ModifierGroup = z.output<typeof modifierGroupSchema>;
export type Modifier = z.output<typeof modifierSchema>;
export type ImageMapping = z.output<typeof imageMappingSchema>;
export type Price = z.output<typeof priceSchema>;

export type CatalogDocumentParseResult =
  | { readonly ok: true; readonly document: CatalogDocument }
  | { readonly ok: false; readonly errors: readonly { pointer: string; message: string }[] };

/**
 * Validates an untrusted catalog document (an operator upload or a JSON source) and reports every problem
 * with a JSON Pointer into the document.
 *
 * @example
 * const parsed = parseCatalogDocument(JSON.parse(body));
 * if (!parsed.ok) throw new ValidationError('invalid catalog', parsed.errors.map(...));
 */
export const parseCatalogDocument = (value: unknown): CatalogDocumentParseResult => {
  const result = catalogDocumentSchema.safeParse(value);
  if (result.success) return { ok: true, document: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => ({
      pointer: issue.path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join(''),
      message: issue.message,
    })),
  };
};
