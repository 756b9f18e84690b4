import {
  LATIN_SCRIPT_LANGUAGES,
  OCR_LANGUAGE_DATA,
  ocrLanguages,
  PADDLE_LANGUAGES,
  TESSERACT_DATA,
} from '../../../../lambdas/core/catalog/drafts/ocr-languages';
import { LANGUAGES } from '../../../../lambdas/core/schemas/job';

describe('OCR data for a job language (issue 23)', () => {
  it('reads every documented job language with its own data', () => {
    for (const language of LANGUAGES) {
      const choice = ocrLanguages(language);
      expect(choice).toMatchObject({ exact: true, fallback: false });
      expect(
        TESSERACT_DATA.includes(choice.languages[0]!) || PADDLE_LANGUAGES.includes(choice.languages[0]!),
      ).toBe(true);
    }
  });

  it('maps the language part of any ll_cc locale, the region only where it changes the script', () => {
    expect(ocrLanguages('de_de').languages).toEqual(['deu']);
    expect(ocrLanguages('de_at').languages).toEqual(['deu']);
    expect(ocrLanguages('es_cl').languages).toEqual(['spa']);
    expect(ocrLanguages('pt_pt').languages).toEqual(['por']);
    expect(ocrLanguages('zh_cn').languages).toEqual(['chi_sim']);
    expect(ocrLanguages('zh_tw').languages).toEqual(['chi_tra']);
    expect(ocrLanguages('zh-HK').languages).toEqual(['chi_tra']);
    expect(ocrLanguages('it').languages).toEqual(['ita']);
  });

  it('reads a Latin-script language without data of its own by the Latin fallback, without a warning', () => {
    for (const language of ['pl_pl', 'da_dk', 'vi_vn', 'cs_cz']) {
      expect(ocrLanguages(language)).toEqual({ languages: ['eng'], exact: true, fallback: true });
    }
  });

  it('warns for a language in another script that has no data (its letters would be lost)', () => {
    for (const language of ['th_th', 'ru_ru', 'el_gr', 'ar_ae', 'he_il', 'ta_in']) {
      expect(ocrLanguages(language)).toEqual({ languages: ['eng'], exact: false, fallback: true });
    }
  });

  it('ships Tesseract data for every table language Paddle does not read, and English for the page reader', () => {
    expect(TESSERACT_DATA[0]).toBe('eng');
    for (const code of Object.values(OCR_LANGUAGE_DATA))
      if (!PADDLE_LANGUAGES.includes(code)) expect(TESSERACT_DATA).toContain(code);
    expect(TESSERACT_DATA).not.toContain('chi_sim');
    expect(new Set(TESSERACT_DATA).size).toBe(TESSERACT_DATA.length);
  });

  it('lists ISO 639-1 codes only, none of a language written in another script', () => {
    for (const code of LATIN_SCRIPT_LANGUAGES) expect(code).toMatch(/^[a-z]{2}$/);
    for (const other of ['ru', 'el', 'ar', 'he', 'hi', 'th', 'ja', 'ko', 'zh', 'uk', 'ka', 'hy'])
      expect(LATIN_SCRIPT_LANGUAGES.has(other)).toBe(false);
  });
});
