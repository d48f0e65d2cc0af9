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
 * The admissions requested during one turn of the event loop go to Redis as one script call, and
 * while that call is unfinished later admissions wait and go together in the next (util/turn.ts,
 * maxInFlight 1). The script decides each admission in arrival order exactly as if alone (so the
 * throttle stays exact across processes) but reads each bucket, key and account once per batch and
 * writes once at the end; each caller gets its own answer.
 *
 * A key this process has not seen yet, an unknown or malformed key, and requests without a key go
 * through the account store and the throttle as separate calls (createGate's path, which also counts
 * failed authentications per client address).
 */
import type { Admission, AdmitRequest, Gate } from '../gate.ts';
import { createGate, PRECHARGE_HEADROOM } from '../gate.ts';
import type { Account, AccountStore, ApiKeyInfo, DebitResult, Throttle } from '../port.ts';
import { redisAccountKeys } from './store.ts';
import { DEBIT_LUA } from './store-scripts.ts';
import { CLOCK_LUA, decodeThrottleReply, memberSequence, throttleKey, WINDOWS_LUA } from './throttle.ts';
import { checkPrefix, defineScript, keyTable, useConnection, type RedisConnectionOptions } from '../../redis/connection.ts';
import { createTurnBatcher } from '../../util/turn.ts';
import { LAST_USED_GRANULARITY_MS } from '../validate.ts';

const ADMIT = `
-- Admissions of one batch, in arrival order, each decided exactly as if alone: the throttle, key,
-- account and request-count state is read once per batch and kept in Lua tables, and the writes
-- (the admitted requests' window entries, expiries, request counts) are made once per key at the end.
-- KEYS: the batch's distinct keys. ARGV[1..3]: nowMs ('' = server clock), refresh last_used_at when
-- older than (ISO), now (ISO). From ARGV[4], one argument per admission: 17 fields joined by commas
-- (one bulk string to write and parse instead of 17): bucket, key, account and request counts (indexes
-- into KEYS), limit, windowMs, member, period, count (1/0), then the charge: usage and ledger (indexes
-- into KEYS), units ('' = no charge), amount, quota ('' = none), class, monthly cap, headroom. The charge
-- is debited (DEBIT_LUA) only for a request that passes every check before payment, from a balance of at
-- least headroom times the amount.
-- Reply: one string per admission, 11 fields joined by commas: allowed, count, oldest, now, state (1 valid
-- key), subscription, balance, requests (-1: not counted), charge status (1 ok, 0 refused, 2 not applied,
-- -2 none asked), balance after, reason.
${CLOCK_LUA}
local now = clock(ARGV[1])
${WINDOWS_LUA}
${DEBIT_LUA}
local keys, accts, reqs, reqOrder = {}, {}, {}, {}
local out = {}
local FIELDS = '^' .. string.rep('([^,]*),', 16) .. '([^,]*)$'
for i = 4, #ARGV do
  local bi, ki, ai, ri, limit, window, member, period, counts, ui, li, units, amount, quota, class, cap, headroom =
    string.match(ARGV[i], FIELDS)
  local b = window_open(KEYS[tonumber(bi)], tonumber(window))
  local key, acct, rk = KEYS[tonumber(ki)], KEYS[tonumber(ai)], KEYS[tonumber(ri)]
  local allowed = window_hit(b, tonumber(limit), member)
  local state, sub, bal, n = 0, '', '0', -1
  local k = keys[key]
  if not k then
    k = redis.call('HMGET', key, 'revoked_at', 'last_used_at')
    keys[key] = k
  end
  if k[1] == '' then
    local ac = accts[acct]
    if not ac then
      ac = redis.call('HMGET', acct, 'subscription', 'balance_micros')
      accts[acct] = ac
    end
    if ac[2] then
      state, sub, bal = 1, ac[1], ac[2]
      if allowed == 1 and counts == '1' then
        local c = reqs[rk .. '|' .. period]
        if not c then
          c = {key = rk, period = period, base = tonumber(redis.call('HGET', rk, period) or '0'), add = 0}
          reqs[rk .. '|' .. period] = c
          reqOrder[#reqOrder + 1] = c
        end
        c.add = c.add + 1
        n = c.base + c.add
      end
      if not k[2] or k[2] < ARGV[2] then
        redis.call('HSET', key, 'last_used_at', ARGV[3])
        k[2] = ARGV[3]
      end
    end
  end
  local cst, cbal, creason = -2, '', ''
  if units ~= '' then
    cst = 2
    local price = tonumber(amount)
    if state == 1 and allowed == 1 and counts == '1' and sub == '1' and n >= 0 and n <= tonumber(cap)
      and (debit_balance(acct) or -1) >= price * tonumber(headroom) then
      local ledger = KEYS[tonumber(li)]
      local st, after, reason = debit_apply(acct, KEYS[tonumber(ui)], ledger, ledger,
        tonumber(units), price, quota, class, '', period)
      cst, cbal, creason = st, after and string.format('%d', after) or '0', reason
    end
  end
  out[#out + 1] = string.format('%d,%d,%s,%s,%d,%s,%s,%d,%d,%s,%s', allowed, b.count, window_oldest(b), nowS, state,
    sub or '', bal, n, cst, cbal or '', creason or '')
end
windows_close()
debits_close(ARGV[3])
for _, c in ipairs(reqOrder) do redis.call('HINCRBY', c.key, c.period, c.add) end
return out
`;

