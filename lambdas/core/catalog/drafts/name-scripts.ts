/**
 * Dish names written in two scripts (a Chinese take-out menu in the US, a Greek taverna's card, a Japanese
 * izakaya's): `叉燒炒麵 23. Roast Pork Fried Rice`. The menu's own name is the part in the job language's script;
 * the other script's words are kept for the description. A dish number before the name (`23.`, `L 6.`) stays:
 * customers order by it, and two sections' `Mit Garnelen` are told apart by it when their headings are not read.
 */

/**
 * Letters of the script a job language is written in (Intl's likely script for the language). Chinese,
 * Japanese and Korean are not split: Latin letters are part of their names (`Aランチ`, `T骨牛排`).
 */
const SCRIPT_LETTERS: Readonly<Record<string, RegExp>> = {
  Latn: /\p{Script=Latin}/u,
  Cyrl: /\p{Script=Cyrillic}/u,
  Grek: /\p{Script=Greek}/u,
  Arab: /\p{Script=Arabic}/u,
  Hebr: /\p{Script=Hebrew}/u,
  Deva: /\p{Script=Devanagari}/u,
  Thai: /\p{Script=Thai}/u,
};

/** The letters of the job language's script (`en_us` → Latin), or undefined when it is not known. */
export const scriptLettersOf = (language: string): RegExp | undefined => {
  try {
    const script = new Intl.Locale(language.replace('_', '-')).maximize().script;
    return script === undefined ? undefined : SCRIPT_LETTERS[script];
  } catch {
    return undefined;
  }
};

/** At least this many letters of the menu's script for a name to be one in that script. */
const MIN_OWN_LETTERS = 3;

export interface NameParts {
  /** The name in the menu's script. */
  readonly name: string;
  /** The words in another script, as written (`叉燒炒麵`), or null. */
  readonly otherScript: string | null;
}

/**
 * Splits a dish name into its part in the job language's script and the words in another script. A name
 * with few letters of the language's script is left whole.
 *
 * @example nameParts('叉燒炒麵 23. Roast Pork Fried Rice', /\p{Script=Latin}/u)
 *   // { name: '23. Roast Pork Fried Rice', otherScript: '叉燒炒麵' }
 */
export const nameParts = (name: string, own: RegExp | undefined): NameParts => {
  let kept = name;
  let otherScript: string | null = null;
  if (own !== undefined) {
    const letters = [...name].filter((c) => /\p{L}/u.test(c));
    const ownCount = letters.filter((c) => own.test(c)).length;
    const other = letters.length - ownCount;
    if (ownCount >= MIN_OWN_LETTERS && other > 0) {
      const runs: string[] = [];
      let current = '';
      let rest = '';
      for (const c of name) {
        const foreign = /\p{L}/u.test(c) && !own.test(c);
        // Spaces between two letters of the other script belong to its run (`上 海 卷`), and so do the marks
        // on its letters (Thai vowels and tones).
        if (foreign || (current !== '' && /[\s\p{M}]/u.test(c))) current += c;
        else {
          if (current.trim() !== '') runs.push(current.trim());
          if (current !== '') rest += ' ';
          current = '';
          rest += c;
        }
      }
      if (current.trim() !== '') runs.push(current.trim());
      kept = rest;
      otherScript = runs.join(' ') || null;
    }
  }
  return { name: kept.replace(/\s+/gu, ' ').trim(), otherScript };
};
