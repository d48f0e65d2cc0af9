/**
 * In-process sliding-window LOG throttle: per bucket, the times of the admitted requests of the last
 * window, oldest first. A request is admitted when fewer than `limit` of them are younger than
 * `windowMs` (a request made at t counts while now < t + windowMs); refused requests are not logged,
 * so a client hammering a full bucket does not extend its own ban. Exact for one process; several
 * API processes need the Redis throttle.
 *
 * Memory: a log never holds more than `limit` entries, and buckets whose newest entry has left the
 * window are swept out every `sweepEvery` hits (at least as many hits as there are buckets, so the
 * sweep costs O(1) per hit amortised).
 */
import type { Throttle } from './port.ts';
import { checkThrottleArgs, throttleDecision } from './throttle-math.ts';

interface Bucket {
  log: number[];
  windowMs: number;
}

export interface MemoryThrottle extends Throttle {
  /** Buckets currently held (for tests and metrics). */
  bucketCount(): number;
}

export function createMemoryThrottle(opts: { sweepEvery?: number } = {}): MemoryThrottle {
  const sweepEvery = Math.max(1, Math.floor(opts.sweepEvery ?? 1024));
  const buckets = new Map<string, Bucket>();
  let hitsSinceSweep = 0;

  const sweep = (now: number) => {
    for (const [name, b] of buckets) {
      const newest = b.log[b.log.length - 1];
      if (newest === undefined || newest <= now - b.windowMs) buckets.delete(name);
    }
    hitsSinceSweep = 0;
  };

  return {
    async hit(bucket, limit, windowMs, nowMs) {
      checkThrottleArgs(bucket, limit, windowMs, nowMs);
      const now = nowMs ?? Date.now();
      if (++hitsSinceSweep >= Math.max(sweepEvery, buckets.size)) sweep(now);

      let b = buckets.get(bucket);
      if (!b) {
        b = { log: [], windowMs };
        buckets.set(bucket, b);
      }
      b.windowMs = windowMs;
      const log = b.log;
      const cutoff = now - windowMs;
      let drop = 0;
      while (drop < log.length && (log[drop] as number) <= cutoff) drop++;
      if (drop > 0) log.splice(0, drop);

      const allowed = log.length < limit;
      if (allowed) {
        // Sorted insert: the clock may step back, and tests pass times explicitly.
        let i = log.length;
        while (i > 0 && (log[i - 1] as number) > now) i--;
        log.splice(i, 0, now);
      }
      if (log.length === 0) buckets.delete(bucket);
      return throttleDecision(allowed, limit, log.length, log[0] ?? now, now, windowMs);
    },

    bucketCount: () => buckets.size,

    async close() {
      buckets.clear();
    },
  };
}
