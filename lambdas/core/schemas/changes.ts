import * as z from 'zod';

/**
 * SPEC 5.5 `results.changes` and the rows of the `changes` export: what changed in a merchant's catalog since
 * its previous one. The shape lives here, beside `results` (schemas/results.ts), so that the model and the
 * API's schemas reach it without importing the catalog; catalog/changes.ts computes it.
 */

export const FIRST_CHANGES = 100;
/** `results.changes.first` stays under this many characters of JSON (the job is one DynamoDB item of 400 KB). */
export const FIRST_CHANGES_CHARS = 100_000;
/** … and lists at most this many fields of one change (an item of 1,000 variants may change them all). */
export const FIRST_FIELDS = 20;
/** In `results.changes.first`, values are cut to this many characters; the export has them whole. */
export const SUMMARY_VALUE_CHARS = 200;

export interface FieldChange {
  /** `name`, `description`, `category`, … or, for a variant, `price`, `sku`, … with `variant_id` set. */
  readonly field: string;
  readonly variant_id: string | null;
  readonly before: unknown;
  readonly after: unknown;
}

export interface ItemChange {
  readonly change: 'added' | 'removed' | 'changed';
  readonly item_id: string;
  readonly name: string;
  readonly more_fields?: number;
  readonly fields: readonly FieldChange[];
}

const fieldChangeSchema = z.strictObject({
  field: z.string(),
  variant_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});

export const itemChangeSchema = z
  .strictObject({
    change: z.enum(['added', 'removed', 'changed']),
    item_id: z.string(),
    name: z.string(),
    more_fields: z
      .int()
      .min(0)
      .optional()
      .meta({
        description: `In \`results.changes.first\`: fields of this change beyond the first ${FIRST_FIELDS}, not listed.`,
      }),
    fields: z.array(fieldChangeSchema).meta({
      description:
        'For a changed item, each field with its value before and after (a variant added or removed is ' +
        'the field `variant`). In `results.changes.first` an added or removed item has none; in the ' +
        '`changes` export it has the field `item`, the whole item after (added) or before (removed).',
    }),
  })
  .meta({ description: 'One item added, removed or changed since the previous catalog.' });

export const catalogChangesSchema = z
  .strictObject({
    since_job_id: z.uuid().meta({ description: 'The merchant’s previous completed job of the same type.' }),
    items_added: z.int().min(0),
    items_removed: z.int().min(0),
    items_changed: z.int().min(0),
    prices_changed: z.int().min(0).meta({ description: 'Variants in both catalogs whose price changed.' }),
    first: z.array(itemChangeSchema).meta({
      description:
        `The first ${FIRST_CHANGES} changes (fewer when they are large: at most ${FIRST_CHANGES_CHARS.toLocaleString('en-US')} ` +
        `characters), values cut to ${SUMMARY_VALUE_CHARS} characters and ${FIRST_FIELDS} fields a change; the ` +
        '`changes` export has them all, whole.',
    }),
  })
  .meta({
    description:
      'What changed since the same merchant’s previous catalog (jobs with a merchant_token; ids are stable ' +
      'per merchant).',
  });

export type CatalogChanges = z.infer<typeof catalogChangesSchema>;
