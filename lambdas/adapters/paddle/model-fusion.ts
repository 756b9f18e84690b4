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

import { type Field, readFields, readVarint, writeFields } from './protobuf-wire';

const text = new TextDecoder();
const utf8 = new TextEncoder();
const bytesOf = (field: Field | undefined): Uint8Array | undefined =>
  field && field.value instanceof Uint8Array ? field.value : undefined;
const stringOf = (field: Field | undefined): string | undefined => {
  const value = bytesOf(field);
  return value ? text.decode(value) : undefined;
};
const stringField = (number: number, value: string): Field => ({
  number,
  wire: 2,
  value: utf8.encode(value),
});
const messageField = (number: number, fields: readonly Field[]): Field => ({
  number,
  wire: 2,
  value: writeFields(fields),
});

// Field numbers of onnx.proto3 (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto).
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const GRAPH_OUTPUT = 12;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_OP_TYPE = 4;
const NODE_ATTRIBUTE = 5;
const NODE_DOMAIN = 7;
const ATTRIBUTE_NAME = 1;
const ATTRIBUTE_FLOAT = 2;
const ATTRIBUTE_TENSOR = 5;
const ATTRIBUTE_TYPE = 20;
const ATTRIBUTE_TYPE_FLOAT = 1n;
const ATTRIBUTE_TYPE_TENSOR = 4n;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const TENSOR_DATA_LOCATION = 14;
const DATA_TYPE_FLOAT = 1n;
const VALUE_INFO_NAME = 1;

interface Node {
  readonly fields: readonly Field[];
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

interface FloatTensor {
  readonly dims: readonly number[];
  readonly values: Float32Array;
}

const nodeOf = (bytes: Uint8Array): Node => {
  const fields = readFields(bytes);
  const domain = stringOf(fields.find((f) => f.number === NODE_DOMAIN)) ?? '';
  const op = stringOf(fields.find((f) => f.number === NODE_OP_TYPE)) ?? '';
  return {
    fields,
    // Operators of other domains (com.microsoft, custom) are never matched.
    op: domain === '' || domain === 'ai.onnx' ? op : `${domain}.${op}`,
    inputs: fields.filter((f) => f.number === NODE_INPUT).map((f) => stringOf(f) ?? ''),
    outputs: fields.filter((f) => f.number === NODE_OUTPUT).map((f) => stringOf(f) ?? ''),
  };
};

const floatsOf = (bytes: Uint8Array): Float32Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true);
  return values;
};

const floatBytes = (values: Float32Array): Uint8Array => {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i]!, true);
  return out;
};

/** A TensorProto's values if it is a float tensor stored in the model (not external data). */
const floatTensor = (fields: readonly Field[]): FloatTensor | undefined => {
  const type = fields.find((f) => f.number === TENSOR_DATA_TYPE)?.value;
  if (type !== DATA_TYPE_FLOAT || fields.some((f) => f.number === TENSOR_DATA_LOCATION && f.value === 1n))
    return undefined;
  const dims: number[] = [];
  for (const f of fields.filter((g) => g.number === TENSOR_DIMS)) {
    if (typeof f.value === 'bigint') dims.push(Number(f.value));
    else {
      // Packed: a run of varints.
      for (let at = 0; at < f.value.length; ) {
        const [dim, next] = readVarint(f.value, at);
        dims.push(Number(dim));
        at = next;
      }
    }
  }
  const raw = bytesOf(fields.find((f) => f.number === TENSOR_RAW_DATA));
  // float_data: packed (one length-delimited field) or not (one 32-bit field a value), little-endian either way.
  const values = floatsOf(
    raw ??
      Uint8Array.from(
        fields.flatMap((f) =>
          f.number === TENSOR_FLOAT_DATA && f.value instanceof Uint8Array ? [...f.value] : [],
        ),
      ),
  );
  const count = dims.reduce((a, b) => a * b, 1);
  return values.length === count ? { dims, values } : undefined;
};

const tensorFields = (name: string, tensor: FloatTensor): Field[] => [
  ...tensor.dims.map((d): Field => ({ number: TENSOR_DIMS, wire: 0, value: BigInt(d) })),
  { number: TENSOR_DATA_TYPE, wire: 0, value: DATA_TYPE_FLOAT },
  stringField(TENSOR_NAME, name),
  { number: TENSOR_RAW_DATA, wire: 2, value: floatBytes(tensor.values) },
];

const constantNode = (name: string, tensor: FloatTensor): Node => {
  const fields: Field[] = [
    stringField(NODE_OUTPUT, name),
    stringField(NODE_OP_TYPE, 'Constant'),
    messageField(NODE_ATTRIBUTE, [
      stringField(ATTRIBUTE_NAME, 'value'),
      messageField(ATTRIBUTE_TENSOR, tensorFields(name, tensor)),
      { number: ATTRIBUTE_TYPE, wire: 0, value: ATTRIBUTE_TYPE_TENSOR },
    ]),
  ];
  return { fields, op: 'Constant', inputs: [], outputs: [name] };
};

const floatAttribute = (name: string, value: number): Field => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return messageField(NODE_ATTRIBUTE, [
    stringField(ATTRIBUTE_NAME, name),
    { number: ATTRIBUTE_FLOAT, wire: 5, value: bytes },
    { number: ATTRIBUTE_TYPE, wire: 0, value: ATTRIBUTE_TYPE_FLOAT },
  ]);
};

/** The node with its inputs and outputs replaced (its name, attributes and domain kept). */
const rewired = (node: Node, op: string, inputs: readonly string[], outputs: readonly string[]): Node => ({
  fields: [
    ...inputs.map((name) => stringField(NODE_INPUT, name)),
    ...outputs.map((name) => stringField(NODE_OUTPUT, name)),
    ...node.fields.filter(
      (f) => f.number !== NODE_INPUT && f.number !== NODE_OUTPUT && f.number !== NODE_OP_TYPE,
    ),
    stringField(NODE_OP_TYPE, op),
  ],
  op,
  inputs,
  outputs,
});

