/**
 * Nearest neighbours of the SQLite adapter (the port's knn): the version's HNSW graph when the ingest
 * built one (vector-index.ts: approximate, re-scored exactly), else usearch's exact SIMD scan of the
 * live version's vectors in memory (vector-scan.ts), or sqlite-vec's vec0 KNN when usearch does not load.
 */
import type Database from 'better-sqlite3';
import type { EngineFilters, ScoredId } from '../port.ts';
import { filterSql } from './filters.ts';
import type { VersionTables } from './schema.ts';
import { loadVectorMatrix, nearestAmong, nearestRows, rowOfId, vectorScanAvailable, type VectorMatrix } from './vector-scan.ts';
import { openVectorIndex, vectorIndexFile, type VectorIndex } from './vector-index.ts';
import { nextWindow } from './window.ts';

/** sqlite-vec's largest k for a vec0 KNN query. */
const KNN_WINDOW_MAX = 4096;
/**
 * Largest share of the vectors a filter may pass for knn() to read the passing parts and compute
 * their distances directly, when the first window did not hold k of them.
 */
const SET_SCAN_SHARE = 1 / 8;
/** Windows up to this many vectors (and under a quarter of them) are read from the graph; larger ones by the exact scan. */
const GRAPH_WINDOW_MAX = 2048;

