import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { decodeLines, LINE_HEIGHT, recognitionBatch } from '../../lambdas/adapters/paddle/line-recognition';
import { fuseModel } from '../../lambdas/adapters/paddle/model-fusion';
import {
  type Calibration,
  modelDigest,
  quantizeModel,
} from '../../lambdas/adapters/paddle/model-quantization';
import { readGraph, withOutputs } from '../../lambdas/adapters/paddle/onnx-graph';
import { writeFields } from '../../lambdas/adapters/paddle/protobuf-wire';
import calibration from '../../lambdas/adapters/paddle/recognizer-calibration.json';
import type { GrayImage } from '../../lambdas/core/catalog';
import {
  constant,
  floatAttribute,
  largestDifference,
  message,
  node,
  noise,
  OCR_ASSETS,
  OPTIONS,
  opCounts,
  run,
  text,
  valueInfo,
  varint,
} from '../fixtures/onnx-models';
import { printedLine } from '../fixtures/printed-lines';

// The recogniser's pointwise convolutions in int8 (issue 23: seconds per page), over the ranges of the
// committed calibration (npm run calibrate:ocr).
jest.setTimeout(60_000);

// A small model: x → pointwise Conv → hard-swish → depthwise Conv → pointwise Conv → y.
const DIMS = [1, 4, 5, 5];
const smallModel = (): Uint8Array => {
  const pads = message(5, [text(1, 'pads'), ...[1, 1, 1, 1].map((p) => varint(8, p)), varint(20, 7)]);
  const group = message(5, [text(1, 'group'), varint(3, 6), varint(20, 2)]);
  const graph = [
    constant('w1', [6, 4, 1, 1], Array.from(noise(24, 3))),
    constant('b1', [6], [0.1, -0.2, 0.3, 0, 0.5, -0.6]),
    constant('wd', [6, 1, 3, 3], Array.from(noise(54, 4))),
    constant('w2', [3, 6, 1, 1], Array.from(noise(18, 5))),
    node('Conv', ['x', 'w1', 'b1'], ['p']),
    node('HardSigmoid', ['p'], ['g'], [floatAttribute('alpha', 1 / 6), floatAttribute('beta', 0.5)]),
    node('Mul', ['p', 'g'], ['h']),
    node('Conv', ['h', 'wd'], ['d'], [pads, group]),
    node('Conv', ['d', 'w2'], ['y']),
    text(2, 'small'),
    valueInfo(11, 'x', DIMS),
    valueInfo(12, 'y', [1, 3, 5, 5]),
  ];
  return writeFields([varint(1, 7), message(8, [text(1, ''), varint(2, 9)]), message(7, graph)]);
};

/** Every value of the small model, run in floats. */
const values = async (model: Uint8Array, input: Float32Array): Promise<Record<string, Float32Array>> => {
  const names = ['p', 'h', 'd', 'y'];
  const session = await ort.InferenceSession.create(withOutputs(model, names), OPTIONS);
  try {
    const out = await session.run({ x: new ort.Tensor('float32', input, DIMS) });
    return Object.fromEntries(names.map((n) => [n, out[n]!.data as Float32Array]));
  } finally {
    await session.release();
  }
};

const extremes = (data: Float32Array): [number, number] => [Math.min(...data), Math.max(...data)];

