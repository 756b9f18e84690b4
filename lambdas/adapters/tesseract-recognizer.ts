import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { imageSize } from 'image-size';
import type Tesseract from 'tesseract.js';
import {
  type GrayImage,
  OcrError,
  type OcrPage,
  type OcrWord,
  type PageOrientation,
  type QuarterTurns,
  type TextRecognizer,
  toPgm,
} from '../core/catalog';
import { within } from './ocr-time-limit';
import type { LineReader, RecognisedChar, RecognisedLine } from './paddle/line-recognition';
import { shareWork } from './shared-work';

type TesseractModule = typeof Tesseract;

/** The Tesseract builds tesseract.js 7 loads in Node (one of them, by what the CPU supports). */
const CORE_BUILDS = ['tesseract-core', 'tesseract-core-simd', 'tesseract-core-relaxedsimd'] as const;
type Worker = Tesseract.Worker;

export interface TesseractRecognizerOptions {
  /**
   * Directory whose node_modules hold tesseract.js and @tesseract.js-data/* (the project root locally,
   * the function's root in Lambda). Language data is read from there: nothing is downloaded at run time.
   */
  readonly moduleRoot: string;
}

/**
 * Line reading shares a page's stacks of lines (STACK_LINES) with a second worker (a thread of its own, on
 * the second vCPU): Tesseract reads one line at a time, and a page of 100 lines takes it seconds. The second
 * worker is started on the first page of more than one stack and kept, like the first, for the language.
 */
const LINE_READERS = Math.max(1, Math.min(2, availableParallelism()));
/**
 * Lines stacked into one page for Tesseract: a page's lines are read in stacks of this many, whatever the
 * number of workers, so a line reads the same on any machine (Tesseract adapts to the page it is given: its
 * threshold and line fitting depend on the other lines of the stack).
 */
const STACK_LINES = 24;

const asOcrError = (error: unknown, what: string): OcrError =>
  error instanceof OcrError
    ? error
    : new OcrError(typeof error === 'string' ? error : what, 'unreadable', { cause: error });

/**
 * OCR with tesseract.js (Tesseract compiled to WebAssembly, in a worker thread) and the LSTM language data
 * of the `@tesseract.js-data/<lang>` packages. One worker is kept for consecutive pages in one language and
 * is terminated by `release()`, or at once when a page overruns its time limit, which also frees its memory.
 * Orientation detection (OSD, `@tesseract.js-data/osd`, Tesseract's legacy engine) has a worker of its own,
 * started only for a page whose read found almost nothing.
 */
export class TesseractRecognizer implements TextRecognizer, LineReader {
  private worker: { language: string; ready: Promise<Worker> } | undefined;
  /** The second line reader (LINE_READERS), set to read uniform blocks (PSM 6) for good. */
  private lineHelper: { language: string; ready: Promise<Worker | undefined> } | undefined;
  private osd: Promise<Worker | undefined> | undefined;
  private readonly require: NodeJS.Require;

  constructor(options: TesseractRecognizerOptions) {
    this.require = createRequire(join(options.moduleRoot, 'package.json'));
  }

  /** The directory holding `<lang>.traineddata.gz` (the integer LSTM models: small and fast). */
  languageDataPath(language: string): string {
    const pkg = this.require.resolve(`@tesseract.js-data/${language}/package.json`);
    return join(dirname(pkg), '4.0.0_best_int');
  }

  async recognize(
    image: Uint8Array,
    options: { languages: readonly string[]; timeoutMs: number },
  ): Promise<OcrPage> {
    // One worker reads one language directory; the first language is the job's own.
    const language = options.languages[0] ?? 'eng';
    const worker = await this.workerFor(language);
    try {
      const result = await within(
        worker.recognize(Buffer.from(image), { rotateAuto: true }, { blocks: true, text: false }),
        options.timeoutMs,
      );
      return toPage(result.data, dimensions(image));
    } catch (error) {
      // A worker that overran or failed is not reused: terminating it stops the work and frees its memory.
      await this.release();
      throw asOcrError(error, 'the image could not be decoded');
    }
  }

