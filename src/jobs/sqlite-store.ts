/**
 * The job store of the embedded default: one SQLite file (jobs.db in the data dir). Each job is a row
 * holding its record as JSON beside the columns the queue and the listing read; its events are rows
 * of their own. A transition is one transaction. The queue is the table itself: `take` claims the
 * oldest waiting job with one UPDATE, so a job is handed out once even to several processes on the
 * file, and queued jobs survive a restart. Waiting takers and watchers are woken in-process (every
 * instance on the same file in this process shares one hub); other processes on the file are seen
 * by polling (`POLL_MS`), the embedded default being one process.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { JOB_RETENTION_MS, UnknownCursorError, type JobEvent, type JobListQuery, type JobRecord, type JobStore } from './port.ts';

const DDL = `
CREATE TABLE IF NOT EXISTS jobs (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id      TEXT NOT NULL UNIQUE,
  account_id  TEXT NOT NULL,
  type        TEXT NOT NULL,
  status      TEXT NOT NULL,
  created_ms  INTEGER NOT NULL,
  doc         TEXT NOT NULL,
  last_event  INTEGER NOT NULL DEFAULT 0,
  -- waiting: on the queue; taken: handed to a worker; done: released
  queue_state TEXT NOT NULL DEFAULT 'waiting',
  taken_ms    INTEGER,
  lease_ms    INTEGER
);
CREATE INDEX IF NOT EXISTS jobs_account ON jobs(account_id, created_ms, seq);
CREATE INDEX IF NOT EXISTS jobs_queue ON jobs(queue_state, seq);
CREATE INDEX IF NOT EXISTS jobs_created ON jobs(created_ms);
CREATE TABLE IF NOT EXISTS job_events (
  job_id TEXT NOT NULL,
  id     INTEGER NOT NULL,
  event  TEXT NOT NULL,
  data   TEXT NOT NULL,
  PRIMARY KEY (job_id, id)
) WITHOUT ROWID;
`;

/** Another process's new jobs and transitions are seen this often (takers, and watchers through the SSE route's own re-reads). */
const POLL_MS = 1000;
/** Jobs past retention are deleted this often. */
const PURGE_EVERY_MS = 3600_000;
/** Rows read per step when a listing filters by status or type. */
const LIST_BATCH = 200;

interface Hub {
  emitter: EventEmitter;
  users: number;
}
const hubs = new Map<string, Hub>();

function hubOf(file: string): Hub {
  let hub = hubs.get(file);
  if (!hub) {
    hub = { emitter: new EventEmitter(), users: 0 };
    hub.emitter.setMaxListeners(0);
    hubs.set(file, hub);
  }
  hub.users++;
  return hub;
}

interface JobRow {
  seq: number;
  job_id: string;
  status: string;
  type: string;
  created_ms: number;
  doc: string;
  last_event: number;
}

