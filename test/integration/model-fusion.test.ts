import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fusedSession, fuseModel } from '../../lambdas/adapters/paddle/model-fusion';
import { writeFields } from '../../lambdas/adapters/paddle/protobuf-wire';
import {
  constant,
  floatAttribute,
  largestDifference,
  message,
  node,
  noise,
  OCR_ASSETS,
  opCounts,
  run,
  text,
  valueInfo,
  varint,
} from '../fixtures/onnx-models';

// PaddleOCR's models with their hard-swish activations and affine blocks fused (issue 23: seconds per page):
// the same outputs as the models as shipped, run by ONNX Runtime.
jest.setTimeout(60_000);

describe('the shipped PaddleOCR models', () => {
  it('recogniser: every hard-swish and affine block fused, the same character probabilities', async () => {
    const original = new Uint8Array(readFileSync(join(OCR_ASSETS, 'ch_PP-OCRv4_rec_infer.onnx')));
    const fused = fuseModel(original);
    expect(fused.hardSwish).toBeGreaterThan(20);
    expect(fused.affine).toBeGreaterThan(20);
    expect(fused.inputAffine).toBeGreaterThan(20);
    // What is left of the element-wise spelling: no Clip (each was a hard-swish's).
    expect(opCounts(original).Clip).toBe(fused.hardSwish);
    expect(opCounts(fused.bytes).Clip).toBeUndefined();
    const dims = [1, 3, 48, 320];
    const input = noise(3 * 48 * 320, 7);
    const before = await run(original, input, dims);
    const after = await run(fused.bytes, input, dims);
    expect(largestDifference(before, after)).toBeLessThan(1e-4);
  });

  it('detector: fused, the same text probability map', async () => {
    const original = new Uint8Array(readFileSync(join(OCR_ASSETS, 'ch_PP-OCRv4_det_infer.onnx')));
    const fused = fuseModel(original);
    expect(fused.hardSwish).toBeGreaterThan(10);
    expect(fused.inputAffine).toBeGreaterThan(10);
    expect(fused.bytes).not.toBe(original);
    const dims = [1, 3, 256, 320];
    const input = noise(3 * 256 * 320, 11);
    expect(
      largestDifference(await run(original, input, dims), await run(fused.bytes, input, dims)),
    ).toBeLessThan(1e-4);
  });
});

// A small model written here: x → Conv → Mul(scale) → Add(shift) → hard-swish (→ y), in the shapes Paddle2ONNX
// writes, with variations that must not be fused.
interface Variation {
  /** The convolution's output is also a graph output (read twice: its value must stay). */
  readonly convOutputRead?: boolean;
  /** The Clip's bounds (0 and 6 for a hard-swish). */
  readonly clipMax?: number;
  /** Clip's bounds as attributes (opset 9, the recogniser) or as inputs (opset 11, the detector). */
  readonly opset: 9 | 11;
}

const smallModel = ({ convOutputRead = false, clipMax = 6, opset }: Variation): Uint8Array => {
  const clip =
    opset === 9
      ? node('Clip', ['a3'], ['c'], [floatAttribute('min', 0), floatAttribute('max', clipMax)])
      : node('Clip', ['a3', 'zero', 'top'], ['c']);
  const graph = [
    constant('w', [3, 2, 3, 3], Array.from(noise(54, 3))),
    constant('b', [3], [0.1, -0.2, 0.3]),
    constant('scale', [1], [1.7]),
    constant('shift', [1], [-0.4]),
    constant('three', [], [3]),
    constant('six', [1], [6]),
    constant('zero', [], [0]),
    constant('top', [], [clipMax]),
    node(
      'Conv',
      ['x', 'w', 'b'],
      ['conv'],
      [message(5, [text(1, 'pads'), ...[1, 1, 1, 1].map((p) => varint(8, p)), varint(20, 7)])],
    ),
    node('Mul', ['scale', 'conv'], ['scaled']),
    node('Add', ['scaled', 'shift'], ['shifted']),
    node('Add', ['shifted', 'three'], ['a3']),
    clip,
    node('Mul', ['shifted', 'c'], ['m']),
    node('Div', ['m', 'six'], ['y']),
    text(2, 'small'),
    valueInfo(11, 'x', [1, 2, 5, 5]),
    valueInfo(12, 'y', [1, 3, 5, 5]),
    ...(convOutputRead ? [valueInfo(12, 'conv', [1, 3, 5, 5])] : []),
  ];
  return writeFields([varint(1, 7), message(8, [text(1, ''), varint(2, opset)]), message(7, graph)]);
};

