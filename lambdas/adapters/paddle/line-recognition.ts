import type { GrayImage } from '../../core/catalog';

/**
 * Reading line images with PaddleOCR's recognition model (PP-OCRv4 rec, SVTR-LCNet with a CTC head): the
 * model reads a line 48 px high and gives, for every 8 px column step, the probability of each character of
 * its dictionary (class 0 is CTC's blank, the last class a space). Greedy CTC decoding keeps the most likely
 * class of each step, drops blanks and repeats, and remembers the step of each character, which places the
 * words along the line.
 */

/** Height of the recogniser's input. */
export const LINE_HEIGHT = 48;

export interface RecognisedChar {
  readonly char: string;
  /** Position along the line image, 0–1 of its width (the centre of the step that emitted it). */
  readonly at: number;
  readonly probability: number;
}

export interface RecognisedLine {
  readonly chars: readonly RecognisedChar[];
}

/**
 * Reads the lines of a page; the default is Paddle's own recogniser. Another one (Tesseract in the job's
 * language, for letters Paddle's dictionary lacks) gets the same line images.
 */
export interface LineReader {
  read(
    lines: readonly GrayImage[],
    options: { languages: readonly string[]; timeoutMs: number },
  ): Promise<RecognisedLine[]>;
  release(): Promise<void>;
}

/** The model's input for a batch of lines of one height: padded to the widest, normalised to −1…1. */
export const recognitionBatch = (
  lines: readonly GrayImage[],
): { data: Float32Array; width: number; count: number } => {
  const width = Math.max(...lines.map((l) => l.width));
  const plane = LINE_HEIGHT * width;
  const data = new Float32Array(lines.length * 3 * plane);
  lines.forEach((line, n) => {
    const base = n * 3 * plane;
    for (let y = 0; y < LINE_HEIGHT; y++)
      for (let x = 0; x < width; x++) {
        // Padding is 0 after normalisation (mid gray), as PaddleOCR pads.
        const v = x < line.width ? line.pixels[y * line.width + x]! / 127.5 - 1 : 0;
        const i = base + y * width + x;
        data[i] = v;
        data[i + plane] = v;
        data[i + 2 * plane] = v;
      }
  });
  return { data, width, count: lines.length };
};

/**
 * Greedy CTC decoding of one line from the most likely class of each step (`best`, of `classes`: CTC's blank,
 * the dictionary, a space) and its probability, for a line `width` wide in an input `inputWidth` wide.
 */
export const decodeSteps = (
  best: ArrayLike<number>,
  probability: ArrayLike<number>,
  classes: number,
  dictionary: readonly string[],
  width: number,
  inputWidth: number,
): RecognisedLine => {
  const chars: RecognisedChar[] = [];
  const stepWidth = inputWidth / best.length;
  let previous = -1;
  for (let t = 0; t < best.length; t++) {
    const c = best[t]!;
    if (c !== 0 && c !== previous && (t + 0.5) * stepWidth <= width) {
      const char = c === classes - 1 ? ' ' : dictionary[c - 1];
      if (char !== undefined)
        chars.push({ char, at: ((t + 0.5) * stepWidth) / width, probability: probability[t]! });
    }
    previous = c;
  }
  return { chars };
};

/**
 * Greedy CTC decoding of the model's output (`steps` × `classes` per line, probabilities), for lines whose
 * unpadded widths were `widths` in a batch `batchWidth` wide.
 */
export const decodeLines = (
  output: Float32Array,
  dims: { readonly steps: number; readonly classes: number },
  dictionary: readonly string[],
  widths: readonly number[],
  batchWidth: number,
): RecognisedLine[] =>
  widths.map((width, n) => {
    const best = new Int32Array(dims.steps);
    const probability = new Float32Array(dims.steps);
    for (let t = 0; t < dims.steps; t++) {
      const base = (n * dims.steps + t) * dims.classes;
      let b = 0;
      let p = output[base]!;
      for (let c = 1; c < dims.classes; c++)
        if (output[base + c]! > p) {
          p = output[base + c]!;
          b = c;
        }
      best[t] = b;
      probability[t] = p;
    }
    return decodeSteps(best, probability, dims.classes, dictionary, width, batchWidth);
  });
