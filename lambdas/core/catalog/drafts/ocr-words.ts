import { groupRows } from './layout';
import { median, type TextRun } from './text-runs';

/**
 * Fixes of the words OCR reads on a menu (issue 23), before the layout: what the engine glued or misread in
 * a way the rest of the page shows.
 *
 * - A price glued to the dish (`SOUP$4.50`, `Pomodoro4,50`; `SANDWICHS4` where the `S` is a `$` the display
 *   font lost, on a page that writes `$` elsewhere) becomes two words.
 * - `S8.50` alone is `$8.50` on a page that writes `$` elsewhere.
 * - Words glued at a change of case (`theEGG`: a script `the` before a caps name; `StuffedSeaBass`, title-case
 *   words whose spaces the recogniser did not read) come apart.
 * - A `0` inside a word of letters (`ESPRESS0`) is the letter O.
 * - A lost decimal point (`$450` among `$4.50`, `$5.75`): a price 6× or more the page's median that is in
 *   line once divided by 10 or 100 is read so when the page's other prices have decimals; otherwise it is
 *   left as read. Either way its confidence is lowered, so the drafted dish is flagged for the reviewer.
 *
 * A word changed here keeps at most CHANGED_CONFIDENCE: the drafter does not confirm a price OCR read
 * differently from how it is now taken.
 */

const CHANGED_CONFIDENCE = 0.85;
/** A price this many times the page's median is out of line. */
const OUT_OF_LINE = 6;
/** Prices written with as many decimals needed on the page before a lost decimal point is put back. */
const MIN_DECIMAL_PRICES = 3;

