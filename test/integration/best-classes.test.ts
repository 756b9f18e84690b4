import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { BEST_CLASS, BEST_PROBABILITY, withBestClasses } from '../../lambdas/adapters/paddle/best-classes';
import {
  decodeLines,
  decodeSteps,
  LINE_HEIGHT,
  recognitionBatch,
} from '../../lambdas/adapters/paddle/line-recognition';
import { withOutputs } from '../../lambdas/adapters/paddle/onnx-graph';
import { noise, OCR_ASSETS, OPTIONS } from '../fixtures/onnx-models';
import { printedLine } from '../fixtures/printed-lines';

// The recogniser answering each step's best class and its probability (issue 23: seconds per page).
jest.setTimeout(60_000);

const shipped = new Uint8Array(readFileSync(join(OCR_ASSETS, 'ch_PP-OCRv4_rec_infer.onnx')));
const dictionary = readFileSync(join(OCR_ASSETS, 'ppocr_keys_v1.txt'), 'utf8').split('\n');
/** A printed line as the recogniser's input (−1…1, three channels). */
const printed = (words: string): { data: Float32Array; width: number } =>
  recognitionBatch([printedLine(words)]);

const runAll = async (
  model: Uint8Array,
  data: Float32Array,
  width: number,
): Promise<Record<string, ort.Tensor>> => {
  const session = await ort.InferenceSession.create(model, OPTIONS);
  try {
    const input = new ort.Tensor('float32', data.slice(), [1, 3, LINE_HEIGHT, width]);
    return { ...(await session.run({ [session.inputNames[0]!]: input })) };
  } finally {
    await session.release();
  }
};

describe('withBestClasses', () => {
  const model = withBestClasses(shipped);

  it("answers each step's most likely class and its probability, as the model's probabilities say", async () => {
    const inputs = [
      printed('Chicken Curry 12.50'),
      printed('Crème brûlée 7,50 €'),
      { data: noise(3 * LINE_HEIGHT * 160, 11), width: 160 },
    ];
    for (const { data, width } of inputs) {
      const all = await runAll(shipped, data, width);
      const best = await runAll(model, data, width);
      expect(Object.keys(best).sort()).toEqual([BEST_CLASS, BEST_PROBABILITY]);
      const probabilities = Object.values(all)[0]!;
      const [, steps, classes] = probabilities.dims as [number, number, number];
      expect(classes).toBe(dictionary.length + 2);
      const classOf = best[BEST_CLASS]!.data as Int32Array;
      const probabilityOf = best[BEST_PROBABILITY]!.data as Float32Array;
      expect(classOf).toBeInstanceOf(Int32Array);
      expect(classOf).toHaveLength(steps);
      const p = probabilities.data as Float32Array;
      for (let t = 0; t < steps; t++) {
        const row = p.subarray(t * classes, (t + 1) * classes);
        const largest = Math.max(...row);
        expect(row.indexOf(largest)).toBe(classOf[t]);
        expect(probabilityOf[t]).toBeCloseTo(largest, 6);
      }
      // The same line read either way.
      const [fromAll] = decodeLines(p, { steps, classes }, dictionary, [width], width);
      expect(decodeSteps(classOf, probabilityOf, classes, dictionary, width, width)).toEqual(fromAll);
    }
  });

  it('leaves a model of more than one output, or bytes that are not a model, as they are', () => {
    const twoOutputs = withOutputs(shipped, ['x']);
    expect(withBestClasses(twoOutputs)).toBe(twoOutputs);
    const notAModel = new Uint8Array([0xff, 0xff, 0xff]);
    expect(withBestClasses(notAModel)).toBe(notAModel);
  });
});
