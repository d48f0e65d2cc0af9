/**
 * The composition root: the only place that reads the configuration to choose adapters (search
 * engine, embedder, account store, throttle and gate, job store, AI provider) and that builds the use
 * cases over them (src/service), once. Everything else gets them passed in: the HTTP app, the job
 * workers and the CLI commands from here, the tests through the same functions.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Gate } from './accounts/gate.ts';
import type { AccountStore, Throttle } from './accounts/port.ts';
import { createTokenService, type TokenService } from './accounts/tokens.ts';
import { createCatalogProvider } from './catalog/view.ts';
import type { Config } from './config.ts';
import { loadEmbedder } from './embeddings/index.ts';
import { cachingEmbedder } from './embeddings/query-cache.ts';
import type { Embedder } from './embeddings/port.ts';
import type { VectorCache } from './embeddings/vector-cache.ts';
import type { SearchEngine } from './engines/port.ts';
import { createLogger, type Logger } from './log.ts';
import type { AiProvider } from './ai/port.ts';
import type { JobStore } from './jobs/port.ts';
import type { JobsDeps } from './jobs/lifecycle.ts';
import type { AppServices } from './service/app-services.ts';
import { buildServices, candidateFinder } from './service/services.ts';

export async function createEngine(config: Config): Promise<SearchEngine> {
  if (config.engine === 'opensearch') {
    const { createOpenSearchEngine } = await import('./engines/opensearch/engine.ts');
    const engine = createOpenSearchEngine({
      connection: config.opensearch!.connection,
      layout: config.opensearch!.layout,
      searchPreference: config.opensearch!.searchPreference,
      prefix: config.opensearchIndexPrefix,
      mergeSegments: config.opensearchMergeSegments,
      recordCacheSize: config.recordCacheSize,
    });
    await engine.init();
    return engine;
  }
  const { createSqliteEngine } = await import('./engines/sqlite/engine.ts');
  const engine = createSqliteEngine({ file: path.join(config.dataDir, 'partsearch.db'), recordCacheSize: config.recordCacheSize });
  await engine.init();
  return engine;
}

/** The part vectors kept across ingests (EMBEDDING_CACHE), or null when none are kept. */
export async function createVectorCache(config: Config): Promise<VectorCache | null> {
  if (!config.embeddingCacheFile) return null;
  const { createSqliteVectorCache } = await import('./embeddings/sqlite-vector-cache.ts');
  return createSqliteVectorCache(config.embeddingCacheFile, { keep: config.embeddingCacheKeep });
}

/** The secret mixed into stored key hashes: PARTSEARCH_KEY_PEPPER, else a file made once in the data dir. */
export function keyPepper(config: Config): Buffer {
  if (config.keyPepper) return Buffer.from(config.keyPepper, 'utf8');
  const file = path.join(config.dataDir, '.key-pepper');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'utf8');
}

export async function createAccounts(config: Config): Promise<{ accounts: AccountStore; throttle: Throttle; gate: Gate; tokens: TokenService }> {
  const pepper = keyPepper(config);
  const tokens = createTokenService({ pepper, ttlSeconds: config.accessTokenTtlSeconds });
  // Only the adapters in use are loaded (the CLI's account commands start faster without ioredis).
  if (config.redisUrl) {
    const [{ connectRedis }, { createRedisAccountStore }, { createRedisThrottle }, { createRedisGate }] = await Promise.all([
      import('./redis/connection.ts'),
      import('./accounts/redis/store.ts'),
      import('./accounts/redis/throttle.ts'),
      import('./accounts/redis/gate.ts'),
    ]);
    // The store, the throttle and the gate share one connection; the store closes it.
    const connection = connectRedis(config.redisUrl);
    const accounts = createRedisAccountStore({ url: config.redisUrl, connection, ownsConnection: true, pepper, prefix: config.redisPrefix });
    const throttle = createRedisThrottle({ url: config.redisUrl, connection, prefix: config.redisPrefix });
    const gate = createRedisGate({ url: config.redisUrl, connection, prefix: config.redisPrefix, accounts, throttle });
    return { accounts, throttle, gate, tokens };
  }
  const [{ createSqliteAccountStore }, { createMemoryThrottle }, { createGate }] = await Promise.all([
    import('./accounts/sqlite/store.ts'),
    import('./accounts/memory-throttle.ts'),
    import('./accounts/gate.ts'),
  ]);
  const accounts = createSqliteAccountStore({ file: path.join(config.dataDir, 'accounts.db'), pepper });
  const throttle = createMemoryThrottle();
  return { accounts, throttle, gate: createGate(accounts, throttle), tokens };
}

/** The AI jobs' store (Redis with REDIS_URL, else jobs.db in the data dir) and provider. */
export async function createJobAdapters(config: Config): Promise<{ jobStore: JobStore; aiProvider: AiProvider }> {
  let store;
  if (config.redisUrl) {
    const { createRedisJobStore } = await import('./jobs/redis-store.ts');
    store = createRedisJobStore({ url: config.redisUrl, prefix: config.redisPrefix });
  } else {
    const { createSqliteJobStore } = await import('./jobs/sqlite-store.ts');
    store = createSqliteJobStore({ file: path.join(config.dataDir, 'jobs.db') });
  }
  let provider;
  if (config.llmProvider === 'openai') {
    const { createOpenAiProvider } = await import('./ai/openai.ts');
    provider = createOpenAiProvider({
      baseURL: config.llmBaseUrl!,
      apiKey: config.llmApiKey ?? 'none',
      model: config.llmModel,
      temperature: config.llmTemperature,
    });
  } else {
    const { createLocalProvider } = await import('./ai/local.ts');
    provider = createLocalProvider();
  }
  return { jobStore: store, aiProvider: provider };
}

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
