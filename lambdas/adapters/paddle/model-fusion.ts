/**
 * PaddleOCR's models, as Paddle2ONNX exports them, spell out three things ONNX Runtime does not fuse (issue 23:
 * seconds per page; measured in its profile, a third of the recogniser's time):
 * - each hard-swish activation as four element-wise operations over the whole feature map (`Add 3`,
 *   `Clip 0…6`, `Mul`, `Div 6`), rewritten here as `HardSigmoid(α = 1/6, β = 1/2)` times its input — an
 *   operation ONNX Runtime runs inside the convolution before it;
 * - PP-LCNetV3's learnable affine blocks, a `Mul` and an `Add` of two scalars right after a convolution,
 *   folded into that convolution's weights and bias;
 * - the same blocks after an activation, read by the next convolution: folded into that convolution (its
 *   weights scaled; its bias shifted when it pads nothing, a 1 × 1 convolution, else an `Add` of one scalar
 *   stays before it). Two passes over the feature map fewer each (measured: 0.90 times the detector's time,
 *   about 0.95 times the int8 recogniser's).
 * The rewritten model computes the same function (to float rounding). Only nodes in exactly these shapes
 * change: every other node, and every field of the model this file does not name, is kept byte for byte (a
 * protobuf schema decoder would drop the fields its schema lacks, so the model is read at the wire level).
 * A model whose bytes are not as expected is returned unchanged.
 */

import {
  constantNode,
  type FloatTensor,
  floatAttribute,
  floatAttributeOf,
  intsAttributeOf,
  type Node,
  newNode,
  readGraph,
  rewired,
  stringAttributeOf,
} from './onnx-graph';

/** A fused model, and how many of each rewrite it took. */
export interface Fused {
  readonly bytes: Uint8Array;
  readonly hardSwish: number;
  /** Affine blocks folded into the convolution before them. */
  readonly affine: number;
  /** Affine blocks folded into the convolution after them (the one reading them). */
  readonly inputAffine: number;
}

/**
 * The model with its hard-swish activations and its scalar affine blocks fused (see above), and how many of
 * each; the bytes unchanged when nothing matched or the model could not be read.
 */
export const fuseModel = (bytes: Uint8Array): Fused => {
  try {
    return fuse(bytes);
  } catch {
    return { bytes, hardSwish: 0, affine: 0, inputAffine: 0 };
  }
};