describe('fuseModel on a small model', () => {
  const input = noise(50, 5).map((v) => v * 4);

  it.each([9, 11] as const)(
    'opset %i: folds the affine block and the hard-swish, same output',
    async (opset) => {
      const model = smallModel({ opset });
      const fused = fuseModel(model);
      expect(fused).toMatchObject({ affine: 1, hardSwish: 1, inputAffine: 0 });
      expect(opCounts(fused.bytes)).toEqual({ Constant: 2, Conv: 1, HardSigmoid: 1, Mul: 1 });
      const before = await run(model, input, [1, 2, 5, 5]);
      expect(before.some((v) => v < 0) && before.some((v) => v > 3)).toBe(true);
      expect(largestDifference(before, await run(fused.bytes, input, [1, 2, 5, 5]))).toBeLessThan(1e-5);
    },
  );

  it('keeps a convolution whose output is read elsewhere as it is', async () => {
    const model = smallModel({ opset: 11, convOutputRead: true });
    const fused = fuseModel(model);
    expect(fused.affine).toBe(0);
    expect(fused.hardSwish).toBe(1);
    expect(
      largestDifference(await run(model, input, [1, 2, 5, 5]), await run(fused.bytes, input, [1, 2, 5, 5])),
    ).toBeLessThan(1e-5);
  });

  it('keeps a clip that is no hard-swish (bounds 0…5) as it is', () => {
    const fused = fuseModel(smallModel({ opset: 9, clipMax: 5 }));
    expect(fused).toMatchObject({ affine: 1, hardSwish: 0 });
    expect(opCounts(fused.bytes).Clip).toBe(1);
  });

  it('returns bytes that are no model unchanged', () => {
    const bytes = new TextEncoder().encode('%PDF-1.7 not a model at all');
    expect(fuseModel(bytes)).toEqual({ bytes, affine: 0, hardSwish: 0, inputAffine: 0 });
    const truncated = smallModel({ opset: 9 }).subarray(0, 200);
    expect(fuseModel(truncated).bytes).toBe(truncated);
  });
});

// x → Relu → Mul(scale) → Add(shift) → Conv 1 × 1 → Relu → Mul(scale) → Add(shift) → Conv 3 × 3 padded (→ y):
// PP-LCNetV3's affine blocks after an activation, each read by a convolution.
const affineBeforeModel = ({ shiftRead = false }: { shiftRead?: boolean } = {}): Uint8Array => {
  const pads = (p: number) =>
    message(5, [text(1, 'pads'), ...[p, p, p, p].map((v) => varint(8, v)), varint(20, 7)]);
  const graph = [
    constant('w1', [3, 2, 1, 1], Array.from(noise(6, 13))),
    constant('b1', [3], [0.2, -0.1, 0.05]),
    constant('w2', [3, 1, 3, 3], Array.from(noise(27, 17))),
    constant('b2', [3], [-0.3, 0.4, 0.1]),
    constant('scale1', [1], [0.6]),
    constant('shift1', [1], [-0.25]),
    constant('scale2', [1], [1.9]),
    constant('shift2', [], [0.7]),
    node('Relu', ['x'], ['r1']),
    node('Mul', ['r1', 'scale1'], ['m1']),
    node('Add', ['shift1', 'm1'], ['a1']),
    node('Conv', ['a1', 'w1', 'b1'], ['c1'], [pads(0)]),
    node('Relu', ['c1'], ['r2']),
    node('Mul', ['scale2', 'r2'], ['m2']),
    node('Add', ['m2', 'shift2'], ['a2']),
    node(
      'Conv',
      ['a2', 'w2', 'b2'],
      ['y'],
      [pads(1), message(5, [text(1, 'group'), varint(3, 3), varint(20, 2)])],
    ),
    text(2, 'affine before'),
    valueInfo(11, 'x', [1, 2, 5, 5]),
    valueInfo(12, 'y', [1, 3, 5, 5]),
    ...(shiftRead ? [valueInfo(12, 'a1', [1, 2, 5, 5])] : []),
  ];
  return writeFields([varint(1, 7), message(8, [text(1, ''), varint(2, 11)]), message(7, graph)]);
};

