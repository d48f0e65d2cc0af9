/**
 * The vector fill: embeds the parts of a live version that went live without their vectors (ingest
 * `--embeddings background`, the sample catalogue of a first `npm start`), writes the vectors into the
 * version page by page, and makes them searchable once every part has one (the engine's backfill,
 * engines/vector-backfill.ts): search is lexical-only until then, hybrid after.
 *
 * - Resumable: the version itself says which parts still lack a vector, and the vectors computed go to
 *   the vector cache as well, so a fill stopped half-way (Ctrl-C, a restart) resumes where it was.
 * - One filler per version: a lease, renewed while the fill runs (a process that dies leaves the fill to
 *   the next one after LEASE_MS).
 * - It stops, leaving the rest for later, when its version is no longer the live one or no longer waits
 *   (another process completed it), when the lease is lost, or when `signal` aborts.
 * - In an API process (`pause` between batches, small batches, the model's one thread) it leaves the
 *   event loop and a core to requests.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { embeddingText } from '../catalog/normalise.ts';
import type { SearchEngine } from '../engines/port.ts';
import type { VectorBackfill } from '../engines/vector-backfill.ts';
import { createEmbedStage } from './embed-stage.ts';
import { embedderIdentity } from './key.ts';
import type { Embedder } from './port.ts';
import type { VectorCache } from './vector-cache.ts';

export interface VectorFillProgress {
  version: string;
  /** embedding: running; complete: the version's vectors are searchable; stopped: left for later; failed. */
  state: 'embedding' | 'complete' | 'stopped' | 'failed';
  /** Parts without a vector when the fill started, and how many of them have one now. */
  total: number;
  done: number;
  /** Of those, vectors the model computed (the others came from the cache). */
  embedded: number;
  started_at: string;
  finished_at: string | null;
  /** Why it stopped or failed. */
  reason: string | null;
}

/** How long a lease lasts without renewal. */
export const LEASE_MS = 60_000;
/** Parts read and written per page. */
const PAGE = 256;

export interface FillOptions {
  engine: SearchEngine;
  embedder: Embedder;
  cache: VectorCache | null;
  version: string;
  /** Texts per call of the model (small in an API process: a call holds the model's thread). */
  batchSize?: number;
  signal?: AbortSignal;
  /** Awaited between batches (an API process yields to requests). */
  pause?: () => Promise<void>;
  onProgress?: (p: Readonly<VectorFillProgress>) => void;
  leaseMs?: number;
  owner?: string;
}

export function fillOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** Fills `version`'s missing vectors; resolves with the final progress (state complete, stopped or failed). */
export async function fillVectors(o: FillOptions): Promise<VectorFillProgress> {
  const backfill = o.engine.backfill;
  const meta = await o.engine.meta();
  const p: VectorFillProgress = {
    version: o.version,
    state: 'embedding',
    total: meta?.version === o.version ? (meta.embedding.pending ?? 0) : 0,
    done: 0,
    embedded: 0,
    started_at: new Date().toISOString(),
    finished_at: null,
    reason: null,
  };
  const end = (state: VectorFillProgress['state'], reason: string | null) => {
    Object.assign(p, { state, reason, finished_at: new Date().toISOString() });
    o.onProgress?.(p);
    return p;
  };
  if (!backfill) return end('failed', `the ${o.engine.kind} engine cannot fill vectors`);
  if (meta?.version !== o.version) return end('stopped', `${o.version} is no longer the live version`);
  if (!meta.embedding.pending) return end('complete', null);
  if (meta.embedding.fingerprint && meta.embedding.fingerprint !== embedderIdentity(o.embedder))
    return end('failed', `${o.version} was ingested with another embedding model (${meta.embedding.model})`);

  const owner = o.owner ?? fillOwner();
  const leaseMs = o.leaseMs ?? LEASE_MS;
  const lease = () => backfill.claim({ version: o.version, owner, expiresAt: Date.now() + leaseMs, done: p.done, total: p.total });
  if (!(await lease())) return end('stopped', `another process is filling ${o.version}`);
  let lost = false;
  const renewal = setInterval(() => {
    lease().then(
      (held) => void (lost ||= !held),
      () => undefined, // a failed renewal is tried again; the lease lasts three intervals
    );
  }, leaseMs / 3);
  renewal.unref();
  const stage = createEmbedStage({ embedder: o.embedder, cache: o.cache });
  const batch = o.batchSize ?? 64;
  try {
    o.onProgress?.(p);
    let after = -1;
    for (;;) {
      const why = await stopReason(o, lost);
      if (why) return end('stopped', why);
      const parts = await backfill.partsWithoutVectors(o.version, after, PAGE);
      if (parts.length === 0) break;
      after = parts[parts.length - 1]!.id;
      const items: Parameters<VectorBackfill['writeVectors']>[1][number][] = [];
      for (let i = 0; i < parts.length; i += batch) {
        const chunk = parts.slice(i, i + batch);
        const e = await stage.vectors(chunk.map(embeddingText));
        chunk.forEach((record, j) => items.push({ record, vector: e.vectors[j]!, key: e.keys[j]! }));
        p.done += chunk.length;
        p.embedded = stage.counts.embedded;
        o.onProgress?.(p);
        if (o.signal?.aborted) break;
        await o.pause?.();
      }
      await backfill.writeVectors(o.version, items);
      if (o.signal?.aborted) return end('stopped', 'interrupted');
    }
    const why = await stopReason(o, lost);
    if (why) return end('stopped', why);
    await backfill.complete(o.version);
    await o.cache?.commit().catch(() => undefined);
    return end('complete', null);
  } catch (e) {
    return end('failed', (e as Error).message);
  } finally {
    clearInterval(renewal);
    await backfill.release(o.version, owner).catch(() => undefined);
  }
}

/** Why the fill must stop now, or null. */
async function stopReason(o: FillOptions, lost: boolean): Promise<string | null> {
  if (o.signal?.aborted) return 'interrupted';
  if (lost) return 'the lease was taken by another process';
  const meta = await o.engine.meta();
  if (meta?.version !== o.version) return `${o.version} is no longer the live version`;
  if (!meta.embedding.pending) return 'another process completed it';
  return null;
}
