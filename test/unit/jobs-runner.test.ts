/**
 * The job workers' failure modes, on the real SQLite job and account stores and engine: a cancel that
 * lands after the provider spent tokens, a store that fails while a job ends, a worker that stopped
 * mid-job. The provider is the local one, wrapped to report tokens and to act at a chosen moment (the
 * work and the stores are real; the wrapper only marks when things happen).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteAccountStore } from '../../src/accounts/index.ts';
import type { AccountStore } from '../../src/accounts/port.ts';
import { createLocalProvider } from '../../src/ai/local.ts';
import type { AiProvider } from '../../src/ai/port.ts';
import { loadConfig } from '../../src/config.ts';
import { createCatalogProvider } from '../../src/catalog/view.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import type { JobRecord, JobStore } from '../../src/jobs/port.ts';
import { startRunner } from '../../src/jobs/runner.ts';
import { cancelJob, createJob, type JobsDeps } from '../../src/jobs/lifecycle.ts';
import { candidateFinder } from '../../src/service/services.ts';
import { createSqliteJobStore } from '../../src/jobs/sqlite-store.ts';
import { silentLogger } from '../../src/log.ts';
import { tempDir } from '../support/fixtures.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';
import { until } from '../support/wait.ts';

const PERIOD = new Date().toISOString().slice(0, 7);
let engine: SearchEngine;
let accounts: AccountStore;
const dir = tempDir();

beforeAll(async () => {
  engine = await smallSqliteEngine();
  accounts = createSqliteAccountStore({ file: path.join(dir, 'accounts.db'), pepper: Buffer.from('p') });
});
afterAll(async () => {
  await accounts?.close();
  await engine?.close();
});

function depsWith(store: JobStore, provider: AiProvider): JobsDeps {
  return {
    store,
    provider,
    engine,
    findCandidates: candidateFinder({ engine, embedder: null, catalog: createCatalogProvider(engine) }),
    accounts,
    billing: loadConfig({ PARTSEARCH_DATA_DIR: dir, EMBEDDING_MODEL_DIR: 'none' }).billing,
    tokenBudget: 20_000,
    log: silentLogger,
  };
}

/** The local provider, reporting `tokens` per ranking (as an LLM would) and calling `after` once it ranked. */
function tokenProvider(tokens: number, after: () => Promise<void> = async () => {}): AiProvider {
  const local = createLocalProvider();
  return {
    name: 'local-with-tokens',
    async rank(req) {
      const r = await local.rank(req);
      await after();
      return { ...r, usage: { input_tokens: tokens - 100, output_tokens: 100 } };
    },
    answer: (req) => local.answer(req),
    close: async () => {},
  };
}

const discover = { requirements: '10k 0603 resistor', filters: { status: ['active' as const] }, limit: 3, base_url: 'http://localhost' };

describe('job workers', () => {
  it('a job cancelled after the provider spent tokens pays those tokens, and its usage says so', async () => {
    const store = createSqliteJobStore({ file: path.join(dir, 'jobs-a.db') });
    const account = await accounts.createAccount({ name: 'cancel-late', subscription: true });
    let job: JobRecord | null = null;
    const deps = depsWith(
      store,
      tokenProvider(5_000, async () => {
        await cancelJob(deps, (await store.get(job!.job_id))!);
      }),
    );
    job = await createJob(deps, 'discover', account.id, 'req_test_1', discover);
    expect(job.hold).toMatchObject({ units: 20_000, amount_micros: 200_000 });
    const runner = startRunner(deps, { concurrency: 1 });
    const done = await until(
      () => store.get(job!.job_id),
      (j) => j?.usage !== null,
    );
    await runner.stop();
    expect(done).toMatchObject({ status: 'cancelled', result: null, usage: { input_tokens: 4_900, output_tokens: 100, total_tokens: 5_000 } });
    expect((await accounts.usage(account.id, PERIOD)).by_class.ai_tokens).toEqual({ units: 5_000, amount_micros: 50_000 });
    expect((await accounts.getAccount(account.id))!.balance_micros).toBe(5_000_000 - 50_000);
    const events = await store.events(job.job_id, 0);
    expect(events.at(-1)).toMatchObject({ event: 'status', data: { status: 'cancelled' } });
    expect(events.map((e) => e.event)).not.toContain('result');
    await store.close();
  });

  it('a store failing as the job ends leaves it taken; the orphan check fails it (worker_lost) and nothing is lost', async () => {
    const real = createSqliteJobStore({ file: path.join(dir, 'jobs-b.db') });
    let failures = 0;
    // The store refuses the job's final write once (a database that went away for a moment).
    const store: JobStore = {
      ...real,
      async advance(id, a) {
        if (a.patch.status === 'completed' && failures++ === 0) throw new Error('SQLITE_BUSY: database is locked');
        return real.advance(id, a);
      },
    };
    const account = await accounts.createAccount({ name: 'store-fails', subscription: true });
    const deps = depsWith(store, tokenProvider(1_000));
    const job = await createJob(deps, 'discover', account.id, 'req_test_2', discover);
    const runner = startRunner(deps, { concurrency: 1, leaseMs: 20, orphanCheckMs: 30 });
    const done = await until(
      () => real.get(job.job_id),
      (j) => j?.status === 'failed',
    );
    await runner.stop();
    expect(done).toMatchObject({ status: 'failed', error: { type: 'worker_lost' } });
    expect(failures).toBe(1);
    // The hold was settled before the write failed: the tokens the provider reported are paid, once.
    expect((await accounts.usage(account.id, PERIOD)).by_class.ai_tokens).toEqual({ units: 1_000, amount_micros: 10_000 });
    expect((await real.orphans(0)).running).not.toContain(job.job_id);
    await real.close();
  });

  it('jobs a stopped process left behind: taken but never started go back on the queue and run', async () => {
    const file = path.join(dir, 'jobs-c.db');
    const before = createSqliteJobStore({ file });
    const account = await accounts.createAccount({ name: 'restart', subscription: true });
    const deps0 = depsWith(before, createLocalProvider());
    const job = await createJob(deps0, 'discover', account.id, 'req_test_3', discover);
    // A process takes it and stops before starting it.
    expect(await before.take(AbortSignal.timeout(1000))).toBe(job.job_id);
    await before.close();
    const after = createSqliteJobStore({ file });
    const runner = startRunner(depsWith(after, createLocalProvider()), { concurrency: 1, leaseMs: 10, orphanCheckMs: 30 });
    const done = await until(
      () => after.get(job.job_id),
      (j) => j?.status === 'completed',
    );
    await runner.stop();
    expect(done?.status).toBe('completed');
    expect((done?.result as { results: unknown[] }).results.length).toBeGreaterThan(0);
    await after.close();
  });

  it('a watch that fails does not strand the job: it runs to its end', async () => {
    const real = createSqliteJobStore({ file: path.join(dir, 'jobs-d.db') });
    // The watch (a Redis subscription that failed, as on a connection torn down under it) refuses every job.
    const store: JobStore = { ...real, watch: () => Promise.reject(new Error('Connection in subscriber mode')) };
    const account = await accounts.createAccount({ name: 'watch-fails', subscription: true });
    const deps = depsWith(store, tokenProvider(1_000));
    const job = await createJob(deps, 'discover', account.id, 'req_test_4', discover);
    const runner = startRunner(deps, { concurrency: 1 });
    const done = await until(
      () => real.get(job.job_id),
      (j) => j?.status === 'completed',
    );
    await runner.stop();
    expect(done).toMatchObject({ status: 'completed', usage: { total_tokens: 1_000 } });
    await real.close();
  });
});
