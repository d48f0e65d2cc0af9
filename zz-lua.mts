// Redis-side cost of the admission and debit scripts per request, batches of B, a window of W members.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedisAccountStore } from './src/accounts/redis-store.ts';
import { createRedisThrottle } from './src/accounts/redis-throttle.ts';
import { createRedisGate } from './src/accounts/redis-gate.ts';
import { purgeRedisPrefix } from './src/accounts/redis-util.ts';
const url = 'redis://127.0.0.1:6379';
const prefix = `zzlua-${randomBytes(3).toString('hex')}:`;
const store = createRedisAccountStore({ url, pepper: Buffer.from('x'), prefix });
const throttle = createRedisThrottle({ url, prefix });
const gate = createRedisGate({ url, prefix, accounts: store, throttle });
const acc = await store.createAccount({ name: 'a', subscription: true, credit_micros: 1e15 });
const { secret } = await store.createKey({ account_id: acc.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 1e9 });
const hash = store.keyHash(secret)!;
const B = Number(process.argv[2] ?? 9), N = Number(process.argv[3] ?? 3000);
const req = { bucket: `key:${hash.slice(0, 32)}`, secret, keyHash: hash, defaultLimit: 60, windowMs: 60_000, period: '2026-11', countsFor: () => true };
await gate.admit(req); // learn the key
const r = new Redis(url);
await r.config('RESETSTAT');
for (let i = 0; i < N; i++) {
  await Promise.all(Array.from({ length: B }, () => gate.admit(req)));
  await Promise.all(Array.from({ length: B }, () => store.debit({ account_id: acc.id, usage_class: 'part_records', units: 1, amount_micros: 2000, period: '2026-11' })));
}
const stats = (await r.info('commandstats')).split('\n').filter((l) => l.startsWith('cmdstat_evalsha'));
console.log(`B=${B}`, stats.join(' '));
const slow = ((await r.call('SLOWLOG', 'GET', '1')) as any[]).length;
void slow;
await gate.close(); await store.close(); await throttle.close(); r.disconnect();
await purgeRedisPrefix(url, prefix);
