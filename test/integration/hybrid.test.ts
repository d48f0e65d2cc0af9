/**
 * Hybrid agentic search with the real embedding model over the small fixture, on every engine: a need
 * whose words no part text holds finds its part.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCatalog } from '../support/small-engine.ts';
import { DEFAULT_MODEL_DIR } from '../../src/config.ts';
import { loadEmbedder } from '../../src/embeddings/index.ts';
import type { Embedder } from '../../src/embeddings/port.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { agenticSearch } from '../../src/search/agentic.ts';
import { createCatalogProvider } from '../../src/catalog/view.ts';
import { noteSkip, SMALL, tempDir } from '../support/fixtures.ts';
import { API_ENGINES, makeEngine } from '../support/api.ts';

const modelDir = process.env.EMBEDDING_MODEL_DIR || DEFAULT_MODEL_DIR;
const present = fs.existsSync(path.join(modelDir, 'tokenizer.json'));
if (!present) noteSkip('hybrid search', `no model at ${modelDir}`);

const engines: [string, () => ReturnType<typeof makeEngine>][] = API_ENGINES.map((kind) => [kind, () => makeEngine(kind, tempDir())]);

describe.skipIf(!present).each(engines)('hybrid agentic search on %s', (_name, make) => {
  let embedder: Embedder;
  let engine: SearchEngine;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    embedder = (await loadEmbedder({ embeddingModelDir: modelDir, embeddingModelId: null, embeddingBatchSize: 32 })).embedder!;
    ({ engine, drop } = await make());
    await ingestCatalog(engine, { parts: SMALL.parts, manufacturers: SMALL.manufacturers, categories: SMALL.categories }, embedder);
  });
  afterAll(async () => {
    await engine?.close();
    await drop?.();
    await embedder?.close();
  });

  it('finds a part by meaning when no word is shared', async () => {
    // No fixture text contains "keep", "rail" or "steady": BM25 finds nothing, and the model's nearest
    // part is no nearer than to an off-domain sentence (so the no-match floor would answer nothing);
    // the function vocabulary reads "keep the rail steady" as voltage regulation, and the LDO leads.
    const q = 'keep the rail steady';
    const categories = (await createCatalogProvider(engine).get())!.categoryMatcher();
    const req = { query: q, limit: 3, offset: 0, filters: { status: ['active' as const] } };
    expect((await agenticSearch(engine, embedder, true, req)).parts).toEqual([]); // without the catalogue's categories: no match
    const hybrid = await agenticSearch(engine, embedder, true, { ...req, categories });
    expect(hybrid.retrieval).toBe('hybrid');
    expect(hybrid.parts[0]!.mpn).toBe('TLV70033DDCR');
  });

  it('keeps constraint satisfaction first in hybrid mode', async () => {
    const r = await agenticSearch(engine, embedder, true, { query: '10k 0603 resistor', limit: 3, offset: 0, filters: { status: ['active'] } });
    expect(
      r.parts
        .slice(0, 2)
        .map((p) => p.mpn)
        .sort(),
    ).toEqual(['0603WAF1002T5E', 'RC0603FR-0710KL']);
  });
});
