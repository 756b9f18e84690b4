import currencyData from 'cldr-core/supplemental/currencyData.json';

/**
 * A job's `language` (SPEC 3.1): a lower-case `ll_cc` locale, an ISO 639-1 language and an ISO 3166-1
 * region whose currency CLDR knows. The one place that says what a language means beyond its words:
 * its region's currency (CLDR's supplemental currency data, npm `cldr-core`), its language part (OCR data,
 * market-price words) and the region a language alone most likely means (a store whose export is in
 * Swedish). Pure data and Intl: the API's schemas, the catalog and the console all read it.
 */

/** The form of a job language: `en_us`, `es_cl`, `sv_se`. */
export const LANGUAGE_FORM = /^([a-z]{2})_([a-z]{2})$/;

interface RegionCurrency {
  readonly [code: string]:
    | { readonly _from?: string; readonly _to?: string; readonly _tender?: string }
    | undefined;
}

/**
 * CLDR groupings that are regions in its data but no country of ISO 3166-1 (the European Union, the
 * eurozone, the United Nations, outlying Oceania, the unknown region).
 */
const NOT_A_COUNTRY = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);

/** ISO 4217 codes the runtime can format (a currency newer than its ICU data is left out). */
const RUNTIME: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/**
 * Region → the currency it uses: the first of CLDR's entries for the region (CLDR lists the region's
 * currencies in its order of preference) that is legal tender, has no end date and the runtime knows. No
 * clock is read: a currency CLDR gives an end is over (Croatia → EUR, not HRK).
 */
const REGION_CURRENCY: ReadonlyMap<string, string> = (() => {
  const regions = (
    currencyData as unknown as {
      supplemental: { currencyData: { region: Record<string, readonly (RegionCurrency | undefined)[]> } };
    }
  ).supplemental.currencyData.region;
  const map = new Map<string, string>();
  for (const [region, entries] of Object.entries(regions)) {
    if (!/^[A-Z]{2}$/.test(region) || NOT_A_COUNTRY.has(region)) continue;
    const current = entries
      .flatMap((entry) => Object.entries(entry ?? {}))
      .find(
        ([code, info]) =>
          info !== undefined && info._to === undefined && info._tender !== 'false' && RUNTIME.has(code),
      );
    if (current !== undefined) map.set(region, current[0]);
  }
  return map;
})();

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** True for an ISO 639-1 code the runtime's CLDR data names (`sv`, `tr`; not `qq`). */
export const isLanguageCode = (code: string): boolean =>
  /^[a-z]{2}$/.test(code) && LANGUAGE_NAMES.of(code) !== undefined;

/** The currency a region (ISO 3166-1 alpha-2, either case) uses, or undefined (`AQ`, an unknown code). */
export const currencyOfRegion = (region: string): string | undefined =>
  REGION_CURRENCY.get(region.toUpperCase());

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * The whole set of job languages as one regular expression (the OpenAPI document's `pattern`, so that a
 * client validating against it agrees with the service): every ISO 639-1 code the runtime names, an
 * underscore, every region with a currency.
 */
export const JOB_LANGUAGE_PATTERN: string = (() => {
  const languages = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b)).filter(isLanguageCode);
  const regions = [...REGION_CURRENCY.keys()].map((region) => region.toLowerCase()).sort();
  return `^(?:${languages.join('|')})_(?:${regions.join('|')})$`;
})();

/**
 * True for a job language: `ll_cc` in lower case, a language the runtime knows and a region with a
 * currency.
 *
 * @example isJobLanguage('es_cl') // true
 * @example isJobLanguage('en_aq') // false (Antarctica has no currency)
 */
export const isJobLanguage = (language: string): boolean => {
  const match = LANGUAGE_FORM.exec(language);
  return (
    match !== null && isLanguageCode(match[1] as string) && currencyOfRegion(match[2] as string) !== undefined
  );
};

/** The ISO 639-1 part of a job language (`sv` of `sv_se`). */
export const languagePart = (language: string): string => language.slice(0, 2);

/**
 * The default currency of a job language: its region's (`es_cl` → CLP, `en_nz` → NZD); USD for a value
 * that is no job language (never the case once the job schema has checked it).
 */
export const currencyOfLanguage = (language: string): string => {
  const match = LANGUAGE_FORM.exec(language);
  return (match === null ? undefined : currencyOfRegion(match[2] as string)) ?? 'USD';
};

/**
 * The region a language alone most likely means (CLDR's likely subtags through Intl: `sv` → SE,
 * `es` → ES), or undefined.
 */
export const likelyRegion = (languageCode: string): string | undefined => {
  try {
    return new Intl.Locale(languageCode).maximize().region;
  } catch {
    return undefined;
  }
};

/**
 * Market-price words of each language (SPEC 5.2: the item is kept with no price and `pricing: variable`),
 * as regex sources: lower case, spaces as `\s+`, matched against a whole cell or a menu line's end by the
 * price grammar (catalog/prices.ts). A language not listed uses the others' (every list is tried on every
 * text: `MP` is understood in any job).
 */
export const MARKET_PRICE_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: [
    'm\\.?\\s?p\\.?',
    'market',
    'market\\s+price',
    'mkt\\.?',
    'mkt\\.?\\s+price',
    'variable',
    'variable\\s+price',
    'price\\s+varies',
    'varies',
    'seasonal',
    'seasonal\\s+price',
    'sp',
    'aq',
    'a\\.q\\.?',
    'ask',
    'ask\\s+server',
    'ask\\s+your\\s+server',
    'see\\s+server',
    'call',
  ],
  fr: [
    'prix\\s+du\\s+march[eé]',
    'selon\\s+(?:le\\s+)?march[eé]',
    'selon\\s+arrivage',
    'prix\\s+variable',
    'p\\.m\\.',
  ],
  de: ['tagespreis', 'marktpreis', 'nach\\s+tagespreis'],
  es: ['precio\\s+de\\s+mercado', 'seg[uú]n\\s+mercado'],
  it: ['prezzo\\s+di\\s+mercato', 's\\.q\\.?', 'sq'],
  pt: ['preço\\s+de\\s+mercado'],
  nl: ['dagprijs'],
  ja: ['時価', '時価格'],
  ko: ['시가'],
  zh: ['时价', '時價'],
};

/** The market-price words of one job language, English's included (menus everywhere write `MP`). */
export const marketPriceWordsOf = (language: string): readonly string[] => {
  const own = MARKET_PRICE_WORDS[languagePart(language)] ?? [];
  return languagePart(language) === 'en' ? own : [...(MARKET_PRICE_WORDS.en ?? []), ...own];
};
