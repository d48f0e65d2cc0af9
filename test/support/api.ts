/** A real API over a real SQLite engine (small fixture), SQLite accounts and the in-process throttle. */
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createMemoryThrottle, createSqliteAccountStore } from '../../src/accounts/index.ts';
import type { Capability } from '../../src/accounts/port.ts';
import { createTokenService } from '../../src/accounts/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import type { AppServices } from '../../src/service/app-services.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import { createCatalogProvider } from '../../src/catalog/view.ts';
import { tempDir } from './fixtures.ts';
import type { AiProvider } from '../../src/ai/port.ts';
import { createLocalProvider } from '../../src/ai/local.ts';
import { createSqliteJobStore } from '../../src/jobs/sqlite-store.ts';
import { startRunner } from '../../src/jobs/runner.ts';
import { jobsDeps } from '../../src/jobs/service.ts';
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
  const prefix = `pstest-api-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const engine = createOpenSearchEngine({ url, prefix });
  await engine.init();
  return { engine, drop: async () => void (await fetch(`${url}/${prefix}-*`, { method: 'DELETE' })) };
}

/** A test API over the small fixture with its lists, or over `catalog` when given. */
export async function startTestApi(
  env: Record<string, string> = {},
  kind: EngineKind = 'sqlite',
  catalog?: CatalogFiles,
  opts: { provider?: AiProvider; log?: Logger; workers?: number } = {},
): Promise<TestApi> {
  const dir = tempDir();
  const { engine, drop } = await makeEngine(kind, dir);
  if (catalog) await ingestCatalog(engine, catalog);
  else await ingestSmallFixture(engine, true);
  const services: AppServices = {
    config: loadConfig({ PARTSEARCH_DATA_DIR: dir, EMBEDDING_MODEL_DIR: 'none', ...env }),
    engine,
    catalog: createCatalogProvider(engine),
    embedder: null,
    embedderMessage: 'no embedding model configured: lexical-only search',
    log: opts.log ?? silentLogger,
    accounts: createSqliteAccountStore({ file: path.join(dir, 'accounts.db'), pepper: Buffer.from('test-pepper') }),
    tokens: createTokenService({ pepper: Buffer.from('test-pepper') }),
    throttle: createMemoryThrottle(),
    jobs: { store: createSqliteJobStore({ file: path.join(dir, 'jobs.db') }), provider: createLocalProvider(), tokenBudget: 20_000 },
  };
  if (opts.provider) services.jobs.provider = opts.provider;
  // Jobs run in this process, as with the embedded default's JOB_WORKERS (none with `workers: 0`: jobs stay queued).
  const runner = opts.workers === 0 ? null : startRunner(jobsDeps(services), { concurrency: opts.workers ?? 2 });
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
      await services.jobs.store.close();
      await services.engine.close();
      await drop();
      await services.accounts.close();
      await services.throttle.close();
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
