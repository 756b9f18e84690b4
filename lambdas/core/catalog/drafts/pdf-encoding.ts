/**
 * Text of a font that pdf.js decoded with the wrong single-byte encoding (issue 23: "unpdf garbles a page
 * that poppler reads right"). A simple TrueType font marked symbolic, with no /Encoding and no /ToUnicode
 * (as some Windows producers embed a subset of Arial), has its codes read through the font's Mac cmap: the
 * codes of WinAnsi text come out as Mac Roman characters — `H¸hnerfleischspieﬂe` for
 * `Hühnerfleischspieße`, `Kr‰uter`, `÷ffnungszeiten`, `CrËme br˚lÈe`. Poppler reads such a font by its glyph
 * names and gets it right; pdf.js offers no option to.
 *
 * Such text is told by characters no word holds: a sign or an accent (`¸`, `‰`, `˚`) between two letters,
 * or an accented capital (`È`) after a letter and before a lower-case one. A font whose text holds some, and holds fewer once its bytes
 * are read with the other encoding (WinAnsi as Mac Roman, or Mac Roman as WinAnsi), is read that way: the
 * whole font, since every byte above 0x7F of it was misread alike. A font whose text is right only gains
 * such characters by a re-reading (`Müller` read as Mac Roman bytes is `MŸller`), so it is left as it is.
 *
 * The text is taken from pdf.js before its Unicode normalisation (a misread `ß` is the ligature `ﬂ`, which
 * normalisation makes `fl`: then no longer told from a real `fl`); the caller normalises afterwards.
 */

/** The characters of bytes 0x80–0xFF in Mac Roman. */
const MAC_ROMAN =
  'ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø¿¡¬√ƒ≈∆«»…\u00a0ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄€‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\uf8ffÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ';
/** The characters of bytes 0x80–0xFF in WinAnsi (Windows-1252; its five unassigned bytes as Latin-1's). */
const WIN_ANSI =
  '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ\u00a0¡¢£¤¥¦§¨©ª«¬\u00ad®¯°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ';

const rereading = (decodedAs: string, really: string): Map<string, string> =>
  new Map([...decodedAs].map((c, i) => [c, [...really][i]!]));

/** Re-readings of a misread font's text: what pdf.js decoded it as → what its bytes are. */
const REREADINGS = [rereading(MAC_ROMAN, WIN_ANSI), rereading(WIN_ANSI, MAC_ROMAN)] as const;

/** Non-ASCII characters that do stand between two letters of a word: apostrophes, dashes, a middle dot. */
const WITHIN_WORDS = new Set(['’', '‘', '‐', '‑', '–', '—', '·']);

const isLetter = (c: string | undefined): boolean => c !== undefined && /\p{L}/u.test(c);
const isLower = (c: string | undefined): boolean => c !== undefined && /\p{Ll}/u.test(c);

/**
 * How many characters of `text` no word holds: a non-ASCII character between two letters that is not a
 * letter (and not one of WITHIN_WORDS), or is a capital before a lower-case letter.
 */
export const misreadSigns = (text: string): number => {
  const chars = [...text];
  let count = 0;
  for (let i = 1; i < chars.length - 1; i++) {
    const c = chars[i]!;
    if (c.charCodeAt(0) < 0x80 || !isLetter(chars[i - 1]) || !isLetter(chars[i + 1])) continue;
    if (isLetter(c) ? !isLower(c) && isLower(chars[i + 1]) : !WITHIN_WORDS.has(c)) count++;
  }
  return count;
};

/**
 * The re-reading (`reread`'s map) of each font decoded with the wrong encoding (see above), by font name;
 * fonts read right are not in the answer.
 */
export const misreadFonts = (
  items: readonly { readonly str: string; readonly fontName: string }[],
): Map<string, Map<string, string>> => {
  const texts = new Map<string, string[]>();
  for (const item of items) {
    const strings = texts.get(item.fontName);
    if (strings) strings.push(item.str);
    else texts.set(item.fontName, [item.str]);
  }
  const misread = new Map<string, Map<string, string>>();
  for (const [font, strings] of texts) {
    const text = strings.join('\n');
    const signs = misreadSigns(text);
    if (signs === 0) continue;
    let best: { map: Map<string, string>; signs: number } | undefined;
    for (const map of REREADINGS) {
      const again = misreadSigns(reread(text, map));
      if (again < signs && (!best || again < best.signs)) best = { map, signs: again };
    }
    if (best) misread.set(font, best.map);
  }
  return misread;
};

/** `text` with each character the re-reading knows replaced. */
export const reread = (text: string, map: ReadonlyMap<string, string>): string =>
  [...text].map((c) => map.get(c) ?? c).join('');
