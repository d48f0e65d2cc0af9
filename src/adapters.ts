/**
 * The composition root's choice of adapters from the configuration: search engine, vector cache, account
 * store, throttle and gate, job store and AI provider, each loaded only when chosen. composition.ts builds
 * the use cases over them (and re-exports these); the CLI's account and list commands use this file
 * alone, so they start without loading the search and service layers.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Gate } from './accounts/gate.ts';
import type { AccountStore, Throttle } from './accounts/port.ts';
import { createTokenService, type TokenService } from './accounts/tokens.ts';
import type { AiProvider } from './ai/port.ts';
import type { Config } from './config.ts';
import type { VectorCache } from './embeddings/vector-cache.ts';
import type { SearchEngine } from './engines/port.ts';
import type { JobStore } from './jobs/port.ts';

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
