/**
 * The embedding port over a worker thread (embed-worker.ts). onnxruntime-node runs a forward pass
 * synchronously on the calling thread, so an in-process model blocks the event loop for the whole
 * pass: every other request waits, and the query's own BM25 cannot start until the embedding is
 * done. In a worker, agentic search embeds the query while the main thread runs BM25 (SQLite runs
 * on the calling thread), and other requests are served meanwhile.
 *
 * - A call is posted at once (synchronously, once the model is loaded), so the caller's own
 *   synchronous work overlaps it.
 * - The worker handles calls one at a time, in order. It keeps the process alive only while it works on a call,
 *   or while the embedder closes; closing waits for the calls in flight.
 * - A worker that dies (a native crash, out of memory) fails its calls. A call that gets no answer
 *   within its time limit fails too, and its worker is retired and ended once idle: terminating a worker
 *   inside a forward pass aborts the whole process (onnxruntime-node throws a C++ exception as the
 *   thread's environment goes away). Such a worker is abandoned: it no longer keeps the process alive,
 *   and closing waits at most ABANDONED_GRACE_MS for its pass, so a hung pass cannot hold up a shutdown.
 *   Either way calls in the next RESTART_AFTER_MS fail at once, and the call after that starts a new worker. So one failure neither hangs requests nor leaves the
 *   service without embeddings for good.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { workerClient, type WorkerClient } from '../util/worker-rpc.ts';
import type { Logger } from '../log.ts';
import type { Embedder } from './port.ts';
import type { TransformersEmbedderOptions } from './transformers.ts';
import { workerEntry } from '../util/project.ts';

type ModelInfo = { model: string; dims: number; fingerprint?: string };

interface Running {
  worker: Worker;
  client: WorkerClient;
  /** The worker's replies still to come (it is ref'd while there are any). */
  busy: Set<Promise<void>>;
  /** The model loading in this worker (sent with its first call), and its answer once loaded. */
  ready?: Promise<ModelInfo>;
  info?: ModelInfo;
  /** The failure of this worker has been recorded (the restart pause runs from it). */
  recorded: boolean;
  /**
   * A call of this worker went unanswered past its time limit: the worker may never answer again (a hung
   * forward pass), so it no longer keeps the process alive, and closing does not wait for it.
   */
  abandoned: boolean;
  /** Resolves when the worker is abandoned. */
  whenAbandoned: Promise<void>;
  abandon(): void;
}

/** After a worker fails, calls fail at once for this long before a new worker is tried. */
const RESTART_AFTER_MS = 10_000;
/** Time limit of loading the model in a new worker. */
const LOAD_LIMIT_MS = 120_000;
/** Time limit of one embedding call (plus PER_TEXT_MS per text). */
const CALL_LIMIT_MS = 30_000;
const PER_TEXT_MS = 100;
/** How long closing waits for abandoned workers' passes to end (cleanly) before it lets go of them. */
const ABANDONED_GRACE_MS = 10_000;

let bindingPinned = false;

/**
 * Loads onnxruntime-node's native binding in this thread once, for the life of the process. Node
 * unloads an addon when the last thread that loaded it ends. This binding cannot be loaded again
 * after that ("Module did not self-register"). Without the pin, a worker started after the previous
 * one ended (a restart, or a second embedder after the first was closed) could never load the model.
 * The copy pinned is the one transformers.js resolves (1.30 under transformers.js 4.3; 1.21, which
 * transformers.js 3.8 asked for, could not be used from several threads).
 */
function pinBinding(): void {
  if (bindingPinned) return;
  bindingPinned = true;
  try {
    const req = createRequire(import.meta.url);
    createRequire(req.resolve('@huggingface/transformers'))('onnxruntime-node');
  } catch {
    // No binding for this platform: the worker fails to load the model and says why.
  }
}

export interface WorkerEmbedder extends Embedder {
  /** Ends the current worker once idle, as a crash would for what follows (tests and diagnostics); the next call starts a new one after the pause. */
  endWorker(): Promise<void>;
}

