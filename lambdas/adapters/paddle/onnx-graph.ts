/**
 * An ONNX model's graph at the protobuf wire level (protobuf-wire.ts), for the rewrites of PaddleOCR's models
 * at load (model-fusion.ts, model-quantization.ts): nodes are read with their fields as they were, rewritten
 * nodes are written with the fields they had but those a rewrite names, and every other field of the model is
 * written back byte for byte. A protobuf schema decoder would drop the fields its schema lacks.
 */

import { type Field, readFields, readVarint, writeFields } from './protobuf-wire';

const text = new TextDecoder();
const utf8 = new TextEncoder();

export const bytesOf = (field: Field | undefined): Uint8Array | undefined =>
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
const varintField = (number: number, value: bigint): Field => ({ number, wire: 0, value });

// Field numbers of onnx.proto3 (ModelProto, OperatorSetIdProto, GraphProto, NodeProto, AttributeProto,
// TensorProto, ValueInfoProto, TypeProto).
const MODEL_GRAPH = 7;
const MODEL_OPSET_IMPORT = 8;
const OPSET_DOMAIN = 1;
const OPSET_VERSION = 2;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const GRAPH_OUTPUT = 12;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_OP_TYPE = 4;
export const NODE_ATTRIBUTE = 5;
const NODE_DOMAIN = 7;
const ATTRIBUTE_NAME = 1;
const ATTRIBUTE_FLOAT = 2;
const ATTRIBUTE_INT = 3;
const ATTRIBUTE_STRING = 4;
const ATTRIBUTE_TENSOR = 5;
const ATTRIBUTE_INTS = 8;
const ATTRIBUTE_TYPE = 20;
const ATTRIBUTE_TYPE_FLOAT = 1n;
const ATTRIBUTE_TYPE_INT = 2n;
const ATTRIBUTE_TYPE_TENSOR = 4n;
const ATTRIBUTE_TYPE_INTS = 7n;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const TENSOR_DATA_LOCATION = 14;
const VALUE_INFO_NAME = 1;
const VALUE_INFO_TYPE = 2;
const TYPE_TENSOR = 1;
const TYPE_TENSOR_ELEMENT = 1;

/** TensorProto data types used here. */
const DATA_TYPE = { float: 1n, uint8: 2n, int8: 3n, int32: 6n } as const;

export interface Node {
  readonly fields: readonly Field[];
  /** The op type; an operator of another domain than ONNX's own is `domain.op` (never matched as ONNX's). */
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

export interface FloatTensor {
  readonly dims: readonly number[];
  readonly values: Float32Array;
}

const nodeOf = (bytes: Uint8Array): Node => {
  const fields = readFields(bytes);
  const domain = stringOf(fields.find((f) => f.number === NODE_DOMAIN)) ?? '';
  const op = stringOf(fields.find((f) => f.number === NODE_OP_TYPE)) ?? '';
  return {
    fields,
    op: domain === '' || domain === 'ai.onnx' ? op : `${domain}.${op}`,
    inputs: fields.filter((f) => f.number === NODE_INPUT).map((f) => stringOf(f) ?? ''),
    outputs: fields.filter((f) => f.number === NODE_OUTPUT).map((f) => stringOf(f) ?? ''),
  };
};

/** A node written here: inputs, outputs, op type, attributes and (for another operator set) its domain. */
export const newNode = (
  op: string,
  inputs: readonly string[],
  outputs: readonly string[],
  extra: { readonly attributes?: readonly Field[]; readonly domain?: string } = {},
): Node => ({
  fields: [
    ...inputs.map((name) => stringField(NODE_INPUT, name)),
    ...outputs.map((name) => stringField(NODE_OUTPUT, name)),
    stringField(NODE_OP_TYPE, op),
    ...(extra.attributes ?? []),
    ...(extra.domain ? [stringField(NODE_DOMAIN, extra.domain)] : []),
  ],
  op: extra.domain ? `${extra.domain}.${op}` : op,
  inputs,
  outputs,
});

const floatsOf = (bytes: Uint8Array): Float32Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true);
  return values;
};

/** Little-endian bytes of 32-bit values (floats or int32), as TensorProto's raw_data holds them. */
const littleEndian = (values: Float32Array | Int32Array): Uint8Array => {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++)
    if (values instanceof Float32Array) view.setFloat32(i * 4, values[i]!, true);
    else view.setInt32(i * 4, values[i]!, true);
  return out;
};

