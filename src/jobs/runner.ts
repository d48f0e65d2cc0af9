/**
 * Workers: take queued jobs from the store, run them, write each step as an event, settle the hold.
 * `concurrency` jobs at a time per process; any number of processes may share a Redis store.
 *
 * A job's life here: queued -> running (status event), progress (and discovery's pick) events, then
 * completed (status, then result: the result is the stream's last event) or failed (status, then
 * error). A cancel (another process's, seen through the store's watch) aborts the provider call; the
 * job keeps the status the cancel wrote, and the tokens spent before it are paid.
 *
 * A worker renews the lease of its running jobs; every `orphanCheckMs` it fails running jobs whose
 * lease went stale (their worker stopped mid-job: `worker_lost`, nothing charged) and requeues jobs
 * taken but never started.
 */
import type { TokenUsage } from '../ai/port.ts';
import { isTerminal, type JobEvent, type JobPatch } from './port.ts';
import {
  addTokens,
  jobErrorOf,
  jobUsage,
  runDeepDive,
  runDiscover,
  settle,
  type DeepDiveInput,
  type DiscoverInput,
  type JobsDeps,
  type WorkContext,
} from './lifecycle.ts';

export interface RunnerOptions {
  concurrency: number;
  /** Lease renewal period; a running job whose lease is older than 6 of these is taken for lost. */
  leaseMs?: number;
  orphanCheckMs?: number;
}

export interface JobRunner {
  /** Resolves once every worker has finished its current job and stopped. */
  stop(): Promise<void>;
  /** Jobs run to an end by this runner (tests, logs). */
  readonly finished: number;
}

const now = () => new Date().toISOString();

