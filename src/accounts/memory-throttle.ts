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
import type { LocalThrottle, ThrottleDecision } from './port.ts';
import { checkThrottleArgs, throttleDecision } from './throttle-math.ts';

interface Bucket {
  /** Admitted request times, oldest first, from index `head` on (entries before it have left the window). */
  log: number[];
  head: number;
  windowMs: number;
}

/** Dropped entries a log keeps before it is compacted (also at least half the array: O(1) amortised per hit). */
const COMPACT_AFTER = 1024;

export interface MemoryThrottle extends LocalThrottle {
  /** Buckets currently held (for tests and metrics). */
  bucketCount(): number;
}

export function createMemoryThrottle(opts: { sweepEvery?: number } = {}): MemoryThrottle {
  const sweepEvery = Math.max(1, Math.floor(opts.sweepEvery ?? 1024));
  const buckets = new Map<string, Bucket>();
  let hitsSinceSweep = 0;

  const sweep = (now: number) => {
    for (const [name, b] of buckets) {
      const newest = b.log.length > b.head ? b.log[b.log.length - 1] : undefined;
      if (newest === undefined || newest <= now - b.windowMs) buckets.delete(name);
    }
    hitsSinceSweep = 0;
  };

  const hitNow = (bucket: string, limit: number, windowMs: number, nowMs?: number): ThrottleDecision => {
    checkThrottleArgs(bucket, limit, windowMs, nowMs);
    const now = nowMs ?? Date.now();
    if (++hitsSinceSweep >= Math.max(sweepEvery, buckets.size)) sweep(now);

    let b = buckets.get(bucket);
    if (!b) {
      b = { log: [], head: 0, windowMs };
      buckets.set(bucket, b);
    }
    b.windowMs = windowMs;
    // Entries that left the window are skipped by moving `head`, not removed from the front of the
    // array (which moves every remaining entry: with a key's limit in the millions, a full window
    // made each hit cost about 180 µs). The array is compacted once most of it is skipped.
    const cutoff = now - windowMs;
    while (b.head < b.log.length && (b.log[b.head] as number) <= cutoff) b.head++;
    if (b.head >= COMPACT_AFTER && b.head * 2 >= b.log.length) {
      b.log = b.log.slice(b.head);
      b.head = 0;
    }
    const log = b.log;
    const allowed = log.length - b.head < limit;
    if (allowed) {
      // Sorted insert: the clock may step back, and tests pass times explicitly.
      let i = log.length;
      while (i > b.head && (log[i - 1] as number) > now) i--;
      if (i === log.length) log.push(now);
      else log.splice(i, 0, now);
    }
    const count = log.length - b.head;
    if (count === 0) buckets.delete(bucket);
    return throttleDecision(allowed, limit, count, count > 0 ? (log[b.head] as number) : now, now, windowMs);
  };

  const peekNow = (bucket: string, limit: number, windowMs: number, nowMs?: number): ThrottleDecision => {
    checkThrottleArgs(bucket, limit, windowMs, nowMs);
    const now = nowMs ?? Date.now();
    const b = buckets.get(bucket);
    // The entries still in the window, read without moving `head` (a log is sorted).
    let first = b?.head ?? 0;
    const log = b?.log ?? [];
    while (first < log.length && (log[first] as number) <= now - windowMs) first++;
    const count = log.length - first;
    const allowed = count < limit;
    return throttleDecision(allowed, limit, count + (allowed ? 1 : 0), count > 0 ? Math.min(log[first] as number, now) : now, now, windowMs);
  };

  return {
    hitNow,
    peekNow,
    async hit(bucket, limit, windowMs, nowMs) {
      return hitNow(bucket, limit, windowMs, nowMs);
    },
    async peek(bucket, limit, windowMs, nowMs) {
      return peekNow(bucket, limit, windowMs, nowMs);
    },

    bucketCount: () => buckets.size,

    async close() {
      buckets.clear();
    },
  };
}
