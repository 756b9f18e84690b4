import {
  cropAsPgm,
  DRAWN_PIXELS,
  drawnLineBoxes,
  MAX_DRAWN_LINES,
  readDrawnLines,
  SEARCH_PIXELS,
} from '../../../../lambdas/core/catalog/drafts/drawn-lines';
import { rebuildLines } from '../../../../lambdas/core/catalog/drafts/layout';
import { draftMenu } from '../../../../lambdas/core/catalog/drafts/menu-draft';
import type { GrayImage, OcrPage, TextRecognizer } from '../../../../lambdas/core/catalog/drafts/ports';
import type { PageText } from '../../../../lambdas/core/catalog/drafts/text-coverage';
import type { TextRun } from '../../../../lambdas/core/catalog/drafts/text-runs';
import { aRightAligned, aRun } from '../../../fixtures/drafts/runs';

// A page drawn in gray levels, with its text layer: what the job worker sees of a menu whose headings were
// turned into outlines by the tool that exported it.

const WIDTH = 1000;
const HEIGHT = 1400;

const blankPage = (): GrayImage => ({
  width: WIDTH,
  height: HEIGHT,
  pixels: new Uint8Array(WIDTH * HEIGHT).fill(255),
});

const fill = (image: GrayImage, x: number, y: number, width: number, height: number, gray = 0): void => {
  for (let row = y; row < y + height; row++)
    image.pixels.fill(gray, row * image.width + x, row * image.width + x + width);
};

/** Letters as vertical strokes (4 px every 12 px): about a third of the box is ink, as in real type. */
const drawWord = (image: GrayImage, x: number, y: number, width: number, height: number): void => {
  for (let left = x; left + 4 <= x + width; left += 12) fill(image, left, y, 4, height);
};

/** A text-layer line: its run, and its letters drawn inside the run's box. */
const textLine = (image: GrayImage, text: string, x: number, y: number): TextRun => {
  const run = aRun(text, x, y, { size: 20 });
  drawWord(image, Math.round(run.x), Math.round(run.y + 3), Math.round(run.width), 14);
  return run;
};

const pageText = (runs: TextRun[]): PageText => ({ runs, width: WIDTH, height: HEIGHT });

/** A page of written dishes under a heading that is only drawn. */
const menuPage = () => {
  const image = blankPage();
  const runs = [
    textLine(image, 'Spring Rolls ........ 4,90', 100, 200),
    textLine(image, 'Wonton Soup ........ 5,90', 100, 240),
    textLine(image, 'Hot and Sour Soup ..... 5,90', 100, 280),
  ];
  drawWord(image, 400, 120, 190, 30);
  return { image, text: pageText(runs) };
};

describe('drawnLineBoxes', () => {
  it('finds a line of ink that the text layer does not hold, and only that', () => {
    const { image, text } = menuPage();
    const boxes = drawnLineBoxes(image, text);
    expect(boxes).toHaveLength(1);
    expect(boxes[0]).toMatchObject({ y: 120, height: 30 });
    expect(boxes[0]!.x).toBe(400);
    expect(boxes[0]!.width).toBeGreaterThan(170);
  });

  it('leaves out pictures, rules and solid bars', () => {
    const { image, text } = menuPage();
    fill(image, 600, 500, 300, 300); // a picture: far taller than a line
    fill(image, 100, 900, 800, 2); // a rule: far thinner
    fill(image, 100, 1000, 400, 25); // a solid bar: no letter is solid ink
    expect(drawnLineBoxes(image, text)).toHaveLength(1);
  });

  it('leaves out ink on the row of a written line (a drawn dish number, a logo beside a dish)', () => {
    const image = blankPage();
    const runs = [textLine(image, 'Spring Rolls ........ 4,90', 100, 200)];
    drawWord(image, 380, 195, 100, 25);
    expect(drawnLineBoxes(image, pageText(runs))).toEqual([]);
  });

  it('finds nothing on a page with more drawn lines than a page of headings has (ornaments, a drawn page)', () => {
    const image = blankPage();
    const runs = [textLine(image, 'Spring Rolls ........ 4,90', 100, 40)];
    for (let i = 0; i <= MAX_DRAWN_LINES; i++) drawWord(image, 300, 120 + i * 80, 200, 30);
    expect(drawnLineBoxes(image, pageText(runs))).toEqual([]);
  });
});

describe('cropAsPgm', () => {
  it('cuts the box out with a margin of half its height, as a binary PGM', () => {
    const image = blankPage();
    fill(image, 110, 210, 20, 10, 7);
    const pgm = cropAsPgm(image, { x: 110, y: 210, width: 20, height: 10 });
    const header = 'P5\n30 20\n255\n';
    expect(new TextDecoder().decode(pgm.subarray(0, header.length))).toBe(header);
    expect(pgm.length).toBe(header.length + 30 * 20);
    // Row 5 of the crop is the box's first row: 5 px of margin, then the box's ink.
    expect(pgm[header.length + 5 * 30 + 4]).toBe(255);
    expect(pgm[header.length + 5 * 30 + 5]).toBe(7);
  });
});

