/**
 * Approximate nearest neighbours for the SQLite adapter: an HNSW graph (usearch) over one index
 * version's vectors, built by the ingest before the version goes live and saved beside the
 * database file (`<db>.<vec table>.hnsw`), read into memory by each serving process on its first kNN
 * query (usearch's `load`; its memory-mapped `view` crashed the process in a test run once a viewed
 * graph that failed the checks below was collected: libuv's "uv__close: Assertion fd > STDERR_FILENO").
 *
 * The exact scan (vector-scan.ts) reads every vector: 7 ms per query over the 29k real catalogue on
 * the slow day of bench/README.md, and it grows with the catalogue (888 MB of float32 at 578k
 * parts). The graph answers the same window in about 0.5-1 ms with 97.5% of the exact nearest 100
 * and 99.6% of the nearest 10 (bench/results/relevance.md, "Vector index"). Its candidates are
 * re-scored with the exact float32 cosine, so the scores and the order of the parts it finds are the
 * exact scan's.
 *
 * Small versions (under ANN_MIN_VECTORS vectors) get no graph: the exact scan costs about as much.
 */
import fs from 'node:fs';
import os from 'node:os';
import type Database from 'better-sqlite3';
import { versionTables } from './schema.ts';
import { exactDistances, usearch, type UsearchIndex, type VectorMatrix } from './vector-scan.ts';

/** Versions with fewer vectors are scanned exactly (no graph is built). */
export const ANN_MIN_VECTORS = 10_000;
/**
 * Graph parameters: neighbours per node, candidate list while building and while searching (read when
 * a graph is opened, so a change applies to graphs built before it). Searching with 128 candidates
 * instead of 256 finds 97.5% of the exact nearest 100 instead of 99.2% (99.6% / 99.9% of the nearest
 * 10) in about two thirds of the time, with the same fixture metrics, hybrid and vector-only
 * (bench/results/relevance.md, "Vector index: fewer candidates while searching").
 */
export const HNSW_CONFIG = { connectivity: 16, expansion_add: 128, expansion_search: 128, quantization: 'f16' } as const;

/** The graph file of a version's vec table, or null for an in-memory database. */
export function vectorIndexFile(dbFile: string, vecTable: string): string | null {
  return dbFile === ':memory:' || dbFile === '' ? null : `${dbFile}.${vecTable}.hnsw`;
}

const newIndex = (dims: number): UsearchIndex => new usearch!.Index({ dimensions: dims, metric: 'cos', ...HNSW_CONFIG, multi: false });

/** Vectors read from the vec table and added to the graph at a time while building (bounded memory). */
const BUILD_CHUNK = 8192;

/**
 * Builds the graph of a version's vectors (keys: part ids) and saves it to `file` (written to a
 * temporary name, then renamed: a reader never loads a half-written graph). The vectors are read from
 * the vec table and added a chunk at a time, so the build holds the graph and one chunk, not every
 * vector twice; it uses all but one core. Returns the number of vectors in it, or null when none was
 * built (no usearch, fewer than `minVectors` vectors). Any leftover graph at `file` (from a version of
 * the same name in a database since deleted) is removed first, so a version never meets a graph that
 * is not its own.
 */
export function buildVectorIndex(db: Database.Database, vecTable: string, file: string, minVectors = ANN_MIN_VECTORS): number | null {
  removeVectorIndex(file);
  if (!usearch) return null;
  const count = db.prepare(`SELECT count(*) FROM ${vecTable}`).pluck().get() as number;
  if (count === 0 || count < minVectors) return null;
  const threads = Math.max(1, os.availableParallelism() - 1);
  let ix: UsearchIndex | null = null;
  let dims = 0;
  let keys: bigint[] = [];
  let chunk: Float32Array | null = null;
  let n = 0;
  let added = 0;
  const flush = () => {
    if (n === 0) return;
    ix!.add(BigUint64Array.from(keys), chunk!.subarray(0, n * dims), threads);
    added += n;
    keys = [];
    n = 0;
  };
  for (const [id, e] of db.prepare(`SELECT part_id, embedding FROM ${vecTable}`).raw().iterate() as IterableIterator<[number | bigint, Buffer]>) {
    if (!ix) {
      dims = e.byteLength / 4;
      ix = newIndex(dims);
      chunk = new Float32Array(BUILD_CHUNK * dims);
    }
    chunk!.set(new Float32Array(e.buffer, e.byteOffset, dims), n * dims);
    keys.push(BigInt(id));
    if (++n === BUILD_CHUNK) flush();
  }
  flush();
  if (!ix) return null;
  saveIndex(ix, file);
  return added;
}

