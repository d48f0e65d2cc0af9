/**
 * SQLite filtered kNN (engine.ts `knn`): an exact scan (usearch over the vectors in memory, or vec0's
 * KNN) for the nearest n vectors, the filters applied to those, n grown until k pass; with the vectors
 * in memory and a selective filter, the distances of the filtered set itself; with vec0, past its
 * largest k, an exact scan of the filtered set. Checked against brute force over every part that passes the filters, on 6,000 generated parts
 * (more than vec0's largest k, so every path runs) with deterministic pseudo-random 8-dim vectors.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestCatalog, sampleFiles } from '../support/small-engine.ts';
import { embeddingText } from '../../src/catalog/normalise.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import type { EngineFilters, SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { vectorScanAvailable } from '../../src/engines/sqlite/vector-scan.ts';
import { writeSampleCatalogue } from '../../src/sample/generate.ts';
import { tempDir } from '../support/fixtures.ts';

const DIMS = 8;
/** A unit vector from the text's FNV-1a hash (xorshift from there): stable, spread over the sphere. */
function vectorOf(text: string): Float32Array {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  const v = new Float32Array(DIMS);
  for (let i = 0; i < DIMS; i++) {
    h ^= h << 13;
    h ^= h >>> 17;
    h ^= h << 5;
    h >>>= 0;
    v[i] = h / 2 ** 32 - 0.5;
  }
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}
const hashEmbedder: Embedder = { model: 'hash vectors (test)', dims: DIMS, embed: async (texts) => texts.map(vectorOf), close: async () => {} };

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
