import { describe, expect, it } from 'vitest';
import { createMemoryThrottle } from '../../src/accounts/memory-throttle.ts';
import { throttleContract } from './throttle.contract.ts';

throttleContract('memory', async () => createMemoryThrottle());

describe('memory throttle specifics', () => {
  it('sweeps idle buckets so memory stays bounded', async () => {
    const t = createMemoryThrottle({ sweepEvery: 100 });
    const T0 = 1_790_000_000_000;
    for (let i = 0; i < 5_000; i++) await t.hit(`client-${i}`, 60, 60_000, T0 + i);
    expect(t.bucketCount()).toBeLessThanOrEqual(5_000);
    // An hour later every bucket is idle: they are swept as traffic goes on.
    const later = T0 + 3_600_000;
    for (let i = 0; i < 10_000; i++) await t.hit('busy', 1_000_000, 60_000, later + i);
    expect(t.bucketCount()).toBe(1);
    // A live bucket is never swept.
    const d = await t.hit('busy', 1_000_000, 60_000, later + 10_000);
    expect(d.remaining).toBe(1_000_000 - 10_001);
    await t.close();
    expect(t.bucketCount()).toBe(0);
  });

  it('a large window that keeps sliding answers exactly as a plain log would (across compactions)', async () => {
    // The log skips expired entries and compacts from time to time: check every decision against a
    // straightforward model over 20,000 hits, a window of 3,000 of them, the clock stepping back now and then.
    const t = createMemoryThrottle();
    const limit = 2_500;
    const windowMs = 3_000;
    const model: number[] = [];
    let now = 1_790_000_000_000;
    for (let i = 0; i < 20_000; i++) {
      now += i % 97 === 0 ? -5 : 1;
      const d = await t.hit('big', limit, windowMs, now);
      const live = model.filter((x) => x > now - windowMs);
      model.length = 0;
      model.push(...live);
      const allowed = model.length < limit;
      if (allowed) {
        model.push(now);
        model.sort((a, b) => a - b);
      }
      expect({ i, allowed: d.allowed, remaining: d.remaining, reset: d.reset }).toEqual({
        i,
        allowed,
        remaining: allowed ? limit - model.length : 0,
        reset: Math.ceil(((model[0] ?? now) + windowMs) / 1000),
      });
    }
    await t.close();
  });

  it('a bucket never holds more than its limit', async () => {
    const t = createMemoryThrottle();
    for (let i = 0; i < 1_000; i++) await t.hit('one', 5, 60_000, 1_000 + i);
    expect((await t.hit('one', 5, 60_000, 2_000)).allowed).toBe(false);
    expect((await t.hit('one', 5, 60_000, 61_000)).allowed).toBe(true); // 1_000 left at 61_000
    await t.close();
  });
});