const REPLY_FIELDS = 11;

/** The charge status, balance and reason of an admission's reply (see ADMIT). */
function chargeOutcome(reply: unknown[], at: number): DebitResult | null {
  const status = Number(reply[at]);
  const balance = Number(reply[at + 1]);
  if (status === 1) return { ok: true, balance_micros: balance };
  if (status === 0)
    return { ok: false, reason: reply[at + 2] === 'usage_limit_exceeded' ? 'usage_limit_exceeded' : 'insufficient_credit', balance_micros: balance };
  return null;
}

interface KnownKey {
  key: ApiKeyInfo;
  account: Pick<Account, 'id' | 'name' | 'created_at'>;
  /**
   * The Redis key names of its admissions, made once instead of per request (a name built anew is a new
   * string to hash for the batch's key table): the key, account, request counts and ledger; the usage of
   * the last period and the throttle window of the last bucket seen.
   */
  names: { key: string; acct: string; reqs: string; ledger: string; period: string; usage: string; bucket: string; window: string };
}

const CACHE_MAX = 10_000;

export function createRedisGate(opts: RedisConnectionOptions & { prefix?: string; accounts: AccountStore; throttle: Throttle }): Gate {
  const P = checkPrefix(opts.prefix ?? 'partsearch:');
  const k = redisAccountKeys(P);
  const { redis, release } = useConnection(opts);
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
  const admissions = createTurnBatcher<Fast, Admission>(
    async (batch) => {
      const now = Date.now();
      if (Math.floor(now / 1000) !== isoSecond) {
        isoSecond = Math.floor(now / 1000);
        nowIso = new Date(now).toISOString();
        refreshBeforeIso = new Date(now - LAST_USED_GRANULARITY_MS).toISOString();
      }
      const keys = keyTable();
      const args: string[] = ['', refreshBeforeIso, nowIso];
      for (const {
        r,
        known: { key, account, names },
      } of batch) {
        if (names.bucket !== r.bucket) [names.bucket, names.window] = [r.bucket, throttleKey(P, r.bucket)];
        if (names.period !== r.period) {
          // The period is the one free-form field of the comma-joined argument below (the others are
          // indexes, numbers, the member and a class name), so it is checked once per key and period.
          if (r.period.includes(',')) throw new RangeError(`accounts: a billing period holds no comma, got ${r.period}`);
          [names.period, names.usage] = [r.period, k.usage(account.id, r.period)];
        }
        // One comma-joined argument per admission (see ADMIT).
        const c = r.charge;
        const charge = c
          ? `${keys.index(names.usage)},${keys.index(names.ledger)},${c.units},${c.amount_micros},${c.quota ?? ''},${c.usage_class},${c.monthlyCap},${PRECHARGE_HEADROOM}`
          : ',,,,,,,';
        args.push(
          `${keys.index(names.window)},${keys.index(names.key)},${keys.index(names.acct)},${keys.index(names.reqs)},` +
            `${key.rate_limit_per_minute},${r.windowMs},${nextMember()},${r.period},${r.countsFor(key) ? '1' : '0'},${charge}`,
        );
      }
      const reply = await admitScript(keys.list.length, ...keys.list, ...args);
      if (!Array.isArray(reply) || reply.length !== batch.length) throw new Error('accounts: unexpected reply from the admission script');
      return batch.map((p, i): Admission => {
        const f = String(reply[i]).split(',');
        if (f.length !== REPLY_FIELDS) throw new Error('accounts: unexpected reply from the admission script');
        const { key, account } = p.known;
        const throttle = decodeThrottleReply(f, key.rate_limit_per_minute, p.r.windowMs);
        if (Number(f[4]) !== 1) {
          known.delete(p.hash); // revoked (or gone): the next request goes the slow way and is refused there
          return { throttle, auth: null, requests: null };
        }
        const n = Number(f[7]);
        return {
          throttle,
          auth: { key, account: { ...account, subscription: f[5] === '1', balance_micros: Number(f[6]) } },
          requests: n >= 0 ? n : null,
          ...(p.r.charge ? { charged: chargeOutcome(f, 8) } : {}),
        };
      });
    },
    { maxInFlight: 1 },
  );

  return {
    async admit(r: AdmitRequest): Promise<Admission> {
      const hash = r.keyHash !== undefined ? r.keyHash : r.secret === null ? null : opts.accounts.keyHash(r.secret);
      const cached = hash === null ? undefined : known.get(hash);
      if (!cached) {
        const a = await slow.admit(r);
        if (a.auth && hash !== null) {
          if (known.size >= CACHE_MAX) known.clear();
          const { id, name, created_at } = a.auth.account;
          const names = { key: k.key(a.auth.key.id), acct: k.acct(id), reqs: k.reqs(id), ledger: k.ledger(id), period: '', usage: '', bucket: '', window: '' };
          known.set(hash, { key: { ...a.auth.key }, account: { id, name, created_at }, names });
        }
        return a;
      }
      const a = await admissions.add({ r, hash: hash!, known: cached });
      // Revoked since it was seen: a failed authentication of the client address, as on the slow path.
      if (!a.auth && a.throttle.allowed) return { ...a, throttle: await opts.throttle.hit(r.failures, r.defaultLimit, r.windowMs) };
      return a;
    },
    async close() {
      admissions.flush();
      await release();
    },
  };
}
