/**
 * What agentic search can decide from BM25 alone it reads while the query's embedding is still being
 * computed, not after kNN: BM25 within the named categories, the categories' parts by the filter alone,
 * the parts holding the parsed spec values (agentic.ts, the lexical stage). Their results are used
 * only when the rules, over every list, still ask for them.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogProvider } from '../../src/catalog/view.ts';
import type { TextSearchRequest } from '../../src/engines/port.ts';
import { agenticSearch } from '../../src/search/agentic.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';
import { SMALL_VECTORS, tableEmbedder } from '../support/table-embedder.ts';

describe('agentic search while the embedding is computed', () => {
  it('reads the named categories and the spec values before kNN, while the model works', async () => {
    const engine = await smallSqliteEngine();
    try {
      const view = (await createCatalogProvider(engine).get())!;
      const calls: string[] = [];
      const table = tableEmbedder(SMALL_VECTORS);
      let release!: () => void;
      const modelDone = new Promise<void>((r) => (release = r));
      // The model answers only once the test lets it: whatever the search reads before that, it read while the model worked.
      const embedder = {
        ...table,
        embed: async (texts: readonly string[]) => (calls.push('embed'), await modelDone, calls.push('embedded'), table.embed(texts)),
      };
      const textSearch = engine.textSearch.bind(engine);
      engine.textSearch = (req: TextSearchRequest) => {
        calls.push(
          req.filters.specs?.length ? 'spec values' : req.filters.categories?.length ? (req.text ? 'bm25 in categories' : 'categories by filter') : 'bm25',
        );
        return textSearch(req);
      };
      const knn = engine.knn.bind(engine);
      engine.knn = (...args: Parameters<typeof engine.knn>) => (calls.push('knn'), knn(...args));
      const search = agenticSearch(engine, embedder, true, {
        query: 'operational amplifiers 32V',
        limit: 5,
        offset: 0,
        filters: { status: ['active'] },
        categories: view.categoryMatcher(),
        specNames: view.specNameIndex(),
      });
      // Until the last read the lexical stage makes (or a generous bound on a busy machine).
      for (const until = Date.now() + 10_000; !calls.includes('spec values') && Date.now() < until;) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 20)); // nothing else comes before the model answers
      const beforeModel = [...calls];
      release();
      const r = await search;
      expect(beforeModel).toEqual(['embed', 'bm25', 'bm25 in categories', 'categories by filter', 'spec values']);
      expect(calls.slice(beforeModel.length)).toEqual(['embedded', 'knn']);
      expect(r.parts.length).toBeGreaterThan(0);
      expect(r.parts[0]!.category?.slug).toContain('operational-amplifiers');
    } finally {
      await engine.close();
    }
  });
});