export async function createWorkerEmbedder(
  o: TransformersEmbedderOptions,
  opts: {
    restartAfterMs?: number;
    callLimitMs?: number;
    perTextMs?: number;
    abandonedGraceMs?: number;
    log?: Logger;
    /**
     * What the model is, known without loading it (transformers.ts describeModelFolder): the worker then
     * starts and loads the model at the first call, not now (an ingest whose vectors are all kept needs no
     * model), and a model that fails to load fails that call.
     */
    known?: ModelInfo;
  } = {},
): Promise<WorkerEmbedder> {
  const log = opts.log;
  const restartAfterMs = opts.restartAfterMs ?? RESTART_AFTER_MS;
  const callLimitMs = opts.callLimitMs ?? CALL_LIMIT_MS;
  const perTextMs = opts.perTextMs ?? PER_TEXT_MS;
  const abandonedGraceMs = opts.abandonedGraceMs ?? ABANDONED_GRACE_MS;
  /** Retired workers not ended yet (each its endWhenIdle). */
  const ending = new Set<Promise<void>>();
  let running: Running | null = null;
  let failed: { at: number; error: Error } | null = null;
  let closed = false;
  /** The first worker has loaded the model (its own failure to load is the creator's to report). */
  let served = false;
  const recordFailure = (r: Running, error: Error) => {
    if (r.recorded) return;
    r.recorded = true;
    failed = { at: Date.now(), error };
    if (!closed && served)
      log?.warn('embedding worker failed: hybrid search answers lexical-only until a new worker has loaded the model', {
        error: error.message,
        restart_after_ms: restartAfterMs,
      });
  };
  const start = (): Running => {
    if (failed && Date.now() - failed.at < restartAfterMs) throw failed.error;
    if (failed) log?.info('starting a new embedding worker', { after: failed.error.message });
    pinBinding();
    const worker = new Worker(workerEntry('embed-worker', import.meta.url), { workerData: o });
    worker.unref();
    let abandon = () => {};
    const whenAbandoned = new Promise<void>((resolve) => (abandon = resolve));
    const r: Running = {
      worker,
      client: workerClient(worker, 'the embedding worker'),
      busy: new Set(),
      recorded: false,
      abandoned: false,
      whenAbandoned,
      abandon() {
        r.abandoned = true;
        worker.unref();
        abandon();
      },
    };
    worker.once('exit', () => recordFailure(r, r.client.dead ?? new Error('the embedding worker exited')));
    return r;
  };
  /** The live worker, or a new one when the last has died. */
  const live = (): Running => {
    if (running?.client.dead) recordFailure(running, running.client.dead);
    if (!running || running.client.dead) running = start();
    return running;
  };
  /** Ends a worker once it is idle: terminating one inside a forward pass aborts the whole process. */
  const endWhenIdle = (r: Running): Promise<void> =>
    r.busy.size === 0 ? (r.worker.ref(), r.worker.terminate().then(() => undefined)) : Promise.allSettled([...r.busy]).then(() => endWhenIdle(r));
  /** Takes a worker out of service for `error`: no new calls go to it (the restart pause runs), and it ends once idle. */
  const retire = (r: Running, error: Error): Promise<void> => {
    recordFailure(r, error);
    if (running === r) running = null;
    const ended = endWhenIdle(r);
    ending.add(ended);
    void ended.then(() => ending.delete(ended));
    return ended;
  };
  /** Counts work of the worker until `p` settles: it is ref'd meanwhile, and not ended before. */
  const track = (r: Running, p: Promise<unknown>): void => {
    if (r.busy.size === 0 && !r.abandoned) r.worker.ref();
    const settled = p.then(
      () => undefined,
      () => undefined,
    );
    r.busy.add(settled);
    void settled.then(() => {
      r.busy.delete(settled);
      if (r.busy.size === 0) r.worker.unref();
    });
  };
  /**
   * Posts one call now, keeping the process alive while the worker works on it. A call over its time
   * limit fails at once, and its worker is retired: no new calls go to it, and it ends once idle.
   */
  const post = <T>(r: Running, msg: Record<string, unknown>, limitMs: number): Promise<T> => {
    const reply = r.client.call<T>(msg);
    track(r, reply);
    let timer: NodeJS.Timeout | undefined;
    return new Promise<T>((resolve, reject) => {
      timer = setTimeout(() => {
        const e = new Error(`the embedding worker did not answer within ${limitMs} ms`);
        r.abandon();
        void retire(r, e);
        reject(e);
      }, limitMs);
      timer.unref();
      reply.then(resolve, reject);
    }).finally(() => clearTimeout(timer));
  };
  const ensureModel = (r: Running): Promise<ModelInfo> => {
    if (!r.ready) {
      r.ready = post<ModelInfo>(r, { op: 'init' }, LOAD_LIMIT_MS).then((info) => (r.info = info));
      // A model that fails to load ends its worker: the next call starts afresh (after the pause).
      r.ready.catch((e: Error) => void retire(r, e));
    }
    return r.ready;
  };
  /** Embeds on the live worker: posted synchronously when its model is loaded, after the load otherwise. */
  const embedOn = (texts: readonly string[]): Promise<Float32Array[]> => {
    const r = live();
    const msg = { op: 'embed', texts: [...texts] };
    const limit = callLimitMs + perTextMs * texts.length;
    if (r.info) return post<Float32Array[]>(r, msg, limit);
    // Counted from now, not from the end of the load: closing or ending the worker waits for it too.
    const later = ensureModel(r).then(() => ((served = true), post<Float32Array[]>(r, msg, limit)));
    track(r, later);
    return later;
  };

  const info = opts.known ?? (await ensureModel(live()));
  served = opts.known === undefined;
  return {
    model: info.model,
    dims: info.dims,
    fingerprint: info.fingerprint,
    embed(texts) {
      if (closed) return Promise.reject(new Error('the embedder is closed'));
      try {
        return embedOn(texts);
      } catch (e) {
        return Promise.reject(e);
      }
    },
    async endWorker() {
      // Retired first, so that new calls do not keep it busy.
      if (running) await retire(running, new Error('the embedding worker was ended'));
    },
    async close() {
      if (closed) return;
      closed = true;
      const r = running;
      running = null;
      if (r) {
        try {
          // The calls in flight, each within its time limit: one that runs past it abandons the worker.
          await Promise.race([Promise.allSettled([...r.busy]), r.whenAbandoned]);
          // Posted like any call, so the process stays up for the answer and for the end of the worker.
          if (!r.client.dead && !r.abandoned) await post(r, { op: 'close' }, callLimitMs);
        } catch {
          // the worker is going away either way
        } finally {
          // An abandoned worker was retired when its call ran out: it is among `ending`.
          if (!r.abandoned) await endWhenIdle(r);
        }
      }
      // Abandoned workers get a grace period to finish their pass and end cleanly; after it closing lets
      // go of them (a hung pass must not hold up a shutdown). Ending the process while one is still
      // inside its pass may abort it (onnxruntime-node, see above): the price of not hanging.
      if (ending.size) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.allSettled([...ending]), new Promise((resolve) => (timer = setTimeout(resolve, abandonedGraceMs)))]);
        clearTimeout(timer);
      }
    },
  };
}