  /**
   * Reads line images found by another engine's text detection (paddle-recognizer.ts): stacked into pages,
   * STACK_LINES lines a page, one line per row with white space between, each page read as one uniform block
   * of text (PSM 6) in one call; with a second vCPU two workers read them, each taking the next page as it
   * finishes one (a helper that fails leaves its page to the first worker). Each line's letters come back
   * with their position along it.
   */
  async read(
    lines: readonly GrayImage[],
    options: { languages: readonly string[]; timeoutMs: number },
  ): Promise<RecognisedLine[]> {
    if (lines.length === 0) return [];
    const started = Date.now();
    const language = options.languages[0] ?? 'eng';
    const worker = await this.workerFor(language);
    const tesseract = await this.load();
    // Pages of at most STACK_MAX_HEIGHT: Tesseract refuses images over 32,767 pixels high.
    const groups = inStacksOf(lines, STACK_LINES).flatMap(stackGroups);
    const helper = groups.length > 1 ? this.helperFor(language) : undefined;
    const read: RecognisedLine[][] = new Array(groups.length);
    const readWith =
      (reader: Worker) =>
      async (i: number): Promise<void> => {
        const group = groups[i]!;
        const strip = stackLines(group);
        const result = await within(
          reader.recognize(Buffer.from(toPgm(strip.image)), {}, { blocks: true, text: false }),
          options.timeoutMs - (Date.now() - started),
        );
        read[i] = strip.assign(result.data, group);
      };
    try {
      await worker.setParameters({ tessedit_pageseg_mode: tesseract.PSM.SINGLE_BLOCK });
      await shareWork(
        groups.map((_, i) => i),
        readWith(worker),
        helper?.then((second) => (second ? readWith(second) : undefined)),
        { helperFailed: () => this.releaseHelper() },
      );
      await worker.setParameters({ tessedit_pageseg_mode: tesseract.PSM.SPARSE_TEXT });
      return read.flat();
    } catch (error) {
      await this.release();
      throw asOcrError(error, 'the lines could not be read');
    }
  }

  async detectOrientation(
    image: Uint8Array,
    options: { timeoutMs: number },
  ): Promise<PageOrientation | undefined> {
    this.osd ??= this.startOsd().catch(() => undefined);
    const worker = await this.osd;
    if (!worker) return undefined;
    try {
      const { data } = await within(worker.detect(Buffer.from(image)), options.timeoutMs);
      const degrees = data.orientation_degrees;
      if (degrees === null || data.orientation_confidence === null) return undefined;
      // OSD names how far the text is turned anticlockwise: turning it that far clockwise puts it upright.
      return {
        quarterTurns: (((Math.round(degrees / 90) % 4) + 4) % 4) as QuarterTurns,
        confidence: data.orientation_confidence,
      };
    } catch (error) {
      await this.releaseOsd();
      throw asOcrError(error, 'the orientation could not be detected');
    }
  }

  async release(): Promise<void> {
    const current = this.worker;
    this.worker = undefined;
    await Promise.all([
      current && (await current.ready.catch(() => undefined))?.terminate().catch(() => undefined),
      this.releaseHelper(),
      this.releaseOsd(),
    ]);
  }

  private async releaseHelper(): Promise<void> {
    const helper = this.lineHelper;
    this.lineHelper = undefined;
    if (helper) await (await helper.ready)?.terminate().catch(() => undefined);
  }

