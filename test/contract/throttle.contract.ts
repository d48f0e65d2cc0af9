/**
 * The throttle contract: one suite, run against the memory throttle and (with REDIS_URL) the Redis
 * throttle. Time is passed explicitly (`nowMs`), so every expectation is exact. `open()` returns a
 * throttle instance; each test uses its own bucket names.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Throttle } from '../../src/accounts/port.ts';

const W = 60_000;
/** A start time that is not on a whole second, so the rounding of `reset` shows. */
const T0 = 1_790_000_000_250;
const bucketName = (what: string) => `${what}:${randomBytes(5).toString('hex')}`;

export function throttleContract(name: string, open: () => Promise<Throttle>, cleanup?: () => Promise<void>): void {
  describe(`throttle contract: ${name}`, () => {
    let t: Throttle;
    beforeAll(async () => {
      t = await open();
    });
    afterAll(async () => {
      await t?.close();
      await cleanup?.();
    });

    it('61 hits within a minute: exactly 60 allowed, the 61st refused', async () => {
      const b = bucketName('sixty');
      const decisions = [];
      for (let i = 0; i < 61; i++) decisions.push(await t.hit(b, 60, W, T0 + i * 500));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
      expect(decisions.slice(0, 60).every((d) => d.allowed)).toBe(true);
      const last = decisions[60]!;
      expect(last.allowed).toBe(false);
      expect(last.remaining).toBe(0);
      expect(last.limit).toBe(60);
      expect(last.retryAfter).toBeGreaterThanOrEqual(1);
      // The oldest (T0) leaves at T0 + 60 s; the 61st came at T0 + 30 s.
      expect(last.retryAfter).toBe(30);
      expect(last.reset).toBe(Math.ceil((T0 + W) / 1000));
    });

    it('headers: remaining counts down 59..0, reset = oldest + 60 s (epoch seconds, rounded up)', async () => {
      const b = bucketName('headers');
      const remaining: number[] = [];
      for (let i = 0; i < 60; i++) {
        const d = await t.hit(b, 60, W, T0 + i * 100);
        expect(d).toMatchObject({ allowed: true, limit: 60, reset: 1_790_000_061 });
        expect(d.retryAfter).toBeGreaterThanOrEqual(1);
        remaining.push(d.remaining);
      }
      expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
      // A first hit much later: the window is empty again, its own time is the oldest.
      const later = await t.hit(b, 60, W, T0 + 10 * W + 1);
      expect(later).toMatchObject({ allowed: true, remaining: 59, reset: Math.ceil((T0 + 11 * W + 1) / 1000) });
    });

    it('the window slides: after the oldest leaves, exactly one more is admitted; refusals are not counted', async () => {
      const b = bucketName('slide');
      for (let i = 0; i < 60; i++) expect((await t.hit(b, 60, W, T0 + i * 100)).allowed).toBe(true);
      // Hammering a full bucket does not extend the ban.
      for (let i = 0; i < 20; i++) {
        const d = await t.hit(b, 60, W, T0 + 10_000 + i * 1_000);
        expect(d.allowed).toBe(false);
        expect(d.retryAfter).toBe(Math.max(1, Math.ceil((T0 + W - (T0 + 10_000 + i * 1_000)) / 1000)));
      }
      expect((await t.hit(b, 60, W, T0 + W - 1)).allowed).toBe(false); // T0 still counted
      const slid = await t.hit(b, 60, W, T0 + W); // T0 leaves exactly now
      expect(slid).toMatchObject({ allowed: true, remaining: 0, reset: Math.ceil((T0 + 100 + W) / 1000) });
      const full = await t.hit(b, 60, W, T0 + W + 99);
      expect(full).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 });
      expect((await t.hit(b, 60, W, T0 + W + 100)).allowed).toBe(true); // T0 + 100 left
      expect((await t.hit(b, 60, W, T0 + W + 150)).allowed).toBe(false);
    });

    it('buckets are independent; limits and windows are per call', async () => {
      const a = bucketName('a');
      const b = bucketName('b');
      for (let i = 0; i < 3; i++) expect((await t.hit(a, 3, W, T0 + i)).allowed).toBe(true);
      expect((await t.hit(a, 3, W, T0 + 3)).allowed).toBe(false);
      expect(await t.hit(b, 3, W, T0 + 4)).toMatchObject({ allowed: true, remaining: 2 });
      // A short window of its own.
      const c = bucketName('c');
      expect((await t.hit(c, 1, 1_000, T0)).allowed).toBe(true);
      expect(await t.hit(c, 1, 1_000, T0 + 999)).toMatchObject({ allowed: false, retryAfter: 1 });
      expect((await t.hit(c, 1, 1_000, T0 + 1_000)).allowed).toBe(true);
      // Limit 0 refuses everything.
      expect(await t.hit(bucketName('zero'), 0, W, T0)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 60 });
    });

    it('200 concurrent hits on one bucket -> exactly 60 allowed', async () => {
      const b = bucketName('burst');
      const ds = await Promise.all(Array.from({ length: 200 }, (_, i) => t.hit(b, 60, W, T0 + (i % 7))));
      expect(ds.filter((d) => d.allowed)).toHaveLength(60);
      expect(
        ds
          .filter((d) => d.allowed)
          .map((d) => d.remaining)
          .sort((x, y) => x - y),
      ).toEqual(Array.from({ length: 60 }, (_, i) => i));
    });

    it('without nowMs it uses the current time', async () => {
      const b = bucketName('clock');
      const before = Date.now();
      const d1 = await t.hit(b, 2, W);
      await t.hit(b, 2, W);
      const d3 = await t.hit(b, 2, W);
      expect(d1).toMatchObject({ allowed: true, remaining: 1 });
      expect(d3.allowed).toBe(false);
      // Within a few seconds of this machine's clock (Redis may run on another host).
      expect(Math.abs(d1.reset - Math.ceil((before + W) / 1000))).toBeLessThanOrEqual(5);
      expect(d3.retryAfter).toBeGreaterThanOrEqual(55);
      expect(d3.retryAfter).toBeLessThanOrEqual(60);
    });

    it('peek: the decision a hit would get, counting nothing', async () => {
      const b = bucketName('peek');
      expect(await t.peek(b, 2, W, T0)).toMatchObject({ allowed: true, limit: 2, remaining: 1, reset: Math.ceil((T0 + W) / 1000) });
      expect(await t.hit(b, 2, W, T0 + 10)).toMatchObject({ allowed: true, remaining: 1 }); // the peek took no slot
      expect(await t.peek(b, 2, W, T0 + 20)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await t.hit(b, 2, W, T0 + 30)).allowed).toBe(true);
      // Full: refused with the hit's Retry-After, however often it is asked.
      for (let i = 0; i < 3; i++) expect(await t.peek(b, 2, W, T0 + 40 + i)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 60 });
      expect(await t.peek(b, 3, W, T0 + 50)).toMatchObject({ allowed: true, remaining: 0 });
      // The first entry leaves: room again.
      expect((await t.peek(b, 2, W, T0 + 10 + W)).allowed).toBe(true);
      expect((await t.hit(b, 2, W, T0 + 10 + W)).allowed).toBe(true);
      await expect(t.peek('', 1, W)).rejects.toThrow();
    });

    it('rejects malformed arguments', async () => {
      await expect(t.hit('', 60, W)).rejects.toThrow();
      await expect(t.hit('x', -1, W)).rejects.toThrow(RangeError);
      await expect(t.hit('x', 60, 0)).rejects.toThrow(RangeError);
      await expect(t.hit('x', 1.5, W)).rejects.toThrow(RangeError);
    });
  });
}
