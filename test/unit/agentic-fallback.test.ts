/** Agentic search on an index without vectors: whatever retrieval is asked for, it runs lexical-only and says so. */
import { describe, expect, it } from 'vitest';
import { agenticSearch } from '../../src/search/agentic.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';
import { tableEmbedder } from '../support/table-embedder.ts';

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
});
