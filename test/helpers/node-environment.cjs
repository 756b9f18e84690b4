// Jest's node environment with the host's typed arrays: native addons (onnxruntime-node, the OCR engine)
// create their outputs in the host realm, and onnxruntime-common checks tensors with `instanceof`, which a
// sandbox's own Float32Array would fail (Jest issue 2549). Tests see the arrays the code sees in production.
const { TestEnvironment } = require('jest-environment-node');

const TYPED_ARRAYS = [
  'ArrayBuffer',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class HostTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

module.exports = HostTypedArraysEnvironment;
