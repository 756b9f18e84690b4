import {
  currencyOfLanguage,
  currencyOfRegion,
  isJobLanguage,
  isLanguageCode,
  JOB_LANGUAGE_PATTERN,
  languagePart,
  likelyRegion,
  MARKET_PRICE_WORDS,
  marketPriceWordsOf,
} from '../../lambdas/core/locale';
import { LANGUAGES } from '../../lambdas/core/schemas/job';

describe('job languages (any ll_cc whose region has a currency)', () => {
  test.each([
    'en_us',
    'sv_se',
    'es_cl',
    'es_co',
    'tr_tr',
    'hi_in',
    'pt_pt',
    'fi_fi',
    'ar_ae',
    'pl_pl',
    'de_ch',
  ])('%s is a job language', (language) => {
    expect(isJobLanguage(language)).toBe(true);
  });

  test.each([
    ['en_US', 'upper-case region'],
    ['en-us', 'a hyphen'],
    ['eng_us', 'a three-letter language'],
    ['en', 'no region'],
    ['qq_us', 'no such language'],
    ['en_aq', 'a region with no currency (Antarctica)'],
    ['en_xx', 'no such region'],
    ['en_eu', 'a CLDR grouping, no country'],
    ['en_zz', 'the unknown region'],
  ])('%s is not (%s)', (language) => {
    expect(isJobLanguage(language)).toBe(false);
  });

  test('every documented example is a job language', () => {
    expect(LANGUAGES.filter((language) => !isJobLanguage(language))).toEqual([]);
  });

  test('language codes are the ones CLDR names', () => {
    expect(isLanguageCode('sv')).toBe(true);
    expect(isLanguageCode('qq')).toBe(false);
    expect(isLanguageCode('SV')).toBe(false);
  });
});

describe('currency of a region and of a language', () => {
  test.each([
    ['sv_se', 'SEK'],
    ['es_cl', 'CLP'],
    ['es_co', 'COP'],
    ['en_nz', 'NZD'],
    ['hi_in', 'INR'],
    ['tr_tr', 'TRY'],
    ['de_ch', 'CHF'],
    ['de_at', 'EUR'],
    ['en_us', 'USD'],
    ['ja_jp', 'JPY'],
    // A currency CLDR gives an end date is over: Croatia has used the euro since 2023.
    ['hr_hr', 'EUR'],
    // Venezuela's bolívar soberano, not the ended fuerte.
    ['es_ve', 'VES'],
  ])('%s → %s', (language, currency) => {
    expect(currencyOfLanguage(language)).toBe(currency);
  });

  test('a region is read in either case; one with no currency gives undefined', () => {
    expect(currencyOfRegion('se')).toBe('SEK');
    expect(currencyOfRegion('SE')).toBe('SEK');
    expect(currencyOfRegion('AQ')).toBeUndefined();
    expect(currencyOfRegion('XX')).toBeUndefined();
  });

  test('a value that is no job language falls back to USD', () => {
    expect(currencyOfLanguage('nonsense')).toBe('USD');
  });

  test('every currency given is one the runtime formats', () => {
    const supported = new Set(Intl.supportedValuesOf('currency'));
    for (const region of ['US', 'GB', 'SE', 'CL', 'IN', 'TR', 'BR', 'KR', 'TW', 'ZA', 'NG', 'EG'])
      expect({ region, known: supported.has(currencyOfRegion(region) ?? '') }).toEqual({
        region,
        known: true,
      });
  });
});

describe('language parts', () => {
  test('languagePart and likelyRegion', () => {
    expect(languagePart('sv_se')).toBe('sv');
    expect(likelyRegion('sv')).toBe('SE');
    expect(likelyRegion('ja')).toBe('JP');
    expect(likelyRegion('not a language!')).toBeUndefined();
  });
});

describe('market-price words by language', () => {
  const matches = (words: readonly string[], text: string) =>
    new RegExp(`^(?:${words.join('|')})$`, 'iu').test(text);

  test('each list is valid regex source in lower case', () => {
    for (const [language, words] of Object.entries(MARKET_PRICE_WORDS))
      for (const word of words) {
        expect(() => new RegExp(word, 'iu')).not.toThrow();
        expect({ language, word, lower: word === word.toLowerCase() }).toEqual({
          language,
          word,
          lower: true,
        });
      }
  });

  test("a language's words include English's (menus everywhere write MP)", () => {
    expect(matches(marketPriceWordsOf('de_de'), 'Tagespreis')).toBe(true);
    expect(matches(marketPriceWordsOf('de_de'), 'MP')).toBe(true);
    expect(matches(marketPriceWordsOf('ja_jp'), '時価')).toBe(true);
    expect(matches(marketPriceWordsOf('en_us'), 'market price')).toBe(true);
    expect(matches(marketPriceWordsOf('en_us'), 'Tagespreis')).toBe(false);
  });

  test('a language with no list of its own gets English', () => {
    expect(matches(marketPriceWordsOf('sv_se'), 'market price')).toBe(true);
    expect(matches(marketPriceWordsOf('sv_se'), '12.50')).toBe(false);
  });
});

describe('the job-language pattern (the OpenAPI contract)', () => {
  const pattern = new RegExp(JOB_LANGUAGE_PATTERN);

  test('agrees with isJobLanguage on every two-letter pair of a sample of regions', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const codes = [...letters].flatMap((a) => [...letters].map((b) => a + b));
    for (const region of ['us', 'se', 'aq', 'eu', 'zz', 'xk', 'cl'])
      for (const language of codes)
        expect({ language, region, pattern: pattern.test(`${language}_${region}`) }).toEqual({
          language,
          region,
          pattern: isJobLanguage(`${language}_${region}`),
        });
  });

  test('refuses what is no job language', () => {
    expect(pattern.test('en_us')).toBe(true);
    expect(pattern.test('en_US')).toBe(false);
    expect(pattern.test('xx_yy')).toBe(false);
    expect(pattern.test('en_us ')).toBe(false);
  });
});
