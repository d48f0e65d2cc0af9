/**
 * The Redis throttle against a real Redis (REDIS_URL, e.g. redis://127.0.0.1:6379). The run owns a
 * random key prefix and deletes its keys afterwards.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisThrottle } from '../../src/accounts/redis/throttle.ts';
import { purgeRedisPrefix } from '../../src/redis/connection.ts';
import { throttleContract } from '../contract/throttle.contract.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('[throttle-redis.test] REDIS_URL is not set: skipping the Redis throttle tests (e.g. REDIS_URL=redis://127.0.0.1:6379).');

const prefix = `partsearch-test:${randomBytes(6).toString('hex')}:`;

describe.skipIf(!REDIS_URL)('redis throttle', () => {
  afterAll(async () => {
    await purgeRedisPrefix(REDIS_URL as string, prefix);
  });

  throttleContract('redis', async () => createRedisThrottle({ url: REDIS_URL as string, prefix }));

  it('200 concurrent hits on one bucket from two connections, server clock -> exactly 60 allowed', async () => {
    const a = createRedisThrottle({ url: REDIS_URL as string, prefix });
    const b = createRedisThrottle({ url: REDIS_URL as string, prefix });
    try {
      const bucket = `burst2:${randomBytes(4).toString('hex')}`;
      const ds = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).hit(bucket, 60, 60_000)));
      const allowed = ds.filter((d) => d.allowed);
      expect(allowed).toHaveLength(60);
      expect(allowed.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
      for (const d of ds.filter((x) => !x.allowed)) {
        expect(d.remaining).toBe(0);
        expect(d.retryAfter).toBeGreaterThanOrEqual(1);
      }
      // Same with explicit times from both connections.
      const bucket2 = `burst3:${randomBytes(4).toString('hex')}`;
      const T0 = 1_790_000_000_000;
      const ds2 = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).hit(bucket2, 60, 60_000, T0 + i)));
      expect(ds2.filter((d) => d.allowed)).toHaveLength(60);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('server clock: the window passes in real time', async () => {
    const t = createRedisThrottle({ url: REDIS_URL as string, prefix });
    try {
      const bucket = `expiry:${randomBytes(4).toString('hex')}`;
      expect((await t.hit(bucket, 1, 300)).allowed).toBe(true);
      expect((await t.hit(bucket, 1, 300)).allowed).toBe(false);
      await new Promise((r) => setTimeout(r, 450));
      expect((await t.hit(bucket, 1, 300)).allowed).toBe(true);
    } finally {
      await t.close();
    }
  });
});
