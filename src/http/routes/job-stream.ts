/** A job's Server-Sent Events (SPEC.md Events): the stored events after the client's last, then each new one as it is written. */
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { isTerminal, type JobRecord } from '../../jobs/port.ts';
import type { AppServices } from '../services.ts';

/** SSE comment lines keep idle connections (and proxies) open, and re-read the job: another process's progress shows within this. */
export const SSE_KEEPALIVE_MS = 15_000;

/** Writes the job's events after `last` as SSE frames until it ends (or the client goes). */
export async function streamEvents(s: AppServices, ctx: Context, job: JobRecord, last: number): Promise<void> {
  const out = new PassThrough();
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = out;
  let ended = false;
  let running = false;
  let again = false;
  let unwatch: () => void = () => undefined;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    unwatch();
    out.end();
  };
  // Reads the job, then its events after the last sent: the events of a terminal status are written with
  // it, so a job read as terminal has all its events in the list read after it.
  const pump = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const now = await s.jobs.store.get(job.job_id);
        const events = await s.jobs.store.events(job.job_id, last);
        for (const e of events) {
          if (ended) return;
          out.write(`id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
          last = e.id;
        }
        if (!now || isTerminal(now.status)) return end();
      } while (again && !ended);
    } catch (e) {
      s.log.warn('job stream read failed', { job_id: job.job_id, error: (e as Error).message });
      end();
    } finally {
      running = false;
    }
  };
  const keepalive = setInterval(() => {
    if (ended) return;
    out.write(': keep-alive\n\n');
    void pump();
  }, SSE_KEEPALIVE_MS);
  ctx.req.on('close', end);
  unwatch = await s.jobs.store.watch(job.job_id, () => void pump());
  if (ended) unwatch();
  await pump();
}
