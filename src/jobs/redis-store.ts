/**
 * The shared job store: Redis, used by every API and worker process. Each transition (create and
 * queue, advance with its events, take, requeue, renew) is one Lua script (redis-store-scripts.ts),
 * which Redis runs atomically, so a conditional advance has exactly one winner and a queued id is
 * handed to one taker under any number of processes.
 *
 * Keys (P = prefix):
 *   P job:<id>              hash    each JobRecord field as JSON, and _seq (the creation sequence, plain)
 *   P job-events:<id>       list    the job's events as JSON {id, event, data}; event n at index n - 1
 *   P acct-jobs:<account>   zset    "<_seq, 16 digits>:<job id>" by created_at (ms): newest first by
 *                                   created_at, then by creation (the SQLite store's order)
 *   P jobs:seq              string  creation sequence
 *   P jobs:queue            list    queued job ids: created at the head (LPUSH), taken from the tail
 *   P jobs:taken            zset    taken, unreleased job ids by take time (ms, server clock)
 *   P jobs:leases           zset    taken job ids by last renew (ms, server clock)
 * Channel P job-changed:<id> carries a message (the last event id) after each advance of the job.
 *
 * Retention: a job's hash and event list expire (PEXPIREAT) 72 hours after its created_at, the
 * account's listing when its newest job does; a listing first drops the ids past retention. A job
 * created already past retention is not stored (it would read as gone at once). The queue, taken
 * and lease keys are shared and never expire: release and requeue remove their entries, and
 * orphans() drops those of jobs that are gone or ended.
 *
 * Taking: a take first runs the TAKE script (RPOP + ZADD taken, atomically); when the queue is
 * empty it waits on a dedicated connection with BLMOVE queue → queue (head to head: nothing moves,
 * the order stays) for at most WAIT_S, which returns as soon as a job is queued and wakes every
 * blocked waiter, then tries again. The wait takes nothing, so an abort or close ends a take at
 * once; an id taken by a script already under way when the taker gave up is put back (UNTAKE).
 *
 * The list and orphans scripts read job hashes named from a listing rather than declared in KEYS:
 * the store is written for a single Redis (or a primary with replicas), not Redis Cluster.
 */
import type { Redis } from 'ioredis';
import { checkPrefix, defineScript, quitRedis, useConnection, type RedisConnectionOptions } from '../redis/connection.ts';
import {
  JOB_RETENTION_MS,
  UnknownCursorError,
  type JobListQuery,
  type JobPatch,
  type JobRecord,
  type JobStatus,
  type JobStore,
  type JobEvent,
} from './port.ts';
import { ADVANCE, CREATE, LIST, ORPHANS, RENEW, REQUEUE, TAKE, UNTAKE } from './redis-store-scripts.ts';

/** A waiting take re-checks the queue at least this often (seconds): BLMOVE's timeout. */
const WAIT_S = 0.5;
/** Listing members a filtered listing reads per step. */
const LIST_BATCH = 100;

/** The fields of a JobRecord, in the order a record is rebuilt in (any others follow). */
const RECORD_FIELDS: readonly (keyof JobRecord)[] = [
  'job_id',
  'type',
  'status',
  'progress',
  'created_at',
  'completed_at',
  'usage',
  'result',
  'error',
  'request_id',
  'account_id',
  'input',
  'hold',
];
const PATCH_FIELDS: ReadonlySet<string> = new Set<keyof JobPatch>(['status', 'progress', 'completed_at', 'usage', 'result', 'error', 'hold']);

/** Names of the store's Redis keys and channels under prefix `P` (see the header). */
export function redisJobKeys(P: string) {
  return {
    job: (id: string) => `${P}job:${id}`,
    events: (id: string) => `${P}job-events:${id}`,
    accountJobs: (acc: string) => `${P}acct-jobs:${acc}`,
    seq: `${P}jobs:seq`,
    queue: `${P}jobs:queue`,
    taken: `${P}jobs:taken`,
    leases: `${P}jobs:leases`,
    channel: (id: string) => `${P}job-changed:${id}`,
  };
}

/** A job hash (HGETALL pairs) as a record, or null when empty; internal fields (_seq) are left out. */
function toRecord(reply: unknown): JobRecord | null {
  if (!Array.isArray(reply) || reply.length === 0) return null;
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < reply.length; i += 2) fields.set(String(reply[i]), String(reply[i + 1]));
  if (!fields.has('job_id')) return null;
  const out: Record<string, unknown> = {};
  for (const f of RECORD_FIELDS) if (fields.has(f)) out[f] = JSON.parse(fields.get(f)!);
  for (const [f, v] of fields) if (!(f in out) && !f.startsWith('_')) out[f] = JSON.parse(v);
  return out as unknown as JobRecord;
}

const flatHash = (h: Record<string, string>): string[] => Object.entries(h).flat();

