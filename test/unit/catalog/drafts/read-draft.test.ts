import PDFDocument from 'pdfkit';
import { CanvasImageDecoder } from '../../../../lambdas/adapters/canvas-image-decoder';
import type { OcrPage, TextRecognizer } from '../../../../lambdas/core/catalog';
import { toPgm } from '../../../../lambdas/core/catalog/drafts/page-image';
import { OcrError } from '../../../../lambdas/core/catalog/drafts/ports';
import {
  DRAFT_LIMITS,
  type DraftDeps,
  draftSource,
} from '../../../../lambdas/core/catalog/drafts/read-draft';
import type { Language } from '../../../../lambdas/core/schemas/job';
import { CORPUS } from '../../../fixtures/drafts/corpus';
import { type MenuSpec, menuPdf, menuPhoto, scannedPdf } from '../../../fixtures/drafts/menus';

/** OCR stand-in: answers the words it is given (or fails as told), and records what it was asked. */
class ScriptedRecognizer implements TextRecognizer {
  readonly calls: { languages: readonly string[]; timeoutMs: number }[] = [];
  constructor(private readonly answer: OcrPage | Error) {}
  async recognize(_image: Uint8Array, options: { languages: readonly string[]; timeoutMs: number }) {
    this.calls.push(options);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
  async detectOrientation() {
    return undefined;
  }
  async release() {}
}

const word = (text: string, x: number, y: number, confidence = 0.96) => ({
  text,
  x,
  y,
  width: text.length * 14,
  height: 30,
  confidence,
  lineHeight: 30,
});

const PHOTO_WORDS: OcrPage = {
  width: 1000,
  height: 1400,
  words: [
    word('DESSERTS', 100, 100),
    word('Tiramisu', 100, 200),
    word('8.00', 800, 200),
    word('Cannoli', 100, 260),
    word('6.75', 800, 260),
  ],
};

const draft = (
  bytes: Buffer,
  format: 'pdf' | 'image',
  deps: DraftDeps = {},
  language: Language = 'en_us',
  limits = DRAFT_LIMITS,
) =>
  draftSource(
    { bytes, format, source: 'https://example.com/menu', sourceIndex: 2, language, currency: 'USD' },
    deps,
    limits,
  );

const longMenu: MenuSpec = {
  ...CORPUS[1]!,
  sections: [...CORPUS[1]!.sections, ...CORPUS[1]!.sections.map((s) => ({ ...s, name: `${s.name} (late)` }))],
};

// The first PDF compiles pdf.js for the test runtime (a few seconds, then cached).
jest.setTimeout(30_000);

describe('draftSource', () => {
  it('drafts a text PDF from its text layer, without OCR', async () => {
    const recognizer = new ScriptedRecognizer(new Error('must not be called'));
    const result = await draft(await menuPdf(CORPUS[0]!), 'pdf', { recognizer });
    expect(result.pages).toEqual([{ page: 1, method: 'text' }]);
    expect(result.warnings).toEqual([]);
    expect(result.items.find((i) => i.name === 'Spaghetti Carbonara')).toMatchObject({
      categoryPath: ['Pasta'],
      description: 'guanciale, egg yolk, pecorino',
      variants: [{ price: { amount: 1650, currency: 'USD' }, pricing: 'fixed' }],
      provenance: { source: 'https://example.com/menu', sourceIndex: 2, page: 1, method: 'text' },
    });
    expect(recognizer.calls).toEqual([]);
  });

  it('reads the pages up to the limit and says which were left out', async () => {
    const pdf = await menuPdf(longMenu);
    const all = await draft(pdf, 'pdf');
    expect(all.pages.length).toBeGreaterThan(1);
    const first = await draft(pdf, 'pdf', {}, 'en_us', { ...DRAFT_LIMITS, maxPages: 1 });
    expect(first.pages).toEqual([{ page: 1, method: 'text' }]);
    expect(first.warnings.map((w) => w.message)).toContain(
      `only the first 1 of ${all.pages.length} pages were read`,
    );
    expect(first.items.length).toBeLessThan(all.items.length);
  });

  it('warns about a scanned page it cannot draw, and one over the OCR page limit', async () => {
    const scan = await scannedPdf(await menuPhoto(CORPUS[0]!, { scale: 0.5 }));
    const undrawable = await draft(scan, 'pdf', {
      rasterizer: { rasterize: async () => undefined, release: async () => {} },
    });
    expect(undrawable.warnings.map((w) => w.message)).toEqual([
      'page 1 has no text layer and could not be drawn for OCR',
    ]);
    const limited = await draft(scan, 'pdf', {}, 'en_us', { ...DRAFT_LIMITS, maxOcrPages: 0 });
    expect(limited.warnings[0]!.message).toMatch(
      /page 1 has no text layer and is over the 0 scanned pages read by OCR/,
    );
  });

  it('reads an image with OCR in the job language, its prices trusted less than a text layer', async () => {
    const recognizer = new ScriptedRecognizer(PHOTO_WORDS);
    const photo = await menuPhoto(CORPUS[0]!, { scale: 0.5, format: 'png' });
    const result = await draft(photo, 'image', { recognizer }, 'fr_ca');
    // The recognizer gets what is left of the page's budget: the whole of it, less the few ms spent decoding.
    expect(recognizer.calls).toEqual([{ languages: ['fra'], timeoutMs: expect.any(Number) }]);
    const given = recognizer.calls[0]!.timeoutMs;
    expect(given).toBeLessThanOrEqual(DRAFT_LIMITS.ocrPageTimeoutMs);
    expect(given).toBeGreaterThan(DRAFT_LIMITS.ocrPageTimeoutMs - 10_000);
    expect(
      result.items.map((i) => [
        i.categoryPath.join(),
        i.name,
        i.variants[0]!.price?.amount,
        i.provenance?.method,
      ]),
    ).toEqual([
      ['DESSERTS', 'Tiramisu', 800, 'ocr'],
      ['DESSERTS', 'Cannoli', 675, 'ocr'],
    ]);
    expect(result.items.every((i) => (i.confidence ?? 1) <= 0.85)).toBe(true);
    // Every documented language has OCR data of its own now (issue 23): Spanish is read as Spanish, no warning.
    const reader = new ScriptedRecognizer(PHOTO_WORDS);
    const spanish = await draft(photo, 'image', { recognizer: reader }, 'es_es');
    expect(reader.calls).toEqual([{ languages: ['spa'], timeoutMs: expect.any(Number) }]);
    expect(spanish.warnings.map((w) => w.message).filter((m) => m.startsWith('no OCR data'))).toEqual([]);
  });

  it('straightens a small, slightly askew photo first for an engine that does not straighten it itself', async () => {
    // PaddleOCR boxes a name and its far-right price apart: 1.5° askew, the price sits a line higher.
    const photo = await menuPhoto(CORPUS[0]!, { scale: 0.5, rotation: 1.5, format: 'png' });
    // A page as the rasterizer draws it: gray levels.
    const drawnGray = { width: 4, height: 3, pixels: Uint8Array.from({ length: 12 }, (_, i) => 100 + i) };
    const handed = async (straightensItself: boolean | undefined, pdfPage = false) => {
      const images: Uint8Array[] = [];
      const recognizer = Object.assign(new ScriptedRecognizer(PHOTO_WORDS), {
        ...(straightensItself === undefined ? {} : { straightensItself }),
        recognize: async (image: Uint8Array) => {
          images.push(image);
          return PHOTO_WORDS;
        },
      });
      const formats: string[] = [];
      const turns: number[] = [];
      const decoder = {
        decode: async (bytes: Uint8Array, format: string) => {
          formats.push(format);
          const decoded = (await new CanvasImageDecoder().decode(bytes, format as 'png'))!;
          const render = decoded.render.bind(decoded);
          return Object.assign(decoded, {
            render: (options: Parameters<typeof render>[0]) => {
              turns.push(options.degrees);
              return render(options);
            },
          });
        },
      };
      const rasterizer = { rasterize: async () => drawnGray, release: async () => {} };
      const source = pdfPage ? await scannedPdf(photo) : photo;
      await draft(source, pdfPage ? 'pdf' : 'image', { recognizer, decoder, rasterizer });
      return { images, formats, turns };
    };
    const leveled = await handed(false);
    expect(leveled.formats).toEqual(['png']);
    // The page read is a PGM rendered turned back by the tilt found.
    expect(Buffer.from(leveled.images[0]!.subarray(0, 2)).toString('latin1')).toBe('P5');
    expect(Math.abs(leveled.turns.at(-1)!)).toBeGreaterThan(1);
    // An engine that straightens pages itself (Tesseract) gets the small photo as it is.
    const asItIs = await handed(undefined);
    expect(asItIs.formats).toEqual([]);
    expect(asItIs.images[0]).toEqual(new Uint8Array(photo));
    // A PDF page drawn here goes as it was drawn to either engine (a PGM of its gray levels): read as a photo,
    // a weak page would be read turned three more ways.
    const drawnPage = await handed(false, true);
    expect(drawnPage.formats).toEqual([]);
    expect(drawnPage.images).toEqual([toPgm(drawnGray)]);
  });

  it('turns OCR failures, missing engines, huge and undecodable images into warnings', async () => {
    const photo = await menuPhoto(CORPUS[0]!, { scale: 0.5 });
    const slow = await draft(photo, 'image', {
      recognizer: new ScriptedRecognizer(new OcrError('late', 'timeout')),
    });
    expect(slow.warnings.map((w) => w.message)).toEqual([
      `the image was not read: OCR did not finish within ${DRAFT_LIMITS.ocrPageTimeoutMs / 1000} s`,
    ]);
    const none = await draft(photo, 'image');
    expect(none.warnings[0]!.message).toMatch(/not read: OCR could not read it \(no OCR engine/);
    const huge = await draft(photo, 'image', { recognizer: new ScriptedRecognizer(PHOTO_WORDS) }, 'en_us', {
      ...DRAFT_LIMITS,
      maxImagePixels: 1000,
    });
    expect(huge.warnings[0]!.message).toMatch(/megapixels, over the/);
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const undecodable = await draft(gif, 'image', { recognizer: new ScriptedRecognizer(PHOTO_WORDS) });
    expect(undecodable.warnings[0]!.message).toMatch(/format the OCR cannot decode/);
    for (const result of [slow, none, huge, undecodable]) expect(result.items).toEqual([]);
  });

  it('reads by OCR a page whose text layer holds a title and no price, and keeps the text where OCR finds none', async () => {
    // The dishes drawn as outlines (here: not drawn at all), the title and a line of text in the text layer.
    const doc = new PDFDocument({ size: 'LETTER', margin: 0 });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
    doc.fontSize(24).text('The Corner Bistro', 72, 72).fontSize(11).text('Open every day from noon', 72, 120);
    doc.end();
    await ended;
    const pdf = Buffer.concat(chunks);
    const rasterizer = {
      rasterize: async () => ({ width: 2, height: 2, pixels: new Uint8Array(4) }),
      release: async () => {},
    };
    const read = await draft(pdf, 'pdf', { recognizer: new ScriptedRecognizer(PHOTO_WORDS), rasterizer });
    expect(read.pages).toEqual([{ page: 1, method: 'ocr' }]);
    expect(read.items.map((i) => [i.name, i.variants[0]!.price?.amount])).toEqual([
      ['Tiramisu', 800],
      ['Cannoli', 675],
    ]);
    const cover: OcrPage = { width: 1000, height: 1400, words: [word('Bistro', 100, 100)] };
    const kept = await draft(pdf, 'pdf', { recognizer: new ScriptedRecognizer(cover), rasterizer });
    expect(kept.pages).toEqual([{ page: 1, method: 'text' }]);
    expect(kept.warnings.filter((w) => w.message.includes('not read'))).toEqual([]);
    const failed = await draft(pdf, 'pdf', {
      recognizer: new ScriptedRecognizer(new OcrError('late', 'timeout')),
      rasterizer,
    });
    expect(failed.pages).toEqual([{ page: 1, method: 'text' }]);
    expect(failed.warnings.map((w) => w.message)).toContain(
      `page 1 has text but no price in its text layer (dishes drawn as outlines or in a picture?) and OCR did not read it: OCR did not finish within ${DRAFT_LIMITS.ocrPageTimeoutMs / 1000} s`,
    );
  });

  it('warns about a file that is not a PDF it can open', async () => {
    const result = await draft(Buffer.from('%PDF-1.7 this is not really a PDF'), 'pdf');
    expect(result.items).toEqual([]);
    expect(result.warnings[0]!.message).toMatch(/the PDF could not be opened/);
  });
});
