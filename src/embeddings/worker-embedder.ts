/**
 * The embedding port over a worker thread (embed-worker.ts). onnxruntime-node runs a forward pass
 * synchronously on the calling thread, so an in-process model blocks the event loop for the whole
 * pass: every other request waits, and the query's own BM25 cannot start until the embedding is
 * done. In a worker, agentic search embeds the query while the main thread runs BM25 (SQLite runs
 * on the calling thread), and other requests are served meanwhile. Calls are answered in order; the
 * worker keeps the process alive only while a call is pending.
 */
import { Worker } from 'node:worker_threads';
import { workerClient } from '../util/worker-rpc.ts';
import type { Embedder } from './port.ts';
import type { TransformersEmbedderOptions } from './transformers.ts';

export async function createWorkerEmbedder(o: TransformersEmbedderOptions): Promise<Embedder> {
  const worker = new Worker(new URL('./embed-worker.mjs', import.meta.url), { workerData: o });
  const client = workerClient(worker, 'the embedding worker');
  let inFlight = 0;
  const call = async <T>(msg: Record<string, unknown>): Promise<T> => {
    if (inFlight++ === 0) worker.ref();
    try {
      return await client.call<T>(msg);
    } finally {
      if (--inFlight === 0) worker.unref();
    }
  };
  let info: { model: string; dims: number };
  try {
    info = await call<{ model: string; dims: number }>({ op: 'init' });
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  let closed = false;
  return {
    model: info.model,
    dims: info.dims,
    embed(texts) {
      if (closed) return Promise.reject(new Error('the embedder is closed'));
      return call<Float32Array[]>({ op: 'embed', texts: [...texts] });
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (!client.dead) await call({ op: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}
