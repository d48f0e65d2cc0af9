/**
 * Worker thread of the embedding model (worker-embedder.ts): loads the transformers.js embedder and
 * answers {op: 'init' | 'embed' | 'close', seq, ...}, one at a time, with {seq, ok, value | error}, the vectors' buffers
 * transferred (not copied). The model runs here so that a forward pass (synchronous inside
 * onnxruntime-node) never blocks the API's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Embedder } from './port.ts';
import { createTransformersEmbedder, type TransformersEmbedderOptions } from './transformers.ts';

const options = workerData as TransformersEmbedderOptions;
let embedder: Embedder | null = null;

type Msg = { seq: number } & ({ op: 'init' } | { op: 'embed'; texts: string[] } | { op: 'close' });

/** One message at a time, in arrival order: 'close' never disposes the model under an embed still running. */
let queue: Promise<void> = Promise.resolve();

parentPort!.on('message', (m: Msg) => {
  queue = queue.then(() => handle(m));
});

async function handle(m: Msg): Promise<void> {
  try {
    if (m.op === 'init') {
      embedder ??= await createTransformersEmbedder(options);
      parentPort!.postMessage({ seq: m.seq, ok: true, value: { model: embedder.model, dims: embedder.dims } });
    } else if (m.op === 'embed') {
      if (!embedder) throw new Error('the embedding worker has no model loaded');
      const vectors = await embedder.embed(m.texts);
      parentPort!.postMessage(
        { seq: m.seq, ok: true, value: vectors },
        vectors.map((v) => v.buffer as ArrayBuffer),
      );
    } else {
      await embedder?.close();
      embedder = null;
      parentPort!.postMessage({ seq: m.seq, ok: true });
    }
  } catch (e) {
    parentPort!.postMessage({ seq: m.seq, ok: false, error: (e as Error).message });
  }
}
