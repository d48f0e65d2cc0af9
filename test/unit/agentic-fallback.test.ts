/** Agentic search on an index without vectors: whatever retrieval is asked for, it runs lexical-only and says so. */
import { describe, expect, it } from 'vitest';
import { withRecord } from '../../src/engines/lazy-record-hit.ts';
import { agenticSearch } from '../../src/search/agentic.ts';
import path from 'node:path';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { SMALL, tempDir } from '../support/fixtures.ts';
import { ingestCatalog, smallSqliteEngine } from '../support/small-engine.ts';
import { SMALL_VECTORS, tableEmbedder } from '../support/table-embedder.ts';

describe('agentic retrieval without indexed vectors', () => {
  it('falls back to lexical for every requested retrieval, and says so', async () => {
    const engine = await smallSqliteEngine(); // indexed without embeddings
    try {
      const embedder = tableEmbedder({});
      for (const retrieval of ['hybrid', 'vector', 'lexical', undefined] as const) {
        const r = await agenticSearch(engine, embedder, false, {
          query: '0603 resistor',
          limit: 3,
          offset: 0,
          filters: {},
          ...(retrieval ? { retrieval } : {}),
        });
        expect(r.retrieval).toBe('lexical');
        expect(r.parts.length).toBe(3);
      }
    } finally {
      await engine.close();
    }
  });

  it('answers hybrid search lexical-only when the query cannot be embedded (the model worker died), and says so', async () => {
    const engine = await smallSqliteEngine();
    try {
      const broken = { ...tableEmbedder({}), embed: () => Promise.reject(new Error('the embedding worker exited (code 1)')) };
      const r = await agenticSearch(engine, broken, true, { query: '0603 resistor', limit: 3, offset: 0, filters: {} });
      expect(r.retrieval).toBe('lexical');
      expect(r.parts.length).toBe(3);
      // Vector-only retrieval (relevance experiments) has nothing to fall back on: the failure is the answer.
      await expect(agenticSearch(engine, broken, true, { query: '0603 resistor', limit: 3, offset: 0, filters: {}, retrieval: 'vector' })).rejects.toThrow(
        /embedding worker exited/,
      );
    } finally {
      await engine.close();
    }
  });

  it('asks for the query embedding before it runs BM25, so the model (in its own thread) works meanwhile', async () => {
    const engine = await smallSqliteEngine();
    try {
      const calls: string[] = [];
      const table = tableEmbedder({});
      const embedder = { ...table, embed: (texts: readonly string[]) => (calls.push('embed'), table.embed(texts)) };
      const textSearch = engine.textSearch.bind(engine);
      engine.textSearch = (req) => (calls.push('bm25'), textSearch(req));
      await agenticSearch(engine, embedder, true, { query: '0603 resistor', limit: 3, offset: 0, filters: {} });
      expect(calls.slice(0, 2)).toEqual(['embed', 'bm25']);
    } finally {
      await engine.close();
    }
  });

  it('ranks a kNN hit whose record its list could not give (its version gone), reading the part from the live version', async () => {
    const engine = createSqliteEngine({ file: path.join(tempDir(), 'vectors.db') });
    const embedder = tableEmbedder(SMALL_VECTORS);
    await engine.init();
    await ingestCatalog(engine, SMALL, embedder);
    try {
      const req = { query: 'LM358DR', limit: 20, offset: 0, filters: {}, retrieval: 'vector' as const };
      const whole = await agenticSearch(engine, embedder, true, req);
      expect(whole.parts.length).toBeGreaterThan(3);
      // The SQLite adapter's on-demand read answers undefined when the version's tables were dropped meanwhile.
      const knn = engine.knn.bind(engine);
      engine.knn = async (...args: Parameters<typeof engine.knn>) => (await knn(...args)).map((h) => withRecord(h, () => undefined));
      const unread = await agenticSearch(engine, embedder, true, req);
      expect(unread.parts.map((p) => p.id)).toEqual(whole.parts.map((p) => p.id));
      expect(unread.total).toBe(whole.total);
    } finally {
      await engine.close();
    }
  });
});
