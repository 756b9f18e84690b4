import { Worker } from 'node:worker_threads';

/**
 * A second reader of line images on a thread of its own (issue 23: seconds per page). ONNX Runtime's Node
 * binding runs a session on the calling thread, and one line's run is too small an operation for its own
 * thread pool to share out (measured on 2 vCPUs: two intra-op threads take 1.5 times the CPU of one for the
 * same wall time). A session on a worker thread reads other lines at the same time: about half the time on
 * two vCPUs.
 *
 * The thread's code is evaluated from the string below (CommonJS, nothing but ONNX Runtime): there is no
 * file of its own to bundle, and it loads ONNX Runtime where the job worker's does (`ortPath`).
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ortPath);
const ready = ort.InferenceSession.create(workerData.model, workerData.sessionOptions);
// A model that cannot load ends the thread (its 'error' event): it could never read a line.
ready.catch((error) => setImmediate(() => { throw error; }));
parentPort.on('message', async ({ id, data, dims }) => {
  let session;
  try {
    session = await ready;
  } catch {
    return; // the thread is ending: its 'error' event fails every run
  }
  try {
    const output = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', data, dims) });
    const outputs = {};
    const buffers = new Set();
    for (const name of session.outputNames) {
      outputs[name] = { data: output[name].data, dims: output[name].dims };
      buffers.add(output[name].data.buffer);
    }
    parentPort.postMessage({ id, outputs }, [...buffers]);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

export interface TensorData<T extends Float32Array | Int32Array = Float32Array | Int32Array> {
  readonly data: T;
  readonly dims: readonly number[];
}

/** A run's outputs by name. */
export type Outputs = Readonly<Record<string, TensorData>>;

interface Pending {
  resolve(outputs: Outputs): void;
  reject(error: Error): void;
}

/** One ONNX Runtime session of a model on a worker thread; runs float32 inputs one at a time, in order. */
export class RecognitionThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | undefined;

  /** `model`: the model's file, or its bytes (copied to the thread). */
  constructor(options: { ortPath: string; model: string | Uint8Array; sessionOptions: object }) {
    this.worker = new Worker(THREAD_SOURCE, { eval: true, workerData: options });
    // An idle thread keeps nothing alive; one with work outstanding does (run() refs it).
    this.worker.unref();
    this.worker.on('message', (message: { id: number; error?: string; outputs?: Outputs }) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.settled(message.id);
      if (message.error !== undefined) waiting.reject(new Error(message.error));
      else waiting.resolve(message.outputs!);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the recognition thread exited (code ${code})`)));
  }

  /** Runs the model on `input` (its buffer is handed over to the thread, not copied). */
  run(input: TensorData<Float32Array>): Promise<Outputs> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Outputs>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, data: input.data, dims: input.dims }, [input.data.buffer as ArrayBuffer]);
    });
  }

  /** True once the thread has failed or ended: every later run() rejects. */
  get broken(): boolean {
    return this.failure !== undefined;
  }

  async terminate(): Promise<void> {
    this.fail(new Error('the recognition thread was stopped'));
    await this.worker.terminate();
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const [id, waiting] of this.pending) {
      this.settled(id);
      waiting.reject(this.failure);
    }
  }
}
