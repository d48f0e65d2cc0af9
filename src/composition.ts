/**
 * The composition root: the only place that reads the configuration to choose adapters (search
 * engine, embedder, account store, throttle and gate, job store, AI provider; all but the embedder in
 * adapters.ts) and that builds the use cases over them (src/service), once. Everything else gets them passed in: the HTTP app, the job
 * workers and the CLI commands from here, the tests through the same functions.
 */
import { createAccounts, createEngine, createJobAdapters } from './adapters.ts';
import { createCatalogProvider } from './catalog/view.ts';
import type { Config } from './config.ts';
import { loadEmbedder } from './embeddings/index.ts';
import { cachingEmbedder } from './embeddings/query-cache.ts';
import type { Embedder } from './embeddings/port.ts';
import { createLogger, type Logger } from './log.ts';
import type { AiProvider } from './ai/port.ts';
import type { JobsDeps } from './jobs/lifecycle.ts';
import type { AppServices } from './service/app-services.ts';
import { buildServices, candidateFinder } from './service/services.ts';

export { createAccounts, createEngine, createJobAdapters, createVectorCache, keyPepper } from './adapters.ts';

/**
 * `bulkEmbedding`: the process embeds batches of documents (ingest), so one forward pass may use every
 * core; otherwise (the API) it embeds one short query at a time beside the thread serving requests,
 * and one thread is faster (no contention with that thread, no spinning thread pool).
 */
export async function createServices(
  config: Config,
  opts: { log?: Logger; embedder?: boolean; bulkEmbedding?: boolean; aiProvider?: AiProvider } = {},
): Promise<AppServices> {
  const log = opts.log ?? createLogger(config.logLevel);
  const engine = await createEngine(config);
  let embedder: Embedder | null = null;
  let embedderMessage = 'embeddings disabled for this process';
  if (opts.embedder !== false) {
    const status = await loadEmbedder(config, { threads: config.embeddingThreads ?? (opts.bulkEmbedding ? undefined : 1), log, lazy: opts.bulkEmbedding });
    // The API's queries are kept for the next page and repeats; the ingest's batches are never asked again.
    embedder =
      status.embedder && !opts.bulkEmbedding && config.embeddingQueryCache > 0 ? cachingEmbedder(status.embedder, config.embeddingQueryCache) : status.embedder;
    embedderMessage = status.message;
  }
  const accountAdapters = await createAccounts(config);
  const { jobStore, aiProvider } = await createJobAdapters(config);
  if (opts.aiProvider) await aiProvider.close();
  return composeServices({ config, log, engine, embedder, embedderMessage, ...accountAdapters, jobStore, aiProvider: opts.aiProvider ?? aiProvider });
}

/** The adapters the use cases are built over: what createServices chose, or what a benchmark assembles. */
export type Adapters = Omit<AppServices, keyof ReturnType<typeof buildServices> | 'catalog'>;

/** The use cases over chosen adapters, built once. */
export function composeServices(a: Adapters): AppServices {
  const catalog = createCatalogProvider(a.engine);
  const jobs = { store: a.jobStore, provider: a.aiProvider, accounts: a.accounts, billing: a.config.billing, tokenBudget: a.config.aiTokenBudget, log: a.log };
  return { ...a, catalog, ...buildServices({ engine: a.engine, embedder: a.embedder, catalog, accounts: a.accounts, billing: a.config.billing, jobs }) };
}

/** What the job workers (jobs/runner.ts) need: the job adapters, and discovery's retrieval through the agentic search use case. */
export function workerDeps(s: AppServices): JobsDeps {
  return {
    store: s.jobStore,
    provider: s.aiProvider,
    accounts: s.accounts,
    billing: s.config.billing,
    tokenBudget: s.config.aiTokenBudget,
    log: s.log,
    engine: s.engine,
    findCandidates: candidateFinder(s),
  };
}

export async function closeServices(s: AppServices): Promise<void> {
  await s.embedder?.close();
  await s.engine.close();
  await s.gate?.close();
  await s.accounts.close();
  await s.throttle.close();
  await s.jobStore.close();
  await s.aiProvider.close();
}