  /** The second line reader for `language`, started on first use; undefined with one vCPU or if it cannot start. */
  private helperFor(language: string): Promise<Worker | undefined> | undefined {
    if (LINE_READERS < 2) return undefined;
    if (this.lineHelper?.language !== language) {
      void this.releaseHelper();
      const ready: Promise<Worker | undefined> = this.start(language)
        .then(async (worker) => {
          try {
            const tesseract = await this.load();
            await worker.setParameters({ tessedit_pageseg_mode: tesseract.PSM.SINGLE_BLOCK });
            return worker;
          } catch (error) {
            await worker.terminate().catch(() => undefined);
            throw error;
          }
        })
        .catch(() => {
          // Tried again on the next page; meanwhile the first worker reads every line.
          if (this.lineHelper?.ready === ready) this.lineHelper = undefined;
          return undefined;
        });
      this.lineHelper = { language, ready };
    }
    return this.lineHelper.ready;
  }

  private async releaseOsd(): Promise<void> {
    const osd = this.osd;
    this.osd = undefined;
    if (osd) await (await osd)?.terminate().catch(() => undefined);
  }

  private async workerFor(language: string): Promise<Worker> {
    if (this.worker?.language !== language) {
      await this.release();
      this.worker = { language, ready: this.start(language) };
    }
    try {
      return await this.worker.ready;
    } catch (error) {
      this.worker = undefined;
      throw new OcrError(`the OCR engine could not start for ${language}`, 'unavailable', { cause: error });
    }
  }

  /** The OSD worker, or undefined when the orientation data is not installed (nothing is downloaded). */
  private async startOsd(): Promise<Worker | undefined> {
    let dataPath: string;
    try {
      dataPath = this.languageDataPath('osd');
      this.require.resolve(join(dataPath, 'osd.traineddata.gz'));
    } catch {
      return undefined;
    }
    const tesseract = await this.load();
    // OSD is part of Tesseract's legacy engine, which the Node builds tesseract.js loads include.
    const worker = await tesseract.createWorker('osd', tesseract.OEM.TESSERACT_ONLY, {
      langPath: dataPath,
      gzip: true,
      cacheMethod: 'none',
      legacyCore: true,
      legacyLang: true,
      errorHandler: () => undefined,
    });
    (worker as Worker & { worker?: NodeJS.EventEmitter }).worker?.on?.('error', () => undefined);
    return worker;
  }

  private async load(): Promise<TesseractModule> {
    // A module missing in the worker thread is an 'error' event nobody listens to (it would end the
    // process): check what the worker will load before starting it.
    for (const core of CORE_BUILDS) this.require.resolve(`tesseract.js-core/${core}`);
    const loaded = (await import('tesseract.js')) as TesseractModule & { default?: TesseractModule };
    return loaded.default ?? loaded;
  }

  private async start(language: string): Promise<Worker> {
    this.require.resolve(join(this.languageDataPath(language), `${language}.traineddata.gz`));
    const tesseract = await this.load();
    const worker = await tesseract.createWorker(language, tesseract.OEM.LSTM_ONLY, {
      langPath: this.languageDataPath(language),
      gzip: true,
      // Read the data where it is; never write a cache (Lambda's code directory is read-only).
      cacheMethod: 'none',
      // Without a handler tesseract.js throws from its message listener, which would end the process.
      errorHandler: () => undefined,
    });
    // Later failures of the thread (a crash in the WebAssembly code) are logged by the rejected job instead.
    (worker as Worker & { worker?: NodeJS.EventEmitter }).worker?.on?.('error', () => undefined);
    await worker.setParameters({
      tessedit_pageseg_mode: tesseract.PSM.SPARSE_TEXT,
      preserve_interword_spaces: '1',
    });
    return worker;
  }
}

const dimensions = (image: Uint8Array): { width: number; height: number } | undefined => {
  try {
    const size = imageSize(image);
    return size.width && size.height ? { width: size.width, height: size.height } : undefined;
  } catch {
    return undefined;
  }
};

