import * as z from 'zod';

/**
 * Field schemas shared by catalog format 1 and 2 (SPEC 5.5), and the limits a catalog accepts. Objects are
 * strict (an unknown key is an error, so a typo never passes silently); nullable fields and empty arrays
 * may be omitted on input and come out as `null` / `[]`.
 */

/** SPEC 9: at most this many items per catalog. */
export const MAX_CATALOG_ITEMS = 200_000;

/** Field lengths a catalog accepts; the pipeline warns about (and drops) values beyond them. */
export const FIELD_LIMITS = {
  id: 255,
  name: 1000,
  description: 20_000,
  code: 255,
  url: 2048,
  tags: 100,
  tag: 255,
  modifiers: 1000,
  variants: 1000,
  options: 3,
  images: 100,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const idSchema = z.string().regex(UUID, { message: 'must be a UUID' });
export const nameSchema = z
  .string()
  .max(FIELD_LIMITS.name)
  .refine((s) => s.trim().length > 0, { message: 'must not be blank' });
export const optionalText = (max: number) => z.string().max(max).nullable().default(null);
export const externalIdSchema = z.string().max(FIELD_LIMITS.code).nullable().default(null);
export const httpUrlSchema = z
  .string()
  .max(FIELD_LIMITS.url)
  .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), { message: 'must be an absolute http(s) URL' });
export const dimensionSchema = z.number().int().positive().nullable().default(null);
export const gtinSchema = z
  .string()
  .regex(/^(\d{8}|\d{12}|\d{13}|\d{14})$/, { message: 'must be 8, 12, 13 or 14 digits' })
  .nullable()
  .default(null);
export const tagsSchema = z.array(z.string().min(1).max(FIELD_LIMITS.tag)).max(FIELD_LIMITS.tags).default([]);

/** ISO 4217 alphabetic code. */
export const currencyCodeSchema = z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code' });

/** An amount in the currency's minor units (cents; yen for JPY). */
export const priceSchema = z.strictObject({
  amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  currency: currencyCodeSchema,
});

export const categorySchema = z.strictObject({
  id: idSchema,
  name: nameSchema,
  parent_id: idSchema.nullable().default(null),
  sort: z.number().int().min(0).default(0),
  external_id: externalIdSchema,
});

export const itemImageSchema = z.strictObject({
  url: httpUrlSchema,
  width: dimensionSchema,
  height: dimensionSchema,
});

export const modifierSchema = z.strictObject({
  id: idSchema,
  name: nameSchema,
  price: priceSchema.nullable().default(null),
});

export const modifierGroupSchema = z
  .strictObject({
    id: idSchema,
    name: nameSchema,
    min: z.number().int().min(0),
    max: z.number().int().min(0),
    modifiers: z.array(modifierSchema).max(FIELD_LIMITS.modifiers).default([]),
  })
  .refine((g) => g.min <= g.max, { message: 'min must not exceed max', path: ['min'] });

export const merchantSchema = z.strictObject({
  name: nameSchema,
  address: optionalText(1000),
  token: optionalText(255),
});

export type Price = z.output<typeof priceSchema>;
export type Category = z.output<typeof categorySchema>;
export type ItemImage = z.output<typeof itemImageSchema>;
export type ModifierGroup = z.output<typeof modifierGroupSchema>;
export type Modifier = z.output<typeof modifierSchema>;
export type Merchant = z.output<typeof merchantSchema>;

/** Adds an issue for every id that appears twice in `entities`; returns the set of ids. */
export const collectIds = (
  entities: readonly { id: string }[],
  path: readonly (string | number)[],
  ctx: z.RefinementCtx,
  seen: Set<string> = new Set(),
): Set<string> => {
  entities.forEach((entity, index) => {
    if (seen.has(entity.id)) {
      ctx.addIssue({ code: 'custom', message: 'duplicate id', path: [...path, index, 'id'] });
    }
    seen.add(entity.id);
  });
  return seen;
};

/** Checks that category parents exist and form no cycle (a cycle would make the tree unusable). */
export const checkCategoryTree = (categories: readonly Category[], ctx: z.RefinementCtx): void => {
  const parents = new Map(categories.map((c) => [c.id, c.parent_id]));
  categories.forEach((category, index) => {
    if (category.parent_id === null) return;
    if (!parents.has(category.parent_id)) {
      ctx.addIssue({
        code: 'custom',
        message: 'unknown parent category',
        path: ['categories', index, 'parent_id'],
      });
      return;
    }
    let current: string | null = category.parent_id;
    for (let steps = 0; current !== null; steps += 1) {
      if (current === category.id || steps > categories.length) {
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
};

/** JSON Pointer (RFC 6901) of a Zod issue path. */
export const pointerOf = (path: readonly PropertyKey[]): string =>
  path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
