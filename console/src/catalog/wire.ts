import { catalogDocumentUploadSchema } from '../../../lambdas/core/catalog/document';
import { catalogDocumentV1UploadSchema } from '../../../lambdas/core/catalog/document-v1';
import { currencyOfLanguage } from '../../../lambdas/core/locale';
import type { Doc, Item, NewId } from './model';
import type { Problem } from './problems';

/**
 * The draft between the API and the editor. The editor always works on format 2 (SPEC 5.5). A draft the
 * service wrote in format 1 (one price per item) is shown as format 2 and saved back in format 1 as long
 * as every item still has one unnamed variant, so that a service which only accepts format 1 uploads keeps
 * working; anything richer is sent as format 2.
 */

export type WireFormat = 1 | 2;

export interface LoadedDraft {
  readonly doc: Doc;
  readonly format: WireFormat;
  /** Problems of the draft as the service stored it (shown at their fields, fixed by the person). */
  readonly problems: readonly Problem[];
}

export interface JobIdentity {
  readonly id: string;
  readonly job_type: Doc['job_type'];
  readonly language?: string;
  readonly merchant_name: string;
}

/** A catalog with no categories or items, for a job that has no draft yet. */
export const emptyDoc = (job: JobIdentity): Doc => {
  const parsed = catalogDocumentUploadSchema.safeParse({
    format_version: 2,
    job_id: job.id,
    job_type: job.job_type,
    language: job.language ?? 'en_us',
    currency: currencyOfLanguage(job.language ?? 'en_us'),
    merchant: { name: job.merchant_name },
  });
  if (!parsed.success) throw new Error('the empty catalog does not validate');
  return parsed.data;
};

type V1Item = ReturnType<typeof catalogDocumentV1UploadSchema.parse>['items'][number];

const upgradeItem = (item: V1Item, newId: NewId): Item => ({
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
      id: newId(),
      name: null,
      options: {},
      sku: item.sku,
      gtin: item.gtin,
      size: item.size,
      unit: item.unit,
      price: item.price,
      pricing: 'fixed',
      images: [],
      external_id: null,
    },
  ],
});

/**
 * The editor's document from `draft_catalog` of `GET /v1/ops/jobs/{id}`. A draft that does not validate
 * (it should not happen) is still shown when its shape allows, with its problems; otherwise the job gets an
 * empty catalog and the problems say why.
 */
export const loadDraft = (draft: unknown, job: JobIdentity, newId: NewId): LoadedDraft => {
  if (draft === null || draft === undefined) return { doc: emptyDoc(job), format: 2, problems: [] };
  const version = typeof draft === 'object' && 'format_version' in draft ? draft.format_version : 2;
  if (version === 1) {
    const v1 = catalogDocumentV1UploadSchema.safeParse(draft);
    if (v1.success) {
      const { image_mappings: mappings, ...rest } = v1.data;
      const items = rest.items.map((item) => upgradeItem(item, newId));
      const variantOf = new Map(items.map((item) => [item.id, item.variants[0]!.id]));
      const doc: Doc = {
        ...rest,
        format_version: 2,
        items,
        image_mappings: mappings.map((m) => ({ ...m, variant_id: variantOf.get(m.item_id) ?? newId() })),
      };
      return { doc, format: 1, problems: [] };
    }
    return {
      doc: emptyDoc(job),
      format: 1,
      problems: v1.error.issues.map((i) => ({
        pointer: '',
        message: `The stored draft is invalid: ${i.message}`,
      })),
    };
  }
  const v2 = catalogDocumentUploadSchema.safeParse(draft);
  if (v2.success) return { doc: v2.data, format: 2, problems: [] };
  return {
    doc: emptyDoc(job),
    format: 2,
    problems: v2.error.issues.map((i) => ({
      pointer: '',
      message: `The stored draft is invalid: ${i.message}`,
    })),
  };
};

const isFormat1Shaped = (doc: Doc): boolean =>
  doc.items.every(
    (item) =>
      item.option_names.length === 0 &&
      item.variants.length === 1 &&
      item.variants[0]!.name === null &&
      item.variants[0]!.pricing === 'fixed' &&
      item.variants[0]!.images.length === 0 &&
      item.variants[0]!.external_id === null,
  );

/** The body of `PUT /v1/ops/jobs/{id}/catalog`: format 1 when the draft came so and still fits it. */
export const toUpload = (doc: Doc, format: WireFormat): Record<string, unknown> => {
  if (format === 2 || !isFormat1Shaped(doc)) return { ...doc, format_version: 2 };
  return {
    ...doc,
    format_version: 1,
    items: doc.items.map(({ option_names: _o, variants, ...item }) => {
      const v = variants[0]!;
      return { ...item, sku: v.sku, gtin: v.gtin, size: v.size, unit: v.unit, price: v.price };
    }),
    image_mappings: doc.image_mappings.map(({ variant_id: _v, ...m }) => m),
  };
};

/**
 * A pointer of the service's answer into the document as it was sent, as a pointer into the editor's
 * format 2 document: `/items/3/price` of a format 1 upload is `/items/3/variants/0/price`.
 */
export const serverPointer = (pointer: string, format: WireFormat): string => {
  if (format === 2) return pointer;
  const match = /^\/items\/(\d+)\/(sku|gtin|size|unit|price)(\/.*)?$/.exec(pointer);
  return match ? `/items/${match[1]}/variants/0/${match[2]}${match[3] ?? ''}` : pointer;
};
