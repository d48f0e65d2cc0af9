/**
 * The job-store contract: one suite, run against every adapter (SQLite always, Redis when REDIS_URL is
 * set). `open()` opens a store instance on the adapter's backing for this suite (the same file or Redis
 * prefix on every call), so that two instances can stand for two processes sharing it. Every test makes
 * its own jobs and account ids.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_RETENTION_MS, queuedJob, UnknownCursorError, type JobRecord, type JobStore } from '../../src/jobs/port.ts';

const unique = (what: string) => `${what}_${randomBytes(6).toString('hex')}`;

export function newJob(accountId: string, over: Partial<JobRecord> = {}): JobRecord {
  return {
    ...queuedJob({
      job_id: unique('job'),
      type: 'discover',
      request_id: unique('req'),
      account_id: accountId,
      input: { requirements: 'a 3.3 V LDO', limit: 5 },
      hold: null,
    }),
    ...over,
  };
}

/** Takes the next job id within `ms`, or null. */
async function takeWithin(store: JobStore, ms: number): Promise<string | null> {
  const ac = new AbortController();
  const t = setTimeout(() => ac.abort(), ms);
  try {
    return await store.take(ac.signal);
  } finally {
    clearTimeout(t);
  }
}

/** Takes until `id` comes (other suites' jobs may be queued on a shared backing); false when it does not within `ms`. */
async function takeUntil(store: JobStore, id: string, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const got = await takeWithin(store, until - Date.now());
    if (got === id) return true;
    if (got === null) return false;
    await store.release(got);
  }
  return false;
}

