/**
 * The API process's vector fill (vector-fill.ts) in the background: when the live version waits for
 * vectors (the sample catalogue of a first `npm start`, an ingest `--embeddings background`) and this
 * process has the model it was ingested with, it fills them while serving, and search turns hybrid when
 * they are complete. It looks at start and every CHECK_MS (a new version may go live meanwhile, or the
 * process filling it may die).
 *
 * Requests come first: the model runs in its own thread with one intra-op thread (the API's setting), a
 * call embeds a few texts, and the fill yields the event loop between calls. While the fill runs, agentic
 * search is lexical-only and embeds no query, so no request waits for the model.
 */
import type { SearchEngine } from '../engines/port.ts';
import type { Logger } from '../log.ts';
import type { Embedder } from './port.ts';
import type { VectorCache } from './vector-cache.ts';
import { fillVectors, type VectorFillProgress } from './vector-fill.ts';

export interface BackgroundFill {
  /** The fill this process runs, or ran last; null when it has run none. */
  status(): Readonly<VectorFillProgress> | null;
  /** Stops the fill between two calls of the model (the rest is left for later) and stops looking. */
  stop(): Promise<void>;
}

/** How often the process looks for a version waiting for vectors. */
const CHECK_MS = 10_000;
/** Texts per call of the model while serving (about 0.1-0.3 s of the model's thread each). */
const API_BATCH = 8;

export function startBackgroundFill(o: {
  engine: SearchEngine;
  embedder: Embedder;
  openCache: () => Promise<VectorCache | null>;
  log: Logger;
  checkMs?: number;
}): BackgroundFill {
  let last: VectorFillProgress | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  /** Versions this process will not fill (ingested with another model). */
  const refused = new Set<string>();
  const abort = new AbortController();
  let lastLogged = 0;

  const check = async (): Promise<void> => {
    const meta = await o.engine.meta();
    if (stopped || !meta?.embedding.pending || refused.has(meta.version) || !o.engine.backfill) return;
    const cache = await o.openCache().catch(() => null);
    try {
      o.log.info('filling the vectors of the live version in the background; search is lexical-only until they are complete', {
        version: meta.version,
        parts: meta.embedding.pending,
      });
      const p = await fillVectors({
        engine: o.engine,
        embedder: o.embedder,
        cache,
        version: meta.version,
        batchSize: API_BATCH,
        signal: abort.signal,
        pause: () => new Promise((resolve) => setImmediate(resolve)),
        onProgress: (p) => {
          last = { ...p };
          if (p.state === 'embedding' && Date.now() - lastLogged > 5000) {
            lastLogged = Date.now();
            o.log.info('vector fill', { version: p.version, done: p.done, total: p.total });
          }
        },
      });
      if (p.state === 'complete') o.log.info('vectors complete: hybrid search', { version: p.version, parts: p.done, embedded: p.embedded });
      else if (p.state === 'failed') {
        o.log.warn('vector fill failed; search stays lexical-only', { version: p.version, reason: p.reason });
        if (/another embedding model/.test(p.reason ?? '')) refused.add(p.version);
      } else o.log.info('vector fill stopped', { version: p.version, reason: p.reason });
    } finally {
      await cache?.close();
    }
  };
  const tick = () => {
    if (running || stopped) return;
    running = check()
      .catch((e: unknown) => o.log.warn('vector fill check failed', { error: (e as Error).message }))
      .finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, o.checkMs ?? CHECK_MS);
  timer.unref();
  return {
    status: () => last,
    async stop() {
      stopped = true;
      clearInterval(timer);
      abort.abort();
      await running;
    },
  };
}
