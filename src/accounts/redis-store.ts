/**
 * The shared account store: Redis, used by every API process. Each operation that reads and then
 * writes (account creation, credit, subscription, key creation and revocation, debit, request
 * count) is one Lua script, which Redis runs atomically, so results are exact under any number of
 * concurrent clients. Amounts travel as decimal strings and are changed with HINCRBY, so money stays
 * in exact integers (Lua numbers are only used for comparisons, exact below 2^53).
 *
 * Keys (P = prefix, default "partsearch:"):
 *   P acct:<id>                hash   id, name, subscription (0/1), balance_micros, created_at
 *   P acct-names               hash   name -> account id (names are unique)
 *   P accts                    zset   account ids by creation sequence
 *   P key:<id>                 hash   id, account_id, name, key_hash, prefix, capabilities (JSON),
 *                                     rate_limit_per_minute, created_at, revoked_at, last_used_at ("" = null)
 *   P key-hashes               hash   key hash -> key id
 *   P keys, P acct-keys:<acc>  zset   key ids by creation sequence (all / per account)
 *   P seq                      string creation sequence
 *   P usage:<acc>:<period>     hash   <class>:units, <class>:micros
 *   P reqs:<acc>               hash   period -> request count
 *   P ledger:<acc>             list   JSON entries (credits and debits with the balance after)
 *   P refs:<acc>               hash   debit reference -> ledger position (idempotency)
 *
 * The scripts touch keys of several accounts' namespaces only through KEYS, but the store is written
 * for a single Redis (or a primary with replicas), not Redis Cluster.
 */
import type { Account, AccountStore, ApiKeyInfo, Capability, CreatedKey, DebitResult, UsageSummary } from './port.ts';
import { USAGE_CLASSES } from './port.ts';
import { checkPepper, displayPrefix, generateKeySecret, hashesEqual, hashKey, looksLikeKey, newAccountId, newKeyId } from './keys.ts';
import {
  DEFAULT_CREDIT_MICROS,
  DuplicateAccountNameError,
  UnknownAccountError,
  checkCapabilities,
  checkCount,
  checkDebit,
  checkMicros,
  checkText,
  emptyUsage,
  type CheckedDebit,
  needsLastUsedUpdate,
  parseCapabilities,
} from './validate.ts';
import type { Redis } from 'ioredis';
import { createTurnBatcher } from '../util/turn.ts';
import { checkPrefix, connectRedis, defineScript, keyTable, pairsToRecord, quitRedis } from './redis-util.ts';

const CREATE_ACCOUNT = `
-- KEYS: acct, names, accts, seq, ledger  ARGV: id, name, subscription, balance, created_at, ledger entry prefix
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[1]) == 0 then return 0 end
local seq = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'name', ARGV[2], 'subscription', ARGV[3], 'balance_micros', ARGV[4], 'created_at', ARGV[5])
redis.call('ZADD', KEYS[3], seq, ARGV[1])
if ARGV[4] ~= '0' then redis.call('RPUSH', KEYS[5], ARGV[6] .. ',"balance_after":' .. ARGV[4] .. '}') end
return 1
`;

const ADD_CREDIT = `
-- KEYS: acct, ledger  ARGV: amount, ledger entry prefix
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HINCRBY', KEYS[1], 'balance_micros', ARGV[1])
local bal = redis.call('HGET', KEYS[1], 'balance_micros')
redis.call('RPUSH', KEYS[2], ARGV[2] .. ',"balance_after":' .. bal .. '}')
return redis.call('HGETALL', KEYS[1])
`;

const SET_SUBSCRIPTION = `
-- KEYS: acct  ARGV: 0/1
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSET', KEYS[1], 'subscription', ARGV[1])
return redis.call('HGETALL', KEYS[1])
`;

const CREATE_KEY = `
-- KEYS: acct, key-hashes, key, keys, acct-keys, seq
-- ARGV: id, hash, account_id, name, prefix, capabilities, rate, created_at
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[1]) == 0 then return 0 end
local seq = redis.call('INCR', KEYS[6])
redis.call('HSET', KEYS[3], 'id', ARGV[1], 'account_id', ARGV[3], 'name', ARGV[4], 'key_hash', ARGV[2], 'prefix', ARGV[5],
  'capabilities', ARGV[6], 'rate_limit_per_minute', ARGV[7], 'created_at', ARGV[8], 'revoked_at', '', 'last_used_at', '')
redis.call('ZADD', KEYS[4], seq, ARGV[1])
redis.call('ZADD', KEYS[5], seq, ARGV[1])
return 1
`;

