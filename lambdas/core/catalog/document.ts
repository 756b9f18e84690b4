import * as z from 'zod';
import { JOB_TYPES, languageSchema } from '../schemas/job';
import {
  categorySchema,
  checkCategoryTree,
  collectIds,
  currencyCodeSchema,
  dimensionSchema,
  externalIdSchema,
  FIELD_LIMITS,
  gtinSchema,
  httpUrlSchema,
  idSchema,
  itemImageSchema,
  MAX_CATALOG_ITEMS,
  merchantSchema,
  modifierGroupSchema,
  nameSchema,
  optionalText,
  pointerOf,
  priceSchema,
  tagsSchema,
} from './document-fields';
import { catalogDocumentV1UploadSchema, upgradeV1Document } from './document-v1';

export {
  type Category,
  categorySchema,
  currencyCodeSchema,
  FIELD_LIMITS,
  type ItemImage,
  itemImageSchema,
  MAX_CATALOG_ITEMS,
  type Merchant,
  type Modifier,
  type ModifierGroup,
  modifierGroupSchema,
  modifierSchema,
  type Price,
  priceSchema,
} from './document-fields';

/**
 * SPEC 5.5: the catalog document, format 2. It is the export file, what operators upload through
 * PUT /v1/ops/jobs/{id}/catalog, and one of the JSON source formats of SPEC 5.2. Format 1 (the same
 * without variants: sku, gtin, size, unit and price on the item) is still accepted wherever a document is
 * read, and upgraded to format 2 (see document-v1.ts).
 *
 * Every item has at least one variant; an item sold in one form has one variant whose `name` is null.
 * References (category_id, parent_id, modifier_group_ids, image_mappings' item_id and variant_id) must point
 * at entities of the same document, ids are unique per entity kind, and a variant's `options` name only
 * the item's `option_names`.
 */

export const CATALOG_FORMAT_VERSION = 2;

/** How a variant is priced: `variable` is a market price (`MP`), set when sold; `price` is then null. */
export const PRICING = ['fixed', 'variable'] as const;
export type Pricing = (typeof PRICING)[number];

const optionName = z.string().min(1).max(FIELD_LIMITS.code);

export const variantSchema = z.strictObject({
  id: idSchema,
  name: nameSchema.nullable().default(null),
  options: z.record(optionName, z.string().min(1).max(FIELD_LIMITS.name)).default({}),
  sku: optionalText(FIELD_LIMITS.code),
  gtin: gtinSchema,
  size: optionalText(FIELD_LIMITS.code),
  unit: optionalText(FIELD_LIMITS.code),
  price: priceSchema.nullable().default(null),
  pricing: z.enum(PRICING).default('fixed'),
  images: z.array(itemImageSchema).max(FIELD_LIMITS.images).default([]),
  external_id: externalIdSchema,
});

export const itemSchema = z.strictObject({
  id: idSchema,
  name: nameSchema,
  description: optionalText(FIELD_LIMITS.description),
  category_id: idSchema.nullable().default(null),
  brand: optionalText(FIELD_LIMITS.name),
  tags: tagsSchema,
  calories: z.number().int().min(0).nullable().default(null),
  modifier_group_ids: z.array(idSchema).default([]),
  images: z.array(itemImageSchema).max(FIELD_LIMITS.images).default([]),
  external_id: externalIdSchema,
  option_names: z.array(optionName).max(FIELD_LIMITS.options).default([]),
  variants: z
    .array(variantSchema)
    .min(1, { message: 'an item has at least one variant' })
    .max(FIELD_LIMITS.variants),
});

export const imageMappingSchema = z.strictObject({
  image_url: httpUrlSchema,
  item_id: idSchema,
  variant_id: idSchema,
  matched_by: z.enum(['gtin', 'sku']),
  width: dimensionSchema,
  height: dimensionSchema,
});

export type Variant = z.output<typeof variantSchema>;
export type Item = z.output<typeof itemSchema>;
export type ImageMapping = z.output<typeof imageMappingSchema>;

const documentShape = {
  format_version: z.literal(CATALOG_FORMAT_VERSION),
  job_id: idSchema,
  job_type: z.enum(JOB_TYPES),
  generated_at: z.iso.datetime({ offset: true }),
  language: languageSchema,
  currency: currencyCodeSchema,
  merchant: merchantSchema,
  categories: z.array(categorySchema).default([]),
  items: z
    .array(itemSchema)
    .max(MAX_CATALOG_ITEMS, { message: `must have at most ${MAX_CATALOG_ITEMS} items` })
    .default([]),
  modifier_groups: z.array(modifierGroupSchema).default([]),
  image_mappings: z.array(imageMappingSchema).default([]),
};

type DocumentBody = {
  categories: z.output<typeof categorySchema>[];
  items: Item[];
  modifier_groups: z.output<typeof modifierGroupSchema>[];
  image_mappings: ImageMapping[];
};

