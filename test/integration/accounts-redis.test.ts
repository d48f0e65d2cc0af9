/**
 * The Redis account store against a real Redis (REDIS_URL, e.g. redis://127.0.0.1:6379). The run
 * owns a random key prefix and deletes its keys afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisAccountStore } from '../../src/accounts/redis-store.ts';
import { purgeRedisPrefix } from '../../src/accounts/redis-util.ts';
import { accountStoreContract } from '../contract/accounts.contract.ts';
import { gateContract } from '../contract/gate.contract.ts';
import { createRedisGate } from '../../src/accounts/redis-gate.ts';
import { createRedisThrottle } from '../../src/accounts/redis-throttle.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('[accounts-redis.test] REDIS_URL is not set: skipping the Redis account store tests (e.g. REDIS_URL=redis://127.0.0.1:6379).');

const pepper = randomBytes(32);
const prefix = `partsearch-test:${randomBytes(6).toString('hex')}:`;

describe.skipIf(!REDIS_URL)('redis account store', () => {
  afterAll(async () => {
    await purgeRedisPrefix(REDIS_URL as string, prefix);
  });

  accountStoreContract('redis', async () => createRedisAccountStore({ url: REDIS_URL as string, pepper, prefix }));

  gateContract('redis', async () => {
    const url = REDIS_URL as string;
    const store = createRedisAccountStore({ url, pepper, prefix });
    const other = createRedisAccountStore({ url, pepper, prefix });
    const throttle = createRedisThrottle({ url, prefix });
    const gate = createRedisGate({ url, pepper, prefix, accounts: store, throttle });
    return {
      gate,
      store,
      other,
      async close() {
        await gate.close();
        await store.close();
        await other.close();
        await throttle.close();
      },
    };
  });

  it('group-commits a burst of debits into a ledger whose balances chain exactly and whose sums match usage', async () => {
    const s = createRedisAccountStore({ url: REDIS_URL as string, pepper, prefix });
    const redis = new Redis(REDIS_URL as string);
    try {
      const a = await s.createAccount({ name: `burst-${randomBytes(4).toString('hex')}`, credit_micros: 200_000 });
      const classes = ['part_records', 'match_lines', 'ai_tokens'] as const;
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          s.debit({ account_id: a.id, usage_class: classes[i % 3]!, units: 2, amount_micros: i % 7 === 0 ? 0 : 3_000, period: '2026-11', ...(i % 10 === 0 ? { reference: `r${i}` } : {}) }),
        ),
      );
      expect(results.every((r) => r.ok)).toBe(true);
      const final = (await s.getAccount(a.id))!.balance_micros;
      expect(final).toBe(200_000 - 51 * 3_000);
      const usage = await s.usage(a.id, '2026-11');
      const rows = (await redis.lrange(`${prefix}ledger:${a.id}`, 0, -1)).map((x) => JSON.parse(x) as { amount_micros: number; balance_after: number; usage_class?: string; reference: string | null });
      expect(rows[0]).toMatchObject({ amount_micros: 200_000, balance_after: 200_000 });
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.balance_after).toBe(rows[i - 1]!.balance_after + rows[i]!.amount_micros);
      expect(rows.at(-1)!.balance_after).toBe(final);
      expect(rows.filter((r) => r.reference?.startsWith('r')).length).toBe(6);
      for (const cls of classes) expect(-rows.filter((r) => r.usage_class === cls).reduce((n, r) => n + r.amount_micros, 0)).toBe(usage.by_class[cls].amount_micros);
      // A reference already applied is applied once, also across batches.
      expect(await s.debit({ account_id: a.id, usage_class: 'part_records', units: 2, amount_micros: 3_000, period: '2026-11', reference: 'r10' })).toEqual({ ok: true, balance_micros: final });
    } finally {
      redis.disconnect();
      await s.close();
    }
  });

  it('reloads its scripts after the server lost them (SCRIPT FLUSH, as after a restart)', async () => {
    const s = createRedisAccountStore({ url: REDIS_URL as string, pepper, prefix });
    const redis = new Redis(REDIS_URL as string);
    try {
      const a = await s.createAccount({ name: `flush-${randomBytes(4).toString('hex')}`, credit_micros: 10 });
      await redis.script('FLUSH');
      expect(await s.debit({ account_id: a.id, usage_class: 'part_records', units: 1, amount_micros: 4, period: '2026-11' })).toEqual({ ok: true, balance_micros: 6 });
      await redis.script('FLUSH');
      expect((await s.addCredit(a.id, 4)).balance_micros).toBe(10);
    } finally {
      redis.disconnect();
      await s.close();
    }
  });

  it('keeps separate prefixes apart', async () => {
    const otherPrefix = `${prefix}other:`;
    const a = createRedisAccountStore({ url: REDIS_URL as string, pepper, prefix });
    const b = createRedisAccountStore({ url: REDIS_URL as string, pepper, prefix: otherPrefix });
    try {
      const acc = await a.createAccount({ name: `apart-${randomBytes(4).toString('hex')}` });
      const { secret } = await a.createKey({ account_id: acc.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
      expect(await b.getAccount(acc.id)).toBeNull();
      expect(await b.authenticate(secret)).toBeNull();
      expect((await a.authenticate(secret))?.account.id).toBe(acc.id);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