/** A TensorProto's values if it is a float tensor stored in the model (not external data). */
const floatTensor = (fields: readonly Field[]): FloatTensor | undefined => {
  const type = fields.find((f) => f.number === TENSOR_DATA_TYPE)?.value;
  if (type !== DATA_TYPE.float || fields.some((f) => f.number === TENSOR_DATA_LOCATION && f.value === 1n))
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

/** A Constant node of a float, int8, uint8 or int32 tensor. */
export const constantNode = (
  name: string,
  dims: readonly number[],
  values: Float32Array | Int32Array | Int8Array | Uint8Array,
): Node => {
  const dataType =
    values instanceof Float32Array
      ? DATA_TYPE.float
      : values instanceof Int32Array
        ? DATA_TYPE.int32
        : values instanceof Int8Array
          ? DATA_TYPE.int8
          : DATA_TYPE.uint8;
  const raw =
    values instanceof Float32Array || values instanceof Int32Array
      ? littleEndian(values)
      : new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const tensor: Field[] = [
    ...dims.map((d) => varintField(TENSOR_DIMS, BigInt(d))),
    varintField(TENSOR_DATA_TYPE, dataType),
    stringField(TENSOR_NAME, name),
    { number: TENSOR_RAW_DATA, wire: 2, value: raw },
  ];
  return newNode('Constant', [], [name], {
    attributes: [
      messageField(NODE_ATTRIBUTE, [
        stringField(ATTRIBUTE_NAME, 'value'),
        messageField(ATTRIBUTE_TENSOR, tensor),
        varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_TENSOR),
      ]),
    ],
  });
};

export const floatAttribute = (name: string, value: number): Field => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return messageField(NODE_ATTRIBUTE, [
    stringField(ATTRIBUTE_NAME, name),
    { number: ATTRIBUTE_FLOAT, wire: 5, value: bytes },
    varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_FLOAT),
  ]);
};

export const intAttribute = (name: string, value: number): Field =>
  messageField(NODE_ATTRIBUTE, [
    stringField(ATTRIBUTE_NAME, name),
    varintField(ATTRIBUTE_INT, BigInt.asUintN(64, BigInt(value))),
    varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_INT),
  ]);

export const intsAttribute = (name: string, values: readonly number[]): Field =>
  messageField(NODE_ATTRIBUTE, [
    stringField(ATTRIBUTE_NAME, name),
    ...values.map((v) => varintField(ATTRIBUTE_INTS, BigInt.asUintN(64, BigInt(v)))),
    varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_INTS),
  ]);

