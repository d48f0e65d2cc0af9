/**
 * A Redis connection that drops after Redis ran a command but before its reply arrived: the command
 * must not run again after the reconnect (ioredis resends unanswered commands by default, which would
 * apply a debit twice). Real Redis (REDIS_URL) behind a loopback TCP proxy that this test controls: it
 * forwards both ways, and on demand swallows Redis's next reply and then resets the client's side.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAccountStore } from '../../src/accounts/redis/store.ts';
import { connectRedis, purgeRedisPrefix, quitRedis, REPLY_LOST_MESSAGE } from '../../src/redis/connection.ts';
import type { AccountStore } from '../../src/accounts/port.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('[redis-reconnect.test] REDIS_URL is not set: skipping (e.g. REDIS_URL=redis://127.0.0.1:6379).');

/** The proxy: `cutNextReply()` makes it drop Redis's next reply and reset the client connection it was for. */
async function startProxy(target: URL) {
  let cut = false;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      if (!cut) return void client.write(d);
      // Redis has run the command: its reply goes nowhere, and the client sees a reset connection.
      cut = false;
      cuts++;
      client.destroy();
      upstream.destroy();
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    cutNextReply: () => void (cut = true),
    cuts: () => cuts,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

describe.skipIf(!REDIS_URL)('redis: a reply lost with the connection', () => {
  const prefix = `partsearch-test:${randomBytes(6).toString('hex')}:`;
  const pepper = randomBytes(32);
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let viaProxy: AccountStore;
  let direct: AccountStore;
  beforeAll(async () => {
    proxy = await startProxy(new URL(REDIS_URL as string));
    viaProxy = createRedisAccountStore({ url: proxy.url, pepper, prefix });
    direct = createRedisAccountStore({ url: REDIS_URL as string, pepper, prefix });
  });
  afterAll(async () => {
    await viaProxy?.close();
    await direct?.close();
    await proxy?.close();
    await purgeRedisPrefix(REDIS_URL as string, prefix);
  });

  it('fails the debit whose reply was lost instead of running it again after the reconnect', async () => {
    const account = await viaProxy.createAccount({ name: `reconnect-${randomBytes(4).toString('hex')}`, credit_micros: 10_000 });
    const debit = () => viaProxy.debit({ account_id: account.id, usage_class: 'part_records', units: 1, amount_micros: 2_000, period: '2026-11' });
    expect(await debit()).toEqual({ ok: true, balance_micros: 8_000 }); // the script is loaded; the path works
    proxy.cutNextReply();
    await expect(debit()).rejects.toThrow(REPLY_LOST_MESSAGE);
    expect(proxy.cuts()).toBe(1);
    // The connection comes back and serves the next call; Redis ran the lost one once (10,000 - 3 x 2,000).
    expect(await debit()).toEqual({ ok: true, balance_micros: 4_000 });
    expect((await direct.getAccount(account.id))?.balance_micros).toBe(4_000);
    expect((await direct.usage(account.id, '2026-11')).by_class.part_records).toEqual({ units: 3, amount_micros: 6_000 });
  });

  it('does the same on a copy of the connection (duplicate), and a copy made to resend resends', async () => {
    const main = connectRedis(proxy.url);
    const copy = main.duplicate();
    const resending = main.duplicate({ autoResendUnfulfilledCommands: true });
    const key = `${prefix}counter`;
    try {
      expect(await copy.incr(key)).toBe(1);
      proxy.cutNextReply();
      await expect(copy.incr(key)).rejects.toThrow(REPLY_LOST_MESSAGE);
      expect(await copy.incr(key)).toBe(3); // the lost one ran once
      // An INCR is not safe to run twice: the resending copy shows what the default did (4, then 5 and 6).
      expect(await resending.incr(key)).toBe(4);
      proxy.cutNextReply();
      expect(await resending.incr(key)).toBe(6);
    } finally {
      await Promise.all([quitRedis(copy), quitRedis(resending), quitRedis(main)]);
    }
  });
});
