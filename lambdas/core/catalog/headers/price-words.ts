import { isCurrencyCode } from '../money';
import { currencyOfMark, DOLLAR_CURRENCIES } from '../prices';

/**
 * A header that names a price in its own words: `display_price`, `Sale price`, `Prix public`, `Preis in EUR`,
 * `price_yen`, `通常価格`, `Цена, руб.`. The aliases (aliases.ts) know the usual price headers; a shop's own
 * system adds words around the price word. A header whose words contain a price word is a price column by
 * its header (not a guess from its values), unless another of its words says it is not the shelf price
 * (a cost, a compare-at price, a flag or type column about the price).
 */

/** Price words in the languages merchants write headers in, compared with a header's words. */
// biome-ignore format: the word list reads best packed
const PRICE_WORDS = new Set([
  'price', 'prices', 'pricing', 'prix', 'tarif', 'preis', 'preise', 'precio', 'precios', 'prezzo', 'prezzi',
  'preco', 'precos', 'prijs', 'pris', 'cena', 'cijena', 'cene', 'hinta', 'fiyat', 'fiyati', 'fiyatı', 'harga',
  'gia', 'цена', 'цены', 'ціна', 'τιμη', 'τιμή',
]);

/** Price words of scripts written without spaces: found inside a header (`通常価格`, `销售价格`). */
const UNSPACED_PRICE = /価格|値段|价格|價格|售价|售價|単価|単價|单价|가격|판매가|ราคา/u;

/** Words that make a price header something other than the price a customer pays. */
// biome-ignore format: the word list reads best packed
const NOT_THE_PRICE = new Set([
  'cost', 'costs', 'purchase', 'buying', 'wholesale', 'compare', 'compared', 'old', 'previous', 'was',
  'before', 'shipping', 'delivery', 'freight', 'postage', 'tax', 'vat', 'kbn', 'flg', 'flag', 'type', 'types',
  'id', 'ids', 'code', 'rule', 'rules', 'group', 'class', 'level', 'tier', 'currency', 'date', 'from', 'to',
  'min', 'max', 'minimum', 'maximum', 'range', 'history', 'change', 'changed', 'note', 'notes', 'count',
  'einkaufspreis', 'ek', 'achat', 'coste', 'costo', 'inkoop', 'per', 'list',
]);

/** The same for unspaced scripts: a cost, a purchase or a shipping price (`仕入価格`, `送料`, `成本价`). */
const UNSPACED_NOT_THE_PRICE = /原価|仕入|送料|成本|进价|進價|運費|运费/u;

/** Lower-case words that are ISO 4217 codes but mean something else in a header (`all`, `top`, `pen`). */
const NOT_CODES = new Set([
  'all',
  'top',
  'cup',
  'mop',
  'bob',
  'sos',
  'pen',
  'gel',
  'mad',
  'lak',
  'bam',
  'amd',
  'try',
  'std',
]);

const wordsOf = (normalised: string): string[] => normalised.split(' ').filter(Boolean);

/**
 * The rank of a header that names a price in its own words (lower is preferred: fewer other words), or
 * undefined when it does not. `normalised` is the header as normaliseHeader gives it.
 *
 * @example priceWordRank('display price') // 1
 * @example priceWordRank('display special price') // 2
 * @example priceWordRank('cost price') // undefined
 */
export const priceWordRank = (normalised: string): number | undefined => {
  const words = wordsOf(normalised);
  if (words.length === 0 || words.length > 5) return undefined;
  if (words.some((w) => NOT_THE_PRICE.has(w) || UNSPACED_NOT_THE_PRICE.test(w))) return undefined;
  const priced = words.filter((w) => PRICE_WORDS.has(w) || UNSPACED_PRICE.test(w));
  if (priced.length === 0) return undefined;
  // A header that is a currency word besides the price word (`price yen`, `preis in eur`) is as good as `price`.
  const others = words.filter(
    (w) => !priced.includes(w) && currencyOfWord(w, 'XXX') === undefined && w !== 'in',
  );
  return others.length;
};

/** Currency names a header may carry beside the price word (`price_yen`, `Preis in Euro`). */
const CURRENCY_WORDS: Readonly<Record<string, string>> = {
  yen: 'JPY',
  yuan: 'CNY',
  rmb: 'CNY',
  renminbi: 'CNY',
  euro: 'EUR',
  euros: 'EUR',
  won: 'KRW',
  rupee: 'INR',
  rupees: 'INR',
  руб: 'RUB',
  рублей: 'RUB',
  рубли: 'RUB',
  грн: 'UAH',
  zl: 'PLN',
  zł: 'PLN',
  kc: 'CZK',
  kč: 'CZK',
  lei: 'RON',
  din: 'RSD',
  лв: 'BGN',
};

/** The currency one word of a header names (an ISO code, a currency's name or mark), or undefined. */
const currencyOfWord = (word: string, jobCurrency: string): string | undefined => {
  const lower = word.toLowerCase();
  if (CURRENCY_WORDS[lower] !== undefined) return CURRENCY_WORDS[lower];
  if (lower === 'dollar' || lower === 'dollars')
    return DOLLAR_CURRENCIES.includes(jobCurrency) ? jobCurrency : 'USD';
  if (/^[A-Z]{3}$/.test(word) && isCurrencyCode(word)) return word;
  if (
    /^[a-z]{3}$/.test(word) &&
    isCurrencyCode(word.toUpperCase()) &&
    !NOT_CODES.has(word) &&
    !PRICE_WORDS.has(word)
  )
    return word.toUpperCase();
  return currencyOfMark(word, jobCurrency);
};

/**
 * The currency a price column's header states, as written: in brackets (`Price (CAD)`, `价格(元)`), as a
 * word beside the price word (`price_yen`, `Preis in EUR`, `PRICE_EUR`), or a mark (`Price $`). Undefined
 * when the header states none, or more than one.
 *
 * @example headerCurrencyOf('Preis in EUR', 'USD') // 'EUR'
 * @example headerCurrencyOf('price_yen', 'USD') // 'JPY'
 */
export const headerCurrencyOf = (header: string, jobCurrency: string): string | undefined => {
  const found = new Set<string>();
  const text = header.normalize('NFKC');
  for (const token of text.split(/[\s_\-/:,;.()[\]{}（）【】]+/u)) {
    if (token === '') continue;
    const direct = currencyOfWord(token, jobCurrency);
    if (direct !== undefined) {
      found.add(direct);
      continue;
    }
    // `価格円`, `价格元`: a mark after an unspaced price word.
    const rest = token.replace(UNSPACED_PRICE, '');
    if (rest !== token && rest !== '') {
      const mark = currencyOfMark(rest, jobCurrency);
      if (mark !== undefined) found.add(mark);
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
};
