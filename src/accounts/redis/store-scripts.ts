/**
 * The Lua scripts of the Redis account store (redis-store.ts), one per operation that reads and then
 * writes, so that Redis runs each atomically. Key layout: the header of redis-store.ts.
 */

export const CREATE_ACCOUNT = `
-- KEYS: acct, names, accts, seq, ledger  ARGV: id, name, subscription, balance, created_at, ledger entry prefix
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[1]) == 0 then return 0 end
local seq = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'name', ARGV[2], 'subscription', ARGV[3], 'balance_micros', ARGV[4], 'created_at', ARGV[5])
redis.call('ZADD', KEYS[3], seq, ARGV[1])
if ARGV[4] ~= '0' then redis.call('RPUSH', KEYS[5], ARGV[6] .. ',"balance_after":' .. ARGV[4] .. '}') end
return 1
`;

export const ADD_CREDIT = `
-- KEYS: acct, ledger  ARGV: amount, ledger entry prefix
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HINCRBY', KEYS[1], 'balance_micros', ARGV[1])
local bal = redis.call('HGET', KEYS[1], 'balance_micros')
redis.call('RPUSH', KEYS[2], ARGV[2] .. ',"balance_after":' .. bal .. '}')
return redis.call('HGETALL', KEYS[1])
`;

export const SET_SUBSCRIPTION = `
-- KEYS: acct  ARGV: 0/1
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSET', KEYS[1], 'subscription', ARGV[1])
return redis.call('HGETALL', KEYS[1])
`;

export const CREATE_KEY = `
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

export const REVOKE_KEY = `
-- KEYS: key  ARGV: now
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local r = redis.call('HGET', KEYS[1], 'revoked_at')
if not r or r == '' then redis.call('HSET', KEYS[1], 'revoked_at', ARGV[1]) end
return redis.call('HGETALL', KEYS[1])
`;

export const AUTHENTICATE = `
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

export const TOUCH_KEY = `
-- KEYS: key  ARGV: now
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'last_used_at', ARGV[1]) end
return 1
`;

/**
 * Lua: debits applied in order, each checked as if alone against what the ones before it left
 * (balances, usage and references are read once per script and tracked in Lua tables; the writes are
 * made once per account, usage hash and class at the end, by `debits_close`). Ledger: one entry per
 * account, period and class for the script call (units and amounts summed, the balance_after values
 * chained from the balance before it, refunds first), one more for the refunds among them (so that a refund is never
 * netted into the charges, nor a refund and a charge into a zero entry), and an entry of its own for
 * every debit with a reference;
 * zero-priced debits without a reference write no entry. A refund is a debit of negative units and
 * amount. Used by DEBITS and by the gate's admission script, which charges a paid request as it admits
 * it (src/accounts/redis/gate.ts).
 *
 * `debit_apply(acct, usage, refs, ledger, units, amount, quota, class, ref, period)` (keys as names;
 * quota and ref '' for none) returns status (1 ok, 0 refused, -1 unknown account), the balance after
 * (false when unknown) and the reason ('' when ok).
 */