describe('fuseModel: affine blocks folded into the convolution reading them', () => {
  const input = noise(50, 9).map((v) => v * 3);

  it('folds scale and shift into a 1 × 1 convolution, and the scale into a padded one (its shift stays)', async () => {
    const model = affineBeforeModel();
    const fused = fuseModel(model);
    expect(fused).toMatchObject({ inputAffine: 2, affine: 0, hardSwish: 0 });
    // The padded convolution keeps an Add of shift / scale before it: its padding must stay the block's zeros.
    expect(opCounts(fused.bytes)).toEqual({ Constant: 5, Relu: 2, Conv: 2, Add: 1 });
    const before = await run(model, input, [1, 2, 5, 5]);
    expect(largestDifference(before, await run(fused.bytes, input, [1, 2, 5, 5]))).toBeLessThan(1e-5);
  });

  it('keeps a block whose value is read elsewhere as it is', async () => {
    const model = affineBeforeModel({ shiftRead: true });
    const fused = fuseModel(model);
    expect(fused.inputAffine).toBe(1);
    expect(opCounts(fused.bytes)).toMatchObject({ Mul: 1, Add: 2 });
    const [before, after] = [
      await run(model, input, [1, 2, 5, 5]),
      await run(fused.bytes, input, [1, 2, 5, 5]),
    ];
    expect(largestDifference(before, after)).toBeLessThan(1e-5);
  });
});

describe('fusedSession', () => {
  it('runs the fused model, and the model as shipped when the runtime refuses the fused one', async () => {
    const model = smallModel({ opset: 11 });
    const taken: Uint8Array[] = [];
    const fused = await fusedSession(model, async (bytes) => {
      taken.push(bytes);
      return 'session';
    });
    expect(fused.model).not.toBe(model);
    expect(opCounts(fused.model).HardSigmoid).toBe(1);
    const refused = await fusedSession(model, async (bytes) => {
      if (bytes !== model) throw new Error('invalid model');
      return 'session';
    });
    expect(refused).toEqual({ session: 'session', model });
    expect(taken).toHaveLength(1);
  });

  it('runs the further rewritten model, and the fused one when the runtime refuses that', async () => {
    const model = smallModel({ opset: 9 });
    const further = new TextEncoder().encode('a further rewritten model');
    const taken = await fusedSession(
      model,
      async () => 'session',
      () => further,
    );
    expect(taken.model).toBe(further);
    const refused = await fusedSession(
      model,
      async (bytes) => {
        if (bytes === further) throw new Error('invalid model');
        return 'session';
      },
      () => further,
    );
    expect(refused.model).not.toBe(further);
    expect(refused.model).not.toBe(model);
    expect(opCounts(refused.model).HardSigmoid).toBe(1);
  });

  it('fails only when the model as shipped fails, and tries a model with nothing to fuse once', async () => {
    const bytes = new TextEncoder().encode('not a model');
    const create = jest.fn(async () => {
      throw new Error('no model');
    });
    await expect(fusedSession(bytes, create)).rejects.toThrow('no model');
    expect(create).toHaveBeenCalledTimes(1);
  });
});
