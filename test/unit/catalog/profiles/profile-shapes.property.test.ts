import fc from 'fast-check';
import { normaliseHeader } from '../../../../lambdas/core/catalog/headers/normalise';
import { PROFILES } from '../../../../lambdas/core/catalog/headers/profiles';
import {
  type HeaderTable,
  languagesOf,
} from '../../../../lambdas/core/catalog/headers/profiles/header-table';
import { HEADER_TABLES } from '../../../../lambdas/core/catalog/headers/profiles/tables';

/**
 * Every export shape a platform table describes — each column in any of the platform's languages (a
 * header translated piecemeal, as custom translations leave it), in any order, with columns nobody
 * knows added — is recognised as that platform and no other.
 */

/**
 * One full export header: every role, each under one of its names in one of its languages (a role whose
 * signature names the table restricts, under one of those: the others are names the profile reads, not
 * ones the export writes).
 */
const anExport = (table: HeaderTable<string>) =>
  fc
    .tuple(
      ...Object.entries(table.columns).map(([role, byLanguage]) =>
        fc.constantFrom(
          ...(table.signatureNames?.[role] ?? Object.values(byLanguage).flatMap((names) => names ?? [])),
        ),
      ),
    )
    .map((names) => [...new Set(names)]);

/** Columns no platform defines: a merchant's own, a plugin's meta field. */
const unknownColumns = fc.array(
  fc.oneof(
    fc.integer({ min: 1, max: 999 }).map((n) => `Meta: custom_${n}`),
    fc.integer({ min: 1, max: 999 }).map((n) => `Notes ${n}`),
  ),
  { maxLength: 4 },
);

const matchingProfiles = (headers: readonly string[]): string[] => {
  const normalised = new Set(headers.map(normaliseHeader).filter(Boolean));
  return PROFILES.filter((p) => p.matches(normalised)).map((p) => p.name);
};

describe('each known export shape matches exactly one profile', () => {
  test.each(HEADER_TABLES.map((t) => [t.profile, t] as const))('%s', (profile, table) => {
    expect(languagesOf(table)[0]).toBe('en');
    fc.assert(
      fc.property(anExport(table), unknownColumns, fc.infiniteStream(fc.nat()), (names, extra, order) => {
        const iterator = order[Symbol.iterator]();
        const shuffled = [...names, ...extra]
          .map((name) => [iterator.next().value as number, name] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([, name]) => name);
        expect(matchingProfiles(shuffled)).toEqual([profile]);
      }),
      { numRuns: 300 },
    );
  });
});