export function startRunner(deps: JobsDeps, opts: RunnerOptions): JobRunner {
  const leaseMs = opts.leaseMs ?? 5_000;
  const staleMs = leaseMs * 6;
  const stopping = new AbortController();
  let finished = 0;

  /**
   * Runs one taken job; true when it ended (terminal, settled), so the queue may forget it. False when a
   * write failed on the way (the store or the account store down): the job stays taken, its lease is no
   * longer renewed, and the orphan check fails it and gives its hold back.
   */
  async function runOne(jobId: string): Promise<boolean> {
    const started = await deps.store.advance(jobId, {
      from: ['queued'],
      patch: { status: 'running', progress: { message: 'Starting', fraction: 0, updated_at: now() } },
      events: [{ event: 'status', data: { status: 'running' } }],
    });
    if (!started) {
      // Cancelled (or gone) while queued: the cancel settled it; settling again is a no-op.
      const job = await deps.store.get(jobId);
      if (job && isTerminal(job.status)) await settle(deps, job, 0);
      return true;
    }
    const abort = new AbortController();
    let spent: TokenUsage = { input_tokens: 0, output_tokens: 0 };
    let lease: NodeJS.Timeout | null = null;
    let unwatch: () => void = () => undefined;
    try {
      await deps.store.renew(jobId);
      lease = setInterval(() => void deps.store.renew(jobId).catch(() => undefined), leaseMs);
      unwatch = watchForCancel(deps, jobId, abort);
      const w: WorkContext = {
        signal: abort.signal,
        spent(u) {
          spent = addTokens(spent, u);
        },
        async progress(message, fraction, extra = []) {
          const p = { message, ...(fraction === undefined ? {} : { fraction: Math.min(1, Math.max(0, fraction)) }), updated_at: now() };
          const ok = await deps.store.advance(jobId, {
            from: ['running'],
            patch: { progress: p },
            events: [...extra, { event: 'progress', data: { message, ...(p.fraction === undefined ? {} : { fraction: p.fraction }) } }],
          });
          if (!ok) {
            abort.abort(new Error('cancelled'));
            throw abort.signal.reason;
          }
        },
      };
      let end: { patch: JobPatch; events: Omit<JobEvent, 'id'>[] } | null;
      try {
        const input = started.input;
        const out = started.type === 'discover' ? await runDiscover(deps, input as DiscoverInput, w) : await runDeepDive(deps, input as DeepDiveInput, w);
        end = {
          patch: {
            status: 'completed',
            completed_at: now(),
            result: out.result,
            usage: jobUsage(spent),
            progress: { message: 'Done', fraction: 1, updated_at: now() },
          },
          events: [
            { event: 'status', data: { status: 'completed' } },
            { event: 'result', data: out.result },
          ],
        };
      } catch (e) {
        if (abort.signal.aborted) end = null;
        else {
          const error = jobErrorOf(e);
          if (error.type === 'internal_error' || error.type === 'llm_unavailable') {
            deps.log.error('job failed', { job_id: jobId, type: started.type, error: error.type, detail: (e as Error)?.message });
          }
          // A failed job is not charged (its usage still says what the provider spent).
          end = {
            patch: { status: 'failed', completed_at: now(), error, usage: jobUsage(spent) },
            events: [
              { event: 'status', data: { status: 'failed' } },
              { event: 'error', data: error },
            ],
          };
        }
      }
      // The hold is settled before the end is written: should the settlement fail, the job stays running
      // and the orphan check ends it (and settles it then, once).
      const paid = end?.patch.status === 'failed' ? 0 : spent.input_tokens + spent.output_tokens;
      await settle(deps, started, paid);
      if (end) await deps.store.advance(jobId, { from: ['running'], ...end });
      // Cancelled meanwhile (or before the end could be written): the cancel's status stays; its usage is what was spent.
      const final = await deps.store.get(jobId);
      if (final?.status === 'cancelled' && final.usage === null) await deps.store.advance(jobId, { from: ['cancelled'], patch: { usage: jobUsage(spent) } });
      finished++;
      return true;
    } catch (e) {
      deps.log.error('job run interrupted', { job_id: jobId, error: (e as Error)?.message });
      return false;
    } finally {
      if (lease) clearInterval(lease);
      unwatch();
    }
  }

  async function worker(): Promise<void> {
    while (!stopping.signal.aborted) {
      let id: string | null = null;
      let ended = true;
      try {
        id = await deps.store.take(stopping.signal);
        if (id === null) return;
        ended = await runOne(id);
      } catch (e) {
        ended = false;
        deps.log.error('job worker error', { job_id: id, error: (e as Error)?.message });
      }
      if (id !== null && ended) await deps.store.release(id).catch(() => undefined);
      // A store that is down: wait a little rather than spin.
      if (!ended) await new Promise((r) => setTimeout(r, 500));
    }
  }

  async function reapOrphans(): Promise<void> {
    const o = await deps.store.orphans(staleMs);
    for (const id of o.queued) await deps.store.requeue(id);
    for (const id of o.running) {
      const error = { type: 'worker_lost', message: 'The worker running this job stopped; create the job again.' };
      const job = await deps.store.advance(id, {
        from: ['running'],
        patch: { status: 'failed', completed_at: now(), error },
        events: [
          { event: 'status', data: { status: 'failed' } },
          { event: 'error', data: error },
        ],
      });
      if (job) await settle(deps, job, 0);
      await deps.store.release(id);
    }
  }
  const reaper = setInterval(
    () => void reapOrphans().catch((e) => deps.log.warn('orphan check failed', { error: (e as Error)?.message })),
    opts.orphanCheckMs ?? staleMs,
  );
  reaper.unref();

  const workers = Array.from({ length: opts.concurrency }, () => worker());
  return {
    async stop() {
      stopping.abort();
      clearInterval(reaper);
      await Promise.all(workers);
    },
    get finished() {
      return finished;
    },
  };
}

/**
 * Aborts a running job's work when another process cancels it; returns the unwatch. A failed read is
 * harmless, and so is a failed watch (the next progress step finds the cancel too): the watch only
 * hastens that, so the work neither waits for it (a Redis subscription waits for its connection) nor
 * fails with it.
 */
function watchForCancel(deps: JobsDeps, jobId: string, abort: AbortController): () => void {
  let done = false;
  let stop: () => void = () => undefined;
  deps.store
    .watch(jobId, () => {
      deps.store
        .get(jobId)
        .then((j) => {
          if (j?.status === 'cancelled') abort.abort(new Error('cancelled'));
        })
        .catch(() => undefined);
    })
    .then(
      (unwatch) => {
        if (done) unwatch();
        else stop = unwatch;
      },
      (e: unknown) => deps.log.warn('job watch failed: a cancel is found at the next step', { job_id: jobId, error: (e as Error)?.message }),
    );
  return () => {
    done = true;
    stop();
  };
}