const fuse = (bytes: Uint8Array): Fused => {
  const graph = readGraph(bytes);
  if (!graph) return { bytes, hardSwish: 0, affine: 0, inputAffine: 0 };
  const { constants, graphOutputs } = graph;
  const nodes: (Node | undefined)[] = [...graph.nodes];
  const scalar = (name: string | undefined): number | undefined => {
    const tensor = name === undefined ? undefined : constants.get(name);
    return tensor?.values.length === 1 ? tensor.values[0] : undefined;
  };
  /** The one node reading `name`, of type `op` (undefined if none, several, or `name` is a graph output). */
  const next = (name: string, op: string): { index: number; node: Node } | undefined => {
    const readers = graph.readers.get(name);
    const index = readers?.length === 1 && !graphOutputs.has(name) ? readers[0] : undefined;
    const node = index === undefined ? undefined : nodes[index];
    return index !== undefined && node?.op === op && node.outputs.length === 1 ? { index, node } : undefined;
  };
  const other = (node: Node, name: string): string | undefined =>
    node.inputs.length === 2 && node.inputs.includes(name)
      ? node.inputs[node.inputs[0] === name ? 1 : 0]
      : undefined;

  let affine = 0;
  let hardSwish = 0;
  let inputAffine = 0;
  /** Weights and biases written here, by name: a convolution may be folded into from both sides. */
  const folded = new Map<string, FloatTensor>();

  // Conv → Mul(scale) → Add(shift): the convolution with its weights scaled and its bias scaled and shifted.
  nodes.forEach((conv, i) => {
    if (conv?.op !== 'Conv' || conv.outputs.length !== 1 || conv.inputs.length < 2) return;
    const weights = constants.get(conv.inputs[1]!);
    const bias = conv.inputs[2] ? constants.get(conv.inputs[2]) : undefined;
    const channels = weights?.dims[0];
    if (!weights || channels === undefined || (conv.inputs[2] ? bias?.values.length !== channels : false))
      return;
    const mul = next(conv.outputs[0]!, 'Mul');
    const scale = mul && scalar(other(mul.node, conv.outputs[0]!));
    const add = mul && next(mul.node.outputs[0]!, 'Add');
    const shift = add && scalar(other(add.node, mul.node.outputs[0]!));
    if (scale === undefined || shift === undefined || !add || !mul) return;
    const name = `${conv.outputs[0]}/fused`;
    const scaled: FloatTensor = { dims: weights.dims, values: weights.values.map((w) => w * scale) };
    const shifted: FloatTensor = {
      dims: [channels],
      values: Float32Array.from({ length: channels }, (_, c) => (bias?.values[c] ?? 0) * scale + shift),
    };
    folded.set(`${name}.weights`, scaled);
    folded.set(`${name}.bias`, shifted);
    nodes[i] = rewired(conv, 'Conv', [conv.inputs[0]!, `${name}.weights`, `${name}.bias`], add.node.outputs);
    nodes[mul.index] = undefined;
    nodes[add.index] = undefined;
    affine++;
  });

  // Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6): HardSigmoid(x; 1/6, 1/2) → Mul(x, ·).
  nodes.forEach((add, i) => {
    if (add?.op !== 'Add' || add.outputs.length !== 1) return;
    const x = add.inputs.find((name) => scalar(name) !== 3);
    if (x === undefined || scalar(other(add, x)) !== 3) return;
    const clip = next(add.outputs[0]!, 'Clip');
    if (!clip || clip.node.inputs[0] !== add.outputs[0]) return;
    const bounds = clip.node.inputs;
    const low = bounds.length > 1 ? scalar(bounds[1]) : floatAttributeOf(clip.node, 'min');
    const high = bounds.length > 2 ? scalar(bounds[2]) : floatAttributeOf(clip.node, 'max');
    const mul = low === 0 && high === 6 ? next(clip.node.outputs[0]!, 'Mul') : undefined;
    if (!mul || other(mul.node, clip.node.outputs[0]!) !== x) return;
    const div = next(mul.node.outputs[0]!, 'Div');
    if (!div || div.node.inputs[0] !== mul.node.outputs[0] || scalar(div.node.inputs[1]) !== 6) return;
    const gate = `${div.node.outputs[0]}/hard_sigmoid`;
    nodes[i] = newNode('HardSigmoid', [x], [gate], {
      attributes: [floatAttribute('alpha', 1 / 6), floatAttribute('beta', 0.5)],
    });
    nodes[clip.index] = undefined;
    nodes[mul.index] = undefined;
    nodes[div.index] = rewired(div.node, 'Mul', [x, gate], div.node.outputs);
    hardSwish++;
  });
  // Mul(scale) → Add(shift) → Conv: an affine block after an activation, folded into the convolution that
  // reads it. Conv(W, c)(a·y + b) = Conv(a·W, c + b·ΣW)(y) where every output reads only the input (no
  // padding: a 1 × 1 convolution); with padding, the zeros it pads with must stay zeros of a·y + b, so only
  // the scale is folded: Conv(a·W, c)(y + b/a).
  nodes.forEach((mul, i) => {
    if (mul?.op !== 'Mul' || mul.outputs.length !== 1) return;
    const input = mul.inputs.find((name) => scalar(name) === undefined);
    const scale = input === undefined ? undefined : scalar(other(mul, input));
    const add = scale ? next(mul.outputs[0]!, 'Add') : undefined;
    const shift = add && scalar(other(add.node, mul.outputs[0]!));
    const conv = add && next(add.node.outputs[0]!, 'Conv');
    if (input === undefined || !scale || shift === undefined || !add || !conv) return;
    if (conv.node.inputs[0] !== add.node.outputs[0] || conv.node.inputs.length < 2) return;
    const weights = folded.get(conv.node.inputs[1]!) ?? constants.get(conv.node.inputs[1]!);
    const biasName = conv.node.inputs[2];
    const bias = biasName ? (folded.get(biasName) ?? constants.get(biasName)) : undefined;
    const channels = weights?.dims[0];
    if (!weights || channels === undefined || (biasName ? bias?.values.length !== channels : false)) return;
    const perChannel = weights.values.length / channels;
    const padded = (intsAttributeOf(conv.node, 'pads') ?? []).some((p) => p !== 0) || autoPadded(conv.node);
    const name = `${conv.node.outputs[0]}/input_folded`;
    const scaled: FloatTensor = { dims: weights.dims, values: weights.values.map((w) => w * scale) };
    const shifted: FloatTensor = {
      dims: [channels],
      values: Float32Array.from({ length: channels }, (_, c) => {
        let sum = 0;
        if (!padded) for (let k = 0; k < perChannel; k++) sum += weights.values[c * perChannel + k]!;
        return (bias?.values[c] ?? 0) + shift * sum;
      }),
    };
    folded.delete(conv.node.inputs[1]!);
    if (biasName) folded.delete(biasName);
    folded.set(`${name}.weights`, scaled);
    folded.set(`${name}.bias`, shifted);
    let convInput = input;
    if (padded) {
      folded.set(`${name}.shift`, { dims: [1], values: Float32Array.of(shift / scale) });
      nodes[add.index] = rewired(add.node, 'Add', [input, `${name}.shift`], add.node.outputs);
      convInput = add.node.outputs[0]!;
    } else nodes[add.index] = undefined;
    nodes[conv.index] = rewired(
      conv.node,
      'Conv',
      [convInput, `${name}.weights`, `${name}.bias`],
      conv.node.outputs,
    );
    nodes[i] = undefined;
    inputAffine++;
  });
  if (affine + hardSwish + inputAffine === 0) return { bytes, hardSwish, affine, inputAffine };

  const added = [...folded].map(([name, tensor]) => constantNode(name, tensor.dims, tensor.values));
  const kept = [...added, ...nodes].filter((node): node is Node => node !== undefined);
  return { bytes: graph.write(kept), hardSwish, affine, inputAffine };
};

