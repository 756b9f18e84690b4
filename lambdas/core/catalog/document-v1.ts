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
import { uuidV5 } from './ids';

/**
 * SPEC 5.5 format 1: the catalog document before variants. Still accepted as a source and as an operator
 * upload; `upgradeV1Document` turns it into format 2 (each item gets one variant carrying its sku, gtin,
 * size, unit and price).
 */

export const itemV1Schema = z.strictObject({
  id: idSchema,
  name: nameSchema,
  description: optionalText(FIELD_LIMITS.description),
  category_id: idSchema.nullable().default(null),
  sku: optionalText(FIELD_LIMITS.code),
  gtin: gtinSchema,
  brand: optionalText(FIELD_LIMITS.name),
  size: optionalText(FIELD_LIMITS.code),
  unit: optionalText(FIELD_LIMITS.code),
  price: priceSchema.nullable().default(null),
  tags: tagsSchema,
  calories: z.number().int().min(0).nullable().default(null),
  modifier_group_ids: z.array(idSchema).default([]),
  images: z.array(itemImageSchema).default([]),
  external_id: externalIdSchema,
});

export const imageMappingV1Schema = z.strictObject({
  image_url: httpUrlSchema,
  item_id: idSchema,
  matched_by: z.enum(['gtin', 'sku']),
  width: dimensionSchema,
  height: dimensionSchema,
});

const shape = {
  format_version: z.literal(1),
  job_id: idSchema,
  job_type: z.enum(JOB_TYPES),
  generated_at: z.iso.datetime({ offset: true }),
  language: languageSchema,
  currency: currencyCodeSchema,
  merchant: merchantSchema,
  categories: z.array(categorySchema).default([]),
  items: z
    .array(itemV1Schema)
    .max(MAX_CATALOG_ITEMS, { message: `must have at most ${MAX_CATALOG_ITEMS} items` })
    .default([]),
  modifier_groups: z.array(modifierGroupSchema).default([]),
  image_mappings: z.array(imageMappingV1Schema).default([]),
};

type V1Body = {
  categories: z.output<typeof categorySchema>[];
  items: z.output<typeof itemV1Schema>[];
  modifier_groups: z.output<typeof modifierGroupSchema>[];
  image_mappings: z.output<typeof imageMappingV1Schema>[];
};

const checkV1References = (doc: V1Body, ctx: z.RefinementCtx): void => {
  const categoryIds = collectIds(doc.categories, ['categories'], ctx);
  const itemIds = collectIds(doc.items, ['items'], ctx);
  const groupIds = collectIds(doc.modifier_groups, ['modifier_groups'], ctx);
  checkCategoryTree(doc.categories, ctx);
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
};

/** A complete format 1 document (as the service wrote it before format 2). */
export const catalogDocumentV1Schema = z.strictObject(shape).superRefine(checkV1References);

/** A format 1 document as uploaded: `job_id` and `generated_at` may be left out. */
export const catalogDocumentV1UploadSchema = z
  .strictObject({
    ...shape,
    job_id: idSchema.optional(),
    generated_at: z.iso.datetime({ offset: true }).optional(),
  })
  .superRefine(checkV1References);

export type CatalogDocumentV1 = z.output<typeof catalogDocumentV1Schema>;
export type ItemV1 = z.output<typeof itemV1Schema>;
export type ImageMappingV1 = z.output<typeof imageMappingV1Schema>;
type CatalogDocumentV1Upload = z.output<typeof catalogDocumentV1UploadSchema>;

/**
 * The id of the one variant a format 1 item becomes: UUIDv5 in the item's own namespace, so it follows
 * from the item id alone (an image mapping finds it without the item).
 */
export const upgradedVariantId = (itemId: string): string => uuidV5('variant', itemId);

/** A format 1 item as format 2: the same fields, with sku, gtin, size, unit and price on its one variant. */
export const upgradeV1Item = (item: ItemV1) => ({
  id: item.id,
  name: item.name,
  description: item.description,
  category_id: item.category_id,
  brand: item.brand,
  tags: item.tags,
  calories: item.calories,
  modifier_group_ids: item.modifier_group_ids,
  images: item.images,
  external_id: item.external_id,
  option_names: [],
  variants: [
    {
      id: upgradedVariantId(item.id),
      name: null,
      options: {},
      sku: item.sku,
      gtin: item.gtin,
      size: item.size,
      unit: item.unit,
      price: item.price,
      pricing: 'fixed' as const,
      images: [],
      external_id: null,
    },
  ],
});

/** A format 1 image mapping as format 2: it points at the item's one variant. */
export const upgradeV1ImageMapping = (mapping: ImageMappingV1) => ({
  image_url: mapping.image_url,
  item_id: mapping.item_id,
  variant_id: upgradedVariantId(mapping.item_id),
  matched_by: mapping.matched_by,
  width: mapping.width,
  height: mapping.height,
});

/** Turns a (validated) format 1 document into format 2. */
export const upgradeV1Document = <T extends CatalogDocumentV1Upload>(document: T) => ({
  ...document,
  format_version: 2 as const,
  items: document.items.map(upgradeV1Item),
  image_mappings: document.image_mappings.map(upgradeV1ImageMapping),
});

/**
 * Validates a complete format 1 document as format 1 (without upgrading it): for whoever writes format 1
 * back, such as the console keeping an operator's format 1 draft in its format.
 */
export const parseCatalogDocumentV1 = (
  value: unknown,
):
  | { readonly ok: true; readonly document: CatalogDocumentV1 }
  | { readonly ok: false; readonly errors: readonly { pointer: string; message: string }[] } => {
  const result = catalogDocumentV1Schema.safeParse(value);
  if (result.success) return { ok: true, document: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => ({ pointer: pointerOf(issue.path), message: issue.message })),
  };
};