export function createSqliteJobStore(opts: { file: string }): JobStore {
  const file = opts.file === ':memory:' ? opts.file : path.resolve(opts.file);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(DDL);
  const hub = hubOf(file);
  const q = {
    insert: db.prepare('INSERT INTO jobs (job_id, account_id, type, status, created_ms, doc) VALUES (?, ?, ?, ?, ?, ?)'),
    byId: db.prepare<[string, number], JobRow>('SELECT seq, job_id, status, type, created_ms, doc, last_event FROM jobs WHERE job_id = ? AND created_ms >= ?'),
    update: db.prepare<[string, string, number, string]>('UPDATE jobs SET status = ?, doc = ?, last_event = ? WHERE job_id = ?'),
    addEvent: db.prepare<[string, number, string, string]>('INSERT INTO job_events (job_id, id, event, data) VALUES (?, ?, ?, ?)'),
    events: db.prepare<[string, number], { id: number; event: string; data: string }>(
      'SELECT id, event, data FROM job_events WHERE job_id = ? AND id > ? ORDER BY id',
    ),
    cursor: db.prepare<[string, string, number], { seq: number; created_ms: number }>(
      'SELECT seq, created_ms FROM jobs WHERE job_id = ? AND account_id = ? AND created_ms >= ?',
    ),
    page: db.prepare<[string, number, number, number, number, number], JobRow>(
      `SELECT seq, job_id, status, type, created_ms, doc, last_event FROM jobs
       WHERE account_id = ? AND created_ms >= ? AND (created_ms < ? OR (created_ms = ? AND seq < ?))
       ORDER BY created_ms DESC, seq DESC LIMIT ?`,
    ),
    take: db.prepare<[number], { job_id: string }>(
      `UPDATE jobs SET queue_state = 'taken', taken_ms = ?
       WHERE seq = (SELECT seq FROM jobs WHERE queue_state = 'waiting' ORDER BY seq LIMIT 1) RETURNING job_id`,
    ),
    release: db.prepare<[string]>("UPDATE jobs SET queue_state = 'done' WHERE job_id = ?"),
    // Only a taken job still queued: two orphan sweeps cannot queue it twice.
    requeue: db.prepare<[string]>(
      "UPDATE jobs SET queue_state = 'waiting', taken_ms = NULL, lease_ms = NULL WHERE job_id = ? AND queue_state = 'taken' AND status = 'queued'",
    ),
    renew: db.prepare<[number, string]>('UPDATE jobs SET lease_ms = ? WHERE job_id = ?'),
    orphans: db.prepare<[number, number], { job_id: string; status: string }>(
      `SELECT job_id, status FROM jobs WHERE queue_state = 'taken'
       AND ((status = 'queued' AND taken_ms < ?) OR (status = 'running' AND coalesce(lease_ms, taken_ms) < ?))`,
    ),
    purgeEvents: db.prepare<[number]>('DELETE FROM job_events WHERE job_id IN (SELECT job_id FROM jobs WHERE created_ms < ?)'),
    purgeJobs: db.prepare<[number]>('DELETE FROM jobs WHERE created_ms < ?'),
  };
  const cutoff = () => Date.now() - JOB_RETENTION_MS;
  const parse = (row: JobRow) => JSON.parse(row.doc) as JobRecord;

  const purge = () => {
    const c = cutoff();
    db.transaction(() => {
      q.purgeEvents.run(c);
      q.purgeJobs.run(c);
    })();
  };
  purge();
  const purgeTimer = setInterval(purge, PURGE_EVERY_MS);
  purgeTimer.unref();

  let closed = false;
  const closing = new AbortController();

  const advanceTx = db.transaction((jobId: string, from: readonly string[] | undefined, patch: object, events: readonly Omit<JobEvent, 'id'>[]) => {
    const row = q.byId.get(jobId, cutoff());
    if (!row || (from && !from.includes(row.status))) return null;
    const job = { ...parse(row), ...patch } as JobRecord;
    let id = row.last_event;
    for (const e of events) q.addEvent.run(jobId, ++id, e.event, JSON.stringify(e.data ?? null));
    q.update.run(job.status, JSON.stringify(job), id, jobId);
    return job;
  });

  const store: JobStore = {
    async create(job) {
      q.insert.run(job.job_id, job.account_id, job.type, job.status, Date.parse(job.created_at), JSON.stringify(job));
      hub.emitter.emit('queued');
    },
    async get(jobId) {
      const row = q.byId.get(jobId, cutoff());
      return row ? parse(row) : null;
    },
    async list(accountId, lq: JobListQuery) {
      const c = cutoff();
      let from = { created_ms: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };
      if (lq.startingAfter !== undefined) {
        const at = q.cursor.get(lq.startingAfter, accountId, c);
        if (!at) throw new UnknownCursorError(lq.startingAfter);
        from = at;
      }
      const wanted = (r: JobRow) =>
        (lq.type === undefined || r.type === lq.type) &&
        (lq.status === undefined || (lq.status === 'active' ? r.status === 'queued' || r.status === 'running' : r.status === lq.status));
      const out: JobRecord[] = [];
      // One more than the page tells whether another page follows.
      for (;;) {
        const rows = q.page.all(accountId, c, from.created_ms, from.created_ms, from.seq, lq.type || lq.status ? LIST_BATCH : lq.limit + 1);
        for (const r of rows) {
          if (!wanted(r)) continue;
          if (out.length === lq.limit) return { jobs: out, next_cursor: out[out.length - 1]!.job_id };
          out.push(parse(r));
        }
        if (rows.length === 0 || (!lq.type && !lq.status)) return { jobs: out, next_cursor: null };
        const last = rows[rows.length - 1]!;
        from = { created_ms: last.created_ms, seq: last.seq };
      }
    },
    async advance(jobId, a) {
      const job = advanceTx(jobId, a.from, a.patch, a.events ?? []);
      // Written: a watcher that throws must not make the advance look failed.
      if (job) {
        for (const l of hub.emitter.listeners(`job:${jobId}`)) {
          try {
            (l as () => void)();
          } catch {
            // the watcher's own failure
          }
        }
      }
      return job;
    },
    async events(jobId, afterId) {
      if (!q.byId.get(jobId, cutoff())) return [];
      return q.events.all(jobId, afterId).map((e) => ({ id: e.id, event: e.event as JobEvent['event'], data: JSON.parse(e.data) as unknown }));
    },
    async watch(jobId, onChange) {
      const name = `job:${jobId}`;
      hub.emitter.on(name, onChange);
      return () => void hub.emitter.off(name, onChange);
    },
    async take(signal) {
      while (!closed && !signal.aborted) {
        const got = q.take.get(Date.now());
        if (got) return got.job_id;
        // Wait for a job created in this process, another process's (polled), an abort or the close.
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            hub.emitter.off('queued', done);
            signal.removeEventListener('abort', done);
            closing.signal.removeEventListener('abort', done);
            resolve();
          };
          const timer = setTimeout(done, POLL_MS);
          hub.emitter.on('queued', done);
          signal.addEventListener('abort', done);
          closing.signal.addEventListener('abort', done);
        });
      }
      return null;
    },
    async release(jobId) {
      q.release.run(jobId);
    },
    async requeue(jobId) {
      q.requeue.run(jobId);
      hub.emitter.emit('queued');
    },
    async renew(jobId) {
      q.renew.run(Date.now(), jobId);
    },
    async orphans(staleMs) {
      const before = Date.now() - staleMs;
      const rows = q.orphans.all(before, before);
      return {
        running: rows.filter((r) => r.status === 'running').map((r) => r.job_id),
        queued: rows.filter((r) => r.status === 'queued').map((r) => r.job_id),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      clearInterval(purgeTimer);
      if (--hub.users === 0) hubs.delete(file);
      db.close();
    },
  };
  return store;
}