/** Resolves once `conn` is ready (at once when it is); rejects when it ends first. */
function ready(conn: Redis): Promise<void> {
  if (conn.status === 'ready') return Promise.resolve();
  if (conn.status === 'end') return Promise.reject(new Error('jobs: the subscriber connection is closed'));
  return new Promise((resolve, reject) => {
    const onReady = () => {
      conn.off('end', onEnd);
      resolve();
    };
    const onEnd = () => {
      conn.off('ready', onReady);
      reject(new Error('jobs: the subscriber connection closed before it was ready'));
    };
    conn.once('ready', onReady);
    conn.once('end', onEnd);
  });
}

function checkId(what: string, id: unknown): string {
  if (typeof id !== 'string' || id === '') throw new TypeError(`jobs: ${what} must be a non-empty string`);
  return id;
}

export function createRedisJobStore(opts: RedisConnectionOptions & { prefix: string }): JobStore {
  const P = checkPrefix(opts.prefix);
  const { redis, release: releaseMain } = useConnection(opts);
  const k = redisJobKeys(P);

  const s = {
    create: defineScript(redis, 'psJobCreate', 4, CREATE),
    advance: defineScript(redis, 'psJobAdvance', 2, ADVANCE),
    list: defineScript(redis, 'psJobList', 1, LIST),
    take: defineScript(redis, 'psJobTake', 3, TAKE),
    untake: defineScript(redis, 'psJobUntake', 3, UNTAKE),
    renew: defineScript(redis, 'psJobRenew', 2, RENEW),
    requeue: defineScript(redis, 'psJobRequeue', 4, REQUEUE),
    orphans: defineScript(redis, 'psJobOrphans', 2, ORPHANS),
  };

  let closed = false;
  /** Aborted by close(): ends the pending takes. */
  const closing = new AbortController();
  /** The take loops under way (close waits for them, so that an id they took is put back first). */
  const takers = new Set<Promise<void>>();

  // Dedicated connections for the blocking waits: one per concurrent wait, reused. They and the subscriber
  // send only commands that may run twice (a wait that moves the queue's head to its head; SUBSCRIBE), so
  // unlike the main connection (connectRedis) they resend what a dropped connection left unanswered.
  const resending = { autoResendUnfulfilledCommands: true };
  const waitConns = new Set<Redis>();
  const idleWaitConns: Redis[] = [];

  /** Waits until the queue may hold a job (or WAIT_S passed); nothing is taken. */
  const waitForQueue = async (): Promise<void> => {
    const conn = idleWaitConns.pop() ?? redis.duplicate(resending);
    waitConns.add(conn);
    try {
      await conn.blmove(k.queue, k.queue, 'LEFT', 'LEFT', WAIT_S);
    } finally {
      if (closed) waitConns.delete(conn);
      else idleWaitConns.push(conn);
    }
  };

  // Watching: one subscriber connection, one channel per watched job. SUBSCRIBE goes out only once that
  // connection is ready: ioredis writes it as soon as the socket connects (it may run while Redis loads),
  // and its reply, coming before those of the handshake's own commands (CLIENT SETINFO, the INFO of the
  // ready check), put the connection in subscriber mode under them; they failed ("Connection in
  // subscriber mode"), the ready check with them, and the subscriptions under way were lost with the
  // connection (ioredis#2037). Before the connection is first ready, and while it reconnects, a watch
  // waits for it; the subscriptions it held are renewed by ioredis once it is ready again.
  let sub: Redis | null = null;
  const channels = new Map<string, { fns: Set<() => void>; ready: Promise<unknown> }>();
  const subscriber = (): Redis => {
    if (sub) return sub;
    sub = redis.duplicate(resending);
    sub.on('message', (channel: string) => {
      const entry = channels.get(channel);
      if (!entry) return;
      for (const fn of [...entry.fns]) {
        try {
          fn();
        } catch {
          // A watcher's failure is its own; the others are still woken.
        }
      }
    });
    return sub;
  };

  const store: JobStore = {
    async create(job) {
      checkId('job_id', job.job_id);
      checkId('account_id', job.account_id);
      const created = Date.parse(job.created_at);
      if (!Number.isFinite(created)) throw new TypeError(`jobs: created_at is not a date: ${String(job.created_at)}`);
      const fields: string[] = [];
      for (const [f, v] of Object.entries(job)) if (v !== undefined && !f.startsWith('_')) fields.push(f, JSON.stringify(v));
      const r = Number(
        await s.create(k.job(job.job_id), k.accountJobs(job.account_id), k.queue, k.seq, job.job_id, String(created), String(JOB_RETENTION_MS), ...fields),
      );
      if (r === -1) throw new Error(`jobs: job ${job.job_id} already exists`);
    },

    async get(jobId) {
      return toRecord(flatHash(await redis.hgetall(k.job(jobId))));
    },

    async list(accountId, q: JobListQuery) {
      if (!Number.isInteger(q.limit) || q.limit < 1) throw new RangeError(`jobs: limit must be a positive integer, got ${String(q.limit)}`);
      const statuses: readonly JobStatus[] = q.status === undefined ? [] : q.status === 'active' ? ['queued', 'running'] : [q.status];
      const reply = await s.list(
        k.accountJobs(accountId),
        k.job(''),
        String(JOB_RETENTION_MS),
        q.startingAfter ?? '',
        String(q.limit),
        String(Math.max(LIST_BATCH, q.limit + 1)),
        q.type === undefined ? '' : JSON.stringify(q.type),
        ...statuses.map((st) => JSON.stringify(st)),
      );
      if (!Array.isArray(reply)) throw new UnknownCursorError(q.startingAfter ?? '');
      const jobs: JobRecord[] = [];
      for (const h of reply.slice(1)) {
        const job = toRecord(h);
        if (job) jobs.push(job);
      }
      const more = Number(reply[0]) === 1 && jobs.length > 0;
      return { jobs, next_cursor: more ? jobs[jobs.length - 1]!.job_id : null };
    },

    async advance(jobId, a) {
      const from = a.from ?? [];
      const patch: string[] = [];
      for (const [f, v] of Object.entries(a.patch)) {
        if (v === undefined) continue;
        if (!PATCH_FIELDS.has(f)) throw new TypeError(`jobs: a transition cannot set ${f}`);
        patch.push(f, JSON.stringify(v));
      }
      const events = (a.events ?? []).map((e) => JSON.stringify({ event: e.event, data: e.data ?? null }));
      const reply = await s.advance(
        k.job(jobId),
        k.events(jobId),
        k.channel(jobId),
        String(from.length),
        ...from.map((st) => JSON.stringify(st)),
        String(patch.length / 2),
        ...patch,
        ...events,
      );
      return toRecord(reply);
    },

    async events(jobId, afterId) {
      const start = Number.isFinite(afterId) ? Math.max(0, Math.floor(afterId)) : 0;
      const raw = await redis.lrange(k.events(jobId), start, -1);
      return raw.map((x) => JSON.parse(x) as JobEvent);
    },

    async watch(jobId, onChange) {
      if (closed) throw new Error('jobs: the store is closed');
      const channel = k.channel(jobId);
      let entry = channels.get(channel);
      if (!entry) {
        const conn = subscriber();
        entry = { fns: new Set(), ready: ready(conn).then(() => conn.subscribe(channel)) };
        channels.set(channel, entry);
      }
      const fn = () => onChange();
      entry.fns.add(fn);
      let watching = true;
      const unwatch = () => {
        if (!watching) return;
        watching = false;
        const current = channels.get(channel);
        if (!current || !current.fns.delete(fn) || current.fns.size > 0) return;
        channels.delete(channel);
        if (!closed) sub?.unsubscribe(channel).catch(() => undefined);
      };
      try {
        await entry.ready;
      } catch (error) {
        unwatch();
        throw error;
      }
      return unwatch;
    },

    take(signal) {
      if (closed || signal.aborted) return Promise.resolve(null);
      return new Promise<string | null>((resolve, reject) => {
        let done = false;
        const finish = (id: string | null, error?: unknown) => {
          if (done) return;
          done = true;
          signal.removeEventListener('abort', onAbort);
          closing.signal.removeEventListener('abort', onAbort);
          if (error !== undefined) reject(error);
          else resolve(id);
        };
        const onAbort = () => finish(null);
        signal.addEventListener('abort', onAbort, { once: true });
        closing.signal.addEventListener('abort', onAbort, { once: true });

        const loop = async () => {
          try {
            while (!done) {
              const id = (await s.take(k.queue, k.taken, k.leases)) as string | null;
              if (id !== null) {
                // Taken after the taker gave up: next in line again.
                if (done) await s.untake(k.queue, k.taken, k.leases, id);
                else finish(id);
                return;
              }
              if (done) return;
              await waitForQueue();
            }
          } catch (error) {
            finish(null, error);
          }
        };
        const running = loop();
        takers.add(running);
        void running.finally(() => takers.delete(running));
      });
    },

    async release(jobId) {
      await redis.multi().zrem(k.taken, jobId).zrem(k.leases, jobId).exec();
    },

    async orphans(staleMs) {
      const stale = Number.isFinite(staleMs) ? Math.max(0, Math.floor(staleMs)) : 0;
      const reply = (await s.orphans(k.taken, k.leases, k.job(''), String(stale))) as [string[], string[]];
      return { running: reply[0] ?? [], queued: reply[1] ?? [] };
    },

    async renew(jobId) {
      await s.renew(k.taken, k.leases, jobId);
    },

    async requeue(jobId) {
      await s.requeue(k.queue, k.taken, k.leases, k.job(jobId), jobId);
    },

    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      // Waits end at once (their BLMOVE fails); then the take loops finish, putting back what they took.
      for (const conn of waitConns) conn.disconnect();
      waitConns.clear();
      idleWaitConns.length = 0;
      await Promise.allSettled([...takers]);
      channels.clear();
      if (sub) {
        const s2 = sub;
        sub = null;
        try {
          await s2.unsubscribe();
        } catch {
          // Closing anyway.
        }
        await quitRedis(s2);
      }
      await releaseMain();
    },
  };
  return store;
}
