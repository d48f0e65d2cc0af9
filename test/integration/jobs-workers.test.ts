/**
 * AI jobs across processes sharing Redis: an API process that runs no jobs itself (JOB_WORKERS=0) and
 * a separate `partsearch worker` process. Jobs queued while no worker runs wait for one; a job
 * cancelled while queued stays cancelled; the worker's progress reaches the API process's stream.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import { createRedisAccountStore } from '../../src/accounts/index.ts';
import { purgeRedisPrefix } from '../../src/redis/connection.ts';
import type { AccountStore } from '../../src/accounts/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { noteSkip, SMALL, tempDir } from '../support/fixtures.ts';
import { parseSse } from '../support/sse.ts';
import { redisProcessEnv, spawnPartsearch, stop, waitUp } from '../support/processes.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) noteSkip('multi-process job tests', 'REDIS_URL is not set');

describe.skipIf(!REDIS_URL)('an API process and a worker process sharing Redis', () => {
  const prefix = `pstest-jobs-${process.pid}-${Date.now()}:`;
  const pepper = 'jobs-workers-test-pepper';
  const url = `http://127.0.0.1:${21000 + (process.pid % 9000)}`;
  let env: Record<string, string>;
  let api: ChildProcess;
  let worker: ChildProcess | null = null;
  let store: AccountStore;
  let auth: Record<string, string>;

  beforeAll(async () => {
    const dir = tempDir();
    const engine = createSqliteEngine({ file: path.join(dir, 'partsearch.db') });
    await runIngest({ engine, embedder: null, parts: [SMALL.parts], manufacturersFile: SMALL.manufacturers, reportFile: path.join(dir, 'r.jsonl') });
    await engine.close();
    env = { ...redisProcessEnv({ dir, prefix, pepper, port: Number(new URL(url).port) }), JOB_WORKERS: '0' };
    store = createRedisAccountStore({ url: REDIS_URL!, pepper: Buffer.from(pepper), prefix });
    const a = await store.createAccount({ name: 'jobs', subscription: true });
    const { secret } = await store.createKey({ account_id: a.id, name: 'k', capabilities: ['parts:read', 'ai:run'], rate_limit_per_minute: 1000 });
    auth = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
    api = spawnPartsearch(['serve'], env);
    await waitUp(url);
  });
  afterAll(async () => {
    if (worker) await stop(worker);
    if (api) await stop(api);
    await store?.close();
    await purgeRedisPrefix(REDIS_URL!, prefix);
  });

  const post = async (p: string, body: unknown) =>
    (await fetch(`${url}${p}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json() as Promise<{
      job_id: string;
      status: string;
      cancelled?: boolean;
    }>;
  const job = async (id: string) =>
    (await fetch(`${url}/v1/jobs/${id}`, { headers: auth })).json() as Promise<{ status: string; result: { results: { rank: number }[] } | null }>;

  it('queued jobs wait for a worker; a cancelled one stays cancelled; the worker runs the rest and the API streams them', async () => {
    const waiting = await post('/v1/parts/discover', { requirements: 'dual op amp SOIC-8', limit: 2 });
    const cancelled = await post('/v1/parts/discover', { requirements: '10k resistor' });
    expect(waiting.status).toBe('queued');
    // Nobody runs jobs yet.
    await new Promise((r) => setTimeout(r, 500));
    expect((await job(waiting.job_id)).status).toBe('queued');
    expect(await post(`/v1/jobs/${cancelled.job_id}/cancel`, {})).toMatchObject({ cancelled: true });

    // A stream opened on the API process before any worker runs: it carries the worker's events.
    const streamed = fetch(`${url}/v1/jobs/${waiting.job_id}/stream`, { headers: auth }).then((r) => r.text());
    worker = spawnPartsearch(['worker', '--concurrency', '2'], env);
    const text = await streamed;
    const events = parseSse(text).map((f) => f.event);
    expect(events[0]).toBe('status');
    expect(events).toContain('pick');
    expect(events.at(-1)).toBe('result');
    const done = await job(waiting.job_id);
    expect(done.status).toBe('completed');
    expect(done.result!.results.map((p) => p.rank)).toEqual([1, 2]);
    expect((await job(cancelled.job_id)).status).toBe('cancelled');
  });
});
