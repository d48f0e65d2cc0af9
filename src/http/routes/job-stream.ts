/** A job's Server-Sent Events (SPEC.md Events): the stored events after the client's last, then each new one as it is written. */
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { isTerminal, type JobRecord } from '../../jobs/port.ts';
import type { AppServices } from '../../service/app-services.ts';

/** SSE comment lines keep idle connections (and proxies) open, and re-read the job: another process's progress shows within this. */
export const SSE_KEEPALIVE_MS = 15_000;

/**
 * Answers with the job's events after `last` as SSE frames until it ends (or the client goes). The
 * headers go out at once with a comment line naming the job's status: a queued job has no event to
 * send until a worker starts it, and a client should see the stream is open (EventSource's `open`,
 * a line in curl) rather than nothing for as long as the queue takes. A comment is no event (SPEC.md
 * Events, rule 4). Returns as soon as the stream is set up; the watch and the reads run beside it.
 */
export function streamEvents(s: AppServices, ctx: Context, job: JobRecord, last: number): void {
  const out = new PassThrough();
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = out;
  out.write(`: job ${job.job_id} is ${job.status}\n\n`);
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
        const now = await s.jobStore.get(job.job_id);
        const events = await s.jobStore.events(job.job_id, last);
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
  const follow = async () => {
    try {
      const stop = await s.jobStore.watch(job.job_id, () => void pump());
      if (ended) stop();
      else unwatch = stop;
    } catch (e) {
      // Without a watch the keep-alive's reads still bring every event, SSE_KEEPALIVE_MS apart.
      s.log.warn('job stream watch failed; reading the job every keep-alive instead', { job_id: job.job_id, error: (e as Error).message });
    }
    await pump();
  };
  void follow();
}