/** Largest share of a version's vectors that may differ from the live version's for its graph to be derived from the live graph. */
export const GRAPH_UPDATE_MAX_SHARE = 0.1;

/**
 * The graph of a new version derived from the live version's graph instead of built from scratch: the
 * vectors the two versions share (same part id and vector key, schema.ts `vkeys`) stay in it, those of
 * parts dropped or changed are removed, and those of new or changed parts added. A re-ingest of an
 * unchanged dump then builds no graph at all, and one with 1% changed adds 1% (a 29k graph from scratch
 * takes minutes on a loaded 2-core host). Returns the vectors in the graph saved to `file`, or null when
 * the live graph cannot serve: none, not of the live vectors (its size), vectors without keys, or more than
 * `maxShare` of the vectors changed (each removal leaves a hole in the graph; past that a new graph is
 * better). The caller then builds from scratch (buildVectorIndex).
 */
export function deriveVectorIndex(
  db: Database.Database,
  t: { vec: string; vkeys: string },
  file: string,
  base: { vec: string; vkeys: string; file: string | null },
  opts: { minVectors?: number; maxShare?: number } = {},
): number | null {
  if (!usearch || !base.file || !fs.existsSync(base.file)) return null;
  const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').pluck();
  if (!exists.get(base.vkeys) || !exists.get(t.vkeys)) return null;
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  const n = count(t.vec);
  if (n === 0 || n < (opts.minVectors ?? ANN_MIN_VECTORS) || count(t.vkeys) !== n) return null;
  const baseCount = count(base.vkeys);
  if (count(base.vec) !== baseCount) return null;
  const ids = (sql: string) => (db.prepare(sql).pluck().all() as (number | bigint)[]).map((x) => BigInt(x));
  const changed = ids(`SELECT n.part_id FROM ${t.vkeys} n LEFT JOIN ${base.vkeys} o ON o.part_id = n.part_id WHERE o.key IS NULL OR o.key <> n.key`);
  const dropped = ids(`SELECT o.part_id FROM ${base.vkeys} o LEFT JOIN ${t.vkeys} n ON n.part_id = o.part_id WHERE n.part_id IS NULL`);
  if (changed.length + dropped.length > (opts.maxShare ?? GRAPH_UPDATE_MAX_SHARE) * n) return null;
  const probe = db.prepare(`SELECT embedding FROM ${t.vec} LIMIT 1`).pluck().get() as Buffer;
  const dims = probe.byteLength / 4;
  const ix = newIndex(dims);
  try {
    ix.load(base.file);
  } catch {
    return null;
  }
  if (ix.size() !== baseCount || ix.dimensions() !== dims) return null;
  const gone = [...dropped, ...changed.filter((id) => ix.contains(id))];
  if (gone.length) ix.remove(BigUint64Array.from(gone));
  const read = db.prepare(`SELECT embedding FROM ${t.vec} WHERE part_id = ?`).pluck();
  for (let i = 0; i < changed.length; i += BUILD_CHUNK) {
    const keys = changed.slice(i, i + BUILD_CHUNK);
    const chunk = new Float32Array(keys.length * dims);
    keys.forEach((id, j) => {
      const e = read.get(id) as Buffer;
      chunk.set(new Float32Array(e.buffer, e.byteOffset, dims), j * dims);
    });
    ix.add(BigUint64Array.from(keys), chunk, Math.max(1, os.availableParallelism() - 1));
  }
  if (ix.size() !== n) return null;
  saveIndex(ix, file);
  return n;
}

