/**
 * The recogniser answering what greedy CTC decoding reads of it (line-recognition.ts): for each step, its
 * most likely class and that class's probability, instead of the probability of every class (issue 23:
 * seconds per page). The model's output is 6,625 probabilities a step; finding the largest in JavaScript took
 * 0.3 s of a 565-line page on the thread that also runs a recogniser, and the worker thread's answers were
 * 1 MB a line to hand over. ONNX Runtime finds it in the model's own run, and the answer is 8 bytes a step.
 *
 *   probabilities → ArgMax(axis 2) → Cast(int32) → best class
 *                 → ReduceMax(axis 2)           → its probability
 *
 * ArgMax keeps the first of equal maxima, as the decoder did. Both operators are in ONNX's operator set 1, so
 * any version of the model takes them.
 */

import { intAttribute, intsAttribute, newNode, readGraph } from './onnx-graph';

/** The rewritten model's outputs: each step's most likely class (int32) and its probability (float). */
export const BEST_CLASS = 'best_class';
export const BEST_PROBABILITY = 'best_probability';

/** TensorProto's int32, what ArgMax's int64 is cast to (a JavaScript number, not a BigInt). */
const INT32 = 6;

/**
 * The model with the best class of each step and its probability as its outputs; the bytes unchanged when
 * the model has not one output (which is then not the recogniser's probabilities) or could not be read.
 */
export const withBestClasses = (bytes: Uint8Array): Uint8Array => {
  try {
    const graph = readGraph(bytes);
    if (graph?.graphOutputs.size !== 1) return bytes;
    const [probabilities] = [...graph.graphOutputs];
    const index = `${BEST_CLASS}/int64`;
    return graph.write(
      [
        ...graph.nodes,
        newNode('ArgMax', [probabilities!], [index], {
          attributes: [intAttribute('axis', 2), intAttribute('keepdims', 0)],
        }),
        newNode('Cast', [index], [BEST_CLASS], { attributes: [intAttribute('to', INT32)] }),
        newNode('ReduceMax', [probabilities!], [BEST_PROBABILITY], {
          attributes: [intsAttribute('axes', [2]), intAttribute('keepdims', 0)],
        }),
      ],
      {
        outputs: [
          { name: BEST_CLASS, type: 'int32' },
          { name: BEST_PROBABILITY, type: 'float' },
        ],
      },
    );
  } catch {
    return bytes;
  }
};
