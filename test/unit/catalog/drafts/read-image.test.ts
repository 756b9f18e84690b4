import type {
  DecodedImage,
  GrayImage,
  ImageDecoder,
  OcrPage,
  PageOrientation,
  QuarterTurns,
  TextRecognizer,
} from '../../../../lambdas/core/catalog';
import { FIRST_READ_PIXELS } from '../../../../lambdas/core/catalog/drafts/page-image';
import { OcrError } from '../../../../lambdas/core/catalog/drafts/ports';
import { readPageImage } from '../../../../lambdas/core/catalog/drafts/read-image';

type Render = { scale: number; quarterTurns: QuarterTurns; degrees: number };

/**
 * A decoded photo of `width` × `height` (as shown). Its renders are blank pages whose first pixel carries
 * the quarter turns asked for, so that the recognizer below can tell which way it was handed the page.
 */
const picture = (width: number, height: number): DecodedImage & { renders: Render[]; closed: boolean } => {
  const decoded = {
    width,
    height,
    pages: 1,
    renders: [] as Render[],
    closed: false,
    async render(options: Render): Promise<GrayImage> {
      decoded.renders.push(options);
      const sideways = options.quarterTurns % 2 === 1;
      const w = Math.round((sideways ? height : width) * options.scale);
      const h = Math.round((sideways ? width : height) * options.scale);
      const pixels = new Uint8Array(w * h).fill(255);
      pixels[0] = options.quarterTurns;
      return { width: w, height: h, pixels };
    },
    close() {
      decoded.closed = true;
    },
  };
  return decoded;
};

const decoderOf = (decoded: DecodedImage | undefined): ImageDecoder & { formats: string[] } => {
  const decoder = {
    formats: [] as string[],
    async decode(_image: Uint8Array, format: string) {
      decoder.formats.push(format);
      return decoded;
    },
  };
  return decoder;
};

/** The size and the turn marker of a PGM the reader hands the OCR. */
const pgmOf = (image: Uint8Array) => {
  const text = Buffer.from(image.subarray(0, 40)).toString('latin1');
  const match = /^P5\n(\d+) (\d+)\n255\n/.exec(text)!;
  return { width: Number(match[1]), height: Number(match[2]), turns: image[match[0].length]! };
};

const lines = (count: number, confidence: number, lineHeight = 30): OcrPage => ({
  width: 1000,
  height: 1000,
  words: Array.from({ length: count }, (_, i) => ({
    text: `Tiramisu${i}`,
    x: 10,
    y: i * 45,
    width: 120,
    height: lineHeight,
    confidence,
    lineHeight,
  })),
});

/** An OCR that reads the page well only when it is handed it turned `upright` quarter turns. */
const recognizerFor = (upright: QuarterTurns, orientation?: PageOrientation) => {
  const recognizer = {
    reads: [] as { width: number; height: number; turns: number }[],
    detections: 0,
    async recognize(image: Uint8Array) {
      const pgm = pgmOf(image);
      recognizer.reads.push(pgm);
      return pgm.turns === upright ? lines(20, 0.95) : lines(20, 0.3);
    },
    async detectOrientation() {
      recognizer.detections++;
      return orientation;
    },
    async release() {},
  } satisfies TextRecognizer & Record<string, unknown>;
  return recognizer;
};

const OPTIONS = { languages: ['eng'], timeoutMs: 60_000, maxOcrPixels: 16_000_000 };
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff]);

