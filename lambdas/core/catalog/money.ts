import { currencyOfLanguage } from '../locale';

/**
 * SPEC 5.2: the default currency of a job language, its region's (CLDR; core/locale.ts).
 *
 * @example defaultCurrency('sv_se') // 'SEK'
 */
export const defaultCurrency = (language: string): string => currencyOfLanguage(language);

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
