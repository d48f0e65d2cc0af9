/**
 * Exact nearest-neighbour scans over a version's vectors held in memory, by usearch's SIMD brute
 * force (`exactSearch`, one thread). sqlite-vec stays the store of record: the vectors are read from
 * its vec0 table once per index version, on the first kNN query. Measured on the 29k real catalogue
 * (384 dims): 1.7 ms per scan against 17-20 ms for vec0's own KNN, same neighbours, and 45 MB of
 * memory (4 bytes a dimension a part). When usearch cannot be loaded on this platform the engine
 * falls back to vec0's KNN (`vectorScanAvailable` is false).
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';

interface Usearch {
  exactSearch(dataset: Float32Array, queries: Float32Array, dimensions: number, count: number, metric: 'cos', threads?: number): { keys: BigUint64Array; distances: Float32Array };
}

const usearch: Usearch | null = (() => {
  try {
    return createRequire(import.meta.url)('usearch') as Usearch;
  } catch {
    return null;
  }
})();

export const vectorScanAvailable = usearch !== null;

/** Every vector of one index version: `ids[i]` is the part of row i of `data` (row-major). */
export interface VectorMatrix {
  ids: Float64Array;
  data: Float32Array;
  dims: number;
}

/** Reads a vec0 table (part_id, embedding) into memory; null when it is empty. */
export function loadVectorMatrix(db: Database.Database, vecTable: string): VectorMatrix | null {
  const count = db.prepare(`SELECT count(*) FROM ${vecTable}`).pluck().get() as number;
  if (count === 0) return null;
  let ids: Float64Array | null = null;
  let data: Float32Array | null = null;
  let dims = 0;
  let i = 0;
  // Row by row into arrays sized once: peak memory is the matrix, not the matrix plus every blob.
  for (const [id, e] of db.prepare(`SELECT part_id, embedding FROM ${vecTable}`).raw().iterate() as IterableIterator<[number | bigint, Buffer]>) {
    if (!data) {
      dims = e.byteLength / 4;
      ids = new Float64Array(count);
      data = new Float32Array(count * dims);
    }
    if (i >= count) break;
    ids![i] = Number(id);
    data.set(new Float32Array(e.buffer, e.byteOffset, dims), i * dims);
    i++;
  }
  if (!data || !ids) return null;
  return { ids: ids.subarray(0, i), data: data.subarray(0, i * dims), dims };
}

/** The n nearest rows to `q` by cosine distance (1 - cosine), nearest first. */
export function nearestRows(m: VectorMatrix, q: Float32Array, n: number): { id: number; distance: number }[] {
  if (!usearch) throw new Error('vector scan: usearch is not available');
  const count = Math.min(n, m.ids.length);
  if (count <= 0) return [];
  const r = usearch.exactSearch(m.data, q, m.dims, count, 'cos', 1);
  const out: { id: number; distance: number }[] = [];
  for (let i = 0; i < r.keys.length; i++) out.push({ id: m.ids[Number(r.keys[i])]!, distance: r.distances[i]! });
  return out;
}