export const DEBIT_LUA = `
local dBal, dStart, dAccts = {}, {}, {}
local dUsed, dUsedOrder = {}, {}
local dRefsSeen = {}
local dOrder, dEntries = {}, {}
-- The account's balance as the debits so far left it (false: unknown account).
local function debit_balance(acct)
  local b = dBal[acct]
  if b == nil then
    local v = redis.call('HGET', acct, 'balance_micros')
    b = v and tonumber(v) or false
    dBal[acct] = b
    if b then
      dStart[acct] = b
      dAccts[#dAccts + 1] = acct
    end
  end
  return b
end
local function debit_apply(acct, usage, refs, ledger, units, amount, quota, class, ref, period)
  local b = debit_balance(acct)
  if not b then return -1, false, '' end
  if ref ~= '' and (dRefsSeen[refs .. '|' .. ref] or redis.call('HEXISTS', refs, ref) == 1) then return 1, b, '' end
  if b < amount then return 0, b, 'insufficient_credit' end
  local uk = usage .. '|' .. class
  local u = dUsed[uk]
  if not u then
    u = {usage = usage, class = class, units = 0, micros = 0}
    dUsed[uk] = u
    dUsedOrder[#dUsedOrder + 1] = u
  end
  if quota ~= '' and not u.before then u.before = tonumber(redis.call('HGET', usage, class .. ':units') or '0') end
  if quota ~= '' and u.before + u.units + units > tonumber(quota) then return 0, b, 'usage_limit_exceeded' end
  u.units, u.micros, u.touched = u.units + units, u.micros + amount, true
  b = b - amount
  dBal[acct] = b
  if amount ~= 0 or ref ~= '' then
    if ref ~= '' then dRefsSeen[refs .. '|' .. ref] = true end
    local key = acct .. '|' .. period .. '|' .. class
    if ref ~= '' then key = key .. '|ref|' .. ref elseif amount < 0 then key = key .. '|refund' end
    local e = dEntries[key]
    if e then
      e.units, e.amount = e.units + units, e.amount + amount
    else
      dEntries[key] = {acct = acct, ledger = ledger, refs = refs, ref = ref, class = class, period = period, units = units, amount = amount}
      dOrder[#dOrder + 1] = key
    end
  end
  return 1, b, ''
end
local function debits_close(at)
  for _, acct in ipairs(dAccts) do
    if dBal[acct] ~= dStart[acct] then redis.call('HINCRBY', acct, 'balance_micros', string.format('%d', dBal[acct] - dStart[acct])) end
  end
  for _, u in ipairs(dUsedOrder) do
    if u.touched then
      redis.call('HINCRBY', u.usage, u.class .. ':units', string.format('%d', u.units))
      redis.call('HINCRBY', u.usage, u.class .. ':micros', string.format('%d', u.micros))
    end
  end
  local running = dStart
  -- Refunds first, so that no balance_after falls below the final balance (see accounts/sqlite/debits.ts).
  for pass = 1, 2 do
    for _, key in ipairs(dOrder) do
      local e = dEntries[key]
      if (e.amount < 0) == (pass == 1) then
        running[e.acct] = running[e.acct] - e.amount
        local entry = '{"kind":"debit","amount_micros":' .. string.format('%d', -e.amount) .. ',"usage_class":' .. cjson.encode(e.class)
          .. ',"units":' .. string.format('%d', e.units) .. ',"period":' .. cjson.encode(e.period)
          .. ',"reference":' .. (e.ref == '' and 'null' or cjson.encode(e.ref)) .. ',"at":' .. cjson.encode(at)
          .. ',"balance_after":' .. string.format('%d', running[e.acct]) .. '}'
        local n = redis.call('RPUSH', e.ledger, entry)
        if e.ref ~= '' then redis.call('HSET', e.refs, e.ref, n) end
      end
    end
  end
end
`;

export const DEBITS = `
-- A batch of debits, applied in order (DEBIT_LUA).
-- KEYS: the batch's distinct keys. ARGV[1]: at (ISO). Per debit from ARGV[2], 10 each: acct, usage,
-- refs, ledger (indexes into KEYS), units, amount, quota ('' = none), class, reference ('' = none), period.
-- Reply per debit: status (1 ok, 0 refused, -1 unknown account), balance, reason ('' when ok).
${DEBIT_LUA}
local out = {}
for i = 0, (#ARGV - 1) / 10 - 1 do
  local a = 1 + i * 10
  local status, b, reason = debit_apply(KEYS[tonumber(ARGV[a + 1])], KEYS[tonumber(ARGV[a + 2])], KEYS[tonumber(ARGV[a + 3])], KEYS[tonumber(ARGV[a + 4])],
    tonumber(ARGV[a + 5]), tonumber(ARGV[a + 6]), ARGV[a + 7], ARGV[a + 8], ARGV[a + 9], ARGV[a + 10])
  out[#out + 1] = status
  out[#out + 1] = b and string.format('%d', b) or '0'
  out[#out + 1] = reason
end
debits_close(ARGV[1])
return out
`;

export const COUNT_REQUEST = `
-- KEYS: acct, reqs  ARGV: period
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
`;
