/**
 * The recogniser's pointwise (1 × 1, ungrouped) convolutions in 8-bit integers (issue 23: seconds per page).
 * They are most of its arithmetic; ONNX Runtime runs an int8 convolution with the CPU's integer dot-product
 * instructions (AVX-512 VNNI / AVX2 on x86, SDOT/UDOT on Graviton), measured 0.62 times the float model's time
 * on a 256-px line. Each such convolution becomes
 *
 *   x → QuantizeLinear → QLinearConv → DequantizeLinear → y
 *
 * (ONNX Runtime's com.microsoft operators: the recogniser's own operator set, ONNX 9, predates ONNX's), with
 * its weights quantised per output channel (symmetric, −127…127), its bias in int32, and its input and output
 * as uint8 over the ranges a calibration measured on line images (recognizer-calibration.json, made by
 * `npm run calibrate:ocr` from generated menus). An output read only by a hard-swish (HardSigmoid(1/6, 1/2)
 * × x, model-fusion.ts) or a ReLU keeps the part of its range those read: below −3 (or 0) all is 0 to them.
 *
 * Depthwise convolutions stay in floats: quantised, they doubled the disagreement with the float model (per
 * channel, a few taps each) and saved no time. So do convolutions the calibration left out (those on a
 * pooled 1 × 1 map: no time to save). Everything else in the model is kept as it is.
 */

import { createHash } from 'node:crypto';
import {
  constantNode,
  floatAttributeOf,
  type Graph,
  intAttributeOf,
  NODE_ATTRIBUTE,
  type Node,
  newNode,
  readGraph,
  withOutputs,
} from './onnx-graph';

/** Value ranges of the recogniser's inner values, measured on line images, for one model's bytes. */
export interface Calibration {
  /** SHA-256 (hex) of the model as shipped: ranges of another model's values must never be used. */
  readonly model: string;
  /** Input and output ranges ([lowest, highest]) of the convolutions to quantise, by value name (fused model). */
  readonly ranges: Readonly<Record<string, readonly number[]>>;
}

const MS_DOMAIN = 'com.microsoft';

export const modelDigest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Whether a node is a convolution this file quantises when its values have ranges. */
const isPointwise = (node: Node, graph: Graph): boolean => {
  if (node.op !== 'Conv' || node.inputs.length < 2 || node.outputs.length !== 1) return false;
  const weights = graph.constants.get(node.inputs[1]!);
  const bias = node.inputs[2] ? graph.constants.get(node.inputs[2]) : undefined;
  return (
    weights?.dims.length === 4 &&
    weights.dims[2] === 1 &&
    weights.dims[3] === 1 &&
    (intAttributeOf(node, 'group') ?? 1) === 1 &&
    (!node.inputs[2] || bias?.values.length === weights.dims[0])
  );
};

/**
 * The names of the values calibration measures: the inputs and outputs of the convolutions quantizeModel may
 * quantise, in the model's order.
 */
export const calibrationValues = (bytes: Uint8Array): string[] => {
  const graph = readGraph(bytes);
  if (!graph) return [];
  return [
    ...new Set(
      graph.nodes.filter((n) => isPointwise(n, graph)).flatMap((n) => [n.inputs[0]!, n.outputs[0]!]),
    ),
  ];
};

/** The model with those values among its outputs (calibration runs it so). */
export const withCalibrationOutputs = (bytes: Uint8Array): Uint8Array =>
  withOutputs(bytes, calibrationValues(bytes));

const isRange = (range: readonly number[] | undefined): range is readonly [number, number] =>
  range?.length === 2 && range.every(Number.isFinite) && range[0]! <= range[1]!;

/** uint8 quantisation of a range (which must hold 0, so that padding and ReLU's zeros are exact). */
const activation = (range: readonly number[]): { scale: number; zeroPoint: number } => {
  const low = Math.min(0, range[0]!);
  const high = Math.max(0, range[1]!);
  const scale = Math.max((high - low) / 255, 1e-8);
  return { scale, zeroPoint: Math.min(255, Math.max(0, Math.round(-low / scale))) };
};

/**
 * The model with its pointwise convolutions quantised over `calibration`'s ranges, and how many; the bytes
 * unchanged when `shipped` (the model's bytes as shipped) is not the calibrated model, nothing has ranges, or
 * the model could not be read.
 */
export const quantizeModel = (
  bytes: Uint8Array,
  calibration: Calibration,
  shipped: Uint8Array,
): { bytes: Uint8Array; convolutions: number } => {
  try {
    if (modelDigest(shipped) !== calibration.model) return { bytes, convolutions: 0 };
    return quantize(bytes, calibration.ranges);
  } catch {
    return { bytes, convolutions: 0 };
  }
};