/** The node with its op type, inputs and outputs replaced (its name, attributes and domain kept). */
export const rewired = (
  node: Node,
  op: string,
  inputs: readonly string[],
  outputs: readonly string[],
): Node => ({
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

/** A node's attributes by name, each as its AttributeProto's fields. */
export const attributes = (node: Node): Map<string, readonly Field[]> => {
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

export const floatAttributeOf = (node: Node, name: string): number | undefined => {
  const value = bytesOf(
    attributes(node)
      .get(name)
      ?.find((a) => a.number === ATTRIBUTE_FLOAT),
  );
  return value && value.length === 4 ? floatsOf(value)[0] : undefined;
};

export const intAttributeOf = (node: Node, name: string): number | undefined => {
  const value = attributes(node)
    .get(name)
    ?.find((a) => a.number === ATTRIBUTE_INT)?.value;
  return typeof value === 'bigint' ? Number(BigInt.asIntN(64, value)) : undefined;
};

/** A string attribute's value, undefined if the node has none. */
export const stringAttributeOf = (node: Node, name: string): string | undefined =>
  stringOf(
    attributes(node)
      .get(name)
      ?.find((a) => a.number === ATTRIBUTE_STRING),
  );

/** An ints attribute's values (each its own varint field, or packed in one), undefined if the node has none. */
export const intsAttributeOf = (node: Node, name: string): number[] | undefined => {
  const fields = attributes(node)
    .get(name)
    ?.filter((a) => a.number === ATTRIBUTE_INTS);
  if (!fields || fields.length === 0) return undefined;
  const values: number[] = [];
  for (const f of fields) {
    if (typeof f.value === 'bigint') values.push(Number(BigInt.asIntN(64, f.value)));
    else
      for (let at = 0; at < f.value.length; ) {
        const [value, next] = readVarint(f.value, at);
        values.push(Number(BigInt.asIntN(64, value)));
        at = next;
      }
  }
  return values;
};

/** A model read for rewriting: its nodes, the float constants they read, and what reads each value. */
export interface Graph {
  readonly nodes: readonly Node[];
  readonly graphOutputs: ReadonlySet<string>;
  /** Float values of Constant nodes and initializers, by name. */
  readonly constants: ReadonlyMap<string, FloatTensor>;
  /** The indexes of the nodes reading each value. */
  readonly readers: ReadonlyMap<string, readonly number[]>;
  /**
   * The model with these nodes in place of its own (constants nothing reads any more dropped), with more
   * operator sets, and with `outputs` in place of the graph's outputs if given.
   */
  write(
    nodes: readonly Node[],
    extra?: { readonly opsets?: ReadonlyMap<string, number>; readonly outputs?: readonly GraphOutput[] },
  ): Uint8Array;
}

/** A graph output: a value's name and its element type (its shape left for the runtime to infer). */
export interface GraphOutput {
  readonly name: string;
  readonly type: 'float' | 'int32';
}

const outputField = (output: GraphOutput): Field =>
  messageField(GRAPH_OUTPUT, [
    stringField(VALUE_INFO_NAME, output.name),
    messageField(VALUE_INFO_TYPE, [
      messageField(TYPE_TENSOR, [varintField(TYPE_TENSOR_ELEMENT, DATA_TYPE[output.type])]),
    ]),
  ]);

/** The model's graph, or undefined when the bytes hold none. Throws on bytes that are not protobuf. */
export const readGraph = (bytes: Uint8Array): Graph | undefined => {
  const model = readFields(bytes);
  const graphIndex = model.findIndex((f) => f.number === MODEL_GRAPH);
  const graphBytes = bytesOf(model[graphIndex]);
  if (!graphBytes) return undefined;
  const graph = readFields(graphBytes);
  const nodes = graph
    .filter((f) => f.number === GRAPH_NODE)
    .map((f) => nodeOf(bytesOf(f) ?? new Uint8Array()));
  const graphOutputs = new Set(
    graph
      .filter((f) => f.number === GRAPH_OUTPUT)
      .map((f) =>
        stringOf(readFields(bytesOf(f) ?? new Uint8Array()).find((g) => g.number === VALUE_INFO_NAME)),
      )
      .filter((name): name is string => name !== undefined),
  );
  const constants = new Map<string, FloatTensor>();
  for (const node of nodes) {
    if (node.op !== 'Constant' || node.outputs.length !== 1) continue;
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
  const readers = new Map<string, number[]>();
  nodes.forEach((node, i) => {
    for (const input of node.inputs) readers.set(input, [...(readers.get(input) ?? []), i]);
  });

  const write: Graph['write'] = (newNodes, extra) => {
    // Constants nothing reads any more (folded weights and scalars) go: ONNX Runtime warns of each.
    const read = new Set(extra?.outputs?.map((o) => o.name) ?? graphOutputs);
    for (const node of newNodes) for (const input of node.inputs) read.add(input);
    const kept = newNodes.filter((node) => node.op !== 'Constant' || node.outputs.some((o) => read.has(o)));
    // Initializers stay (a model of IR version 3 also lists them among the graph's inputs).
    const newGraph = [
      ...kept.map((node) => messageField(GRAPH_NODE, node.fields)),
      ...graph.filter(
        (f) => f.number !== GRAPH_NODE && (extra?.outputs === undefined || f.number !== GRAPH_OUTPUT),
      ),
      ...(extra?.outputs ?? []).map(outputField),
    ];
    const imported = new Set(
      model
        .filter((f) => f.number === MODEL_OPSET_IMPORT)
        .map(
          (f) =>
            stringOf(readFields(bytesOf(f) ?? new Uint8Array()).find((g) => g.number === OPSET_DOMAIN)) ?? '',
        ),
    );
    const opsets = [...(extra?.opsets ?? [])]
      .filter(([domain]) => !imported.has(domain))
      .map(([domain, version]) =>
        messageField(MODEL_OPSET_IMPORT, [
          stringField(OPSET_DOMAIN, domain),
          varintField(OPSET_VERSION, BigInt(version)),
        ]),
      );
    return writeFields([
      ...model.map((f, i) => (i === graphIndex ? messageField(MODEL_GRAPH, newGraph) : f)),
      ...opsets,
    ]);
  };
  return { nodes, graphOutputs, constants, readers, write };
};

/**
 * The model with more of its values among the graph's outputs (as floats of any shape): what calibration
 * reads of a model's inner values. Names already among the outputs are not added twice.
 */
export const withOutputs = (bytes: Uint8Array, names: readonly string[]): Uint8Array => {
  const model = readFields(bytes);
  const graphIndex = model.findIndex((f) => f.number === MODEL_GRAPH);
  const graph = readGraph(bytes);
  const graphBytes = bytesOf(model[graphIndex]);
  if (!graph || !graphBytes) return bytes;
  const outputs = names
    .filter((name) => !graph.graphOutputs.has(name))
    .map((name) => outputField({ name, type: 'float' }));
  const newGraph = writeFields([...readFields(graphBytes), ...outputs]);
  return writeFields(
    model.map((f, i) => (i === graphIndex ? { number: MODEL_GRAPH, wire: 2, value: newGraph } : f)),
  );
};
