/**
 * A throw-away index of the generated sample catalogue (seed 42, 2,500 parts) for relevance runs:
 * SQLite in a temp folder, or OpenSearch under a unique index prefix that `drop` deletes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIngest } from '../../ingest/pipeline.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { SearchEngine } from '../engines/port.ts';
import { writeSampleCatalogue } from '../sample/generate.ts';

export interface SampleIndex {
  engine: SearchEngine;
  parts: number;
  embedded: boolean;
  seconds: number;
  /** Closes the engine and deletes the temp folder / OpenSearch indexes. */
  drop(): Promise<void>;
}

export async function buildSampleIndex(o: { engine: 'sqlite' | 'opensearch'; opensearchUrl?: string | null; embedder: Embedder | null }): Promise<SampleIndex> {
  const t0 = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partsearch-relevance-'));
  const files = await writeSampleCatalogue(path.join(dir, 'sample'));
  let engine: SearchEngine;
  let dropIndexes = async () => {};
  if (o.engine === 'opensearch') {
    if (!o.opensearchUrl) throw new Error('OpenSearch needs OPENSEARCH_URL');
    const { createOpenSearchEngine } = await import('../engines/opensearch/engine.ts');
    const prefix = `psrel-${process.pid}-${Date.now().toString(36)}`;
    engine = createOpenSearchEngine({ url: o.opensearchUrl, prefix });
    const url = o.opensearchUrl.replace(/\/+$/, '');
    dropIndexes = async () => {
      // Every index of the engine is `<prefix>-...` (aliases go with their indexes); the prefix is this run's own.
      await fetch(`${url}/${prefix}-*`, { method: 'DELETE' }).catch(() => undefined);
    };
  } else {
    const { createSqliteEngine } = await import('../engines/sqlite/engine.ts');
    engine = createSqliteEngine({ file: path.join(dir, 'partsearch.db') });
  }
  const drop = async () => {
    await engine.close().catch(() => undefined);
    await dropIndexes();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await engine.init();
    const s = await runIngest({
      engine,
      embedder: o.embedder,
      parts: [files.partsFile],
      manufacturersFile: files.manufacturersFile,
      categoriesFile: files.categoriesFile,
      listsFile: files.listsFile,
      reportFile: path.join(dir, 'ingest-report.jsonl'),
    });
    return { engine, parts: s.indexed, embedded: s.embedded, seconds: (performance.now() - t0) / 1000, drop };
  } catch (e) {
    await drop();
    throw e;
  }
}

/**
 * An embedder that remembers every vector by text, so a second index of the same catalogue (another
 * engine) costs no model time. Vectors are the model's, so results are unchanged.
 */
export function memoEmbedder(inner: Embedder): Embedder {
  const cache = new Map<string, Float32Array>();
  return {
    model: inner.model,
    dims: inner.dims,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length) (await inner.embed(missing)).forEach((v, i) => cache.set(missing[i]!, v));
      return texts.map((t) => cache.get(t)!);
    },
    close: () => inner.close(),
  };
}
