/**
 * The Redis gate: admission of a guarded request in one round trip once this process knows the key.
 *
 * A key's immutable facts (id, account, capabilities, per-key limit, name, prefix, creation time)
 * are cached per process by key hash after its first successful authentication. Everything that
 * can change is read fresh by the admission script, atomically with the throttle step:
 * the key's revocation (so a revoked key is refused on its next request, from any process), the
 * account's subscription and balance, the monthly request count (incremented when the request is
 * admitted and the key may use the route) and `last_used_at` (refreshed at most once a minute).
 *
 * The admissions requested during one turn of the event loop go to Redis as one script call (each
 * admission still its own throttle step, in arrival order, so the throttle stays exact across
 * processes); each caller gets its own answer.
 *
 * A key this process has not seen yet, an unknown or malformed key, and requests without a key go
 * through the account store and the throttle as separate calls (createGate's path).
 */
import type { Admission, AdmitRequest, Gate } from './gate.ts';
import { createGate } from './gate.ts';
import { hashKey, looksLikeKey } from './keys.ts';
import type { Account, AccountStore, ApiKeyInfo, Throttle } from './port.ts';
import { redisAccountKeys, type RedisConnectionOptions } from './redis-store.ts';
import { decodeThrottleReply, memberSequence, THROTTLE_LUA, throttleKey } from './redis-throttle.ts';
import { checkPrefix, connectRedis, defineScript, quitRedis } from './redis-util.ts';
import { createTurnBatcher } from '../util/turn.ts';
import { LAST_USED_GRANULARITY_MS } from './validate.ts';

const ADMIT = `
-- Admissions of one turn of the event loop, in arrival order.
-- ARGV[1..3]: nowMs ('' = server clock), refresh last_used_at when older than (ISO), now (ISO).
-- Per admission: KEYS bucket, key, account, request counts (4 each);
--                ARGV limit, windowMs, member, period, count (1/0) (5 each, from ARGV[4]).
-- Reply per admission: allowed, count, oldest, now, state (1 valid key), subscription, balance, requests (-1: not counted).
${THROTTLE_LUA}
local now = clock(ARGV[1])
local out = {}
for i = 0, #KEYS / 4 - 1 do
  local bucket, key, acct, reqs = KEYS[i * 4 + 1], KEYS[i * 4 + 2], KEYS[i * 4 + 3], KEYS[i * 4 + 4]
  local a = 3 + i * 5
  local allowed, count, oldest, t = throttle_step(bucket, tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), now, ARGV[a + 3])
  local state, sub, bal, n = 0, '', '0', -1
  local k = redis.call('HMGET', key, 'revoked_at', 'last_used_at')
  if k[1] == '' then
    local ac = redis.call('HMGET', acct, 'subscription', 'balance_micros')
    if ac[2] then
      state, sub, bal = 1, ac[1], ac[2]
      if allowed == 1 and ARGV[a + 5] == '1' then n = redis.call('HINCRBY', reqs, ARGV[a + 4], 1) end
      if not k[2] or k[2] < ARGV[2] then redis.call('HSET', key, 'last_used_at', ARGV[3]) end
    end
  end
  for _, v in ipairs({allowed, count, oldest, t, state, sub, bal, n}) do out[#out + 1] = v end
end
return out
`;

const REPLY_WIDTH = 8;

interface KnownKey {
  key: ApiKeyInfo;
  account: Pick<Account, 'id' | 'name' | 'created_at'>;
}

const CACHE_MAX = 10_000;

export function createRedisGate(opts: RedisConnectionOptions & { pepper: Buffer; prefix?: string; accounts: AccountStore; throttle: Throttle }): Gate {
  const P = checkPrefix(opts.prefix ?? 'partsearch:');
  const k = redisAccountKeys(P);
  const redis = opts.connection ?? connectRedis(opts.url);
  const ownsConnection = opts.ownsConnection ?? opts.connection === undefined;
  const admitScript = defineScript(redis, 'psAdmit', null, ADMIT);
  const nextMember = memberSequence();
  const slow = createGate(opts.accounts, opts.throttle);
  const known = new Map<string, KnownKey>();
  let isoSecond = 0;
  let nowIso = '';
  let refreshBeforeIso = '';

  interface Fast {
    r: AdmitRequest;
    hash: string;
    known: KnownKey;
  }
  const admissions = createTurnBatcher<Fast, Admission>(async (batch) => {
    const now = Date.now();
    if (Math.floor(now / 1000) !== isoSecond) {
      isoSecond = Math.floor(now / 1000);
      nowIso = new Date(now).toISOString();
      refreshBeforeIso = new Date(now - LAST_USED_GRANULARITY_MS).toISOString();
    }
    const keys: string[] = [];
    const args: string[] = ['', refreshBeforeIso, nowIso];
    for (const { r, known: { key, account } } of batch) {
      keys.push(throttleKey(P, r.bucket), k.key(key.id), k.acct(account.id), k.reqs(account.id));
      args.push(String(key.rate_limit_per_minute), String(r.windowMs), nextMember(), r.period, r.countsFor(key) ? '1' : '0');
    }
    const reply = await admitScript(keys.length, ...keys, ...args);
    if (!Array.isArray(reply) || reply.length !== batch.length * REPLY_WIDTH) throw new Error('accounts: unexpected reply from the admission script');
    return batch.map((p, i): Admission => {
      const at = i * REPLY_WIDTH;
      const { key, account } = p.known;
      const throttle = decodeThrottleReply(reply, key.rate_limit_per_minute, p.r.windowMs, at);
      if (Number(reply[at + 4]) !== 1) {
        known.delete(p.hash); // revoked (or gone): the next request goes the slow way and is refused there
        return { throttle, auth: null, requests: null };
      }
      const n = Number(reply[at + 7]);
      return {
        throttle,
        auth: { key, account: { ...account, subscription: reply[at + 5] === '1', balance_micros: Number(reply[at + 6]) } },
        requests: n >= 0 ? n : null,
      };
    });
  });

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
      return admissions.add({ r, hash: hash!, known: cached });
    },
    async close() {
      admissions.flush();
      if (ownsConnection) await quitRedis(redis);
    },
  };
}
