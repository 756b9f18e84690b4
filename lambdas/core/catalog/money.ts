import type { Language } from '../schemas/job';

/** SPEC 5.2: the default currency of each documented language (its country's currency). */
export const CURRENCY_BY_LANGUAGE: Readonly<Record<Language, string>> = {
  en_us: 'USD',
  en_gb: 'GBP',
  en_ca: 'CAD',
  en_au: 'AUD',
  fr_ca: 'CAD',
  fr_fr: 'EUR',
  es_us: 'USD',
  es_mx: 'MXN',
  es_es: 'EUR',
  de_de: 'EUR',
  it_it: 'EUR',
  pt_br: 'BRL',
  nl_nl: 'EUR',
  ja_jp: 'JPY',
  ko_kr: 'KRW',
  zh_cn: 'CNY',
  zh_tw: 'TWD',
};

/** The default currency for a language. */
export const defaultCurrency = (language: Language): string => CURRENCY_BY_LANGUAGE[language];

const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** True for an ISO 4217 code the runtime knows (upper case). */
export const isCurrencyCode = (code: string): boolean => KNOWN_CURRENCIES.has(code);

const decimalsCache = new Map<string, number>();

/** Number of minor-unit digits of a currency (2 for USD, 0 for JPY and KRW, 3 for BHD). */
export const currencyDecimals = (currency: string): number => {
  let decimals = decimalsCache.get(currency);
  if (decimals === undefined) {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits as number;
    decimalsCache.set(currency, decimals);
  }
  return decimals;
};