export function jobStoreContract(name: string, open: () => Promise<JobStore>): void {
  describe(`job store contract: ${name}`, () => {
    let store: JobStore;
    const extra: JobStore[] = [];
    const second = async () => {
      const s = await open();
      extra.push(s);
      return s;
    };

    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      for (const s of extra) await s.close();
      await store?.close();
    });

    it('stores a job and reads it back whole; unknown ids read as null', async () => {
      const job = newJob(unique('acc'), { input: { requirements: 'Ω and µ survive', nested: { a: [1, 2] } } });
      await store.create(job);
      expect(await store.get(job.job_id)).toEqual(job);
      expect(await store.get(unique('job'))).toBeNull();
      expect(await store.events(job.job_id, 0)).toEqual([]);
    });

    it('advance applies the patch and numbers the events from 1, only from the given statuses', async () => {
      const job = newJob(unique('acc'));
      await store.create(job);
      const running = await store.advance(job.job_id, {
        from: ['queued'],
        patch: { status: 'running' },
        events: [{ event: 'status', data: { status: 'running' } }],
      });
      expect(running?.status).toBe('running');
      // Not queued any more: refused, nothing written.
      expect(
        await store.advance(job.job_id, { from: ['queued'], patch: { status: 'running' }, events: [{ event: 'status', data: { status: 'running' } }] }),
      ).toBeNull();
      const progress = { message: 'Retrieving candidates', fraction: 0.2, updated_at: new Date().toISOString() };
      await store.advance(job.job_id, {
        from: ['running'],
        patch: { progress },
        events: [{ event: 'progress', data: { message: progress.message, fraction: 0.2 } }],
      });
      const done = await store.advance(job.job_id, {
        from: ['running'],
        patch: {
          status: 'completed',
          completed_at: new Date().toISOString(),
          result: { summary: 's', results: [] },
          usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
        },
        events: [
          { event: 'result', data: { summary: 's', results: [] } },
          { event: 'status', data: { status: 'completed' } },
        ],
      });
      expect(done).toMatchObject({ status: 'completed', progress, result: { summary: 's', results: [] }, usage: { total_tokens: 7 } });
      expect(await store.get(job.job_id)).toEqual(done);
      const events = await store.events(job.job_id, 0);
      expect(events.map((e) => [e.id, e.event])).toEqual([
        [1, 'status'],
        [2, 'progress'],
        [3, 'result'],
        [4, 'status'],
      ]);
      expect(events[1]!.data).toEqual({ message: 'Retrieving candidates', fraction: 0.2 });
      expect((await store.events(job.job_id, 2)).map((e) => e.id)).toEqual([3, 4]);
      expect(await store.events(job.job_id, 4)).toEqual([]);
      expect(await store.advance(unique('job'), { patch: { status: 'cancelled' } })).toBeNull();
    });

    it('concurrent advances from the same status: exactly one wins, across instances', async () => {
      const other = await second();
      const job = newJob(unique('acc'));
      await store.create(job);
      const tries = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? other : store).advance(job.job_id, {
            from: ['queued', 'running'],
            patch: { status: 'cancelled', completed_at: new Date().toISOString() },
            events: [{ event: 'status', data: { status: 'cancelled' } }],
          }),
        ),
      );
      expect(tries.filter((t) => t !== null)).toHaveLength(1);
      expect((await store.events(job.job_id, 0)).map((e) => e.id)).toEqual([1]);
    });

    it('watchers are woken by advances made through another instance', async () => {
      const other = await second();
      const job = newJob(unique('acc'));
      await store.create(job);
      let woken = 0;
      const wake = new Promise<void>((resolve) => {
        void store
          .watch(job.job_id, () => {
            woken++;
            resolve();
          })
          .then(async (unwatch) => {
            await other.advance(job.job_id, { patch: { status: 'running' }, events: [{ event: 'status', data: { status: 'running' } }] });
            await wake;
            unwatch();
          });
      });
      await wake;
      expect(woken).toBeGreaterThanOrEqual(1);
    });

    it('lists the account’s jobs newest first, by status and type, a page after a cursor', async () => {
      const acc = unique('acc');
      const t0 = Date.now() - 10_000;
      const jobs = Array.from({ length: 7 }, (_, i) =>
        newJob(acc, { created_at: new Date(t0 + i * 1000).toISOString(), type: i % 2 ? 'deep_dive' : 'discover' }),
      );
      for (const j of jobs) await store.create(j);
      await store.create(newJob(unique('acc'))); // someone else's
      await store.advance(jobs[6]!.job_id, { patch: { status: 'running' } });
      await store.advance(jobs[5]!.job_id, { patch: { status: 'completed', completed_at: new Date().toISOString() } });
      const newestFirst = [...jobs].reverse().map((j) => j.job_id);

      const p1 = await store.list(acc, { limit: 3 });
      expect(p1.jobs.map((j) => j.job_id)).toEqual(newestFirst.slice(0, 3));
      expect(p1.next_cursor).toBe(newestFirst[2]);
      const p2 = await store.list(acc, { limit: 3, startingAfter: p1.next_cursor! });
      expect(p2.jobs.map((j) => j.job_id)).toEqual(newestFirst.slice(3, 6));
      const p3 = await store.list(acc, { limit: 3, startingAfter: p2.next_cursor! });
      expect(p3.jobs.map((j) => j.job_id)).toEqual(newestFirst.slice(6));
      expect(p3.next_cursor).toBeNull();
      const exact = await store.list(acc, { limit: 7 });
      expect(exact.jobs).toHaveLength(7);
      expect(exact.next_cursor).toBeNull();

      expect((await store.list(acc, { limit: 10, status: 'completed' })).jobs.map((j) => j.job_id)).toEqual([jobs[5]!.job_id]);
      expect((await store.list(acc, { limit: 10, status: 'active' })).jobs.map((j) => j.job_id)).toEqual(newestFirst.filter((id) => id !== jobs[5]!.job_id));
      expect((await store.list(acc, { limit: 10, type: 'deep_dive' })).jobs.map((j) => j.job_id)).toEqual([jobs[5]!.job_id, jobs[3]!.job_id, jobs[1]!.job_id]);
      const queuedDiscover = await store.list(acc, { limit: 1, status: 'queued', type: 'discover' });
      expect(queuedDiscover.jobs.map((j) => j.job_id)).toEqual([jobs[4]!.job_id]);
      expect(
        (await store.list(acc, { limit: 5, status: 'queued', type: 'discover', startingAfter: queuedDiscover.next_cursor! })).jobs.map((j) => j.job_id),
      ).toEqual([jobs[2]!.job_id, jobs[0]!.job_id]);

      await expect(store.list(acc, { limit: 3, startingAfter: unique('job') })).rejects.toBeInstanceOf(UnknownCursorError);
      // Another account's job is no cursor for this one.
      const foreign = newJob(unique('acc'));
      await store.create(foreign);
      await expect(store.list(acc, { limit: 3, startingAfter: foreign.job_id })).rejects.toBeInstanceOf(UnknownCursorError);
      expect(await store.list(unique('acc'), { limit: 3 })).toEqual({ jobs: [], next_cursor: null });
    });

    it('jobs past retention read as gone: not fetched, not listed, no events', async () => {
      const acc = unique('acc');
      const old = newJob(acc, { created_at: new Date(Date.now() - JOB_RETENTION_MS - 60_000).toISOString() });
      await store.create(old);
      await store.advance(old.job_id, { patch: { status: 'running' }, events: [{ event: 'status', data: { status: 'running' } }] });
      expect(await store.get(old.job_id)).toBeNull();
      expect(await store.events(old.job_id, 0)).toEqual([]);
      expect((await store.list(acc, { limit: 10 })).jobs).toEqual([]);
    });

    it('hands each queued job to exactly one taker, across instances', async () => {
      const other = await second();
      const acc = unique('acc');
      const jobs = Array.from({ length: 6 }, () => newJob(acc));
      const mine = new Set(jobs.map((j) => j.job_id));
      // Two takers waiting before the jobs exist, then draining.
      const takers = [store, other].map(async (s) => {
        const got: string[] = [];
        for (;;) {
          const id = await takeWithin(s, 1500);
          if (id === null) return got;
          if (mine.has(id)) got.push(id);
          await s.release(id);
        }
      });
      for (const j of jobs) await store.create(j);
      const [a, b] = await Promise.all(takers);
      expect([...a!, ...b!].sort()).toEqual([...mine].sort());
    });

    it('take returns null once the signal aborts', async () => {
      const ac = new AbortController();
      const pending = store.take(ac.signal);
      setTimeout(() => ac.abort(), 50);
      // Anything queued by other suites may come first; an abort ends the wait either way.
      const got = await pending;
      if (got !== null) await store.release(got);
      // An aborted signal: null at once, whatever is queued.
      expect(await store.take(AbortSignal.abort())).toBeNull();
    });

    it('orphans: a taken job never started can be requeued; a running job without a fresh lease is reported', async () => {
      const acc = unique('acc');
      const idle = newJob(acc);
      await store.create(idle);
      expect(await takeUntil(store, idle.job_id)).toBe(true);
      // Taken, never started, its taker gone.
      await new Promise((r) => setTimeout(r, 30));
      let o = await store.orphans(10);
      expect(o.queued).toContain(idle.job_id);
      await store.requeue(idle.job_id);
      expect(await takeUntil(store, idle.job_id)).toBe(true);
      await store.advance(idle.job_id, { from: ['queued'], patch: { status: 'running' } });
      await store.renew(idle.job_id);
      o = await store.orphans(60_000);
      expect(o.running).not.toContain(idle.job_id);
      await new Promise((r) => setTimeout(r, 30));
      o = await store.orphans(10);
      expect(o.running).toContain(idle.job_id);
      await store.advance(idle.job_id, {
        from: ['running'],
        patch: { status: 'failed', completed_at: new Date().toISOString(), error: { type: 'worker_lost', message: 'x' } },
      });
      await store.release(idle.job_id);
      o = await store.orphans(10);
      expect(o.running).not.toContain(idle.job_id);
      expect(o.queued).not.toContain(idle.job_id);
    });
  });
}