describe('quantizeModel on a small model', () => {
  const model = smallModel();
  const input = noise(100, 9).map((v) => v * 2);
  const calibrated = async (): Promise<Calibration> => {
    const v = await values(model, input);
    return {
      model: modelDigest(model),
      ranges: {
        x: extremes(input),
        p: extremes(v.p!),
        h: extremes(v.h!),
        d: extremes(v.d!),
        y: extremes(v.y!),
      },
    };
  };

  it('quantises the pointwise convolutions only, and computes about the same', async () => {
    const quantized = quantizeModel(model, await calibrated(), model);
    expect(quantized.convolutions).toBe(2);
    expect(opCounts(quantized.bytes)).toMatchObject({
      QLinearConv: 2,
      QuantizeLinear: 2,
      DequantizeLinear: 2,
      Conv: 1, // the depthwise one
      HardSigmoid: 1,
      Mul: 1,
    });
    const before = await run(model, input, DIMS);
    const after = await run(quantized.bytes, input, DIMS);
    const [low, high] = extremes(before);
    // A few steps of 8 bits of the output's range: the same function, rounded.
    expect(largestDifference(before, after)).toBeLessThan((4 * (high - low)) / 255);
    expect(largestDifference(before, after)).toBeGreaterThan(0);
  });

  it('quantises an output read by a hard-swish over −3 and up only (all below is 0 to it)', async () => {
    const ranges = { ...(await calibrated()).ranges, p: [-30, 10] as const };
    const quantized = quantizeModel(model, { model: modelDigest(model), ranges }, model);
    const scale = readGraph(quantized.bytes)!.constants.get('p/quantized/scale')!.values[0]!;
    expect(scale).toBeCloseTo(13 / 255, 6);
    // The depthwise convolution's input range was not needed: only pointwise convolutions have theirs read.
    expect(readGraph(quantized.bytes)!.constants.get('h/quantized/scale')).toBeUndefined();
  });

  it('leaves a convolution without ranges in floats', async () => {
    const { y: _, ...ranges } = (await calibrated()).ranges;
    const quantized = quantizeModel(model, { model: modelDigest(model), ranges }, model);
    expect(quantized.convolutions).toBe(1);
    expect(opCounts(quantized.bytes)).toMatchObject({ QLinearConv: 1, Conv: 2 });
  });

  it('leaves the model as it is when the ranges were measured on another model, or the bytes are no model', async () => {
    const ranges = await calibrated();
    const other = new Uint8Array([...model, 0]);
    expect(quantizeModel(model, { ...ranges, model: modelDigest(other) }, model)).toEqual({
      bytes: model,
      convolutions: 0,
    });
    const bytes = new TextEncoder().encode('not a model');
    expect(quantizeModel(bytes, { ...ranges, model: modelDigest(bytes) }, bytes).bytes).toBe(bytes);
  });
});

describe('the shipped recogniser with the committed calibration', () => {
  const shipped = new Uint8Array(readFileSync(join(OCR_ASSETS, 'ch_PP-OCRv4_rec_infer.onnx')));
  const dictionary = readFileSync(join(OCR_ASSETS, 'ppocr_keys_v1.txt'), 'utf8').split('\n');
  const read = async (model: Uint8Array, lines: GrayImage[]): Promise<string[]> => {
    const session = await ort.InferenceSession.create(model, OPTIONS);
    try {
      const out: string[] = [];
      for (const l of lines) {
        const batch = recognitionBatch([l]);
        const input = new ort.Tensor('float32', batch.data, [1, 3, LINE_HEIGHT, batch.width]);
        const result = (await session.run({ [session.inputNames[0]!]: input }))[session.outputNames[0]!]!;
        const [, steps, classes] = result.dims as [number, number, number];
        const [decoded] = decodeLines(
          result.data as Float32Array,
          { steps, classes },
          dictionary,
          [l.width],
          batch.width,
        );
        out.push(decoded!.chars.map((c) => c.char).join(''));
      }
      return out;
    } finally {
      await session.release();
    }
  };

  it('is the calibration of the installed model (run npm run calibrate:ocr after a model change)', () => {
    expect(calibration.model).toBe(modelDigest(shipped));
    const ranges = Object.values(calibration.ranges);
    expect(ranges.length).toBeGreaterThan(20);
    for (const range of ranges) {
      expect(range).toHaveLength(2);
      expect(range[0]).toBeLessThan(range[1]!);
    }
  });

  it('reads printed lines as the float model reads them', async () => {
    const fused = fuseModel(shipped).bytes;
    const quantized = quantizeModel(fused, calibration, shipped);
    expect(quantized.convolutions).toBeGreaterThan(15);
    // Depthwise convolutions stay in floats.
    expect(opCounts(quantized.bytes).Conv).toBeGreaterThan(10);
    const lines = [
      'Chicken Curry 12.50',
      'Pepperoni Pizza $14.95',
      'Fish and Chips 9.00',
      'Onion Rings 4.50',
    ].map(printedLine);
    const float = await read(fused, lines);
    const int8 = await read(quantized.bytes, lines);
    expect(float.map((t) => t.replace(/\s/g, ''))).toEqual([
      'ChickenCurry12.50',
      'PepperoniPizza$14.95',
      'FishandChips9.00',
      'OnionRings4.50',
    ]);
    // Spaces are the line image's to tell (paddle-recognizer.ts), not the recogniser's.
    expect(int8.map((t) => t.trim())).toEqual(float.map((t) => t.trim()));
  });
});