describe('readPageImage', () => {
  it('hands the OCR a 12 MP photo scaled down to the first read size, as shown, and closes it', async () => {
    const photo = picture(3024, 4032);
    const recognizer = recognizerFor(0);
    const read = await readPageImage(JPEG, 'jpeg', { decoder: decoderOf(photo), recognizer }, OPTIONS);
    expect(recognizer.reads).toHaveLength(1);
    const [first] = recognizer.reads;
    expect(first!.width * first!.height).toBeLessThanOrEqual(FIRST_READ_PIXELS * 1.001);
    expect(first!.height).toBeGreaterThan(first!.width);
    // The tilt is measured on a small copy, never on the full frame.
    expect(Math.max(...photo.renders.map((r) => r.scale))).toBeLessThan(1);
    expect(read.view).toMatchObject({ width: 3024, height: 4032, degrees: 0 });
    expect(read.view!.scale).toBeCloseTo(first!.width / 3024, 2);
    expect(recognizer.detections).toBe(0);
    expect(photo.closed).toBe(true);
  });

  it('turns a page read weakly the way orientation detection says, and keeps the better read', async () => {
    const photo = picture(2000, 1500);
    const recognizer = recognizerFor(1, { quarterTurns: 1, confidence: 9 });
    const read = await readPageImage(JPEG, 'jpeg', { decoder: decoderOf(photo), recognizer }, OPTIONS);
    expect(recognizer.detections).toBe(1);
    expect(recognizer.reads.map((r) => r.turns)).toEqual([0, 1]);
    expect(read.view?.degrees).toBe(90);
    expect(read.page.words[0]!.confidence).toBe(0.95);
  });

  it('tries every turn when orientation detection cannot tell, and stops at the one that reads', async () => {
    const photo = picture(2000, 1500);
    const recognizer = recognizerFor(3, undefined);
    const read = await readPageImage(JPEG, 'jpeg', { decoder: decoderOf(photo), recognizer }, OPTIONS);
    expect(recognizer.reads.map((r) => r.turns)).toEqual([0, 1, 3]);
    expect(read.view?.degrees).toBe(270);
  });

  it('keeps the upright read when the page is upright but thin (a short menu)', async () => {
    const photo = picture(2000, 1500);
    const recognizer = recognizerFor(0, { quarterTurns: 0, confidence: 12 });
    recognizer.recognize = async (image: Uint8Array) => {
      recognizer.reads.push(pgmOf(image));
      return lines(2, 0.95);
    };
    const read = await readPageImage(JPEG, 'jpeg', { decoder: decoderOf(photo), recognizer }, OPTIONS);
    expect(recognizer.detections).toBe(1);
    expect(recognizer.reads).toHaveLength(1);
    expect(read.view?.degrees).toBe(0);
  });

  it('refuses a HEIC photo where it cannot be decoded, saying to export it as JPEG', async () => {
    for (const decoder of [undefined, decoderOf(undefined)]) {
      const recognizer = recognizerFor(0);
      const failure = await readPageImage(Uint8Array.of(0), 'heic', { decoder, recognizer }, OPTIONS).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(OcrError);
      expect((failure as OcrError).reason).toBe('unavailable');
      expect((failure as OcrError).message).toMatch(/HEIC images cannot be decoded here: export .* as JPEG/);
      expect(recognizer.reads).toEqual([]);
    }
  });

  it('hands the bytes as they are when told no decoding is needed, decoder or not', async () => {
    const decoder = decoderOf(picture(1200, 1600));
    const recognizer = recognizerFor(0);
    recognizer.recognize = async () => lines(20, 0.95);
    const read = await readPageImage(JPEG, 'jpeg', { decoder, recognizer }, { ...OPTIONS, decode: false });
    expect(decoder.formats).toEqual([]);
    expect(read.view).toBeUndefined();
  });

  it('hands JPEG bytes to the OCR as they are where there is no decoder', async () => {
    const recognizer = {
      ...recognizerFor(0),
      images: [] as Uint8Array[],
      async recognize(image: Uint8Array) {
        recognizer.images.push(image);
        return lines(20, 0.95);
      },
    };
    const read = await readPageImage(JPEG, 'jpeg', { recognizer }, OPTIONS);
    expect(recognizer.images).toEqual([JPEG]);
    expect(read.view).toBeUndefined();
  });
});