export function createKnn(db: Database.Database, stmt: (sql: string) => Database.Statement, memoryVectors: boolean, dbFile: string) {
  /**
   * The vectors and graph of the version last asked for, keyed by its vec table (a new version reloads),
   * and each part's status in it, read on the first status-only filter (agentic search's default): the
   * window's parts are then checked here, not joined in SQL (0.4-0.7 ms of a 0.7-1.1 ms kNN of 100 over
   * 29k parts).
   */
  let matrix: {
    version: string;
    m: VectorMatrix | null;
    graph: VectorIndex | null;
    /** Each row's status (`names[code[row]]`; code 0, '': no part row), 2 bytes a row. */
    statuses?: { code: Uint16Array; names: string[] };
    /** The version's distinct statuses (a status filter allowing all of them passes every part). */
    present?: Set<string>;
  } | null = null;
  /**
   * The status of a part by id ('' for a part with no vector), read for every part of the version on
   * first use, kept as a code per row of the vectors in memory (with each status string kept once).
   * Only after vectorMatrix(t) has loaded this version with its vectors (the status-only path needs them).
   */
  function statusOf(t: VersionTables): (id: number) => string {
    const m = matrix!.m!;
    if (!matrix!.statuses) {
      const code = new Uint16Array(m.ids.length);
      const names = [''];
      const at = new Map<string, number>();
      for (const [id, status] of db.prepare(`SELECT id, status FROM ${t.parts}`).raw().iterate() as IterableIterator<[number | bigint, string]>) {
        const row = rowOfId(m, Number(id));
        if (row < 0) continue;
        let c = at.get(status);
        if (c === undefined) at.set(status, (c = names.push(status) - 1));
        code[row] = c;
      }
      matrix!.statuses = { code, names };
    }
    const { code, names } = matrix!.statuses;
    return (id) => {
      const row = rowOfId(m, id);
      return row < 0 ? '' : names[code[row]!]!;
    };
  }
  /** Whether every part of the version has one of these statuses (the filter then drops nothing). */
  function passesEvery(t: VersionTables, allowed: ReadonlySet<string>): boolean {
    // From the (status, stock) index, not from every part's status (statusOf, which this case never needs).
    matrix!.present ??= new Set(stmt(`SELECT DISTINCT status FROM ${t.parts}`).pluck().all() as string[]);
    for (const status of matrix!.present) if (!allowed.has(status)) return false;
    return true;
  }

  /** The live version's vectors in memory (vector-scan.ts) and its graph, read on first use; null without usearch. */
  function vectorMatrix(t: VersionTables): { m: VectorMatrix | null; graph: VectorIndex | null } | null {
    if (!vectorScanAvailable || !memoryVectors) return null;
    if (matrix?.version !== t.vec) {
      const m = loadVectorMatrix(db, t.vec);
      matrix = { version: t.vec, m, graph: m ? openVectorIndex(vectorIndexFile(dbFile, t.vec), m) : null };
    }
    return matrix;
  }

  /**
   * The k nearest parts passing the filters, nearest first (cosine). The nearest n vectors come from
   * the version's graph when it has one and n is at most GRAPH_WINDOW_MAX and a quarter of the vectors
   * (approximate: 97.5% of the exact nearest 100 on the real suites, re-scored exactly), else from an exact scan: usearch's
   * SIMD brute force over the vectors in memory (vector-scan.ts), or vec0's KNN when usearch is not
   * available. A status-only filter that every part of the version passes is no filter: the nearest k
   * are the answer. Other filters are applied to the nearest n vectors: n grows (at least fourfold, by the
   * observed pass rate) until k pass or n covers every vector, and with the exact scans the result is
   * then exact: every part nearer than the n-th vector was looked at. With the vectors in memory, a filter that the first
   * window shows to be selective and that passes at most SET_SCAN_SHARE of the parts is answered from
   * the passing parts' own distances (exact too). With vec0, whose largest k is KNN_WINDOW_MAX,
   * selective filters are answered by computing the distance of every filtered part (a vector lookup
   * each, about 15 µs).
   */
  function knn(t: VersionTables, vector: Float32Array, k: number, filters: EngineFilters): ScoredId[] {
    if (k <= 0) return [];
    const f = filterSql(filters, t);
    const blob = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
    const { m = null, graph = null } = vectorMatrix(t) ?? {};
    const vec0 = stmt(`SELECT part_id AS id, distance FROM ${t.vec} WHERE embedding MATCH ? AND k = ? ORDER BY distance`);
    // Ties at equal distance by id, so the order does not depend on n.
    // The graph's window, unless it came back short (it then is not the whole catalogue's nearest n).
    const fromGraph = (n: number) => {
      const rows = graph && n <= GRAPH_WINDOW_MAX && n * 4 <= m!.ids.length ? graph.search(vector, n) : null;
      return rows && rows.length === n ? rows : null;
    };
    const near = (n: number) =>
      (fromGraph(n) ?? (m ? nearestRows(m, vector, n) : (vec0.all(blob, n) as { id: number; distance: number }[]))).sort(
        (a, b) => a.distance - b.distance || Number(a.id) - Number(b.id),
      );
    const most = m ? m.ids.length : KNN_WINDOW_MAX;
    const scored = (rows: { id: number; distance: number }[]) => rows.map((r) => ({ id: Number(r.id), score: 1 - r.distance }));
    if (f.sql === '1') return scored(near(Math.min(k, most)));
    // The window's ids drive the check, each tested against the filters (CROSS JOIN: the outer loop;
    // filterSql's probe form). Otherwise SQLite walked a list or spec set and scanned the whole JSON
    // array once per member: 1.75 s for a 755-part list by the time the window held 29k vectors.
    const pick = stmt(`SELECT p.id AS id FROM json_each(?) j CROSS JOIN ${t.parts} p ON p.id = j.value WHERE ${f.probeSql}`).pluck();
    const allowed = m && f.statusOnly ? new Set(f.statusOnly) : null;
    // A status filter that every part passes (the default "active" over a catalogue of active parts) is
    // no filter: the nearest k, without a window twice as large to filter.
    if (allowed && passesEvery(t, allowed)) return scored(near(Math.min(k, most)));
    const passing = (rows: { id: number }[]): Set<number> => {
      if (allowed) {
        const of = statusOf(t);
        return new Set(rows.map((r) => Number(r.id)).filter((id) => allowed.has(of(id))));
      }
      return new Set((pick.all(JSON.stringify(rows.map((r) => Number(r.id))), ...f.params) as number[]).map(Number));
    };
    for (let n = Math.min(most, Math.max(64, 2 * k)), first = true; ; first = false) {
      const rows = near(n);
      const pass = passing(rows);
      const kept = rows.filter((r) => pass.has(Number(r.id)));
      if (rows.length < n || kept.length >= k || (m && n >= most)) return scored(kept.slice(0, k));
      if (m && first) {
        // A selective filter would grow the window towards every vector: when at most SET_SCAN_SHARE of
        // the parts pass, compute their own distances instead (exact as well).
        const cap = Math.max(k, Math.floor(most * SET_SCAN_SHARE));
        const ids = stmt(`SELECT p.id FROM ${t.parts} p WHERE ${f.sql} LIMIT ?`)
          .pluck()
          .all(...f.params, cap + 1) as number[];
        if (ids.length <= cap) return scored(nearestAmong(m, vector, ids.map(Number), k));
      }
      if (n >= most) break;
      n = Math.min(most, nextWindow(n, k, kept.length));
    }
    const rows = stmt(
      `SELECT part_id AS id, vec_distance_cosine(embedding, ?) AS distance FROM ${t.vec} WHERE part_id IN (SELECT p.id FROM ${t.parts} p WHERE ${f.sql}) ORDER BY distance, part_id LIMIT ?`,
    ).all(blob, ...f.params, k) as { id: number; distance: number }[];
    return scored(rows);
  }

  return knn;
}