const checkReferences = (doc: DocumentBody, ctx: z.RefinementCtx): void => {
  const categoryIds = collectIds(doc.categories, ['categories'], ctx);
  collectIds(doc.items, ['items'], ctx);
  const groupIds = collectIds(doc.modifier_groups, ['modifier_groups'], ctx);
  checkCategoryTree(doc.categories, ctx);
  const variantIds = new Set<string>();
  const variantsOf = new Map<string, Set<string>>();
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
    const names = new Set<string>();
    item.option_names.forEach((name, nameIndex) => {
      if (names.has(name.toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          message: 'duplicate option name',
          path: ['items', index, 'option_names', nameIndex],
        });
      }
      names.add(name.toLowerCase());
    });
    collectIds(item.variants, ['items', index, 'variants'], ctx, variantIds);
    variantsOf.set(item.id, new Set(item.variants.map((v) => v.id)));
    item.variants.forEach((variant, variantIndex) => {
      for (const key of Object.keys(variant.options)) {
        if (!item.option_names.includes(key)) {
          ctx.addIssue({
            code: 'custom',
            message: `option ${JSON.stringify(key)} is not one of the item's option_names`,
            path: ['items', index, 'variants', variantIndex, 'options', key],
          });
        }
      }
    });
  });
  doc.image_mappings.forEach((mapping, index) => {
    const variants = variantsOf.get(mapping.item_id);
    if (variants === undefined) {
      ctx.addIssue({ code: 'custom', message: 'unknown item', path: ['image_mappings', index, 'item_id'] });
    } else if (!variants.has(mapping.variant_id)) {
      ctx.addIssue({
        code: 'custom',
        message: 'not a variant of the mapped item',
        path: ['image_mappings', index, 'variant_id'],
      });
    }
  });
};

/** A complete format 2 document: what the service writes and exports. */
export const catalogDocumentSchema = z.strictObject(documentShape).superRefine(checkReferences);

/**
 * A format 2 document as a person or a client may send it: `job_id` and `generated_at` may be left out
 * (the service fills them in).
 */
export const catalogDocumentUploadSchema = z
  .strictObject({
    ...documentShape,
    job_id: idSchema.optional(),
    generated_at: z.iso.datetime({ offset: true }).optional(),
  })
  .superRefine(checkReferences);

/** The document with every field present (format 2). */
export type CatalogDocument = z.output<typeof catalogDocumentSchema>;
/** The document as accepted on input (nullable fields and empty arrays may be omitted). */
export type CatalogDocumentInput = z.input<typeof catalogDocumentSchema>;
/** An uploaded document, upgraded to format 2, whose `job_id` and `generated_at` may still be missing. */
export type CatalogDocumentUpload = z.output<typeof catalogDocumentUploadSchema>;

export interface DocumentProblem {
  readonly pointer: string;
  readonly message: string;
}

export type DocumentParseResult<T> =
  | { readonly ok: true; readonly document: T; readonly formatVersion: 1 | 2 }
  | { readonly ok: false; readonly errors: readonly DocumentProblem[] };

const problems = (error: z.ZodError): DocumentProblem[] =>
  error.issues.map((issue) => ({ pointer: pointerOf(issue.path), message: issue.message }));

/**
 * Validates an untrusted catalog document of format 1 or 2 (an operator upload, or a JSON source) and
 * returns it as format 2, or every problem with a JSON Pointer into the document as it was sent.
 * `job_id` and `generated_at` may be missing.
 *
 * @example
 * const parsed = parseCatalogUpload(JSON.parse(body));
 * if (!parsed.ok) throw new ValidationError('invalid catalog', parsed.errors.map(...));
 */
export const parseCatalogUpload = (value: unknown): DocumentParseResult<CatalogDocumentUpload> => {
  const version =
    value !== null && typeof value === 'object' && 'format_version' in value ? value.format_version : 2;
  if (version === 1) {
    const v1 = catalogDocumentV1UploadSchema.safeParse(value);
    if (!v1.success) return { ok: false, errors: problems(v1.error) };
    return { ok: true, document: upgradeV1Document(v1.data), formatVersion: 1 };
  }
  const v2 = catalogDocumentUploadSchema.safeParse(value);
  if (!v2.success) return { ok: false, errors: problems(v2.error) };
  return { ok: true, document: v2.data, formatVersion: 2 };
};

/**
 * Validates a complete catalog document (format 1 or 2; `job_id` and `generated_at` required) and returns
 * it as format 2.
 */
export const parseCatalogDocument = (value: unknown): DocumentParseResult<CatalogDocument> => {
  const parsed = parseCatalogUpload(value);
  if (!parsed.ok) return parsed;
  const { job_id, generated_at } = parsed.document;
  const missing: DocumentProblem[] = [
    ...(job_id === undefined ? [{ pointer: '/job_id', message: 'is required' }] : []),
    ...(generated_at === undefined ? [{ pointer: '/generated_at', message: 'is required' }] : []),
  ];
  if (job_id === undefined || generated_at === undefined) return { ok: false, errors: missing };
  return {
    ok: true,
    document: { ...parsed.document, job_id, generated_at },
    formatVersion: parsed.formatVersion,
  };
};
