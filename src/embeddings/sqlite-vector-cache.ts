/**
 * The vector cache (vector-cache.ts) in a SQLite file of its own (default `<data dir>/embedding-cache.db`):
 * one row per key, the vector as float32 bytes. A file apart from the engine's database, so that its
 * writes never wake the API's readers of the index (they watch the index file's commits) and never wait
 * for an ingest's writes to it; any engine's ingest can use it.
 *
 * Several processes may share the file (an ingest beside an API filling vectors): WAL, and a busy
 * timeout for the short write transactions. Deleted rows' pages go back to the file system after a
 * commit (incremental auto-vacuum), so the file shrinks with the cache.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_CACHE_KEEP, type VectorCache } from './vector-cache.ts';

const DDL = `
CREATE TABLE IF NOT EXISTS cache_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS vectors (key BLOB NOT NULL UNIQUE, vec BLOB NOT NULL, used INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS vectors_used ON vectors(used);
`;

/** Keys per statement of a lookup (SQLite's default limit of bound parameters is 32,766). */
const LOOKUP_CHUNK = 500;

export function createSqliteVectorCache(file: string, opts: { keep?: number } = {}): VectorCache {
  const keep = opts.keep ?? DEFAULT_CACHE_KEEP;
  if (!Number.isInteger(keep) || keep < 1) throw new RangeError(`vector cache: keep must be a whole number >= 1, got ${keep}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  // Before the first table: 16 KiB pages hold ten 1.5 KB vectors (4 KiB ones two, a quarter left empty).
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'vectors'").get()) {
    db.pragma('page_size = 16384');
    db.pragma('auto_vacuum = INCREMENTAL');
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(DDL);

  const generation = db.prepare<[], number>("SELECT coalesce((SELECT value FROM cache_meta WHERE key = 'generation'), 0)").pluck();
  const lookups = new Map<number, Database.Statement>();
  const lookup = (n: number) => {
    let st = lookups.get(n);
    if (!st) lookups.set(n, (st = db.prepare(`SELECT key, vec, used FROM vectors WHERE key IN (${Array(n).fill('?').join(',')})`).raw()));
    return st;
  };
  const stamp = db.prepare<[number, Buffer, number]>('UPDATE vectors SET used = ? WHERE key = ? AND used < ?');
  const upsert = db.prepare<[Buffer, Buffer, number]>(
    'INSERT INTO vectors (key, vec, used) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET vec = excluded.vec, used = excluded.used',
  );

  const read = db.transaction((keys: readonly Buffer[]) => {
    const current = generation.get()! + 1;
    const found = new Map<string, Float32Array>();
    for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
      const chunk = keys.slice(i, i + LOOKUP_CHUNK);
      for (const [key, vec, used] of lookup(chunk.length).all(...chunk) as [Buffer, Buffer, number][]) {
        // Copied out of SQLite's buffer, 4-byte aligned.
        found.set(key.toString('latin1'), new Float32Array(vec.buffer.slice(vec.byteOffset, vec.byteOffset + vec.byteLength)));
        if (used < current) stamp.run(current, key, current);
      }
    }
    return keys.map((k) => found.get(k.toString('latin1')) ?? null);
  });
  const write = db.transaction((keys: readonly Buffer[], vectors: readonly Float32Array[]) => {
    const current = generation.get()! + 1;
    keys.forEach((k, i) => {
      const v = vectors[i]!;
      upsert.run(k, Buffer.from(v.buffer, v.byteOffset, v.byteLength), current);
    });
  });
  const close = db.transaction(() => {
    const current = generation.get()! + 1;
    db.prepare("INSERT INTO cache_meta (key, value) VALUES ('generation', ?) ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)").run(current);
    const dropped = db.prepare('DELETE FROM vectors WHERE used <= ?').run(current - keep).changes;
    const kept = db.prepare('SELECT count(*) FROM vectors').pluck().get() as number;
    return { dropped, kept };
  });

  return {
    async get(keys) {
      return keys.length ? read(keys) : [];
    },
    async put(keys, vectors) {
      if (keys.length !== vectors.length) throw new RangeError(`vector cache: ${keys.length} keys for ${vectors.length} vectors`);
      if (keys.length) write(keys, vectors);
    },
    async commit() {
      const r = close();
      if (r.dropped > 0) db.pragma('incremental_vacuum');
      return r;
    },
    async stats() {
      const row = db.prepare('SELECT count(*) AS n, coalesce(sum(length(vec)), 0) AS b FROM vectors').get() as { n: number; b: number };
      return { vectors: row.n, bytes: row.b };
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
