/**
 * The Redis account store against a real Redis (REDIS_URL, e.g. redis://127.0.0.1:6379). The run
 * owns a random key prefix and deletes its keys afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisAccountStore } from '../../src/accounts/redis/store.ts';
import { connectRedis, purgeRedisPrefix } from '../../src/redis/connection.ts';
import { accountStoreContract, type LedgerRow } from '../contract/accounts.contract.ts';
import { admitRequest, gateContract } from '../contract/gate.contract.ts';
import { createRedisGate } from '../../src/accounts/redis/gate.ts';
import { createRedisThrottle } from '../../src/accounts/redis/throttle.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('[accounts-redis.test] REDIS_URL is not set: skipping the Redis account store tests (e.g. REDIS_URL=redis://127.0.0.1:6379).');

const pepper = randomBytes(32);
const prefix = `partsearch-test:${randomBytes(6).toString('hex')}:`;

describe.skipIf(!REDIS_URL)('redis account store', () => {
  afterAll(async () => {
    await purgeRedisPrefix(REDIS_URL as string, prefix);
  });

  accountStoreContract(
    'redis',
    async () => createRedisAccountStore({ url: REDIS_URL as string, pepper, prefix }),
    undefined,
    async (accountId) => {
      const redis = new Redis(REDIS_URL as string);
      try {
        return (await redis.lrange(`${prefix}ledger:${accountId}`, 0, -1)).map((x) => {
          const e = JSON.parse(x) as LedgerRow;
          return { amount_micros: e.amount_micros, balance_after: e.balance_after, usage_class: e.usage_class ?? null, reference: e.reference ?? null };
        });
      } finally {
        redis.disconnect();
      }
    },
  );

  /**
   * The gate under test with its store, throttle and a second store: each on a connection of its own,
   * or (`shared`) the gate, the throttle and the store on one, as the service wires them (composition.ts).
   */
  const gateUnderTest = (shared: boolean) => {
    const url = REDIS_URL as string;
    const connection = shared ? connectRedis(url) : undefined;
    const store = createRedisAccountStore({ url, connection, ownsConnection: shared || undefined, pepper, prefix });
    const other = createRedisAccountStore({ url, pepper, prefix });
    const throttle = createRedisThrottle({ url, connection, prefix });
    const gate = createRedisGate({ url, connection, prefix, accounts: store, throttle });
    return {
      gate,
      store,
      other,
      async close() {
        await gate.close();
        await throttle.close();
        await other.close();
        await store.close(); // last: it owns the shared connection
      },
    };
  };
  gateContract('redis', async () => gateUnderTest(false));
  gateContract('redis, one connection', async () => gateUnderTest(true));

  it('debits a fixed price with the admission: applied, refused by the quota with its reason, not applied below the headroom', async () => {
    const t = gateUnderTest(false);
    try {
      const PERIOD = '2026-11';
      const price = { usage_class: 'part_records' as const, units: 1, amount_micros: 2_000, quota: null, monthlyCap: 1_000 };
      const open = async (credit: number) => {
        const account = await t.store.createAccount({ name: `charge-${randomBytes(5).toString('hex')}`, subscription: true, credit_micros: credit });
        const { secret } = await t.store.createKey({ account_id: account.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 100 });
        const admit = (charge: typeof price | (Omit<typeof price, 'quota'> & { quota: number }), period = PERIOD) =>
          t.gate.admit(admitRequest(secret, { charge, period }));
        expect((await admit(price)).charged).toBeUndefined(); // a key the gate does not know yet: the separate calls, no charge
        return { account, admit };
      };
      // A balance of at least PRECHARGE_HEADROOM (100) prices: debited in the admission script.
      const rich = await open(1_000_000);
      const a = await rich.admit(price);
      expect([a.throttle.allowed, a.requests, a.charged]).toEqual([true, 2, { ok: true, balance_micros: 998_000 }]);
      expect((await t.other.usage(rich.account.id, PERIOD)).by_class.part_records).toEqual({ units: 1, amount_micros: 2_000 });
      // Another period (a new month) for the same known key: its own usage.
      expect((await rich.admit(price, '2026-12')).charged).toEqual({ ok: true, balance_micros: 996_000 });
      expect((await t.other.usage(rich.account.id, '2026-12')).by_class.part_records).toEqual({ units: 1, amount_micros: 2_000 });
      expect((await t.other.usage(rich.account.id, PERIOD)).by_class.part_records).toEqual({ units: 1, amount_micros: 2_000 });
      // The class's monthly quota refuses it: nothing debited, and the reason comes back.
      const b = await rich.admit({ ...price, quota: 1 });
      expect(b.charged).toEqual({ ok: false, reason: 'usage_limit_exceeded', balance_micros: 996_000 });
      // Below the headroom the price is not taken at admission (the handler debits after the work).
      const poor = await open(150_000);
      const c = await poor.admit(price);
      expect([c.throttle.allowed, c.auth?.account.id, c.charged]).toEqual([true, poor.account.id, null]);
      expect((await t.other.getAccount(poor.account.id))?.balance_micros).toBe(150_000);
    } finally {
      await t.close();
    }
  });

  it('reloads its scripts after the server lost them (SCRIPT FLUSH, as after a restart)', async () => {
    const s = createRedisAccountStore({ url: REDIS_URL as string, pepper, prefix });
    const redis = new Redis(REDIS_URL as string);
    try {
      const a = await s.createAccount({ name: `flush-${randomBytes(4).toString('hex')}`, credit_micros: 10 });
      await redis.script('FLUSH');
      expect(await s.debit({ account_id: a.id, usage_class: 'part_records', units: 1, amount_micros: 4, period: '2026-11' })).toEqual({
        ok: true,
        balance_micros: 6,
      });
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