const quantize = (
  bytes: Uint8Array,
  ranges: Calibration['ranges'],
): { bytes: Uint8Array; convolutions: number } => {
  const graph = readGraph(bytes);
  if (!graph) return { bytes, convolutions: 0 };
  /** The lowest value that matters to the readers of `name`: −3 to a hard-swish, 0 to a ReLU. */
  const floor = (name: string): number => {
    const readers = (graph.readers.get(name) ?? []).map((i) => graph.nodes[i]!);
    if (graph.graphOutputs.has(name)) return Number.NEGATIVE_INFINITY;
    if (readers.length === 1 && readers[0]!.op === 'Relu') return 0;
    const gate = readers.find((n) => n.op === 'HardSigmoid');
    const isHardSwish =
      readers.length === 2 &&
      gate !== undefined &&
      Math.abs((floatAttributeOf(gate, 'alpha') ?? 0.2) - 1 / 6) < 1e-6 &&
      Math.abs((floatAttributeOf(gate, 'beta') ?? 0.5) - 0.5) < 1e-6 &&
      readers.some((n) => n.op === 'Mul' && n.inputs.includes(name) && n.inputs.includes(gate.outputs[0]!));
    return isHardSwish ? -3 : Number.NEGATIVE_INFINITY;
  };

  const constants: Node[] = [];
  const nodes: Node[] = [];
  const quantised = new Map<string, { name: string; scale: number }>();
  const parameters = (name: string, range: readonly number[]): { scale: number } => {
    const { scale, zeroPoint } = activation(range);
    constants.push(
      constantNode(`${name}/scale`, [], Float32Array.of(scale)),
      constantNode(`${name}/zero_point`, [], Uint8Array.of(zeroPoint)),
    );
    return { scale };
  };
  let convolutions = 0;
  for (const node of graph.nodes) {
    const x = node.inputs[0];
    const y = node.outputs[0];
    const inputRange = x === undefined ? undefined : ranges[x];
    const outputRange = y === undefined ? undefined : ranges[y];
    if (!isRange(inputRange) || !isRange(outputRange) || !isPointwise(node, graph)) {
      nodes.push(node);
      continue;
    }
    const weights = graph.constants.get(node.inputs[1]!)!;
    const bias = node.inputs[2] ? graph.constants.get(node.inputs[2]) : undefined;
    // The input, quantised once for all the convolutions that read it.
    let input = quantised.get(x!);
    if (!input) {
      const name = `${x}/quantized`;
      const { scale } = parameters(name, inputRange);
      nodes.push(
        newNode('QuantizeLinear', [x!, `${name}/scale`, `${name}/zero_point`], [name], { domain: MS_DOMAIN }),
      );
      input = { name, scale };
      quantised.set(x!, input);
    }
    const channels = weights.dims[0]!;
    const perChannel = weights.values.length / channels;
    const weightScales = new Float32Array(channels);
    const intWeights = new Int8Array(weights.values.length);
    const intBias = new Int32Array(channels);
    for (let c = 0; c < channels; c++) {
      let largest = 0;
      for (let i = 0; i < perChannel; i++)
        largest = Math.max(largest, Math.abs(weights.values[c * perChannel + i]!));
      const scale = largest > 0 ? largest / 127 : 1;
      weightScales[c] = scale;
      for (let i = 0; i < perChannel; i++)
        intWeights[c * perChannel + i] = Math.round(weights.values[c * perChannel + i]! / scale);
      const b = Math.round((bias?.values[c] ?? 0) / (input.scale * scale));
      intBias[c] = Math.max(-2_147_483_648, Math.min(2_147_483_647, b));
    }
    const name = `${y}/quantized`;
    parameters(name, [Math.max(outputRange[0]!, floor(y!)), outputRange[1]!]);
    constants.push(
      constantNode(`${name}/weights`, weights.dims, intWeights),
      constantNode(`${name}/weight_scales`, [channels], weightScales),
      constantNode(`${name}/weight_zero_points`, [channels], new Int8Array(channels)),
      constantNode(`${name}/bias`, [channels], intBias),
    );
    const kept = node.fields.filter((f) => f.number === NODE_ATTRIBUTE); // strides, pads…
    nodes.push(
      newNode(
        'QLinearConv',
        [
          input.name,
          `${input.name}/scale`,
          `${input.name}/zero_point`,
          `${name}/weights`,
          `${name}/weight_scales`,
          `${name}/weight_zero_points`,
          `${name}/scale`,
          `${name}/zero_point`,
          `${name}/bias`,
        ],
        [name],
        { attributes: kept, domain: MS_DOMAIN },
      ),
      newNode('DequantizeLinear', [name, `${name}/scale`, `${name}/zero_point`], [y!], { domain: MS_DOMAIN }),
    );
    convolutions++;
  }
  if (convolutions === 0) return { bytes, convolutions };
  return {
    bytes: graph.write([...constants, ...nodes], { opsets: new Map([[MS_DOMAIN, 1]]) }),
    convolutions,
  };
};
