import type { CatalogDocumentUpload } from '../../../lambdas/core/catalog/document';

/**
 * The draft as the console edits it: a catalog document of format 2 (SPEC 5.5) with every field present,
 * the same type the service's upload schema produces. `job_id` and `generated_at` may be missing; the
 * service fills them in.
 */
export type Doc = CatalogDocumentUpload;
export type Item = Doc['items'][number];
export type Variant = Item['variants'][number];
export type Category = Doc['categories'][number];
export type ModifierGroup = Doc['modifier_groups'][number];
export type Modifier = ModifierGroup['modifiers'][number];
export type Price = NonNullable<Variant['price']>;

/** New entity ids: random UUIDs (the service's own ids are UUIDv5 of natural keys; either is a valid id). */
export type NewId = () => string;

export const randomId: NewId = () => crypto.randomUUID();
