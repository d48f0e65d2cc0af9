/**
 * The vector fill contract (engines/vector-backfill.ts, embeddings/vector-fill.ts), run against every
 * adapter: a version ingested with `embeddings: 'background'` is live at once, lexical-only, with its
 * vectors pending; a fill writes them, resumes where an interrupted one stopped, and makes them
 * searchable in one step; one process fills at a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import { embeddingText } from '../../src/catalog/normalise.ts';
import { createSqliteVectorCache } from '../../src/embeddings/sqlite-vector-cache.ts';
import { fillVectors } from '../../src/embeddings/vector-fill.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { SMALL, tempDir } from '../support/fixtures.ts';
import { hashEmbedder, hashVector } from '../support/hash-embedder.ts';

export function vectorFillContract(name: string, makeEngine: () => Promise<SearchEngine>, cleanup?: () => Promise<void>): void {
  describe(`vector fill contract: ${name}`, () => {
    let engine: SearchEngine;
    const dir = tempDir();
    const cache = createSqliteVectorCache(path.join(dir, 'embedding-cache.db'));
    const texts: string[] = [];
    const embedder: Embedder = { ...hashEmbedder, embed: async (t) => (texts.push(...t), hashEmbedder.embed(t)) };
    let version = '';

    beforeAll(async () => {
      engine = await makeEngine();
      const s = await runIngest({
        engine,
        embedder,
        vectorCache: cache,
        embeddings: 'background',
        parts: [SMALL.parts],
        manufacturersFile: SMALL.manufacturers,
        categoriesFile: SMALL.categories,
        reportFile: path.join(dir, 'report.jsonl'),
      });
      expect(s.vectors).toEqual({ embedded: 0, reused: 0, pending: 12 });
      version = s.version;
    });
    afterAll(async () => {
      await cache.close();
      await cleanup?.();
      await engine?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('makes the version live at once, lexical-only, with its vectors pending', async () => {
      expect(texts).toEqual([]);
      expect((await engine.meta())?.embedding).toMatchObject({ dims: hashEmbedder.dims, pending: 12 });
      expect(await engine.info()).toMatchObject({ version, parts: 12, vectors: false });
      expect((await engine.textSearch({ text: 'regulator', filters: {}, limit: 5, offset: 0 })).hits.length).toBeGreaterThan(0);
      expect(await engine.backfill!.partsWithoutVectors(version, -1, 100)).toHaveLength(12);
    });

    it('leaves the fill to the process holding the lease', async () => {
      const backfill = engine.backfill!;
      expect(await backfill.claim({ version, owner: 'other-host:1', expiresAt: Date.now() + 60_000, done: 3, total: 12 })).toBe(true);
      expect(await backfill.currentClaim(version)).toMatchObject({ owner: 'other-host:1', done: 3, total: 12 });
      const p = await fillVectors({ engine, embedder, cache, version, owner: 'this-host:2' });
      expect(p).toMatchObject({ state: 'stopped', reason: `another process is filling ${version}`, done: 0 });
      // A lease that ran out is taken over.
      expect(await backfill.claim({ version, owner: 'other-host:1', expiresAt: Date.now() - 1, done: 3, total: 12 })).toBe(true);
      expect(await backfill.claim({ version, owner: 'this-host:2', expiresAt: Date.now() + 60_000, done: 0, total: 12 })).toBe(true);
      await backfill.release(version, 'this-host:2');
      expect(await backfill.currentClaim(version)).toBeNull();
    });

    it('resumes an interrupted fill where it stopped, then makes the vectors searchable in one step', async () => {
      const stop = new AbortController();
      const first = await fillVectors({ engine, embedder, cache, version, batchSize: 4, signal: stop.signal, onProgress: (p) => p.done >= 4 && stop.abort() });
      expect(first).toMatchObject({ state: 'stopped', reason: 'interrupted', total: 12, done: 4, embedded: 4 });
      expect(await engine.backfill!.partsWithoutVectors(version, -1, 100)).toHaveLength(8);
      expect(await engine.info()).toMatchObject({ vectors: false });

      const second = await fillVectors({ engine, embedder, cache, version, batchSize: 4 });
      expect(second).toMatchObject({ state: 'complete', done: 8, embedded: 8 });
      expect(texts).toHaveLength(12); // each part embedded once
      expect((await engine.meta())?.embedding.pending).toBeUndefined();
      expect(await engine.info()).toMatchObject({ version, vectors: true });
      expect(await engine.backfill!.partsWithoutVectors(version, -1, 100)).toEqual([]);
      const [part] = await engine.getParts([(await engine.textSearch({ text: 'regulator', filters: {}, limit: 1, offset: 0 })).hits[0]!.id]);
      const [nearest] = await engine.knn(hashVector(embeddingText(part!)), 1, {});
      expect(nearest).toMatchObject({ id: part!.id });
      expect(nearest!.score).toBeCloseTo(1, 5);
    });

    it('has nothing to do for a version whose vectors are complete', async () => {
      expect(await fillVectors({ engine, embedder, cache, version })).toMatchObject({ state: 'complete', done: 0 });
    });
  });
}