const MARK = '[$€£¥₹₺]';
const AMOUNT = String.raw`\d{1,4}(?:[.,]\d{1,2})?`;
const GLUED_MARKED = new RegExp(String.raw`^(\p{L}{2,}[\p{L}'.]*?)(\+?${MARK}${AMOUNT})$`, 'u');
/** A caps name (or abbreviation: `B.L.T.`) and `S` with an amount: the `S` is a `$`. */
const GLUED_S = /^([\p{L}'.&-]*\p{Lu}\.?)(\+?S\d{1,4}(?:[.,]\d{1,2})?)$/u;
const GLUED_DECIMAL = /^(\p{L}{3,})(\d{1,4}[.,]\d{2})$/u;
const S_PRICE = /^(\+?)S(\d{1,4}(?:[.,]\d{1,2})?)$/;
const CASE_GLUE = /^(\p{Ll}{2,})(\p{Lu}[\p{Lu}.].*)$/u;
/** Between title-case words read without their space (`StuffedSeaBass`); not after one small letter (`McDonald`). */
const CAMEL_GLUE = /(?<=\p{Ll}{2})(?=\p{Lu}\p{Ll})/u;
const PRICE = new RegExp(String.raw`^\+?(${MARK})?(\d{1,6})(?:[.,](\d{1,2}))?(${MARK})?$`, 'u');

const letters = (text: string): number => text.match(/\p{L}/gu)?.length ?? 0;

interface Piece {
  readonly text: string;
  readonly changed: boolean;
}

/** The run cut into pieces of its text, each with its share of the width (by characters). */
const cut = (run: TextRun, pieces: readonly Piece[]): TextRun[] => {
  const total = pieces.reduce((sum, p) => sum + p.text.length, 0) || 1;
  let x = run.x;
  return pieces.map((piece) => {
    const width = (run.width * piece.text.length) / total;
    const part = { ...run, text: piece.text, x, width, ...lowered(run, piece.changed) };
    x += width;
    return part;
  });
};

const lowered = (run: TextRun, changed: boolean): { confidence?: number } =>
  changed && run.confidence !== undefined ? { confidence: Math.min(run.confidence, CHANGED_CONFIDENCE) } : {};

const dollar = (text: string): string => text.replace(/^(\+?)S/, '$1$');

const letterZero = (text: string): string =>
  /^[\p{L}0]+$/u.test(text) && /0/.test(text) && (text.match(/\p{L}/gu)?.length ?? 0) >= 3
    ? text.replace(/0/g, /\p{Ll}/u.test(text) ? 'o' : 'O')
    : text;

/** One word's pieces, as the page's evidence (`dollars`: it writes `$` elsewhere) lets it be read. */
const fixWord = (text: string, dollars: boolean): Piece[] => {
  const gluedS = dollars ? GLUED_S.exec(text) : null;
  const glued =
    GLUED_MARKED.exec(text) ??
    (gluedS && letters(gluedS[1]!) >= 2 ? gluedS : null) ??
    GLUED_DECIMAL.exec(text);
  if (glued)
    return [
      { text: letterZero(glued[1]!), changed: false },
      { text: dollars ? dollar(glued[2]!) : glued[2]!, changed: true },
    ].flatMap((p, i) => (i === 0 ? splitCase(p) : [p]));
  if (dollars && S_PRICE.test(text)) return [{ text: dollar(text), changed: true }];
  const fixed = letterZero(text);
  return splitCase({ text: fixed, changed: fixed !== text });
};

const splitCase = (piece: Piece): Piece[] => {
  const match = CASE_GLUE.exec(piece.text);
  return match
    ? [
        { text: match[1]!, changed: piece.changed },
        { text: match[2]!, changed: piece.changed },
      ]
    : piece.text.split(CAMEL_GLUE).map((text) => ({ text, changed: piece.changed }));
};

interface Amount {
  readonly value: number;
  readonly decimals: number;
}

const amountOf = (text: string): Amount | undefined => {
  const match = PRICE.exec(text);
  if (!match) return undefined;
  const cents = match[3] ?? '';
  return { value: Number(`${match[2]}.${cents || '0'}`), decimals: cents.length };
};

/**
 * Prices that end their row (or a cell of it: a wide gap follows), or stand in a row of prices (`740  9,40`:
 * a small and a large size): where a menu puts them. Numbers inside a line (`ca. 100 g`, a year, a phone
 * number) are not looked at.
 */
const rowEndPrices = (runs: readonly TextRun[]): { run: TextRun; amount: Amount }[] =>
  groupRows(runs).flatMap((row) =>
    row.runs.flatMap((run, i) => {
      const next = row.runs[i + 1];
      const endsCell =
        !next || next.x - (run.x + run.width) >= run.height || amountOf(next.text) !== undefined;
      const amount = endsCell ? amountOf(run.text) : undefined;
      return amount && amount.value > 0 ? [{ run, amount }] : [];
    }),
  );

/** `$450` read as `$4.50` (÷100) or `$45` as `$4.5` (÷10): the text with the point put back. */
const withPoint = (text: string, divisor: 10 | 100): string =>
  text.replace(/(\d+)(?![\d.,])/, (digits) => {
    const places = divisor === 100 ? 2 : 1;
    if (digits.length <= places) return digits;
    return `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  });

/** Prices out of line with the page (a lost decimal point): put back when clear, else only flagged. */
const fixLostPoints = (runs: TextRun[]): TextRun[] => {
  const prices = rowEndPrices(runs);
  // The point is put back only as the page writes it: `$450` → `$4.50` where other prices have two
  // decimals, `$45` → `$4.5` where others have one (a `$120` bottle among `$8.50` dishes is only flagged).
  const written = (places: number) => prices.filter((p) => p.amount.decimals === places).length;
  if (prices.length < 4) return runs;
  const typical = median(prices.map((p) => p.amount.value));
  const fixes = new Map<TextRun, TextRun>();
  for (const { run, amount } of prices) {
    if (amount.decimals > 0 || amount.value < typical * OUT_OF_LINE) continue;
    const divisor = ([100, 10] as const).find((d) => {
      const value = amount.value / d;
      return value >= typical / 3 && value <= typical * 3;
    });
    const clear = divisor !== undefined && written(divisor === 100 ? 2 : 1) >= MIN_DECIMAL_PRICES;
    fixes.set(run, {
      ...run,
      text: clear ? withPoint(run.text, divisor) : run.text,
      ...lowered(run, true),
      ...(run.confidence === undefined || clear ? {} : { confidence: Math.min(run.confidence, 0.5) }),
    });
  }
  return fixes.size === 0 ? runs : runs.map((r) => fixes.get(r) ?? r);
};

/**
 * The OCR words of one page with the fixes above. Runs without an OCR confidence (a text layer) are left
 * as they are.
 *
 * @example fixOcrWords([run('SOUPS4.50'), run('+$1')]) // 'SOUP', '$4.50', '+$1'
 */
export const fixOcrWords = (runs: readonly TextRun[]): TextRun[] => {
  const ocr = runs.filter((r) => r.confidence !== undefined);
  if (ocr.length === 0) return [...runs];
  const dollars = ocr.some((r) => /\$\s?\d|\d\s?\$|\+\$/.test(r.text));
  const split = runs.flatMap((run) => {
    if (run.confidence === undefined) return [run];
    const pieces = fixWord(run.text, dollars);
    return pieces.length === 1 && pieces[0]!.text === run.text ? [run] : cut(run, pieces);
  });
  return fixLostPoints(joinSplitDecimals(split));
};

const pattern = (source: string): RegExp => new RegExp(`^${source}$`, 'u');

/** The two pieces of a price OCR cut in two, as [first piece, second piece]. */
const CUTS: readonly (readonly [RegExp, RegExp])[] = [
  // At its separator, after it: `3,` `50€`.
  [pattern(String.raw`\+?${MARK}?\d{1,4}[.,]`), pattern(String.raw`\d{2}${MARK}?`)],
  // Before its separator: `7` `.5`, `12` `,50€`.
  [pattern(String.raw`\+?${MARK}?\d{1,4}`), pattern(String.raw`[.,]\d{1,2}${MARK}?`)],
  // Between its decimals, the currency after them: `3,5` `0€`.
  [pattern(String.raw`\+?${MARK}?\d{1,4}[.,]\d`), pattern(String.raw`\d${MARK}`)],
];

/** Whether a word may be the first piece of a cut price. */
const cutHead = (text: string): boolean => CUTS.some(([head]) => head.test(text));

/** Whether two words of one row are a price cut at its decimal separator (before or after it), or in its decimals. */
const cutAtSeparator = (head: string, tail: string): boolean =>
  CUTS.some(([first, second]) => first.test(head) && second.test(tail));

/**
 * A price OCR cut at its decimal separator (`3,` `50€`, `7` `.5`: the gap beside a point or a comma read as a
 * space) or between its decimals (`3,5` `0€`: a lone digit with the currency is no price of its own) joined
 * back into one word, when the two pieces sit side by side on one row.
 */
const joinSplitDecimals = (runs: TextRun[]): TextRun[] => {
  const out: TextRun[] = [];
  const used = new Set<TextRun>();
  for (const run of runs) {
    if (used.has(run)) continue;
    const tail =
      run.confidence !== undefined && cutHead(run.text)
        ? runs.find(
            (other) =>
              other !== run &&
              !used.has(other) &&
              other.confidence !== undefined &&
              other.page === run.page &&
              cutAtSeparator(run.text, other.text) &&
              other.x >= run.x + run.width - run.height * 0.2 &&
              other.x - (run.x + run.width) <= run.height &&
              Math.min(run.y + run.height, other.y + other.height) - Math.max(run.y, other.y) >=
                Math.min(run.height, other.height) / 2,
          )
        : undefined;
    if (!tail) {
      out.push(run);
      continue;
    }
    used.add(tail);
    out.push({
      ...run,
      text: `${run.text}${tail.text}`,
      width: tail.x + tail.width - run.x,
      height: Math.max(run.y + run.height, tail.y + tail.height) - run.y,
      confidence: Math.min(run.confidence!, tail.confidence!, CHANGED_CONFIDENCE),
    });
  }
  return out;
};
