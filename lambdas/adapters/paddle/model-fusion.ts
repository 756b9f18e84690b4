/**
 * PaddleOCR's models, as Paddle2ONNX exports them, spell out two things ONNX Runtime does not fuse (issue 23:
 * seconds per page; measured in its profile, a third of the recogniser's time):
 * - each hard-swish activation as four element-wise operations over the whole feature map (`Add 3`,
 *   `Clip 0…6`, `Mul`, `Div 6`), rewritten here as `HardSigmoid(α = 1/6, β = 1/2)` times its input — an
 *   operation ONNX Runtime runs inside the convolution before it;
 * - PP-LCNetV3's learnable affine blocks, a `Mul` and an `Add` of two scalars right after a convolution,
 *   folded into that convolution's weights and bias.
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
  type Node,
  newNode,
  readGraph,
  rewired,
} from './onnx-graph';

/**
 * The model with its hard-swish activations and its convolutions' scalar affine blocks fused (see above),
 * and how many of each; the bytes unchanged when nothing matched or the model could not be read.
 */
export const fuseModel = (bytes: Uint8Array): { bytes: Uint8Array; hardSwish: number; affine: number } => {
  try {
    return fuse(bytes);
  } catch {
    return { bytes, hardSwish: 0, affine: 0 };
  }
};

const fuse = (bytes: Uint8Array): { bytes: Uint8Array; hardSwish: number; affine: number } => {
  const graph = readGraph(bytes);
  if (!graph) return { bytes, hardSwish: 0, affine: 0 };
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

  const added: Node[] = [];
  let affine = 0;
  let hardSwish = 0;

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
    added.push(
      constantNode(`${name}.weights`, scaled.dims, scaled.values),
      constantNode(`${name}.bias`, shifted.dims, shifted.values),
    );
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
  if (affine + hardSwish === 0) return { bytes, hardSwish, affine };

  const kept = [...added, ...nodes].filter((node): node is Node => node !== undefined);
  return { bytes: graph.write(kept), hardSwish, affine };
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
