import type { JobType } from '../schemas/job';
import { type IdentityRule, menuIdentity, retailIdentity } from './assembly/identity';
import type { DraftVariant } from './draft';
import { genericPlan } from './headers/generic-plan';
import { menuRows } from './rows/menu-rows';
import { retailRows } from './rows/retail-rows';
import type { RowReaderFactory } from './rows/types';

/**
 * What differs between job types, in one table: how a spreadsheet without a platform profile is read, when
 * two drafts are the same item, what every catalog of the type needs, and which finishing steps run. A new
 * job type is one entry here.
 */
export interface JobTypeRules {
  /** The row normaliser of a table without a platform profile. */
  readonly rows: RowReaderFactory;
  readonly identity: IdentityRule;
  /** What every catalog of the type needs: a source that gives none of it gets a warning. */
  readonly needs: readonly Need[];
  /** Maps `image_sources` to variants after the catalog is built (SPEC 5.2 image mapping). */
  readonly mapsImages: boolean;
}

/** A field every catalog of a type needs: a source none of whose drafts has it gets a warning. */
export interface Need {
  readonly what: string;
  readonly code: 'no_prices' | 'no_identifiers';
  readonly has: (variant: DraftVariant) => boolean;
}

const prices: Need = {
  what: 'prices',
  code: 'no_prices',
  has: (v) => (v.price !== null && v.price !== undefined) || v.pricing === 'variable',
};

const identifiers: Need = {
  what: 'barcodes or SKUs (images are matched by them)',
  code: 'no_identifiers',
  has: (v) => Boolean(v.gtin) || Boolean(v.sku),
};

export const JOB_TYPE_RULES: Readonly<Record<JobType, JobTypeRules>> = {
  new_menu: {
    rows: (headers, ctx, inferred) =>
      menuRows(genericPlan(headers, { sizeColumns: true, inferred, language: ctx.language }), ctx),
    identity: menuIdentity,
    needs: [prices],
    mapsImages: false,
  },
  new_retail_catalog: {
    rows: (headers, ctx, inferred) =>
      retailRows(genericPlan(headers, { sizeColumns: false, inferred, language: ctx.language }), ctx),
    identity: retailIdentity,
    needs: [],
    mapsImages: false,
  },
  retail_image_mapping: {
    rows: (headers, ctx, inferred) =>
      retailRows(genericPlan(headers, { sizeColumns: false, inferred, language: ctx.language }), ctx),
    identity: retailIdentity,
    needs: [identifiers],
    mapsImages: true,
  },
};