const REVOKE_KEY = `
-- KEYS: key  ARGV: now
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local r = redis.call('HGET', KEYS[1], 'revoked_at')
if not r or r == '' then redis.call('HSET', KEYS[1], 'revoked_at', ARGV[1]) end
return redis.call('HGETALL', KEYS[1])
`;

const AUTHENTICATE = `
-- One round trip for the hot path. KEYS: key-hashes  ARGV: hash, key prefix ("P key:"), account prefix ("P acct:")
-- (single Redis server: the key and account hashes are named from the index, not declared in KEYS)
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return false end
local key = redis.call('HGETALL', ARGV[2] .. id)
local acct = {}
for i = 1, #key, 2 do
  if key[i] == 'account_id' then acct = redis.call('HGETALL', ARGV[3] .. key[i + 1]) end
end
return {key, acct}
`;

const TOUCH_KEY = `
-- KEYS: key  ARGV: now
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'last_used_at', ARGV[1]) end
return 1
`;

const DEBITS = `
-- A batch of debits, applied in order; each is checked as if alone against what the ones before it
-- left (balances, usage and references are read once per batch and tracked in Lua tables; the writes
-- are made once per account, usage hash and class at the end).
-- KEYS: the batch's distinct keys. ARGV[1]: at (ISO). Per debit from ARGV[2], 10 each: acct, usage,
-- refs, ledger (indexes into KEYS), units, amount, quota ('' = none), class, reference ('' = none), period.
-- Ledger: one entry per account, period and class for the batch (units and amounts summed, the
-- balance_after values chained from the balance before the batch), and an entry of its own for
-- every debit with a reference; zero-priced debits without a reference write no entry.
-- Reply per debit: status (1 ok, 0 refused, -1 unknown account), balance, reason ('' when ok).
local at = ARGV[1]
local out = {}
local bal, start, accts = {}, {}, {}
local used, usedOrder = {}, {}
local refsSeen = {}
local order, entries = {}, {}
for i = 0, (#ARGV - 1) / 10 - 1 do
  local a = 1 + i * 10
  local acct, usage, refs, ledger = KEYS[tonumber(ARGV[a + 1])], KEYS[tonumber(ARGV[a + 2])], KEYS[tonumber(ARGV[a + 3])], KEYS[tonumber(ARGV[a + 4])]
  local units, amount, quota, class, ref, period = tonumber(ARGV[a + 5]), tonumber(ARGV[a + 6]), ARGV[a + 7], ARGV[a + 8], ARGV[a + 9], ARGV[a + 10]
  local b = bal[acct]
  if b == nil then
    local v = redis.call('HGET', acct, 'balance_micros')
    b = v and tonumber(v) or false
    bal[acct] = b
    if b then
      start[acct] = b
      accts[#accts + 1] = acct
    end
  end
  local status, reason = 1, ''
  if not b then
    status = -1
  elseif ref ~= '' and (refsSeen[refs .. '|' .. ref] or redis.call('HEXISTS', refs, ref) == 1) then
    status = 1
  elseif b < amount then
    status, reason = 0, 'insufficient_credit'
  else
    local uk = usage .. '|' .. class
    local u = used[uk]
    if not u then
      u = {usage = usage, class = class, units = 0, micros = 0}
      used[uk] = u
      usedOrder[#usedOrder + 1] = u
    end
    if quota ~= '' and not u.before then u.before = tonumber(redis.call('HGET', usage, class .. ':units') or '0') end
    if quota ~= '' and u.before + u.units + units > tonumber(quota) then
      status, reason = 0, 'usage_limit_exceeded'
    else
      u.units, u.micros, u.touched = u.units + units, u.micros + amount, true
      b = b - amount
      bal[acct] = b
      if amount ~= 0 or ref ~= '' then
        if ref ~= '' then refsSeen[refs .. '|' .. ref] = true end
        local key = acct .. '|' .. period .. '|' .. class
        if ref ~= '' then key = key .. '|ref|' .. ref end
        local e = entries[key]
        if e then
          e.units, e.amount = e.units + units, e.amount + amount
        else
          entries[key] = {acct = acct, ledger = ledger, refs = refs, ref = ref, class = class, period = period, units = units, amount = amount}
          order[#order + 1] = key
        end
      end
    end
  end
  out[#out + 1] = status
  out[#out + 1] = b and string.format('%d', b) or '0'
  out[#out + 1] = reason
end
for _, acct in ipairs(accts) do
  if bal[acct] ~= start[acct] then redis.call('HINCRBY', acct, 'balance_micros', string.format('%d', bal[acct] - start[acct])) end
end
for _, u in ipairs(usedOrder) do
  if u.touched then
    redis.call('HINCRBY', u.usage, u.class .. ':units', string.format('%d', u.units))
    redis.call('HINCRBY', u.usage, u.class .. ':micros', string.format('%d', u.micros))
  end
end
local running = start
for _, key in ipairs(order) do
  local e = entries[key]
  running[e.acct] = running[e.acct] - e.amount
  local entry = '{"kind":"debit","amount_micros":' .. string.format('%d', -e.amount) .. ',"usage_class":' .. cjson.encode(e.class)
    .. ',"units":' .. string.format('%d', e.units) .. ',"period":' .. cjson.encode(e.period)
    .. ',"reference":' .. (e.ref == '' and 'null' or cjson.encode(e.ref)) .. ',"at":' .. cjson.encode(at)
    .. ',"balance_after":' .. string.format('%d', running[e.acct]) .. '}'
  local n = redis.call('RPUSH', e.ledger, entry)
  if e.ref ~= '' then redis.call('HSET', e.refs, e.ref, n) end
end
return out
`;

