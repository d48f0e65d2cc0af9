/**
 * The Redis job store against a real Redis (REDIS_URL, e.g. redis://127.0.0.1:6379): the job-store
 * contract, every instance on one random key prefix (two instances stand for two processes), and
 * what is Redis's own (expiry, connections, closing). The run deletes its keys afterwards.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis, purgeRedisPrefix } from '../../src/redis/connection.ts';
import { JOB_RETENTION_MS } from '../../src/jobs/port.ts';
import { createRedisJobStore, redisJobKeys } from '../../src/jobs/redis-store.ts';
import { jobStoreContract, newJob } from '../contract/jobs.contract.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('[jobs-redis.test] REDIS_URL is not set: skipping the Redis job store tests (e.g. REDIS_URL=redis://127.0.0.1:6379).');

const prefix = `partsearch-test:${randomBytes(6).toString('hex')}:`;
const acc = () => `acc_${randomBytes(6).toString('hex')}`;

describe.skipIf(!REDIS_URL)('redis job store', () => {
  afterAll(async () => {
    await purgeRedisPrefix(REDIS_URL as string, prefix);
  });

  jobStoreContract('redis', async () => createRedisJobStore({ url: REDIS_URL as string, prefix }));

  // A prefix of its own: nothing else is queued on it.
  const ownPrefix = `${prefix}own:`;
  const open = () => createRedisJobStore({ url: REDIS_URL as string, prefix: ownPrefix });

  it('a job’s keys expire 72 hours after its created_at', async () => {
    const store = open();
    const redis = connectRedis(REDIS_URL as string);
    try {
      const k = redisJobKeys(ownPrefix);
      const job = newJob(acc(), { created_at: new Date(Date.now() - 3600_000).toISOString() });
      await store.create(job);
      await store.advance(job.job_id, { patch: { status: 'running' }, events: [{ event: 'status', data: { status: 'running' } }] });
      const at = Date.parse(job.created_at) + JOB_RETENTION_MS;
      for (const key of [k.job(job.job_id), k.events(job.job_id), k.accountJobs(job.account_id)]) {
        expect(Math.abs(Date.now() + (await redis.pttl(key)) - at)).toBeLessThan(1000);
      }
    } finally {
      await store.close();
      redis.disconnect();
    }
  });

  it('close ends a pending take with null and leaves a passed-in connection open', async () => {
    const connection = connectRedis(REDIS_URL as string);
    const store = createRedisJobStore({ url: REDIS_URL as string, prefix: ownPrefix, connection });
    try {
      // Drain whatever is queued on the prefix, then wait.
      for (;;) {
        const ac = new AbortController();
        const t = setTimeout(() => ac.abort(), 200);
        const got = await store.take(ac.signal);
        clearTimeout(t);
        if (got === null) break;
        await store.release(got);
      }
      const pending = store.take(new AbortController().signal);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      await store.close();
      expect(await pending).toBeNull();
      expect(Date.now() - started).toBeLessThan(400);
      expect(await store.take(new AbortController().signal)).toBeNull();
      expect(await connection.ping()).toBe('PONG');
    } finally {
      connection.disconnect();
    }
  });

  it('an abort ends a take at once and takes nothing; the job goes to the next taker', async () => {
    const store = open();
    try {
      const ac = new AbortController();
      const pending = store.take(ac.signal);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      ac.abort();
      const got = await pending;
      if (got !== null) await store.release(got);
      expect(Date.now() - started).toBeLessThan(100);
      const job = newJob(acc());
      await store.create(job);
      const ac2 = new AbortController();
      const t = setTimeout(() => ac2.abort(), 2000);
      let next = await store.take(ac2.signal);
      while (next !== null && next !== job.job_id) {
        await store.release(next);
        next = await store.take(ac2.signal);
      }
      clearTimeout(t);
      expect(next).toBe(job.job_id);
      await store.release(job.job_id);
    } finally {
      await store.close();
    }
  });

  it('refuses a second job with the same id and does not store a job already past retention', async () => {
    const store = open();
    try {
      const job = newJob(acc());
      await store.create(job);
      await expect(store.create({ ...job })).rejects.toThrow(/already exists/);
      const old = newJob(acc(), { created_at: new Date(Date.now() - JOB_RETENTION_MS - 1000).toISOString() });
      await store.create(old);
      expect(await store.get(old.job_id)).toBeNull();
      expect(await store.advance(old.job_id, { patch: { status: 'running' } })).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('lists jobs created in the same millisecond newest created first, across pages', async () => {
    const store = open();
    try {
      const a = acc();
      const at = new Date().toISOString();
      const jobs = Array.from({ length: 5 }, () => newJob(a, { created_at: at }));
      for (const j of jobs) await store.create(j);
      const p1 = await store.list(a, { limit: 2 });
      const p2 = await store.list(a, { limit: 2, startingAfter: p1.next_cursor! });
      const p3 = await store.list(a, { limit: 2, startingAfter: p2.next_cursor! });
      expect([...p1.jobs, ...p2.jobs, ...p3.jobs].map((j) => j.job_id)).toEqual(jobs.map((j) => j.job_id).reverse());
      expect(p3.next_cursor).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('reloads its scripts after the server lost them (SCRIPT FLUSH, as after a restart)', async () => {
    const store = open();
    const redis = connectRedis(REDIS_URL as string);
    try {
      const job = newJob(acc());
      await store.create(job);
      await redis.script('FLUSH');
      expect((await store.advance(job.job_id, { from: ['queued'], patch: { status: 'cancelled' } }))?.status).toBe('cancelled');
    } finally {
      await store.close();
      redis.disconnect();
    }
  });

  it('watches started while a fresh store connects all hold and wake (no handshake command lands in subscriber mode)', async () => {
    // Watches issued one event-loop turn apart from the store's creation on span the subscriber connection's
    // handshake; one sent between its connect and its ready check put it in subscriber mode under the check.
    for (let trial = 0; trial < 10; trial++) {
      const store = open();
      try {
        const jobs = Array.from({ length: 40 }, () => newJob(acc()));
        const woken = new Set<string>();
        const watches: Promise<() => void>[] = [];
        for (const j of jobs) {
          watches.push(store.watch(j.job_id, () => woken.add(j.job_id)));
          await new Promise((r) => setImmediate(r));
        }
        const settled = await Promise.allSettled(watches);
        expect(
          settled.filter((x) => x.status === 'rejected').map((x) => String((x as PromiseRejectedResult).reason)),
          `trial ${trial}`,
        ).toEqual([]);
        for (const j of jobs) await store.create(j);
        for (const j of jobs) await store.advance(j.job_id, { patch: { status: 'running' } });
        const deadline = Date.now() + 5_000;
        while (woken.size < jobs.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(woken.size, `trial ${trial}`).toBe(jobs.length);
        for (const w of settled) if (w.status === 'fulfilled') w.value();
      } finally {
        await store.close();
      }
    }
  });
});
