/**
 * Which OCR data reads a job's language (SPEC 5.2 drafts; issue 23). The job language is any `ll_cc`
 * locale: its ISO 639-1 language picks the data.
 *
 * - Paddle's recogniser (PP-OCRv4, lambdas/adapters/paddle-recognizer.ts) reads the languages it was trained
 *   on: English and Chinese. Its dictionary holds ASCII and only a few accented letters (é è à ä ü á í ó ú,
 *   no ö ß ç ñ € £), so other languages are read by Tesseract with their own data on the lines Paddle finds.
 * - Tesseract data shipped with the service (npm `@tesseract.js-data/<code>`, packaged for Lambda from
 *   this table: lib/aws/functions.ts): the languages of SPEC's list that Paddle does not read.
 * - Any other language written in the Latin script is read by Paddle's recogniser as the Latin-script
 *   fallback: every unaccented letter and the commonest accents are right, the rest come back as their base
 *   letter. That is a reading, not a failure: no warning.
 * - A language in another script with no data is read the same way, with a warning: its letters are lost.
 */

/** Job language (ISO 639-1) → the OCR language the recogniser is asked for. */
export const OCR_LANGUAGE_DATA: Readonly<Record<string, string>> = {
  en: 'eng',
  zh: 'chi_sim',
  fr: 'fra',
  de: 'deu',
  es: 'spa',
  it: 'ita',
  pt: 'por',
  nl: 'nld',
  ja: 'jpn',
  ko: 'kor',
  sv: 'swe',
  tr: 'tur',
  hi: 'hin',
};

/** Locales whose region writes the language in another script than the language's default. */
const REGIONAL_DATA: Readonly<Record<string, string>> = {
  zh_tw: 'chi_tra',
  zh_hk: 'chi_tra',
  zh_mo: 'chi_tra',
};

/** OCR languages Paddle's own recogniser reads (its training languages); the others are Tesseract's. */
export const PADDLE_LANGUAGES: readonly string[] = ['eng', 'chi_sim', 'chi_tra'];

/**
 * The Tesseract data the service ships: every OCR language of the table that Paddle does not read, and
 * English, which the Tesseract page reader uses where ONNX Runtime cannot load (paddle-recognizer.ts).
 */
export const TESSERACT_DATA: readonly string[] = [
  'eng',
  ...new Set(Object.values(OCR_LANGUAGE_DATA).filter((code) => !PADDLE_LANGUAGES.includes(code))),
];

/**
 * ISO 639-1 languages written in the Latin script (Unicode CLDR's default script of each), read by the
 * Latin-script fallback when they have no data of their own.
 */
export const LATIN_SCRIPT_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'af ak an az bm br bs ca co cs cy da de ee en eo es et eu ff fi fo fr fy ga gd gl gn gv ha ' +
    'hr ht hu id ig io is it jv kl kw la lb lg ln lt lu lv mg mi ms mt nb nd nl nn no nr ny oc om pl pt qu rm ' +
    'rn ro rw sc se sg sk sl sm sn so sq ss st su sv sw tk tl tn to tr ts uz ve vi vo wa wo xh yo za zu'
  ).split(' '),
);

export interface OcrLanguageChoice {
  /** The OCR languages to ask for, the job's own first. */
  readonly languages: string[];
  /** False: the language has no OCR data and is not Latin-script, its own letters are lost (warn). */
  readonly exact: boolean;
  /** True when the Latin-script fallback reads it. */
  readonly fallback: boolean;
}

/** The OCR language for a job language (`ll_cc`, or a bare `ll`). */
export const ocrLanguages = (language: string): OcrLanguageChoice => {
  const locale = language.toLowerCase().replace('-', '_');
  const code = locale.split('_')[0] ?? '';
  const data = REGIONAL_DATA[locale] ?? OCR_LANGUAGE_DATA[code];
  if (data) return { languages: [data], exact: true, fallback: false };
  return { languages: ['eng'], exact: LATIN_SCRIPT_LANGUAGES.has(code), fallback: true };
};
