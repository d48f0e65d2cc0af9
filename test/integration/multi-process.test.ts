/**
 * Several API processes sharing Redis (accounts, ledger, throttle): the window's allowance and the
 * balance hold exactly across processes. Two real `partsearch serve` processes on loopback.
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
import { redisProcessEnv, spawnPartsearch, waitUp } from '../support/processes.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) noteSkip('multi-process Redis tests', 'REDIS_URL is not set');

describe.skipIf(!REDIS_URL)('two API processes sharing Redis', () => {
  const prefix = `pstest-mp-${process.pid}-${Date.now()}:`;
  const pepper = 'multi-process-test-pepper';
  const procs: ChildProcess[] = [];
  const urls: string[] = [];
  let store: AccountStore;

  beforeAll(async () => {
    const dir = tempDir();
    const engine = createSqliteEngine({ file: path.join(dir, 'partsearch.db') });
    await runIngest({ engine, embedder: null, parts: [SMALL.parts], manufacturersFile: SMALL.manufacturers, reportFile: path.join(dir, 'r.jsonl') });
    await engine.close();
    store = createRedisAccountStore({ url: REDIS_URL!, pepper: Buffer.from(pepper), prefix });
    for (const port of [0, 1].map((i) => 20000 + (process.pid % 10000) + i * 7)) {
      const p = spawnPartsearch(['serve'], { ...redisProcessEnv({ dir, prefix, pepper, port }), PRICES_USD: 'part_records=0.1' });
      procs.push(p);
      urls.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(urls.map(waitUp));
  });
  afterAll(async () => {
    for (const p of procs) p.kill('SIGTERM');
    await store?.close();
    await purgeRedisPrefix(REDIS_URL!, prefix);
  });

  async function key(creditUsd: number) {
    const a = await store.createAccount({ name: `mp-${Math.random()}`, subscription: true, credit_micros: Math.round(creditUsd * 1e6) });
    const { secret } = await store.createKey({ account_id: a.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
    return { secret, account: a };
  }

  it('admits exactly the window allowance of 200 parallel requests spread over both processes', async () => {
    const { secret } = await key(5);
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${urls[i % 2]}/v1/usage`, { headers: { Authorization: `Bearer ${secret}` } }).then(async (r) => (await r.arrayBuffer(), r.status)),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(140);
  });

  it('charges a part detail once, with its admission; a 404, a redirect and a HEAD pay nothing', async () => {
    // 20 USD: enough headroom (100 prices of 0.1) for the price to be taken with the admission.
    const { secret, account } = await key(20);
    const get = (p: string, method = 'GET') => fetch(`${urls[0]}${p}`, { method, redirect: 'manual', headers: { Authorization: `Bearer ${secret}` } });
    // The first request of a key takes the separate calls; the next ones the one-script admission.
    for (const p of ['/v1/parts/texas-instruments/NOPE-1', '/v1/parts/texas-instruments/NOPE-2']) expect((await get(p)).status).toBe(404);
    expect((await get('/v1/parts/TEXAS-INSTRUMENTS/LM358DR')).status).toBe(308);
    expect((await get('/v1/parts/texas-instruments/LM358DR', 'HEAD')).status).toBe(200);
    expect((await store.getAccount(account.id))!.balance_micros).toBe(20_000_000);
    expect((await get('/v1/parts/texas-instruments/LM358DR')).status).toBe(200);
    expect((await store.getAccount(account.id))!.balance_micros).toBe(19_900_000);
    const period = new Date().toISOString().slice(0, 7);
    expect((await store.usage(account.id, period)).by_class.part_records).toEqual({ units: 1, amount_micros: 100_000 });
  });

  it('near an empty balance a lookup is charged after the work: a 404 or a redirect stays free, a concurrent lookup is not refused', async () => {
    const poor = await key(0.05);
    const get = (p: string) => fetch(`${urls[1]}${p}`, { redirect: 'manual', headers: { Authorization: `Bearer ${poor.secret}` } });
    for (const p of ['/v1/parts/texas-instruments/NOPE-1', '/v1/parts/texas-instruments/NOPE-2']) expect((await get(p)).status).toBe(404);
    expect((await get('/v1/parts/TEXAS-INSTRUMENTS/LM358DR')).status).toBe(308);
    expect((await get('/v1/parts/texas-instruments/LM358DR')).status).toBe(402);
    const one = await key(0.1);
    const both = await Promise.all(
      ['/v1/parts/texas-instruments/NOPE-3', '/v1/parts/texas-instruments/LM358DR'].map((p) =>
        fetch(`${urls[0]}${p}`, { headers: { Authorization: `Bearer ${one.secret}` } }).then((r) => r.status),
      ),
    );
    expect(both).toEqual([404, 200]);
    expect((await store.getAccount(one.account.id))!.balance_micros).toBe(0);
  });

  it('never overdraws the balance under parallel paid requests on both processes', async () => {
    const { secret, account } = await key(1);
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${urls[i % 2]}/v1/parts/texas-instruments/LM358DR`, { headers: { Authorization: `Bearer ${secret}` } }).then(
          async (r) => (await r.arrayBuffer(), r.status),
        ),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(30);
    expect((await store.getAccount(account.id))!.balance_micros).toBe(0);
  });
});