const attributes = (node: Node): Map<string, readonly Field[]> => {
  const out = new Map<string, readonly Field[]>();
  for (const f of node.fields) {
    const bytes = f.number === NODE_ATTRIBUTE ? bytesOf(f) : undefined;
    if (!bytes) continue;
    const attribute = readFields(bytes);
    const name = stringOf(attribute.find((a) => a.number === ATTRIBUTE_NAME));
    if (name !== undefined) out.set(name, attribute);
  }
  return out;
};

const floatAttributeOf = (node: Node, name: string): number | undefined => {
  const value = bytesOf(
    attributes(node)
      .get(name)
      ?.find((a) => a.number === ATTRIBUTE_FLOAT),
  );
  return value && value.length === 4 ? floatsOf(value)[0] : undefined;
};

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
  const model = readFields(bytes);
  const graphIndex = model.findIndex((f) => f.number === MODEL_GRAPH);
  const graphBytes = bytesOf(model[graphIndex]);
  if (!graphBytes) return { bytes, hardSwish: 0, affine: 0 };
  const graph = readFields(graphBytes);
  let nodes: (Node | undefined)[] = graph
    .filter((f) => f.number === GRAPH_NODE)
    .map((f) => nodeOf(bytesOf(f) ?? new Uint8Array()));
  const graphOutputs = new Set(
    graph
      .filter((f) => f.number === GRAPH_OUTPUT)
      .map((f) =>
        stringOf(readFields(bytesOf(f) ?? new Uint8Array()).find((g) => g.number === VALUE_INFO_NAME)),
      ),
  );

  // Constant values: Constant nodes' `value` and the graph's initializers.
  const constants = new Map<string, FloatTensor>();
  for (const node of nodes) {
    if (node?.op !== 'Constant' || node.outputs.length !== 1) continue;
    const value = attributes(node).get('value');
    const tensor = bytesOf(value?.find((a) => a.number === ATTRIBUTE_TENSOR));
    const float = tensor ? floatTensor(readFields(tensor)) : undefined;
    if (float) constants.set(node.outputs[0]!, float);
  }
  for (const f of graph.filter((g) => g.number === GRAPH_INITIALIZER)) {
    const tensor = readFields(bytesOf(f) ?? new Uint8Array());
    const name = stringOf(tensor.find((t) => t.number === TENSOR_NAME));
    const float = floatTensor(tensor);
    if (name !== undefined && float) constants.set(name, float);
  }
  const scalar = (name: string | undefined): number | undefined => {
    const tensor = name === undefined ? undefined : constants.get(name);
    return tensor?.values.length === 1 ? tensor.values[0] : undefined;
  };

  const consumers = new Map<string, number[]>();
  nodes.forEach((node, i) => {
    for (const input of node?.inputs ?? []) consumers.set(input, [...(consumers.get(input) ?? []), i]);
  });
  /** The one node reading `name`, of type `op` (undefined if none, several, or `name` is a graph output). */
  const next = (name: string, op: string): { index: number; node: Node } | undefined => {
    const readers = consumers.get(name);
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
    added.push(constantNode(`${name}.weights`, scaled), constantNode(`${name}.bias`, shifted));
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
    nodes[i] = {
      fields: [
        stringField(NODE_INPUT, x),
        stringField(NODE_OUTPUT, gate),
        stringField(NODE_OP_TYPE, 'HardSigmoid'),
        floatAttribute('alpha', 1 / 6),
        floatAttribute('beta', 0.5),
      ],
      op: 'HardSigmoid',
      inputs: [x],
      outputs: [gate],
    };
    nodes[clip.index] = undefined;
    nodes[mul.index] = undefined;
    nodes[div.index] = rewired(div.node, 'Mul', [x, gate], div.node.outputs);
    hardSwish++;
  });
  if (affine + hardSwish === 0) return { bytes, hardSwish, affine };

  // Constants nothing reads any more (the folded weights and scalars) go: ONNX Runtime warns of each.
  nodes = [...added, ...nodes];
  const read = new Set([...graphOutputs]);
  for (const node of nodes) for (const input of node?.inputs ?? []) read.add(input);
  const kept = nodes.filter(
    (node): node is Node =>
      node !== undefined && (node.op !== 'Constant' || node.outputs.some((o) => read.has(o))),
  );
  // Initializers stay (a model of IR version 3 also lists them among the graph's inputs).
  const newGraph = [
    ...kept.map((node) => messageField(GRAPH_NODE, node.fields)),
    ...graph.filter((f) => f.number !== GRAPH_NODE),
  ];
  const newModel = model.map((f, i) => (i === graphIndex ? messageField(MODEL_GRAPH, newGraph) : f));
  return { bytes: writeFields(newModel), hardSwish, affine };
};

/**
 * A session of the fused model, or of the model as shipped when the runtime will not take the fused one (a
 * model version whose graph the rewrite misjudged): fusion may make OCR faster, never make it fail. Returns
 * the model the session runs (the recognition thread loads the same).
 */
export const fusedSession = async <Session>(
  bytes: Uint8Array,
  create: (model: Uint8Array) => Promise<Session>,
): Promise<{ session: Session; model: Uint8Array }> => {
  const fused = fuseModel(bytes).bytes;
  if (fused !== bytes) {
    try {
      return { session: await create(fused), model: fused };
    } catch {
      // The model as shipped, below.
    }
  }
  return { session: await create(bytes), model: bytes };
};
