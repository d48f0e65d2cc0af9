import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import { embeddingKey } from '../../src/embeddings/key.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import { createSqliteVectorCache } from '../../src/embeddings/sqlite-vector-cache.ts';
import type { VectorCache } from '../../src/embeddings/vector-cache.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { tempDir } from '../support/fixtures.ts';
import { hashEmbedder } from '../support/hash-embedder.ts';

/** The hash embedder, counting the texts it is asked to embed. */
function counting(base: Embedder = hashEmbedder): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return { ...base, texts, embed: async (t) => (texts.push(...t), base.embed(t)) };
}

const part = (i: number, description = `Quad op amp number ${i}`) =>
  JSON.stringify({ mpn: `OPA${1000 + i}`, manufacturer: 'Texas Instruments', description, category: ['Amplifiers', 'Op Amps'] });

describe('vectors kept across ingests', () => {
  const dirs: string[] = [];
  const closing: { close(): Promise<void> }[] = [];
  const dir = () => {
    const d = tempDir();
    dirs.push(d);
    return d;
  };
  const cacheIn = (d: string, keep?: number): VectorCache => {
    const c = createSqliteVectorCache(path.join(d, 'embedding-cache.db'), { keep });
    closing.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of closing.splice(0)) await c.close();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('gives back the vectors it was given, bit for bit, and null for keys it never saw', async () => {
    const cache = cacheIn(dir());
    const keys = ['a', 'b', 'c'].map((t) => embeddingKey('model|1', t));
    const vectors = await hashEmbedder.embed(['a', 'b']);
    await cache.put(keys.slice(0, 2), vectors);
    const got = await cache.get([keys[1]!, keys[2]!, keys[0]!]);
    expect(got[0]).toEqual(vectors[1]);
    expect(got[1]).toBeNull();
    expect(got[2]).toEqual(vectors[0]);
    expect(await cache.stats()).toEqual({ vectors: 2, bytes: 2 * 4 * hashEmbedder.dims });
  });

  it('keys a vector by the model as well as the text', () => {
    expect(embeddingKey('model-a', 'LM358 dual op amp').equals(embeddingKey('model-b', 'LM358 dual op amp'))).toBe(false);
    expect(embeddingKey('model-a', 'LM358 dual op amp').equals(embeddingKey('model-a', 'LM358 dual op amp'))).toBe(true);
  });

  it('keeps what the last two successful runs used and drops the rest', async () => {
    const d = dir();
    const cache = cacheIn(d, 2);
    const k = (t: string) => embeddingKey('m', t);
    const v = await hashEmbedder.embed(['x']);
    // Run 1 uses a and b; run 2 uses b; run 3 uses c: a (last used by run 1) goes.
    await cache.put([k('a'), k('b')], [v[0]!, v[0]!]);
    expect(await cache.commit()).toEqual({ dropped: 0, kept: 2 });
    await cache.get([k('b')]);
    expect(await cache.commit()).toEqual({ dropped: 0, kept: 2 });
    await cache.put([k('c')], v);
    expect(await cache.commit()).toEqual({ dropped: 1, kept: 2 });
    // A run that fails (another connection's) commits nothing; what it embedded outlives the next run's
    // commit, which drops b (last used by run 2).
    const failed = cacheIn(d, 2);
    await failed.put([k('d')], v);
    await cache.get([k('c')]);
    expect(await cache.commit()).toEqual({ dropped: 1, kept: 2 });
    expect((await cache.get([k('a'), k('b'), k('c'), k('d')])).map((x) => x !== null)).toEqual([false, false, true, true]);
  });

  describe('ingest', () => {
    const engines: SearchEngine[] = [];
    afterEach(async () => {
      for (const e of engines.splice(0)) await e.close();
    });

    async function setup(n: number) {
      const d = dir();
      // In memory: the load runs in this thread (no load worker to start per ingest).
      const engine = createSqliteEngine({ file: ':memory:' });
      engines.push(engine);
      const dump = path.join(d, 'parts.jsonl');
      const write = (changed: Set<number> = new Set()) =>
        fs.writeFileSync(dump, Array.from({ length: n }, (_, i) => part(i, changed.has(i) ? `Changed description ${i}` : undefined)).join('\n'));
      const cache = cacheIn(d);
      const ingest = (embedder: Embedder) => runIngest({ engine, embedder, vectorCache: cache, parts: [dump], reportFile: path.join(d, 'r.jsonl') });
      return { engine, write, ingest };
    }

    it('embeds nothing for an unchanged dump and only the changed parts of a changed one', { timeout: 60_000 }, async () => {
      const { engine, write, ingest } = await setup(300);
      write();
      const first = counting();
      expect((await ingest(first)).vectors).toEqual({ embedded: 300, reused: 0, pending: 0 });
      expect(first.texts).toHaveLength(300);

      const again = counting();
      expect((await ingest(again)).vectors).toEqual({ embedded: 0, reused: 300, pending: 0 });
      expect(again.texts).toEqual([]);

      write(new Set([7, 150, 299]));
      const changed = counting();
      expect((await ingest(changed)).vectors).toEqual({ embedded: 3, reused: 297, pending: 0 });
      expect(changed.texts.map((t) => /Changed description (\d+)/.exec(t)?.[1])).toEqual(['7', '150', '299']);

      // The reused vectors are the model's: a part's own text finds it first.
      const [query] = await hashEmbedder.embed([changed.texts[1]!]);
      const hits = await engine.knn(query!, 1, {});
      const [record] = await engine.getParts([hits[0]!.id]);
      expect(record!.mpn).toBe('OPA1150');
      expect(hits[0]!.score).toBeCloseTo(1, 6);
    });

    it('embeds everything again for another model', { timeout: 60_000 }, async () => {
      const { write, ingest } = await setup(20);
      write();
      await ingest(counting());
      const other = counting({ ...hashEmbedder, model: 'another model', fingerprint: 'another model|q8|max128' });
      expect((await ingest(other)).vectors).toEqual({ embedded: 20, reused: 0, pending: 0 });
    });
  });
});
