/**
 * The composition root: the only place that reads the configuration to choose adapters (search
 * engine, embedder; later the job queue, LLM and account store). Everything else gets them passed in.
 */
import path from 'node:path';
import type { Config } from './config.ts';
import { loadEmbedder } from './embeddings/index.ts';
import type { Embedder } from './embeddings/port.ts';
import type { SearchEngine } from './engines/port.ts';
import { createLogger, type Logger } from './log.ts';
import type { AppServices } from './http/services.ts';

export async function createEngine(config: Config): Promise<SearchEngine> {
  if (config.engine === 'opensearch') {
    const { createOpenSearchEngine } = await import('./engines/opensearch/engine.ts');
    const engine = createOpenSearchEngine({ url: config.opensearchUrl!, prefix: config.opensearchIndexPrefix });
    await engine.init();
    return engine;
  }
  const { createSqliteEngine } = await import('./engines/sqlite/engine.ts');
  const engine = createSqliteEngine({ file: path.join(config.dataDir, 'partsearch.db') });
  await engine.init();
  return engine;
}

export async function createServices(config: Config, opts: { log?: Logger; embedder?: boolean } = {}): Promise<AppServices> {
  const log = opts.log ?? createLogger(config.logLevel);
  const engine = await createEngine(config);
  let embedder: Embedder | null = null;
  let embedderMessage = 'embeddings disabled for this process';
  if (opts.embedder !== false) {
    const status = await loadEmbedder(config);
    embedder = status.embedder;
    embedderMessage = status.message;
  }
  return { config, engine, embedder, embedderMessage, log };
}

export async function closeServices(s: AppServices): Promise<void> {
  await s.embedder?.close();
  await s.engine.close();
}