/**
 * Saves `version`'s graph beside the database file before the version's vectors are searched: derived
 * from `base`'s graph (the live version's) when the two share most vectors, else built from scratch.
 * Without it kNN still answers, by the exact scan: a failed build (a full disk) is reported, not fatal.
 */
export function graphVersion(
  db: Database.Database,
  dbFile: string,
  version: string,
  base: string | null,
  opts: { minVectors?: number; trace?: (line: string) => void } = {},
): void {
  const file = vectorIndexFile(dbFile, versionTables(version).vec);
  if (!file) return;
  const t0 = performance.now();
  try {
    const from = base ? { ...versionTables(base), file: vectorIndexFile(dbFile, versionTables(base).vec) } : null;
    const derived = from ? deriveVectorIndex(db, versionTables(version), file, from, { minVectors: opts.minVectors }) : null;
    const n = derived ?? buildVectorIndex(db, versionTables(version).vec, file, opts.minVectors);
    if (n !== null)
      opts.trace?.(`HNSW graph of ${n} vectors ${derived !== null ? `derived from ${base}'s` : 'built'} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (e) {
    process.stderr.write(`[sqlite] the HNSW graph of ${version} was not built (${(e as Error).message}); kNN uses the exact scan\n`);
    removeVectorIndex(file);
  }
}

/** Writes a graph to a temporary name, then renames it: a reader never loads a half-written graph. */
function saveIndex(ix: UsearchIndex, file: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    ix.save(tmp);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Deletes a version's graph file, if any; best effort (a file that cannot be removed is only disk space, and openVectorIndex checks what it maps). */
export function removeVectorIndex(file: string | null): void {
  try {
    if (file) fs.rmSync(file, { force: true });
  } catch {
    // left behind
  }
}

/** Vectors of the version searched for themselves when a graph is opened (see openVectorIndex). */
const SELF_CHECKS = 8;

export interface VectorIndex {
  search(q: Float32Array, n: number): { id: number; distance: number }[];
}

/**
 * The saved graph of a version, read into memory, for searches re-scored against `m` (the same
 * version's vectors in memory); null when there is no graph file, usearch does not load, or the
 * graph is not of these vectors: another size or dimension, or a sample of the version's own vectors
 * does not find itself in it (a stale file).
 */
export function openVectorIndex(file: string | null, m: VectorMatrix): VectorIndex | null {
  if (!usearch || !file || !fs.existsSync(file)) return null;
  const ix = newIndex(m.dims);
  try {
    ix.load(file);
  } catch {
    return null;
  }
  if (ix.size() !== m.ids.length || ix.dimensions() !== m.dims) return null;
  // A graph of other vectors under the same ids (a leftover of a deleted database, another model) would
  // pass the size check: the version's own vectors must find themselves (or an identical vector) among
  // their 10 nearest in the graph. An HNSW search misses now and then (about 1 in 1,000 here), so 6 of
  // the 8 samples must; a stale graph finds about 1 in 100. Zero vectors are no sample (every distance is 1).
  let checked = 0;
  let passed = 0;
  for (let c = 0; c < m.ids.length && checked < SELF_CHECKS; c++) {
    const row = Math.floor((c * 7919) % m.ids.length);
    const q = m.data.subarray(row * m.dims, (row + 1) * m.dims);
    if (!q.some((x) => x !== 0)) continue;
    checked++;
    const found = exactDistances(m, q, Array.from(ix.search(q, 10, 1).keys, Number));
    if (found.length && found[0]!.distance <= 1e-5) passed++;
  }
  if (checked > 0 && passed < Math.ceil((checked * 3) / 4)) {
    process.stderr.write(
      `[sqlite] the HNSW graph ${file} does not hold this version's vectors (${passed} of ${checked} found themselves): kNN uses the exact scan\n`,
    );
    return null;
  }
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