describe('readDrawnLines', () => {
  const fakes = (image: GrayImage, words: OcrPage['words']) => {
    const read: Uint8Array[] = [];
    const drawn: number[] = [];
    const recognizer: TextRecognizer = {
      recognize: async (bytes) => {
        read.push(bytes);
        return { width: 0, height: 0, words };
      },
      detectOrientation: async () => undefined,
      release: async () => undefined,
    };
    return {
      read,
      drawn,
      deps: {
        rasterizer: {
          rasterize: async (_pdf: Uint8Array, _page: number, size: { maxPixels: number }) => {
            drawn.push(size.maxPixels);
            return image;
          },
          release: async () => undefined,
        },
        recognizer,
      },
    };
  };
  const word = (text: string, x: number, confidence = 0.95) => ({
    text,
    x,
    y: 5,
    width: 60,
    height: 30,
    confidence,
    lineHeight: 30,
  });
  const options = { languages: ['deu'], timeoutMs: 1000 };

  it("reads each drawn line by OCR and gives it as a run in the page's units", async () => {
    const { image, text } = menuPage();
    // The page is 500 × 700 points, drawn at 2 px a point.
    const half = {
      ...text,
      width: WIDTH / 2,
      height: HEIGHT / 2,
      runs: text.runs.map((r) => ({
        ...r,
        x: r.x / 2,
        y: r.y / 2,
        width: r.width / 2,
        height: r.height / 2,
      })),
    };
    const { deps, read, drawn } = fakes(image, [word('Vorspeisen', 40), word('|', 110)]);
    const runs = await readDrawnLines(new Uint8Array(), 3, half, deps, options);
    expect(read).toHaveLength(1);
    // Looked for on a small drawing, read on a larger one.
    expect(drawn).toEqual([SEARCH_PIXELS, DRAWN_PIXELS]);
    expect(runs).toEqual([
      expect.objectContaining({ text: 'Vorspeisen', page: 3, x: 200, y: 60, height: 15, confidence: 0.95 }),
    ]);
    // Measured from the ink: `p` reaches below the line, so the font is a little larger than the ink.
    expect(runs[0]!.fontSize).toBeGreaterThan(15);
  });

  it('leaves out what OCR reads without confidence or without letters', async () => {
    const { image, text } = menuPage();
    expect(
      await readDrawnLines(new Uint8Array(), 1, text, fakes(image, [word('Suppen', 0, 0.4)]).deps, options),
    ).toEqual([]);
    expect(
      await readDrawnLines(new Uint8Array(), 1, text, fakes(image, [word('—', 0)]).deps, options),
    ).toEqual([]);
  });

  it('draws a page once, small, when it draws nothing outside its text', async () => {
    const image = blankPage();
    const runs = [textLine(image, 'Spring Rolls ........ 4,90', 100, 200)];
    const { deps, read, drawn } = fakes(image, [word('Suppen', 0)]);
    expect(await readDrawnLines(new Uint8Array(), 1, pageText(runs), deps, options)).toEqual([]);
    expect(drawn).toEqual([SEARCH_PIXELS]);
    expect(read).toEqual([]);
  });

  it('reads nothing where this runtime cannot draw or read pages', async () => {
    const { image, text } = menuPage();
    const { deps } = fakes(image, [word('Suppen', 0)]);
    expect(
      await readDrawnLines(new Uint8Array(), 1, text, { ...deps, recognizer: undefined }, options),
    ).toEqual([]);
    expect(
      await readDrawnLines(new Uint8Array(), 1, text, { ...deps, rasterizer: undefined }, options),
    ).toEqual([]);
  });
});

describe('a drawn line in the draft', () => {
  it('heads the written dishes under it on a text page, though set no larger than they are', () => {
    const page = { page: 1, width: 612, height: 792, method: 'text' as const };
    const runs = [
      aRun('Suppen', 40, 80, { size: 11, confidence: 0.96 }),
      aRun('Wantan-Suppe', 40, 100, { size: 11 }),
      aRightAligned('5,90', 300, 100, { size: 11 }),
      aRun('Asia-Suppe', 40, 115, { size: 11 }),
      aRightAligned('5,90', 300, 115, { size: 11 }),
      aRun('Salate', 40, 140, { size: 11, confidence: 0.93 }),
      aRun('Gemischter Salat', 40, 160, { size: 11 }),
      aRightAligned('5,90', 300, 160, { size: 11 }),
    ];
    const { items } = draftMenu(rebuildLines(runs), {
      source: 'menu.pdf',
      sourceIndex: 0,
      currency: 'EUR',
      pages: [page],
    });
    expect(items.map((i) => `${i.categoryPath.join(' > ')} / ${i.name}`)).toEqual([
      'Suppen / Wantan-Suppe',
      'Suppen / Asia-Suppe',
      'Salate / Gemischter Salat',
    ]);
  });
});