const COUNT_REQUEST = `
-- KEYS: acct, reqs  ARGV: period
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
`;

const toAccount = (h: Record<string, string>): Account | null =>
  h.id
    ? {
        id: h.id,
        name: h.name ?? '',
        subscription: h.subscription === '1',
        balance_micros: Number(h.balance_micros ?? 0),
        created_at: h.created_at ?? '',
      }
    : null;

const toKey = (h: Record<string, string>): ApiKeyInfo | null =>
  h.id
    ? {
        id: h.id,
        account_id: h.account_id ?? '',
        name: h.name ?? '',
        capabilities: parseCapabilities(h.capabilities ?? '[]'),
        rate_limit_per_minute: Number(h.rate_limit_per_minute ?? 0),
        prefix: h.prefix ?? '',
        created_at: h.created_at ?? '',
        revoked_at: h.revoked_at || null,
        last_used_at: h.last_used_at || null,
      }
    : null;

/** Names of the store's Redis keys under prefix `P` (see the header); also used by the Redis gate. */
export function redisAccountKeys(P: string) {
  return {
    acct: (id: string) => `${P}acct:${id}`,
    names: `${P}acct-names`,
    accts: `${P}accts`,
    seq: `${P}seq`,
    key: (id: string) => `${P}key:${id}`,
    keyHashes: `${P}key-hashes`,
    keys: `${P}keys`,
    acctKeys: (acc: string) => `${P}acct-keys:${acc}`,
    usage: (acc: string, period: string) => `${P}usage:${acc}:${period}`,
    reqs: (acc: string) => `${P}reqs:${acc}`,
    ledger: (acc: string) => `${P}ledger:${acc}`,
    refs: (acc: string) => `${P}refs:${acc}`,
  };
}

/** The opening of a ledger entry's JSON; the script appends the balance after it and the closing brace. */
function ledgerEntry(fields: Record<string, string | number | null>): string {
  const json = JSON.stringify({ ...fields, at: new Date().toISOString() });
  return json.slice(0, -1);
}

export interface RedisConnectionOptions {
  url: string;
  /** A connection to use instead of opening one (it is closed by close() only when `ownsConnection`). */
  connection?: Redis;
  ownsConnection?: boolean;
}