const toPage = (data: Tesseract.Page, size: { width: number; height: number } | undefined): OcrPage => {
  const words: OcrWord[] = [];
  let width = 0;
  let height = 0;
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const rowHeight = line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0;
        for (const word of line.words) {
          width = Math.max(width, word.bbox.x1);
          height = Math.max(height, word.bbox.y1);
          words.push({
            text: word.text,
            x: word.bbox.x0,
            y: line.bbox.y0,
            width: word.bbox.x1 - word.bbox.x0,
            height: line.bbox.y1 - line.bbox.y0,
            confidence: Math.max(0, Math.min(1, word.confidence / 100)),
            lineHeight: rowHeight,
          });
        }
      }
    }
  }
  return { width: size?.width ?? width, height: size?.height ?? height, words };
};

/** White space around and between stacked lines (pixels): Tesseract needs a margin to find a line. */
const STACK_MARGIN = 16;

/** Height of one stacked page: well under Tesseract's limit, and a few seconds' reading each. */
const STACK_MAX_HEIGHT = 8_000;

/**
 * The lines in runs of consecutive lines, `size` at most, as even in count as they can be (100 lines in
 * stacks of 24: 20, 20, 20, 20, 20; not four of 24 and one of 4).
 */
export const inStacksOf = (lines: readonly GrayImage[], size: number): GrayImage[][] => {
  const count = Math.ceil(lines.length / Math.max(1, size));
  const runs: GrayImage[][] = [];
  for (let n = 0; n < count; n++)
    runs.push(
      lines.slice(Math.round((n * lines.length) / count), Math.round(((n + 1) * lines.length) / count)),
    );
  return runs;
};

/** Consecutive lines in groups whose stacked page stays within STACK_MAX_HEIGHT. */
const stackGroups = (lines: readonly GrayImage[]): GrayImage[][] => {
  const groups: GrayImage[][] = [];
  let current: GrayImage[] = [];
  let height = STACK_MARGIN;
  for (const line of lines) {
    if (current.length > 0 && height + line.height + STACK_MARGIN > STACK_MAX_HEIGHT) {
      groups.push(current);
      current = [];
      height = STACK_MARGIN;
    }
    current.push(line);
    height += line.height + STACK_MARGIN;
  }
  if (current.length > 0) groups.push(current);
  return groups;
};

/** Line images one under the other on white, and how to give each read word back to its line. */
const stackLines = (
  lines: readonly GrayImage[],
): {
  image: GrayImage;
  assign: (page: Tesseract.Page, lines: readonly GrayImage[]) => RecognisedLine[];
} => {
  const rowHeight = Math.max(...lines.map((l) => l.height)) + STACK_MARGIN;
  const width = Math.max(...lines.map((l) => l.width)) + 2 * STACK_MARGIN;
  const height = lines.length * rowHeight + STACK_MARGIN;
  const pixels = new Uint8Array(width * height).fill(255);
  lines.forEach((line, i) => {
    const top = STACK_MARGIN + i * rowHeight;
    for (let y = 0; y < line.height; y++)
      pixels.set(
        line.pixels.subarray(y * line.width, (y + 1) * line.width),
        (top + y) * width + STACK_MARGIN,
      );
  });
  const assign = (page: Tesseract.Page, all: readonly GrayImage[]): RecognisedLine[] => {
    const chars: RecognisedChar[][] = all.map(() => []);
    for (const block of page.blocks ?? [])
      for (const paragraph of block.paragraphs)
        for (const line of paragraph.lines)
          for (const word of line.words) {
            const middle = (word.bbox.y0 + word.bbox.y1) / 2;
            const row = Math.floor((middle - STACK_MARGIN / 2) / rowHeight);
            const target = chars[row];
            const image = all[row];
            if (!target || !image) continue;
            if (target.length > 0) target.push({ char: ' ', at: target.at(-1)!.at, probability: 1 });
            const probability = Math.max(0, Math.min(1, word.confidence / 100));
            for (const symbol of word.symbols ?? []) {
              const at = ((symbol.bbox.x0 + symbol.bbox.x1) / 2 - STACK_MARGIN) / image.width;
              target.push({ char: symbol.text, at: Math.max(0, Math.min(1, at)), probability });
            }
          }
    return chars.map((c) => ({ chars: c }));
  };
  return { image: { width, height, pixels }, assign };
};
