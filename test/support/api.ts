/**
 * A real API, composed as the service composes itself (src/composition.ts createServices) over a data
 * dir of its own: SQLite or OpenSearch (an index prefix of its own) holding the small fixture, SQLite
 * accounts and jobs, the in-process throttle, lexical-only search.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Capability } from '../../src/accounts/port.ts';
import type { AiProvider } from '../../src/ai/port.ts';
import { closeServices, composeServices, createAccounts, createJobAdapters, createServices, workerDeps } from '../../src/composition.ts';
import { loadConfig } from '../../src/config.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { startRunner } from '../../src/jobs/runner.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import type { AppServices } from '../../src/service/app-services.ts';
import { tempDir } from './fixtures.ts';
import { startServer } from './server.ts';
import { ingestCatalog, ingestSmallFixture, type CatalogFiles } from './small-engine.ts';

export interface TestApi {
  url: string;
  services: AppServices;
  /** A new account (subscription on unless said) with one key; returns the secret. */
  key(opts?: {
    capabilities?: Capability[];
    subscription?: boolean;
    creditUsd?: number;
    rateLimit?: number;
  }): Promise<{ secret: string; accountId: string; keyId: string }>;
  get(p: string, secret?: string | null, headers?: Record<string, string>): Promise<Response>;
  post(p: string, body: unknown, secret?: string | null): Promise<Response>;
  close(): Promise<void>;
}

export type EngineKind = 'sqlite' | 'opensearch';

/** Engines to run API suites on: SQLite always, OpenSearch when OPENSEARCH_URL is set. */
export const API_ENGINES: EngineKind[] = process.env.OPENSEARCH_URL ? ['sqlite', 'opensearch'] : ['sqlite'];

/** An empty engine of that kind (SQLite under `dir`, or an OpenSearch index prefix of its own) and how to drop it. */
export async function makeEngine(kind: EngineKind, dir: string): Promise<{ engine: SearchEngine; drop: () => Promise<void> }> {
  if (kind === 'sqlite') return { engine: createSqliteEngine({ file: path.join(dir, 'p.db') }), drop: async () => {} };
  const { createOpenSearchEngine } = await import('../../src/engines/opensearch/engine.ts');
  const url = process.env.OPENSEARCH_URL!;
  const prefix = ownPrefix();
  const engine = createOpenSearchEngine({ url, prefix });
  await engine.init();
  return { engine, drop: async () => void (await fetch(`${url}/${prefix}-*`, { method: 'DELETE' })) };
}

/** An OpenSearch index prefix no other test run uses. */
const ownPrefix = () => `pstest-api-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

/** A test API over the small fixture with its lists, or over `catalog` when given. */
export async function startTestApi(
  env: Record<string, string> = {},
  kind: EngineKind = 'sqlite',
  catalog?: CatalogFiles,
  opts: { provider?: AiProvider; log?: Logger; workers?: number } = {},
): Promise<TestApi> {
  const dir = tempDir();
  const prefix = ownPrefix();
  const config = loadConfig({
    PARTSEARCH_DATA_DIR: dir,
    EMBEDDING_MODEL_DIR: 'none',
    PARTSEARCH_KEY_PEPPER: 'test-pepper',
    ...(kind === 'opensearch' ? { SEARCH_ENGINE: 'opensearch', OPENSEARCH_URL: process.env.OPENSEARCH_URL!, OPENSEARCH_INDEX_PREFIX: prefix } : {}),
    ...env,
  });
  const services = await createServices(config, { log: opts.log ?? silentLogger, aiProvider: opts.provider });
  if (catalog) await ingestCatalog(services.engine, catalog);
  else await ingestSmallFixture(services.engine, true);
  return serve(services, opts.workers, async () => {
    await closeServices(services);
    if (kind === 'opensearch') await fetch(`${config.opensearchUrl}/${prefix}-*`, { method: 'DELETE' });
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

/**
 * A test API over an engine that is loaded already (the real catalogue's, shared by a suite), composed
 * as createServices composes the service around it, with accounts and jobs in a data dir of its own.
 * Closing it closes what it made, not the engine.
 */
export async function startApiOver(engine: SearchEngine, env: Record<string, string> = {}): Promise<TestApi> {
  const dir = tempDir();
  const config = loadConfig({ PARTSEARCH_DATA_DIR: dir, EMBEDDING_MODEL_DIR: 'none', PARTSEARCH_KEY_PEPPER: 'test-pepper', ...env });
  const accountAdapters = await createAccounts(config);
  const { jobStore, aiProvider } = await createJobAdapters(config);
  const services = composeServices({
    config,
    log: silentLogger,
    engine,
    embedder: null,
    embedderMessage: 'lexical-only',
    ...accountAdapters,
    jobStore,
    aiProvider,
  });
  return serve(services, 0, async () => {
    await services.gate?.close();
    await services.accounts.close();
    await services.throttle.close();
    await jobStore.close();
    await aiProvider.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

/** Serves `services` on a loopback port (jobs run in this process unless `workers` is 0); `release` frees them at close. */
async function serve(services: AppServices, workers: number | undefined, release: () => Promise<void>): Promise<TestApi> {
  // Jobs run in this process, as with the embedded default's JOB_WORKERS (none with `workers: 0`: jobs stay queued).
  const runner = workers === 0 ? null : startRunner(workerDeps(services), { concurrency: workers ?? 2 });
  const server = await startServer(services);
  let n = 0;
  return {
    url: server.url,
    services,
    async key(o = {}) {
      const account = await services.accounts.createAccount({
        name: `acct-${++n}`,
        subscription: o.subscription ?? true,
        credit_micros: Math.round((o.creditUsd ?? 5) * 1e6),
      });
      const { secret, key } = await services.accounts.createKey({
        account_id: account.id,
        name: 'test',
        capabilities: o.capabilities ?? ['parts:read', 'ai:run'],
        rate_limit_per_minute: o.rateLimit ?? 60,
      });
      return { secret, accountId: account.id, keyId: key.id };
    },
    get(p, secret, headers = {}) {
      return fetch(`${server.url}${p}`, { redirect: 'manual', headers: { ...(secret ? { Authorization: `Bearer ${secret}` } : {}), ...headers } });
    },
    post(p, body, secret) {
      return fetch(`${server.url}${p}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/json', ...(secret ? { Authorization: `Bearer ${secret}` } : {}) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async close() {
      await runner?.stop();
      await server.close();
      await release();
    },
  };
}

/**
 * Registers beforeAll/afterAll that start a test API on `kind` with one `parts:read` key; the
 * returned object's fields are set once the suite runs.
 */
export function useTestApi(kind: EngineKind, env: Record<string, string> = {}, catalog?: () => CatalogFiles): { api: TestApi; secret: string } {
  const ctx = {} as { api: TestApi; secret: string };
  beforeAll(async () => {
    ctx.api = await startTestApi(env, kind, catalog?.());
    ctx.secret = (await ctx.api.key({ capabilities: ['parts:read'] })).secret;
  });
  afterAll(async () => ctx.api?.close());
  return ctx;
}
