/**
 * The writes of the SQLite vector backfill (backfill.ts), synchronous: run in a worker thread with its
 * own connection when the database is a file (the graph of a large version takes seconds of CPU, which
 * must not stop an API process's event loop), in the caller's thread for ':memory:'.
 */
import type Database from 'better-sqlite3';
import type { CatalogMeta } from '../../catalog/meta.ts';
import { versionTables } from './schema.ts';
import { graphVersion } from './vector-index.ts';

/** A vector to write: the part id, the vector and its key (float32 and key bytes, cheap to post). */
export interface VectorRow {
  id: number;
  vec: Float32Array;
  key: Uint8Array;
}

export function createBackfillCore(db: Database.Database, dbFile: string, opts: { vectorIndexMin?: number } = {}) {
  const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').pluck();
  const tablesOf = (version: string) => {
    const t = versionTables(version);
    if (!exists.get(t.vec) || !exists.get(t.vkeys)) throw new Error(`index version ${version} has no vector table: it was loaded lexical-only`);
    return t;
  };
  return {
    writeVectors(version: string, rows: readonly VectorRow[]): void {
      const t = tablesOf(version);
      const del = db.prepare(`DELETE FROM ${t.vec} WHERE part_id = ?`);
      const ins = db.prepare(`INSERT INTO ${t.vec} (part_id, embedding) VALUES (?, ?)`);
      const key = db.prepare(`INSERT OR REPLACE INTO ${t.vkeys} (part_id, key) VALUES (?, ?)`);
      db.transaction(() => {
        for (const r of rows) {
          del.run(BigInt(r.id));
          ins.run(BigInt(r.id), Buffer.from(r.vec.buffer, r.vec.byteOffset, r.vec.byteLength));
          key.run(r.id, Buffer.from(r.key.buffer, r.key.byteOffset, r.key.byteLength));
        }
      })();
    },
    /** The graph (derived from the previous version's when they share most vectors), then the snapshot without `pending`. */
    complete(version: string): void {
      const t = tablesOf(version);
      const missing = db
        .prepare(`SELECT count(*) FROM ${t.parts} p WHERE NOT EXISTS (SELECT 1 FROM ${t.vkeys} k WHERE k.part_id = p.id)`)
        .pluck()
        .get() as number;
      if (missing > 0) throw new Error(`index version ${version} still has ${missing} parts without a vector`);
      const previous = (db.prepare("SELECT value FROM engine_meta WHERE key = 'previous'").pluck().get() as string | undefined) ?? null;
      graphVersion(db, dbFile, version, previous, { minVectors: opts.vectorIndexMin });
      db.transaction(() => {
        const text = db.prepare('SELECT meta FROM catalog_meta WHERE version = ?').pluck().get(version) as string | undefined;
        if (text === undefined) throw new Error(`index version ${version} has no catalogue snapshot`);
        const meta = JSON.parse(text) as CatalogMeta;
        delete meta.embedding.pending;
        db.prepare('UPDATE catalog_meta SET meta = ? WHERE version = ?').run(JSON.stringify(meta), version);
      })();
    },
  };
}

export type BackfillCore = ReturnType<typeof createBackfillCore>;
