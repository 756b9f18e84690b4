import { catalogDocumentUploadSchema } from '../../../lambdas/core/catalog/document';
import { pointerOf } from '../../../lambdas/core/catalog/document-fields';
import type { Doc } from './model';

/**
 * Validation of the draft with the very schema the API applies to `PUT /v1/ops/jobs/{id}/catalog`
 * (lambdas/core/catalog/document.ts), and the mapping of each problem (a JSON Pointer into the document, as
 * in the API's problem+json `errors[]`) to the field of the page that edits that value.
 */

export interface Problem {
  readonly pointer: string;
  readonly message: string;
}

export const validateDoc = (doc: Doc): Problem[] => {
  const result = catalogDocumentUploadSchema.safeParse(doc);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({ pointer: pointerOf(issue.path), message: issue.message }));
};

const segments = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));

const join = (parts: readonly (string | number)[]): string =>
  parts.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

const CATEGORY_FIELDS = new Set(['name', 'parent_id', 'sort']);
const ITEM_FIELDS = new Set([
  'name',
  'description',
  'category_id',
  'calories',
  'option_names',
  'modifier_group_ids',
]);
const VARIANT_FIELDS = new Set(['name', 'price', 'pricing', 'sku', 'gtin', 'size', 'unit']);
const GROUP_FIELDS = new Set(['name', 'min', 'max']);
const MODIFIER_FIELDS = new Set(['name', 'price']);

/**
 * The pointer of the input that edits the value `pointer` names, e.g. `/items/3/variants/0/price/amount`
 * → `/items/3/variants/0/price` (one price field), `/items/3/option_names/1` → `/items/3/option_names`.
 * A problem with no field of its own (a duplicate id, a missing variant) belongs to its entity's name field;
 * one about the document as a whole answers ''.
 */
export const fieldOf = (pointer: string): string => {
  const [head, a, b, c, d, e] = segments(pointer);
  if (head === 'merchant') return '/merchant/name';
  if (head === 'categories' && a !== undefined)
    return join(['categories', a, CATEGORY_FIELDS.has(b ?? '') ? b! : 'name']);
  if (head === 'items' && a !== undefined) {
    if (b === 'variants' && c !== undefined) {
      if (d === 'options' && e !== undefined) return join(['items', a, 'variants', c, 'options', e]);
      return join(['items', a, 'variants', c, VARIANT_FIELDS.has(d ?? '') ? d! : 'name']);
    }
    return join(['items', a, ITEM_FIELDS.has(b ?? '') ? b! : 'name']);
  }
  if (head === 'modifier_groups' && a !== undefined) {
    if (b === 'modifiers' && c !== undefined) {
      return join(['modifier_groups', a, 'modifiers', c, MODIFIER_FIELDS.has(d ?? '') ? d! : 'name']);
    }
    return join(['modifier_groups', a, GROUP_FIELDS.has(b ?? '') ? b! : 'name']);
  }
  return '';
};

/** Problems grouped by the field that shows them (`''`: the document's own, shown in the summary only). */
export const problemsByField = (problems: readonly Problem[]): Map<string, string[]> => {
  const byField = new Map<string, string[]>();
  for (const problem of problems) {
    const field = fieldOf(problem.pointer);
    const list = byField.get(field) ?? [];
    if (!list.includes(problem.message)) list.push(problem.message);
    byField.set(field, list);
  }
  return byField;
};

/** The index of the item a field pointer belongs to (`/items/4/...` → 4), to open its details. */
export const itemIndexOf = (pointer: string): number | null => {
  const [head, index] = segments(pointer);
  return head === 'items' && index !== undefined && /^\d+$/.test(index) ? Number(index) : null;
};

/** Where a pointer points, in words: `Item “Margherita” › variant 2 › price`. */
export const describePointer = (doc: Doc, pointer: string): string => {
  const [head, a, b, c, d] = segments(pointer);
  const quoted = (name: string | undefined, fallback: string) =>
    name?.trim() ? `“${name.trim().slice(0, 60)}”` : fallback;
  const i = Number(a);
  if (head === 'merchant') return 'Merchant name';
  if (head === 'categories') {
    return `Category ${quoted(doc.categories[i]?.name, `#${i + 1}`)}${b ? ` › ${b.replace('_', ' ')}` : ''}`;
  }
  if (head === 'items') {
    const item = doc.items[i];
    const base = `Item ${quoted(item?.name, `#${i + 1} (no name)`)}`;
    if (b === 'variants' && c !== undefined) {
      const v = item?.variants[Number(c)];
      return `${base} › variant ${quoted(v?.name ?? undefined, `#${Number(c) + 1}`)}${d ? ` › ${d}` : ''}`;
    }
    return `${base}${b ? ` › ${b.replaceAll('_', ' ')}` : ''}`;
  }
  if (head === 'modifier_groups') {
    const g = doc.modifier_groups[i];
    const base = `Modifier group ${quoted(g?.name, `#${i + 1}`)}`;
    if (b === 'modifiers' && c !== undefined) {
      return `${base} › modifier ${quoted(g?.modifiers[Number(c)]?.name, `#${Number(c) + 1}`)}${d ? ` › ${d}` : ''}`;
    }
    return `${base}${b ? ` › ${b}` : ''}`;
  }
  return pointer === '' ? 'The catalog' : pointer;
};

/** The element id of the input editing `pointer` (pointers are unique, and ids may hold any character). */
export const fieldId = (pointer: string): string => `field:${pointer}`;
