/**
 * SQLite filtered kNN (engine.ts `knn`): an exact scan (usearch over the vectors in memory, or vec0's
 * KNN) for the nearest n vectors, the filters applied to those, n grown until k pass; with the vectors
 * in memory and a selective filter, the distances of the filtered set itself; with vec0, past its
 * largest k, an exact scan of the filtered set. Checked against brute force over every part that passes the filters, on 6,000 generated parts
 * (more than vec0's largest k, so every path runs) with deterministic pseudo-random 8-dim vectors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ingestCatalog, sampleFiles } from '../support/small-engine.ts';
import { embeddingText } from '../../src/catalog/normalise.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import { hashEmbedder, hashVector } from '../support/hash-embedder.ts';
import type { EngineFilters, SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { exactDistances, rowOfId, vectorScanAvailable, type VectorMatrix } from '../../src/engines/sqlite/vector-scan.ts';
import { PART_STATUSES } from '../../src/catalog/status.ts';
import { deriveVectorIndex, vectorIndexFile } from '../../src/engines/sqlite/vector-index.ts';
import { versionTables } from '../../src/engines/sqlite/schema.ts';
import { openSqliteDb } from '../../src/engines/sqlite/db.ts';

/** The usearch module the engine loads (the same CommonJS instance), to see its graph searches. */
const usearchModule = createRequire(import.meta.url)('usearch') as { Index: { prototype: { search: (...a: unknown[]) => unknown } } };
import { writeSampleCatalogue } from '../../src/sample/generate.ts';
import { tempDir } from '../support/fixtures.ts';

const vectorOf = hashVector;

