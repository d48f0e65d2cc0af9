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
import { isTerminal, type JobRecord } from './port.ts';
import { jobErrorOf, jobUsage, runDeepDive, runDiscover, settle, type DeepDiveInput, type DiscoverInput, type JobsDeps, type WorkContext } from './service.ts';

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

  async function runOne(jobId: string): Promise<void> {
    const started = await deps.store.advance(jobId, {
      from: ['queued'],
      patch: { status: 'running', progress: { message: 'Starting', fraction: 0, updated_at: now() } },
      events: [{ event: 'status', data: { status: 'running' } }],
    });
    if (!started) {
      // Cancelled (or gone) while queued: the cancel settled it; settling again is a no-op.
      const job = await deps.store.get(jobId);
      if (job && isTerminal(job.status)) await settle(deps, job, 0);
      return;
    }
    await deps.store.renew(jobId);
    const lease = setInterval(() => void deps.store.renew(jobId).catch(() => undefined), leaseMs);
    const abort = new AbortController();
    let spent: TokenUsage = { input_tokens: 0, output_tokens: 0 };
    const unwatch = await deps.store.watch(jobId, () => {
      void deps.store.get(jobId).then((j) => {
        if (j?.status === 'cancelled') abort.abort(new Error('cancelled'));
      });
    });
    const w: WorkContext = {
      signal: abort.signal,
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
    let final: JobRecord | null = null;
    try {
      const input = started.input;
      const out = started.type === 'discover' ? await runDiscover(deps, input as DiscoverInput, w) : await runDeepDive(deps, input as DeepDiveInput, w);
      spent = out.usage;
      final = await deps.store.advance(jobId, {
        from: ['running'],
        patch: {
          status: 'completed',
          completed_at: now(),
          result: out.result,
          usage: jobUsage(out.usage),
          progress: { message: 'Done', fraction: 1, updated_at: now() },
        },
        events: [
          { event: 'status', data: { status: 'completed' } },
          { event: 'result', data: out.result },
        ],
      });
    } catch (e) {
      if (!abort.signal.aborted) {
        const error = jobErrorOf(e);
        if (error.type === 'internal_error') deps.log.error('job failed', { job_id: jobId, type: started.type, error: (e as Error)?.message });
        final = await deps.store.advance(jobId, {
          from: ['running'],
          patch: { status: 'failed', completed_at: now(), error, usage: jobUsage(spent) },
          events: [
            { event: 'status', data: { status: 'failed' } },
            { event: 'error', data: error },
          ],
        });
        // A failed job is not charged.
        spent = { input_tokens: 0, output_tokens: 0 };
      }
    } finally {
      clearInterval(lease);
      unwatch();
    }
    // Whatever wrote the end (this worker, or a cancel that came first), the hold is settled here.
    const ended = final ?? (await deps.store.get(jobId)) ?? started;
    await settle(deps, ended, ended.status === 'failed' ? 0 : spent.input_tokens + spent.output_tokens);
    finished++;
  }

  async function worker(): Promise<void> {
    while (!stopping.signal.aborted) {
      let id: string | null = null;
      try {
        id = await deps.store.take(stopping.signal);
        if (id === null) return;
        await runOne(id);
      } catch (e) {
        deps.log.error('job worker error', { job_id: id, error: (e as Error)?.message });
        // A store that is down: wait a little rather than spin.
        await new Promise((r) => setTimeout(r, 500));
      } finally {
        if (id !== null) await deps.store.release(id).catch(() => undefined);
      }
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
