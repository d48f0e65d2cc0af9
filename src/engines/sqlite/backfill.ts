/**
 * The SQLite adapter of the vector backfill (engines/vector-backfill.ts). Parts without a vector are
 * those without a key in the version's `vkeys` table; reads and the lease (a row of `engine_meta`) use
 * the engine's connection, the writes and the final graph a worker thread with a connection of its own
 * (backfill-worker.ts), started at the first write and ended when the fill is released or complete.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { PartRecord } from '../../catalog/part.ts';
import { workerClient, type WorkerClient } from '../../util/worker-rpc.ts';
import type { VectorBackfill, VectorFillClaim } from '../vector-backfill.ts';
import { createBackfillCore, type VectorRow } from './backfill-core.ts';
import { versionTables } from './schema.ts';
import { workerEntry } from '../../util/project.ts';

const CLAIM_KEY = 'vector_fill';

export function createSqliteBackfill(db: Database.Database, file: string, opts: { vectorIndexMin?: number; onChange?: () => void } = {}): VectorBackfill {
  let worker: { w: Worker; client: WorkerClient } | null = null;
  const inThread = file === ':memory:' ? createBackfillCore(db, file, opts) : null;
  const call = async (msg: Record<string, unknown>): Promise<void> => {
    if (inThread) {
      if (msg.op === 'write') inThread.writeVectors(msg.version as string, msg.rows as VectorRow[]);
      else if (msg.op === 'complete') inThread.complete(msg.version as string);
      return;
    }
    if (!worker || worker.client.dead) {
      const w = new Worker(workerEntry('backfill-worker', import.meta.url), { workerData: { file, vectorIndexMin: opts.vectorIndexMin } });
      w.unref();
      worker = { w, client: workerClient(w, 'the SQLite backfill worker') };
    }
    await worker.client.call(msg);
  };
  const stop = async () => {
    const w = worker;
    worker = null;
    if (w && !w.client.dead) await w.client.call({ op: 'close' }).catch(() => undefined);
    await w?.w.terminate().catch(() => undefined);
  };
  const readClaim = (): VectorFillClaim | null => {
    const text = db.prepare('SELECT value FROM engine_meta WHERE key = ?').pluck().get(CLAIM_KEY) as string | undefined;
    return text ? (JSON.parse(text) as VectorFillClaim) : null;
  };

  return {
    async partsWithoutVectors(version, afterId, limit) {
      const t = versionTables(version);
      const rows = db
        .prepare(`SELECT p.record FROM ${t.parts} p WHERE p.id > ? AND NOT EXISTS (SELECT 1 FROM ${t.vkeys} k WHERE k.part_id = p.id) ORDER BY p.id LIMIT ?`)
        .pluck()
        .all(afterId, limit) as string[];
      return rows.map((r) => JSON.parse(r) as PartRecord);
    },
    async writeVectors(version, items) {
      if (items.length === 0) return;
      await call({ op: 'write', version, rows: items.map((i) => ({ id: i.record.id, vec: i.vector, key: i.key })) });
    },
    async complete(version) {
      try {
        await call({ op: 'complete', version });
      } finally {
        await stop();
      }
      opts.onChange?.();
    },
    async claim(c) {
      // BEGIN IMMEDIATE: two processes never both find the lease free.
      const took = db.transaction(() => {
        const held = readClaim();
        if (held && held.version === c.version && held.owner !== c.owner && held.expiresAt > Date.now()) return false;
        db.prepare('INSERT OR REPLACE INTO engine_meta (key, value) VALUES (?, ?)').run(CLAIM_KEY, JSON.stringify(c));
        return true;
      });
      return took.immediate();
    },
    async release(version, owner) {
      await stop();
      db.transaction(() => {
        const held = readClaim();
        if (held?.version === version && held.owner === owner) db.prepare('DELETE FROM engine_meta WHERE key = ?').run(CLAIM_KEY);
      }).immediate();
    },
    async currentClaim(version) {
      const held = readClaim();
      return held?.version === version ? held : null;
    },
  };
}
