/**
 * The Redis gate: admission of a guarded request in one round trip once this process knows the key.
 *
 * A key's immutable facts (id, account, capabilities, per-key limit, name, prefix, creation time)
 * are cached per process by key hash after its first successful authentication. Everything that
 * can change is read fresh by one Lua script per request, atomically with the throttle step:
 * the key's revocation (so a revoked key is refused on its next request, from any process), the
 * account's subscription and balance, the monthly request count (incremented when the request is
 * admitted and the key may use the route) and `last_used_at` (refreshed at most once a minute).
 *
 * A key this process has not seen yet, an unknown or malformed key, and requests without a key go
 * through the account store and the throttle as separate calls (createGate's path).
 */
import type { Admission, AdmitRequest, Gate } from './gate.ts';
import { createGate } from './gate.ts';
import { hashKey, looksLikeKey } from './keys.ts';
import type { Account, AccountStore, ApiKeyInfo, Throttle } from './port.ts';
import { redisAccountKeys } from './redis-store.ts';
import { decodeThrottleReply, memberSequence, THROTTLE_STEP_LUA, throttleKey } from './redis-throttle.ts';
import { checkPrefix, connectRedis, defineScript, quitRedis } from './redis-util.ts';
import { LAST_USED_GRANULARITY_MS } from './validate.ts';

const ADMIT = `
-- KEYS: bucket, key, account, request counts
-- ARGV: limit, windowMs, nowMs ('' = server clock), member, period, count (1/0), refresh last_used_at before (ISO), now (ISO)
${THROTTLE_STEP_LUA}
local state, sub, bal, reqs = 0, '', '0', -1
local key = redis.call('HMGET', KEYS[2], 'revoked_at', 'last_used_at')
if key[1] == '' then
  local acct = redis.call('HMGET', KEYS[3], 'subscription', 'balance_micros')
  if acct[2] then
    state, sub, bal = 1, acct[1], acct[2]
    if allowed == 1 and ARGV[6] == '1' then reqs = redis.call('HINCRBY', KEYS[4], ARGV[5], 1) end
    if not key[2] or key[2] < ARGV[7] then redis.call('HSET', KEYS[2], 'last_used_at', ARGV[8]) end
  end
end
return {allowed, count, string.format('%.17g', oldest), string.format('%.17g', now), state, sub, bal, reqs}
`;

interface KnownKey {
  key: ApiKeyInfo;
  account: Pick<Account, 'id' | 'name' | 'created_at'>;
}

const CACHE_MAX = 10_000;

export function createRedisGate(opts: { url: string; pepper: Buffer; prefix?: string; accounts: AccountStore; throttle: Throttle }): Gate {
  const P = checkPrefix(opts.prefix ?? 'partsearch:');
  const k = redisAccountKeys(P);
  const redis = connectRedis(opts.url);
  const admitScript = defineScript(redis, 'psAdmit', 4, ADMIT);
  const nextMember = memberSequence();
  const slow = createGate(opts.accounts, opts.throttle);
  const known = new Map<string, KnownKey>();
  let isoSecond = 0;
  let nowIso = '';
  let refreshBeforeIso = '';

  return {
    async admit(r: AdmitRequest): Promise<Admission> {
      const hash = r.secret !== null && looksLikeKey(r.secret) ? hashKey(r.secret, opts.pepper) : null;
      const cached = hash === null ? undefined : known.get(hash);
      if (!cached) {
        const a = await slow.admit(r);
        if (a.auth && hash !== null) {
          if (known.size >= CACHE_MAX) known.clear();
          const { id, name, created_at } = a.auth.account;
          known.set(hash, { key: { ...a.auth.key }, account: { id, name, created_at } });
        }
        return a;
      }
      const now = Date.now();
      if (Math.floor(now / 1000) !== isoSecond) {
        isoSecond = Math.floor(now / 1000);
        nowIso = new Date(now).toISOString();
        refreshBeforeIso = new Date(now - LAST_USED_GRANULARITY_MS).toISOString();
      }
      const { key, account } = cached;
      const limit = key.rate_limit_per_minute;
      const reply = await admitScript(
        throttleKey(P, r.bucket), k.key(key.id), k.acct(account.id), k.reqs(account.id),
        String(limit), String(r.windowMs), '', nextMember(), r.period, r.countsFor(key) ? '1' : '0', refreshBeforeIso, nowIso,
      );
      const throttle = decodeThrottleReply(reply, limit, r.windowMs);
      const [state, sub, bal, reqs] = (reply as unknown[]).slice(4);
      if (Number(state) !== 1) {
        known.delete(hash!);
        return { throttle, auth: null, requests: null };
      }
      const n = Number(reqs);
      return {
        throttle,
        auth: { key, account: { ...account, subscription: sub === '1', balance_micros: Number(bal) } },
        requests: n >= 0 ? n : null,
      };
    },
    async close() {
      await quitRedis(redis);
    },
  };
}