/** Whether a convolution pads by `auto_pad` (SAME_UPPER, SAME_LOWER) rather than by its `pads`. */
const autoPadded = (conv: Node): boolean => {
  const mode = stringAttributeOf(conv, 'auto_pad') ?? 'NOTSET';
  return mode !== 'NOTSET' && mode !== 'VALID';
};

/** Fused models by the bytes they were made of: the same bytes (a model file read once) are fused once. */
const fusedModels = new WeakMap<Uint8Array, Uint8Array>();

/**
 * A session of the fused model (and `further` rewritten, as quantizeModel does), or of the next model back
 * when the runtime will not take one (a model version whose graph a rewrite misjudged): the rewritten model,
 * then the fused one, then the model as shipped. A rewrite may make OCR faster, never make it fail. Returns
 * the model the session runs (the recognition thread loads the same).
 */
export const fusedSession = async <Session>(
  bytes: Uint8Array,
  create: (model: Uint8Array) => Promise<Session>,
  further?: (fused: Uint8Array) => Uint8Array,
): Promise<{ session: Session; model: Uint8Array }> => {
  let fused = fusedModels.get(bytes);
  if (!fused) {
    fused = fuseModel(bytes).bytes;
    fusedModels.set(bytes, fused);
  }
  const candidates = [...new Set([further ? further(fused) : fused, fused])].filter((m) => m !== bytes);
  for (const model of candidates) {
    try {
      return { session: await create(model), model };
    } catch {
      // The next model back, below.
    }
  }
  return { session: await create(bytes), model: bytes };
};
