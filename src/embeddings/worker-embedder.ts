/**
 * The embedding port over a worker thread (embed-worker.ts). onnxruntime-node runs a forward pass
 * synchronously on the calling thread, so an in-process model blocks the event loop for the whole
 * pass: every other request waits, and the query's own BM25 cannot start until the embedding is
 * done. In a worker, agentic search embeds the query while the main thread runs BM25 (SQLite runs
 * on the calling thread), and other requests are served meanwhile.
 *
 * Calls are answered in order. The worker keeps the process alive only while a call is pending. When
 * it dies (a native crash, out of memory), the calls in flight fail and the next call starts a new
 * worker, so one failure does not leave the service without embeddings for good.
 */
import { Worker } from 'node:worker_threads';
import { workerClient, type WorkerClient } from '../util/worker-rpc.ts';
import type { Embedder } from './port.ts';
import type { TransformersEmbedderOptions } from './transformers.ts';

interface Running {
  worker: Worker;
  client: WorkerClient;
  /** The model loaded in this worker (sent with the worker's first call). */
  ready?: Promise<{ model: string; dims: number }>;
}

/** After a worker fails, calls fail at once for this long before a new worker is tried. */
const RESTART_AFTER_MS = 10_000;

export interface WorkerEmbedder extends Embedder {
  /** Ends the current worker as a crash would (tests and diagnostics); the next call starts a new one after the pause. */
  endWorker(): Promise<void>;
}

export async function createWorkerEmbedder(o: TransformersEmbedderOptions, opts: { restartAfterMs?: number } = {}): Promise<WorkerEmbedder> {
  const restartAfterMs = opts.restartAfterMs ?? RESTART_AFTER_MS;
  let inFlight = 0;
  let running: Running | null = null;
  let failed: { at: number; error: Error } | null = null;
  const start = (): Running => {
    if (failed && Date.now() - failed.at < restartAfterMs) throw failed.error;
    const worker = new Worker(new URL('./embed-worker.mjs', import.meta.url), { workerData: o });
    worker.unref();
    const r: Running = { worker, client: workerClient(worker, 'the embedding worker') };
    worker.once('exit', () => {
      failed = { at: Date.now(), error: r.client.dead ?? new Error('the embedding worker exited') };
    });
    return r;
  };
  /** One call on the live worker (a new one when the last has died), keeping the process alive meanwhile; null: load the model only. */
  const call = async <T>(msg: Record<string, unknown> | null): Promise<T> => {
    if (!running || running.client.dead) running = start();
    const r = running;
    if (inFlight++ === 0) r.worker.ref();
    try {
      if (!r.ready) {
        r.ready = r.client.call({ op: 'init' });
        // A model that fails to load ends its worker: the next call starts afresh (after the pause).
        r.ready.catch(() => void r.worker.terminate());
      }
      const info = await r.ready;
      return msg === null ? (info as T) : await r.client.call<T>(msg);
    } finally {
      if (--inFlight === 0) r.worker.unref();
    }
  };
  const info = await call<{ model: string; dims: number }>(null);
  let closed = false;
  return {
    model: info.model,
    dims: info.dims,
    embed(texts) {
      if (closed) return Promise.reject(new Error('the embedder is closed'));
      return call<Float32Array[]>({ op: 'embed', texts: [...texts] });
    },
    async endWorker() {
      await running?.worker.terminate();
    },
    async close() {
      if (closed) return;
      closed = true;
      const r = running;
      running = null;
      if (!r) return;
      try {
        if (!r.client.dead) await r.client.call({ op: 'close' });
      } catch {
        // the worker is going away either way
      } finally {
        await r.worker.terminate();
      }
    },
  };
}