describe.each([
  ['vectors in memory (usearch)', true],
  ["vec0's KNN", false],
])('SQLite filtered kNN: %s', (_name, memoryVectors) => {
  let engine: SearchEngine;
  beforeAll(async () => {
    const dir = tempDir();
    const files = await writeSampleCatalogue(path.join(dir, 'sample'), { parts: 6000 });
    engine = createSqliteEngine({ file: path.join(dir, 'p.db'), memoryVectors });
    await engine.init();
    await ingestCatalog(engine, sampleFiles(files, true), hashEmbedder);
  }, 60_000);

  /** Brute force: every part passing the filters, by cosine to q, best first. */
  async function bruteForce(q: Float32Array, k: number, filters: EngineFilters) {
    const ids = (await engine.textSearch({ text: null, filters, limit: 100_000, offset: 0 })).hits.map((h) => h.id);
    const parts = await engine.getParts(ids);
    return parts
      .map((p) => ({ id: p.id, score: vectorOf(embeddingText(p)).reduce((s, x, i) => s + x * q[i]!, 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }

  it.runIf(memoryVectors && process.platform === 'linux' && process.arch === 'x64')('uses usearch here (its linux-x64 prebuild loads)', () => {
    expect(vectorScanAvailable).toBe(true);
  });

  it('answers exactly what brute force over the filtered set answers, for broad and selective filters', async () => {
    const facets = await engine.facets({ text: null, filters: {}, size: 100 });
    expect(facets.total).toBeGreaterThan(4096);
    const byCount = [...facets.categories].sort((a, b) => a.count - b.count);
    const rare = byCount[0]!;
    const large = byCount[byCount.length - 1]!;
    expect(rare.count).toBeLessThan(60); // 6,000 parts and n >= 64: passes grow n, up to the exact scan
    // Sets (an approved list, a spec value) go through the probe form of the filters (filters.ts).
    const list = (await engine.meta())!.lists[0]!.list_id;
    const specs = await engine.facets({ text: null, filters: { categories: [large.slug] }, specValues: [], size: 5 });
    const specName = Object.keys(specs.specNames)[0]!;
    const value = (await engine.facets({ text: null, filters: { categories: [large.slug] }, specValues: [specName], size: 1 })).specValues[specName]!.values[0]!
      .value;
    const cases: EngineFilters[] = [
      {},
      { status: ['active'] },
      { status: ['obsolete'] }, // status-only filters are checked in memory (knn.ts), selective or not
      { status: ['active', 'nrnd'] },
      { status: [...PART_STATUSES] }, // every part passes: answered as no filter (knn.ts passesEvery)
      { categories: [large.slug] },
      { categories: [rare.slug] },
      { categories: [rare.slug], status: ['obsolete'] },
      { lists: [list] },
      { lists: [list], status: ['active'] },
      { specs: [{ name: specName, values: [value] }] },
    ];
    for (const [i, filters] of cases.entries()) {
      for (const seed of ['a', 'b']) {
        const q = vectorOf(`query ${seed} ${i}`);
        const got = await engine.knn(q, 25, filters);
        const want = await bruteForce(q, 25, filters);
        expect(
          got.map((h) => h.id),
          JSON.stringify(filters),
        ).toEqual(want.map((h) => h.id));
        got.forEach((h, j) => expect(h.score).toBeCloseTo(want[j]!.score, 5));
      }
    }
  }, 60_000);

  it('text search within a rare category (the plain-join path of selective filters) gives each hit its category', async () => {
    const facets = await engine.facets({ text: null, filters: {}, size: 100 });
    const rare = [...facets.categories].sort((a, b) => a.count - b.count)[0]!;
    const [member] = await engine.getParts(
      (await engine.textSearch({ text: null, filters: { categories: [rare.slug] }, limit: 1, offset: 0 })).hits.map((h) => h.id),
    );
    // the commonest word of a rare part's description (or of its category's name): few of the ranked rows pass the filter
    let word = '';
    let most = 0;
    for (const w of `${member!.description} ${member!.category!.name}`.split(/[^A-Za-z]+/).filter((x) => x.length >= 4)) {
      const n = (await engine.textSearch({ text: w, filters: {}, limit: 1, offset: 0 })).total;
      if (n > most) [word, most] = [w, n];
    }
    expect(most).toBeGreaterThan(20 * rare.count);
    const hits = (await engine.textSearch({ text: word, filters: { categories: [rare.slug] }, limit: 10, offset: 0, exactTotal: false })).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((h) => h.category)).toEqual(hits.map(() => rare.slug));
  });
});

/**
 * The HNSW graph (vector-index.ts): built by the ingest beside the database file when a version has
 * at least `vectorIndexMin` vectors (lowered here to 1,000 of 2,000), used for the kNN windows, its
 * candidates re-scored exactly; removed with its version.
 */
describe.runIf(vectorScanAvailable)('SQLite kNN through the HNSW graph', () => {
  let engine: SearchEngine;
  let dbFile: string;
  let files: Awaited<ReturnType<typeof writeSampleCatalogue>>;
  beforeAll(async () => {
    const dir = tempDir();
    files = await writeSampleCatalogue(path.join(dir, 'sample'), { parts: 2000 });
    dbFile = path.join(dir, 'p.db');
    engine = createSqliteEngine({ file: dbFile, vectorIndexMin: 1000 });
    await engine.init();
    await ingestCatalog(engine, sampleFiles(files, true), hashEmbedder);
  }, 60_000);

  const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

  it('the ingest saved the live version a graph beside the database', () => {
    expect(fs.existsSync(vectorIndexFile(dbFile, 'vec_v1')!)).toBe(true);
  });

  it('finds nearly all of the exact nearest parts, with their exact scores, best first, and keeps the filters', async () => {
    const all = (await engine.textSearch({ text: null, filters: {}, limit: 100_000, offset: 0 })).hits.map((h) => h.id);
    const parts = await engine.getParts(all);
    const vectors = new Map(parts.map((p) => [p.id, vectorOf(embeddingText(p))]));
    const statusOf = new Map(parts.map((p) => [p.id, p.status]));
    let found = 0;
    let wanted = 0;
    await engine.knn(vectorOf('warm-up'), 1, {}); // the graph is read (and checked) on the first query
    const searches = vi.spyOn(usearchModule.Index.prototype, 'search');
    for (const [i, filters] of [{}, { status: ['active'] }].entries()) {
      for (let s = 0; s < 10; s++) {
        const q = vectorOf(`graph query ${i} ${s}`);
        const got = await engine.knn(q, 50, filters as EngineFilters);
        const exact = parts
          .filter((p) => !('status' in filters) || p.status === 'active')
          .map((p) => ({ id: p.id, score: cosine(vectors.get(p.id)!, q) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 50);
        expect(got).toHaveLength(50);
        for (const h of got) {
          expect(h.score).toBeCloseTo(cosine(vectors.get(h.id)!, q), 5);
          if ('status' in filters) expect(statusOf.get(h.id)).toBe('active');
        }
        for (let j = 1; j < got.length; j++) expect(got[j]!.score).toBeLessThanOrEqual(got[j - 1]!.score);
        const want = new Set(exact.map((h) => h.id));
        found += got.filter((h) => want.has(h.id)).length;
        wanted += exact.length;
      }
    }
    expect(found / wanted).toBeGreaterThanOrEqual(0.95);
    expect(searches.mock.calls.length).toBeGreaterThanOrEqual(20); // the graph answered each query's window
    searches.mockRestore();
  }, 60_000);

  it('a status filter that every part passes asks the graph for k, as no filter does; one that drops parts asks for a wider window', async () => {
    await engine.knn(vectorOf('warm-up'), 1, {});
    const searches = vi.spyOn(usearchModule.Index.prototype, 'search');
    const q = vectorOf('every status');
    const all = await engine.knn(q, 40, { status: [...PART_STATUSES] });
    expect(all).toEqual(await engine.knn(q, 40, {}));
    expect(searches.mock.calls.map((c) => c[1])).toEqual([40, 40]);
    searches.mockClear();
    await engine.knn(q, 40, { status: ['active'] }); // the sample holds parts of other statuses too
    expect(searches.mock.calls[0]![1]).toBeGreaterThan(40);
    searches.mockRestore();
  });

  /** Brute force over every part of `e` by `embed`'s vectors. */
  const exactNearest = async (e: SearchEngine, embed: (text: string) => Float32Array, q: Float32Array, k: number) => {
    const ids = (await e.textSearch({ text: null, filters: {}, limit: 100_000, offset: 0 })).hits.map((h) => h.id);
    return (await e.getParts(ids))
      .map((p) => ({ id: p.id, score: cosine(embed(embeddingText(p)), q) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, k)
      .map((h) => h.id);
  };

  it('a graph of other vectors under the same ids (a leftover, another model) is not used: the exact scan answers', async () => {
    const other = path.join(tempDir(), 'other.db');
    const salted = (text: string) => vectorOf(`salt ${text}`);
    const saltedEmbedder: Embedder = { ...hashEmbedder, model: 'salted hash vectors (test)', embed: async (texts) => texts.map(salted) };
    const e = createSqliteEngine({ file: other, vectorIndexMin: 1000 });
    await e.init();
    await ingestCatalog(e, sampleFiles(files, true), saltedEmbedder);
    await e.close();
    // The first database's graph (same sample, same ids, other vectors) put where this one's belongs.
    fs.copyFileSync(vectorIndexFile(dbFile, 'vec_v1')!, vectorIndexFile(other, 'vec_v1')!);
    const fresh = createSqliteEngine({ file: other });
    const q = salted('a query');
    expect((await fresh.knn(q, 20, {})).map((h) => h.id)).toEqual(await exactNearest(fresh, salted, q, 20));
    await fresh.close();
  }, 60_000);

  it('a graph that cannot be saved leaves the ingest whole: the version goes live and the exact scan answers', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'blocked.db');
    fs.mkdirSync(vectorIndexFile(file, 'vec_v1')!); // a directory where the graph file would go
    const e = createSqliteEngine({ file, vectorIndexMin: 1000 });
    await e.init();
    const summary = await ingestCatalog(e, sampleFiles(files, true), hashEmbedder);
    expect(summary.indexed).toBe(2000);
    const q = vectorOf('blocked graph');
    expect((await e.knn(q, 20, {})).map((h) => h.id)).toEqual(await exactNearest(e, vectorOf, q, 20));
    await e.close();
  }, 60_000);

  it('a re-ingest builds the new version its graph and removes the graph of the version it drops', async () => {
    await ingestCatalog(engine, sampleFiles(files, true), hashEmbedder); // v2 live, v1 kept for rollback
    await ingestCatalog(engine, sampleFiles(files, true), hashEmbedder); // v3 live, v2 kept, v1 dropped
    expect(fs.existsSync(vectorIndexFile(dbFile, 'vec_v1')!)).toBe(false);
    expect(fs.existsSync(vectorIndexFile(dbFile, 'vec_v2')!)).toBe(true);
    expect(fs.existsSync(vectorIndexFile(dbFile, 'vec_v3')!)).toBe(true);
    const q = vectorOf('after the swap');
    expect(await engine.knn(q, 10, {})).toHaveLength(10);
  }, 120_000);

  it("a re-ingest whose vectors are mostly the live version's derives its graph from the live one's, with the changed vectors in it", async () => {
    // The same dump with every 100th part's description changed: 20 parts get new texts, so new vectors.
    const lines = fs.readFileSync(files.partsFile, 'utf8').trim().split('\n');
    const edited = lines.map((l, i) => (i % 100 === 0 ? JSON.stringify({ ...JSON.parse(l), description: `Revised part ${i}` }) : l));
    const dump = path.join(tempDir(), 'edited.jsonl');
    fs.writeFileSync(dump, edited.join('\n'));
    await ingestCatalog(engine, { ...sampleFiles(files, true), parts: dump }, hashEmbedder);
    const { version, previous } = await engine.info();
    const db = openSqliteDb(dbFile);
    try {
      // What the ingest did, done again beside it: v3's graph serves v4, less the changed vectors, plus their new ones.
      const out = path.join(tempDir(), 'derived.hnsw');
      const base = { ...versionTables(previous!), file: vectorIndexFile(dbFile, `vec_${previous}`) };
      expect(deriveVectorIndex(db, versionTables(version!), out, base, { minVectors: 1000 })).toBe(2000);
      expect(deriveVectorIndex(db, versionTables(version!), out, base, { minVectors: 1000, maxShare: 0 })).toBeNull();
    } finally {
      db.close();
    }
    const ids = (await engine.textSearch({ text: 'revised', filters: {}, limit: 100, offset: 0 })).hits.map((h) => h.id);
    const moved = await engine.getParts(ids);
    expect(moved).toHaveLength(20);
    await engine.knn(vectorOf('warm-up'), 1, {});
    const searches = vi.spyOn(usearchModule.Index.prototype, 'search');
    for (const p of moved.slice(0, 10)) {
      const [first] = await engine.knn(vectorOf(embeddingText(p)), 1, {});
      expect(first).toMatchObject({ id: p.id });
      expect(first!.score).toBeCloseTo(1, 5);
    }
    expect(searches).toHaveBeenCalled(); // through the graph
    searches.mockRestore();
  }, 120_000);

  it('an in-memory database gets no graph and still answers', async () => {
    expect(vectorIndexFile(':memory:', 'vec_v1')).toBeNull();
    const e = createSqliteEngine({ file: ':memory:', vectorIndexMin: 1 });
    await e.init();
    await ingestCatalog(e, sampleFiles(files, true), hashEmbedder);
    const q = vectorOf('in memory');
    expect((await e.knn(q, 20, {})).map((h) => h.id)).toEqual(await exactNearest(e, vectorOf, q, 20));
    await e.close();
  }, 60_000);

  it('a version under the threshold gets no graph (the exact scan serves it)', async () => {
    const small = path.join(tempDir(), 'small.db');
    const e = createSqliteEngine({ file: small }); // default threshold, 10,000 vectors: above these 2,000
    await e.init();
    await ingestCatalog(e, sampleFiles(files, true), hashEmbedder);
    expect(fs.existsSync(vectorIndexFile(small, 'vec_v1')!)).toBe(false);
    expect(await e.knn(vectorOf('exact scan'), 10, {})).toHaveLength(10);
    await e.close();
  }, 60_000);
});

describe('exact distances of candidates (vector-scan.ts)', () => {
  it("find each part's row by id, in a matrix whose ids are ascending and in one whose ids are not", () => {
    const dims = 2;
    const shuffled = [40, 7, 1003, 12, 5, 999_999_999_999, 8];
    for (const ids of [[...shuffled].sort((a, b) => a - b), shuffled]) {
      const data = Float32Array.from(ids.flatMap((id) => [id, 1]));
      const m: VectorMatrix = { ids: Float64Array.from(ids), data, dims };
      for (const [row, id] of ids.entries()) expect(rowOfId(m, id)).toBe(row);
      for (const absent of [0, 6, 41, 1_000_000_000_000, -3, NaN]) expect(rowOfId(m, absent)).toBe(-1);
      // Each distance is that of the part's own row: [id, 1] against [1, 0].
      const got = exactDistances(m, Float32Array.from([1, 0]), [...ids, 13]);
      expect(got.map((d) => d.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      for (const d of got) expect(d.distance).toBeCloseTo(1 - d.id / Math.hypot(d.id, 1), 6);
    }
  });

  it('are the float32 cosine distances of the two-sum computation (each row norm now kept per matrix), nearest first, ties by id', () => {
    const dims = 24;
    const rows = 300;
    let h = 12345;
    const rnd = () => ((h = (Math.imul(h, 1103515245) + 12345) >>> 0), h / 2 ** 32 - 0.5);
    const data = Float32Array.from({ length: rows * dims }, rnd);
    data.fill(0, 7 * dims, 8 * dims); // a zero vector: distance 1
    data.copyWithin(11 * dims, 10 * dims, 11 * dims); // rows 10 and 11 alike: a tie, broken by id
    const m: VectorMatrix = { ids: Float64Array.from({ length: rows }, (_, i) => 1000 + i), data, dims };
    const q = Float32Array.from({ length: dims }, rnd);
    const ids = [...m.ids].reverse();
    // The computation before the row norms were kept: both sums in the same loop.
    const want = ids
      .map((id) => {
        const o = (id - 1000) * dims;
        let dot = 0;
        let vv = 0;
        let qq = 0;
        for (let j = 0; j < dims; j++) {
          dot += q[j]! * data[o + j]!;
          vv += data[o + j]! * data[o + j]!;
          qq += q[j]! * q[j]!;
        }
        const norm = Math.sqrt(qq * vv);
        return { id, distance: Math.fround(norm === 0 ? (qq === 0 && vv === 0 ? 0 : 1) : 1 - dot / norm) };
      })
      .sort((a, b) => a.distance - b.distance || a.id - b.id);
    for (let round = 0; round < 2; round++) expect(exactDistances(m, q, [...ids, 999])).toEqual(want); // 999: no vector, left out
    expect(want.find((d) => d.id === 1007)!.distance).toBe(1);
    const tie = want.findIndex((d) => d.id === 1010);
    expect(want[tie + 1]).toEqual({ id: 1011, distance: want[tie]!.distance });
  });
});
