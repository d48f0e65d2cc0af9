/**
 * What agentic search can decide from BM25 alone it reads while the query's embedding is still being
 * computed, not after kNN: BM25 within the named categories, the categories' parts by the filter alone,
 * the parts holding the parsed spec values (agentic.ts, the lexical stage). Their results are used
 * only when the rules, over every list, still ask for them. Meanwhile it also reads the lexical
 * candidates' records and computes their ranking keys, which are not computed again after kNN.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCatalogProvider } from '../../src/catalog/view.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import type { SearchEngine, TextSearchRequest } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { writeSampleCatalogue } from '../../src/sample/generate.ts';
import { agenticSearch } from '../../src/search/agentic.ts';
import { tempDir } from '../support/fixtures.ts';
import { hashEmbedder } from '../support/hash-embedder.ts';
import { ingestCatalog, sampleFiles, smallSqliteEngine } from '../support/small-engine.ts';
import { SMALL_VECTORS, tableEmbedder } from '../support/table-embedder.ts';

/** A SQLite engine over a 1,500-part sample catalogue (vectors from `embedder`, none without). */
async function sampleEngine(embedder: Embedder | null): Promise<SearchEngine> {
  const dir = tempDir();
  const files = await writeSampleCatalogue(path.join(dir, 'sample'), { parts: 1500 });
  const engine: SearchEngine = createSqliteEngine({ file: path.join(dir, 'p.db') });
  await engine.init();
  await ingestCatalog(engine, sampleFiles(files), embedder);
  return engine;
}

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

  it('reads the records of the lexical candidates while the model works, and ranks as when the model answers at once', async () => {
    const engine = await smallSqliteEngine();
    try {
      const view = (await createCatalogProvider(engine).get())!;
      const table = tableEmbedder(SMALL_VECTORS);
      const req = {
        query: 'operational amplifier rail to rail', // no quantities: nothing else reads a record before kNN
        limit: 10,
        offset: 0,
        filters: { status: ['active' as const] },
        categories: view.categoryMatcher(),
        specNames: view.specNameIndex(),
      };
      const atOnce = await agenticSearch(engine, table, true, req);
      const found = new Set<number>();
      const read = new Set<number>();
      const textSearch = engine.textSearch.bind(engine);
      // Each hit seen through a proxy that notes reads of its record.
      engine.textSearch = async (r: TextSearchRequest) => {
        const out = await textSearch(r);
        for (const h of out.hits) found.add(h.id);
        return { ...out, hits: out.hits.map((h) => new Proxy(h, { get: (t, k) => (k === 'record' && read.add(t.id), Reflect.get(t, k, t)) })) };
      };
      let release!: () => void;
      const modelDone = new Promise<void>((r) => (release = r));
      const held = { ...table, embed: async (texts: readonly string[]) => (await modelDone, table.embed(texts)) };
      const search = agenticSearch(engine, held, true, req);
      // Until every candidate found has been read, or a bound (3 s: on a busy machine too).
      for (const until = Date.now() + 3000; (found.size === 0 || read.size < found.size) && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 30)); // and nothing more is read before the model answers
      const beforeModel = [...read].sort();
      release();
      const r = await search;
      expect(found.size).toBeGreaterThan(0);
      expect(beforeModel).toEqual([...found].sort());
      expect(r.parts.map((p) => p.id)).toEqual(atOnce.parts.map((p) => p.id));
      expect(r.availableSpecs).toEqual(atOnce.availableSpecs);
      expect(r.total).toBe(atOnce.total);
    } finally {
      await engine.close();
    }
  });

  it('stops reading the lexical candidates once the kNN lists are in: those the ranking does not reach stay unread', async () => {
    const engine = await sampleEngine(hashEmbedder);
    try {
      const view = (await createCatalogProvider(engine).get())!;
      let release!: () => void;
      const modelDone = new Promise<void>((r) => (release = r));
      // The model answers as soon as the lexical stage reads its first record (one chunk of the warm-up).
      const held: Embedder = { ...hashEmbedder, embed: async (texts) => (await modelDone, hashEmbedder.embed(texts)) };
      const read = new Set<number>();
      const lists: number[][] = [];
      const textSearch = engine.textSearch.bind(engine);
      engine.textSearch = async (r: TextSearchRequest) => {
        const out = await textSearch(r);
        lists.push(out.hits.map((h) => h.id));
        const seen = (id: number) => (read.add(id), release());
        return { ...out, hits: out.hits.map((h) => new Proxy(h, { get: (t, k) => (k === 'record' && seen(t.id), Reflect.get(t, k, t)) })) };
      };
      // Words no part holds together: the kNN list weighs as much as BM25's, so the ranking's first block
      // leaves out many BM25 candidates, and only the warm-up would read their records.
      const r = await agenticSearch(engine, held, true, {
        query: 'smd rohs zebra quasar',
        limit: 10,
        offset: 0,
        filters: { status: ['active'] },
        categories: view.categoryMatcher(),
        specNames: view.specNameIndex(),
      });
      expect(r.retrieval).toBe('hybrid');
      const bm25 = lists[0]!;
      expect(bm25).toHaveLength(100);
      expect(bm25.filter((id) => !read.has(id)).length).toBeGreaterThan(10);
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('on an engine whose reads overlap, asks for the named categories with BM25, not after it, unless their last query did without; the same answers', async () => {
    const engine = await sampleEngine(null);
    try {
      const view = (await createCatalogProvider(engine).get())!;
      const req = (query: string) => ({
        query,
        limit: 10,
        offset: 0,
        filters: { status: ['active' as const] },
        categories: view.categoryMatcher(),
        specNames: view.specNameIndex(),
      });
      const calls: string[] = [];
      const textSearch = engine.textSearch.bind(engine);
      engine.textSearch = (r: TextSearchRequest) => {
        calls.push(r.filters.specs?.length ? 'spec values' : r.filters.categories?.length ? (r.text ? 'bm25 in categories' : 'categories by filter') : 'bm25');
        return textSearch(r);
      };
      const overlapping: SearchEngine = Object.assign(Object.create(engine) as SearchEngine, { concurrentReads: true });
      /** The reads asked for before the search's first wait, all of them, and the answer. */
      const run = async (e: SearchEngine, query: string) => {
        calls.length = 0;
        const search = agenticSearch(e, null, false, req(query));
        const first = [...calls];
        const r = await search;
        return { first, all: [...calls], answer: [r.total, r.parts.map((p) => p.id), r.availableSpecs] };
      };
      const early = ['bm25', 'bm25 in categories', 'categories by filter'];
      // BM25 over the whole catalogue finds too few MOSFETs: their own BM25 and their best stocked are read.
      const plain = await run(engine, 'mosfet');
      expect(plain.first).toEqual(['bm25']);
      expect(plain.all).toEqual(early);
      const overlapped = await run(overlapping, 'mosfet');
      expect(overlapped.first).toEqual(early);
      expect(overlapped.all).toEqual(early); // each read once
      expect(overlapped.answer).toEqual(plain.answer);
      // Resistors: BM25 over the whole catalogue holds enough of them. A first query naming them reads
      // them early all the same (not known yet) and uses neither read; the next leaves them unread.
      const first = await run(overlapping, 'resistors');
      expect(first.first).toEqual(early);
      const plainServed = await run(engine, 'resistor 0603');
      expect(plainServed.all).toEqual(['bm25']);
      const next = await run(overlapping, 'resistor 0603');
      expect(next.all).toEqual(['bm25']);
      expect(next.answer).toEqual(plainServed.answer);
    } finally {
      await engine.close();
    }
  }, 60_000);
});
