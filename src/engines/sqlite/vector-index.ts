/**
 * Approximate nearest neighbours for the SQLite adapter: an HNSW graph (usearch) over one index
 * version's vectors, built by the ingest before the version goes live and saved beside the
 * database file (`<db>.<vec table>.hnsw`), memory-mapped by the serving processes.
 *
 * The exact scan (vector-scan.ts) reads every vector: 7 ms per query over the 29k real catalogue on
 * the slow day of bench/README.md, and it grows with the catalogue (888 MB of float32 at 578k
 * parts). The graph answers the same window in under 1 ms with about 99.7% of the exact nearest
 * 100 (bench/results/relevance.md, "Vector index"). Its candidates are re-scored with the exact
 * float32 cosine, so the scores and the order of the parts it finds are the exact scan's.
 *
 * Small versions (under ANN_MIN_VECTORS vectors) get no graph: the exact scan costs about as much.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { VectorMatrix } from './vector-scan.ts';
import { exactDistances, loadVectorMatrix } from './vector-scan.ts';

/** Versions with fewer vectors are scanned exactly (no graph is built). */
export const ANN_MIN_VECTORS = 10_000;
/** Graph parameters: neighbours per node, candidate list while building and while searching. */
export const HNSW_CONFIG = { connectivity: 16, expansion_add: 128, expansion_search: 256, quantization: 'f16' } as const;

interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads?: number): { keys: BigUint64Array; distances: Float32Array };
  size(): number;
  dimensions(): number;
  save(path: string): void;
  view(path: string): void;
}
interface UsearchModule {
  Index: new (config: Record<string, unknown>) => UsearchIndex;
}

const usearch: UsearchModule | null = (() => {
  try {
    return createRequire(import.meta.url)('usearch') as UsearchModule;
  } catch {
    return null;
  }
})();

/** The graph file of a version's vec table, or null for an in-memory database. */
export function vectorIndexFile(dbFile: string, vecTable: string): string | null {
  return dbFile === ':memory:' || dbFile === '' ? null : `${dbFile}.${vecTable}.hnsw`;
}

const newIndex = (dims: number): UsearchIndex => new usearch!.Index({ dimensions: dims, metric: 'cos', ...HNSW_CONFIG, multi: false });

/**
 * Builds the graph of a version's vectors (keys: part ids) and saves it to `file` (written to a
 * temporary name, then renamed: a reader never maps a half-written graph). Returns the number of
 * vectors in it, or null when none was built (no usearch, fewer than `minVectors` vectors).
 */
export function buildVectorIndex(db: Database.Database, vecTable: string, file: string, minVectors = ANN_MIN_VECTORS): number | null {
  if (!usearch) return null;
  const count = db.prepare(`SELECT count(*) FROM ${vecTable}`).pluck().get() as number;
  if (count === 0 || count < minVectors) return null;
  const m = loadVectorMatrix(db, vecTable);
  if (!m) return null;
  const ix = newIndex(m.dims);
  const keys = new BigUint64Array(m.ids.length);
  for (let i = 0; i < keys.length; i++) keys[i] = BigInt(m.ids[i]!);
  ix.add(keys, m.data, 0);
  const tmp = `${file}.${process.pid}.tmp`;
  ix.save(tmp);
  fs.renameSync(tmp, file);
  return m.ids.length;
}

/** Deletes a version's graph file, if any. */
export function removeVectorIndex(file: string | null): void {
  if (file) fs.rmSync(file, { force: true });
}

export interface VectorIndex {
  search(q: Float32Array, n: number): { id: number; distance: number }[];
}

/**
 * The saved graph of a version, memory-mapped, for searches re-scored against `m` (the same
 * version's vectors in memory); null when there is no graph file, usearch does not load, or the
 * graph does not hold exactly the vectors of `m` (a stale file).
 */
export function openVectorIndex(file: string | null, m: VectorMatrix): VectorIndex | null {
  if (!usearch || !file || !fs.existsSync(file)) return null;
  const ix = newIndex(m.dims);
  try {
    ix.view(file);
  } catch {
    return null;
  }
  if (ix.size() !== m.ids.length || ix.dimensions() !== m.dims) return null;
  return {
    /**
     * About the n nearest parts to `q` (the graph's candidates), with their exact float32 cosine
     * distances as the exact scan computes them, nearest first, ties by id.
     */
    search(q, n) {
      const count = Math.min(n, m.ids.length);
      if (count <= 0) return [];
      const r = ix.search(q, count, 1);
      const ids: number[] = [];
      for (let i = 0; i < r.keys.length; i++) ids.push(Number(r.keys[i]));
      return exactDistances(m, q, ids);
    },
  };
}