export function createRedisAccountStore(opts: RedisConnectionOptions & { pepper: Buffer; prefix?: string }): AccountStore {
  const pepper = checkPepper(opts.pepper);
  const P = checkPrefix(opts.prefix ?? 'partsearch:');
  const redis = opts.connection ?? connectRedis(opts.url);
  const ownsConnection = opts.ownsConnection ?? opts.connection === undefined;

  const k = redisAccountKeys(P);

  const s = {
    createAccount: defineScript(redis, 'psCreateAccount', 5, CREATE_ACCOUNT),
    addCredit: defineScript(redis, 'psAddCredit', 2, ADD_CREDIT),
    setSubscription: defineScript(redis, 'psSetSubscription', 1, SET_SUBSCRIPTION),
    createKey: defineScript(redis, 'psCreateKey', 6, CREATE_KEY),
    revokeKey: defineScript(redis, 'psRevokeKey', 1, REVOKE_KEY),
    touchKey: defineScript(redis, 'psTouchKey', 1, TOUCH_KEY),
    authenticate: defineScript(redis, 'psAuthenticate', 1, AUTHENTICATE),
    debits: defineScript(redis, 'psDebits', null, DEBITS),
    countRequest: defineScript(redis, 'psCountRequest', 2, COUNT_REQUEST),
  };

  /**
   * Debits are group-committed: those requested during one turn of the event loop go to Redis as
   * one script call (later ones wait while it is unfinished, then go together), applied in arrival
   * order, each checked as if alone.
   */
  const debits = createTurnBatcher<CheckedDebit, DebitResult>(async (batch) => {
    const keys = keyTable();
    const args: string[] = [new Date().toISOString()];
    for (const d of batch) {
      args.push(keys.index(k.acct(d.account_id)), keys.index(k.usage(d.account_id, d.period)), keys.index(k.refs(d.account_id)), keys.index(k.ledger(d.account_id)));
      args.push(String(d.units), String(d.amount_micros), d.quota === null ? '' : String(d.quota), d.usage_class, d.reference ?? '', d.period);
    }
    const reply = await s.debits(keys.list.length, ...keys.list, ...args);
    if (!Array.isArray(reply) || reply.length !== batch.length * 3) throw new Error('accounts: unexpected reply from the debit script');
    return batch.map((d, i): DebitResult | Error => {
      const status = Number(reply[i * 3]);
      const balance = Number(reply[i * 3 + 1]);
      if (status === -1) return new UnknownAccountError(d.account_id);
      if (status === 1) return { ok: true, balance_micros: balance };
      return { ok: false, reason: reply[i * 3 + 2] === 'usage_limit_exceeded' ? 'usage_limit_exceeded' : 'insufficient_credit', balance_micros: balance };
    });
  }, { maxInFlight: 1 });

  const getAccount = async (id: string): Promise<Account | null> => toAccount(await redis.hgetall(k.acct(id)));

  const many = async <T>(ids: string[], key: (id: string) => string, conv: (h: Record<string, string>) => T | null): Promise<T[]> => {
    if (ids.length === 0) return [];
    const pipe = redis.pipeline();
    for (const id of ids) pipe.hgetall(key(id));
    const out: T[] = [];
    for (const [err, h] of (await pipe.exec()) ?? []) {
      if (err) throw err;
      const v = conv(h as Record<string, string>);
      if (v) out.push(v);
    }
    return out;
  };

  return {
    async createAccount(input) {
      const name = checkText('name', input.name);
      const balance = input.credit_micros === undefined ? DEFAULT_CREDIT_MICROS : checkMicros('credit_micros', input.credit_micros);
      const account: Account = { id: newAccountId(), name, subscription: !!input.subscription, balance_micros: balance, created_at: new Date().toISOString() };
      const entry = ledgerEntry({ kind: 'credit', amount_micros: balance, reference: 'initial credit' });
      const r = await s.createAccount(
        k.acct(account.id), k.names, k.accts, k.seq, k.ledger(account.id),
        account.id, name, account.subscription ? '1' : '0', String(balance), account.created_at, entry,
      );
      if (Number(r) !== 1) throw new DuplicateAccountNameError(name);
      return account;
    },

    getAccount,

    async findAccount(idOrName) {
      const byId = await getAccount(idOrName);
      if (byId) return byId;
      const id = await redis.hget(k.names, idOrName);
      return id ? getAccount(id) : null;
    },

    async listAccounts() {
      return many(await redis.zrange(k.accts, 0, -1), k.acct, toAccount);
    },

    async addCredit(accountId, micros) {
      const amount = checkMicros('credit', micros, 1);
      const r = await s.addCredit(k.acct(accountId), k.ledger(accountId), String(amount), ledgerEntry({ kind: 'credit', amount_micros: amount }));
      const account = toAccount(pairsToRecord(r));
      if (!account) throw new UnknownAccountError(accountId);
      return account;
    },

    async setSubscription(accountId, on) {
      const account = toAccount(pairsToRecord(await s.setSubscription(k.acct(accountId), on ? '1' : '0')));
      if (!account) throw new UnknownAccountError(accountId);
      return account;
    },

    async createKey(input): Promise<CreatedKey> {
      const capabilities: Capability[] = checkCapabilities(input.capabilities);
      const rate = checkCount('rate_limit_per_minute', input.rate_limit_per_minute, 1);
      const name = checkText('key name', input.name);
      const accountId = checkText('account_id', input.account_id);
      for (let attempt = 0; attempt < 3; attempt++) {
        const secret = generateKeySecret();
        const key: ApiKeyInfo = {
          id: newKeyId(),
          account_id: accountId,
          name,
          capabilities,
          rate_limit_per_minute: rate,
          prefix: displayPrefix(secret),
          created_at: new Date().toISOString(),
          revoked_at: null,
          last_used_at: null,
        };
        const r = Number(
          await s.createKey(
            k.acct(accountId), k.keyHashes, k.key(key.id), k.keys, k.acctKeys(accountId), k.seq,
            key.id, hashKey(secret, pepper), accountId, name, key.prefix, JSON.stringify(capabilities), String(rate), key.created_at,
          ),
        );
        if (r === -1) throw new UnknownAccountError(accountId);
        if (r === 1) return { key, secret };
        // r === 0: a hash collision (practically impossible with 256 random bits); draw another secret.
      }
      throw new Error('accounts: could not create a unique key');
    },

    async listKeys(accountId) {
      const ids = await redis.zrange(accountId === undefined ? k.keys : k.acctKeys(accountId), 0, -1);
      return many(ids, k.key, toKey);
    },

    async revokeKey(keyId) {
      return toKey(pairsToRecord(await s.revokeKey(k.key(keyId), new Date().toISOString())));
    },

    keyHash(secret) {
      return looksLikeKey(secret) ? hashKey(secret, pepper) : null;
    },

    async authenticate(secret, keyHash) {
      if (!looksLikeKey(secret)) return null;
      const hash = keyHash ?? hashKey(secret, pepper);
      const r = await s.authenticate(k.keyHashes, hash, k.key(''), k.acct(''));
      if (!Array.isArray(r)) return null;
      const h = pairsToRecord(r[0]);
      const key = toKey(h);
      if (!key || !hashesEqual(h.key_hash ?? '', hash) || key.revoked_at !== null) return null;
      const account = toAccount(pairsToRecord(r[1]));
      if (!account) return null;
      const now = Date.now();
      if (needsLastUsedUpdate(key.last_used_at, now)) {
        key.last_used_at = new Date(now).toISOString();
        await s.touchKey(k.key(key.id), key.last_used_at);
      }
      return { key, account };
    },

    async debit(req): Promise<DebitResult> {
      return debits.add(checkDebit(req));
    },

    async usage(accountId, period): Promise<UsageSummary> {
      const summary = emptyUsage(period);
      const h = await redis.hgetall(k.usage(accountId, period));
      for (const c of USAGE_CLASSES) summary.by_class[c] = { units: Number(h[`${c}:units`] ?? 0), amount_micros: Number(h[`${c}:micros`] ?? 0) };
      return summary;
    },

    async countRequest(accountId, period) {
      const n = Number(await s.countRequest(k.acct(accountId), k.reqs(accountId), checkText('period', period)));
      if (n < 0) throw new UnknownAccountError(accountId);
      return n;
    },

    async close() {
      debits.flush(); // sent before QUIT, so pending debits complete
      if (ownsConnection) await quitRedis(redis);
    },
  };
}
