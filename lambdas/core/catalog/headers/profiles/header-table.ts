import { normaliseHeader } from '../normalise';

/**
 * A platform's export header as data: each column's role and its name in every language the platform
 * writes its export in, and the signature (which roles identify the platform). One engine reads every
 * table: `roleNames` gives a profile its column map's names (profile.ts `profileColumns`), `signatureFits`
 * recognises the platform, `exportShape` lists a whole export header in one language (tests).
 *
 * Names are the platform's own, as its export writes them (matched as headers are: case, accents and
 * punctuation aside). Each language records where its names were learnt (`sources`), and names that
 * were not found in a platform's own sources are kept apart (`unconfirmed`), so a reader knows which
 * ones a real export has shown.
 */

/** ISO 639-1 codes of the languages platforms export in. */
export type ExportLanguage = 'en' | 'de' | 'fr' | 'es' | 'nl' | 'it' | 'pt' | 'ca' | 'ja';

export interface HeaderTable<R extends string> {
  /** `results.sources[].profile`. */
  readonly profile: string;
  /** Role → language → the names that language's export gives the column, preferred first. */
  readonly columns: Readonly<Record<R, Partial<Readonly<Record<ExportLanguage, readonly string[]>>>>>;
  /**
   * The roles that identify the export: every group needs one of its roles present (in any language,
   * not necessarily the same one for each group).
   */
  readonly signature: readonly (readonly R[])[];
  /**
   * Where only some of a role's names identify the platform (Toast's `Menu Item`, not its `Menu Item
   * Name`): those names, in any language, for the signature. Other roles count under all their names.
   */
  readonly signatureNames?: Partial<Readonly<Record<R, readonly string[]>>>;
  /**
   * Roles that tell the platform apart (signature, `exportShape`) but that the profile does not read as
   * columns of its own: left out of `roleNames`.
   */
  readonly ignored?: readonly R[];
  /** Where each language's names come from (documentation, the platform's locale files, real exports). */
  readonly sources: Partial<Readonly<Record<ExportLanguage, string>>>;
  /** Names in `columns` that no source of the platform's has shown (kept: a merchant's files may). */
  readonly unconfirmed?: readonly string[];
}

/** The languages a table names at least one column in, English first. */
export const languagesOf = <R extends string>(table: HeaderTable<R>): ExportLanguage[] => {
  const found = new Set<ExportLanguage>();
  for (const byLanguage of Object.values(table.columns) as Partial<
    Record<ExportLanguage, readonly string[]>
  >[])
    for (const language of Object.keys(byLanguage) as ExportLanguage[]) found.add(language);
  return [...found].sort((a, b) => (a === 'en' ? -1 : b === 'en' ? 1 : 0));
};

/** Every name of one role, English first, then the other languages in the table's order; no repeats. */
export const namesOfRole = <R extends string>(table: HeaderTable<R>, role: R): string[] => {
  const byLanguage = table.columns[role];
  const names: string[] = [];
  for (const language of languagesOf(table))
    for (const name of byLanguage[language] ?? []) if (!names.includes(name)) names.push(name);
  return names;
};

/** Role → names in every language: the form `profileColumns` (profile.ts) maps headers with. */
export const roleNames = <R extends string>(table: HeaderTable<R>): Record<R, readonly string[]> => {
  const out = {} as Record<R, readonly string[]>;
  for (const role of Object.keys(table.columns) as R[])
    if (!table.ignored?.includes(role)) out[role] = namesOfRole(table, role);
  return out;
};

const normalisedCache = new WeakMap<object, Map<string, ReadonlySet<string>>>();

/** The normalised names a role identifies the platform under (`signatureNames`, else all), computed once. */
const signatureNamesOf = <R extends string>(table: HeaderTable<R>, role: R): ReadonlySet<string> => {
  let byRole = normalisedCache.get(table);
  if (byRole === undefined) {
    byRole = new Map();
    normalisedCache.set(table, byRole);
  }
  let names = byRole.get(role);
  if (names === undefined) {
    names = new Set((table.signatureNames?.[role] ?? namesOfRole(table, role)).map(normaliseHeader));
    byRole.set(role, names);
  }
  return names;
};

/** True when a (normalised) header has one of the names the role identifies the platform under. */
export const hasRole = <R extends string>(
  table: HeaderTable<R>,
  headers: ReadonlySet<string>,
  role: R,
): boolean => {
  for (const name of signatureNamesOf(table, role)) if (headers.has(name)) return true;
  return false;
};

/** True when the (normalised) headers carry the table's signature. */
export const signatureFits = <R extends string>(
  table: HeaderTable<R>,
  headers: ReadonlySet<string>,
): boolean => table.signature.every((group) => group.some((role) => hasRole(table, headers, role)));

/**
 * The export header a platform writes in one language: the first name of every role that language
 * names (English for the roles it leaves untranslated: `SKU`, `CURRENCY_CODE`). For tests and fixtures.
 */
export const exportShape = <R extends string>(table: HeaderTable<R>, language: ExportLanguage): string[] => {
  const header: string[] = [];
  for (const role of Object.keys(table.columns) as R[]) {
    const byLanguage = table.columns[role];
    const name = byLanguage[language]?.[0] ?? byLanguage.en?.[0];
    if (name !== undefined && !header.includes(name)) header.push(name);
  }
  return header;
};
