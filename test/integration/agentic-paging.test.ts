/**
 * Agentic search pages at any depth (src/search/agentic.ts): page 2 continues page 1 without overlap or
 * gaps, whatever the page size, including across the 100th result where deeper pages read more
 * candidates per list. Real engines and the real embedding model over a generated sample catalogue of
 * 400 parts (kNN brings every part, so the ranked set goes past 100).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCatalog, sampleFiles } from '../support/small-engine.ts';
import { createCategoryMatcher, type CategoryMatcher } from '../../src/catalog/match/categories.ts';
import { DEFAULT_MODEL_DIR } from '../../src/config.ts';
import { loadEmbedder } from '../../src/embeddings/index.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { writeSampleCatalogue } from '../../src/sample/generate.ts';
import { agenticSearch, type Retrieval } from '../../src/search/agentic.ts';
import { API_ENGINES, makeEngine } from '../support/api.ts';
import { noteSkip, tempDir } from '../support/fixtures.ts';

const modelDir = process.env.EMBEDDING_MODEL_DIR || DEFAULT_MODEL_DIR;
const present = fs.existsSync(path.join(modelDir, 'tokenizer.json'));
if (!present) noteSkip('agentic paging (hybrid)', `no model at ${modelDir}`);

describe.skipIf(!present).each(API_ENGINES)('agentic paging on %s', (kind) => {
  let embedder: Embedder;
  let engine: SearchEngine;
  let drop: () => Promise<void>;
  let categories: CategoryMatcher;
  beforeAll(async () => {
    embedder = (await loadEmbedder({ embeddingModelDir: modelDir, embeddingModelId: null, embeddingBatchSize: 32 })).embedder!;
    ({ engine, drop } = await makeEngine(kind, tempDir()));
    const files = await writeSampleCatalogue(tempDir(), { parts: 400, seed: 7 });
    await ingestCatalog(engine, sampleFiles(files), embedder);
    categories = createCategoryMatcher((await engine.meta())!.categories);
  }, 180_000);
  afterAll(async () => {
    await engine?.close();
    await drop?.();
    await embedder?.close();
  });

  /** The concatenation of pages of `limit` results from offset 0 until `upTo` results or an empty page. */
  async function pages(query: string, retrieval: Retrieval, limit: number, upTo: number): Promise<string[]> {
    const out: string[] = [];
    for (let offset = 0; offset < upTo; offset += limit) {
      const r = await agenticSearch(engine, embedder, true, { query, limit, offset, filters: { status: ['active'] }, retrieval, categories });
      out.push(...r.parts.map((p) => p.slug));
      if (r.parts.length < limit) break;
    }
    return out.slice(0, upTo);
  }

  it.each([
    ['resistors', 'hybrid'],
    ['100nF 50V X7R 0603 capacitors', 'hybrid'],
    ['voltage regulator for battery powered 3.3V', 'hybrid'],
    ['10k 0603 resistor', 'lexical'],
  ] as const)(
    '"%s" (%s): pages of 7 and of 50 give one order, without repeats, past the 100th result',
    async (query, retrieval) => {
      const upTo = retrieval === 'hybrid' ? 210 : 120;
      const small = await pages(query, retrieval, 7, upTo);
      const large = await pages(query, retrieval, 50, upTo);
      if (retrieval === 'hybrid') expect(small.length).toBeGreaterThan(100); // kNN brings every part: the deep block is used
      expect(new Set(small).size).toBe(small.length);
      expect(small).toEqual(large.slice(0, small.length));
      expect(large.length).toBe(small.length);
    },
    60_000,
  );
});
