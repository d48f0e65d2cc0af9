/**
 * Worker thread of the embedding model (worker-embedder.ts): loads the transformers.js embedder and
 * answers {op: 'init' | 'embed' | 'close', seq, ...}, one at a time, with {seq, ok, value | error}, the vectors' buffers
 * transferred (not copied). The model runs here so that a forward pass (synchronous inside
 * onnxruntime-node) never blocks the API's event loop.
 */
import { workerData } from 'node:worker_threads';
import { serveRequests } from '../util/worker-rpc.ts';
import type { Embedder } from './port.ts';
import { createTransformersEmbedder, type TransformersEmbedderOptions } from './transformers.ts';

const options = workerData as TransformersEmbedderOptions;
let embedder: Embedder | null = null;

type Msg = { seq: number } & ({ op: 'init' } | { op: 'embed'; texts: string[] } | { op: 'close' });

// One message at a time, in arrival order (serveRequests): 'close' never disposes the model under an embed still running.
serveRequests<Msg>(
  async (m) => {
    if (m.op === 'init') {
      embedder ??= await createTransformersEmbedder(options);
      return { model: embedder.model, dims: embedder.dims, fingerprint: embedder.fingerprint };
    }
    if (m.op === 'embed') {
      if (!embedder) throw new Error('the embedding worker has no model loaded');
      return embedder.embed(m.texts);
    }
    await embedder?.close();
    embedder = null;
    return undefined;
  },
  { transfer: (value) => (Array.isArray(value) ? (value as Float32Array[]).map((v) => v.buffer as ArrayBuffer) : []) },
);
