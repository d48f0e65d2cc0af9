/**
 * The Lua scripts of the Redis job store (redis-store.ts), one per operation that reads and then
 * writes, so that Redis runs each atomically. Key layout: the header of redis-store.ts. Times are
 * the server's (TIME, in ms), so that every process sharing the store agrees on them and on the
 * keys' PEXPIREAT. A job's hash holds each JobRecord field as JSON (status as '"queued"', ...), so
 * status and type are compared with JSON-encoded arguments.
 */

/** Shared prelude: the server's time in ms. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

export const CREATE = `
-- KEYS: job, account's jobs, queue, seq
-- ARGV: job id, created_ms, retention ms, then field, JSON value pairs
-- Returns 1 (stored and queued), 0 (already past retention: nothing written), -1 (the id exists).
${NOW}
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local created = tonumber(ARGV[2])
local retention = tonumber(ARGV[3])
if created + retention <= now then return 0 end
local seq = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], '_seq', seq, unpack(ARGV, 4))
redis.call('PEXPIREAT', KEYS[1], created + retention)
redis.call('ZADD', KEYS[2], created, string.format('%016d', seq) .. ':' .. ARGV[1])
-- The listing lives as long as its newest job.
local top = redis.call('ZREVRANGE', KEYS[2], 0, 0, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[2], tonumber(top[2]) + retention)
redis.call('LPUSH', KEYS[3], ARGV[1])
return 1
`;

export const ADVANCE = `
-- KEYS: job, job's events
-- ARGV: channel, n from, from statuses (JSON)..., n patch, field, JSON value pairs..., event bodies...
-- An event body is the JSON of {event, data}; the script numbers it by writing {"id":n, ...}.
-- Returns the job's hash after the transition, or false (unknown job, or status not in from).
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
local i = 2
local nfrom = tonumber(ARGV[i])
if nfrom > 0 then
  local ok = false
  for j = i + 1, i + nfrom do
    if ARGV[j] == status then ok = true end
  end
  if not ok then return false end
end
i = i + nfrom + 1
local npatch = tonumber(ARGV[i])
if npatch > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, i + 1, i + 2 * npatch)) end
i = i + 2 * npatch + 1
local n = redis.call('LLEN', KEYS[2])
if i <= #ARGV then
  for j = i, #ARGV do
    n = n + 1
    redis.call('RPUSH', KEYS[2], '{"id":' .. n .. ',' .. string.sub(ARGV[j], 2))
  end
  -- The events go when the job goes (time stands still within a script).
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
end
redis.call('PUBLISH', ARGV[1], n)
return redis.call('HGETALL', KEYS[1])
`;

export const LIST = `
-- KEYS: account's jobs  ARGV: job key prefix ("P job:"), retention ms, cursor job id ('' = from the newest),
-- limit, batch, type (JSON, '' = any), statuses (JSON; none = any)...
-- (single Redis server: the job hashes are named from the listing, not declared in KEYS)
-- Returns -1 for an unknown cursor, else {more (0/1), job hash, job hash, ...}.
${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
local start = 0
if ARGV[3] ~= '' then
  local seq = redis.call('HGET', ARGV[1] .. ARGV[3], '_seq')
  if not seq then return -1 end
  local r = redis.call('ZREVRANK', KEYS[1], string.format('%016d', tonumber(seq)) .. ':' .. ARGV[3])
  if not r then return -1 end
  start = r + 1
end
local limit = tonumber(ARGV[4])
local batch = tonumber(ARGV[5])
local want_type = ARGV[6]
local any_status = #ARGV < 7
local statuses = {}
for j = 7, #ARGV do statuses[ARGV[j]] = true end
local out = {0}
local found = 0
while true do
  local members = redis.call('ZREVRANGE', KEYS[1], start, start + batch - 1)
  for _, m in ipairs(members) do
    local key = ARGV[1] .. string.sub(m, 18)
    local f = redis.call('HMGET', key, 'status', 'type')
    if f[1] and (any_status or statuses[f[1]]) and (want_type == '' or f[2] == want_type) then
      if found == limit then
        out[1] = 1
        return out
      end
      found = found + 1
      out[found + 1] = redis.call('HGETALL', key)
    end
  end
  if #members < batch then return out end
  start = start + batch
end
`;

export const TAKE = `
-- KEYS: queue, taken, leases  Returns the taken job id, or false when the queue is empty.
local id = redis.call('RPOP', KEYS[1])
if not id then return false end
${NOW}
redis.call('ZADD', KEYS[2], now, id)
redis.call('ZREM', KEYS[3], id)
return id
`;

export const UNTAKE = `
-- KEYS: queue, taken, leases  ARGV: job id. Undoes a take whose taker gave up meanwhile (next in line again).
if redis.call('ZREM', KEYS[2], ARGV[1]) == 1 then
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('RPUSH', KEYS[1], ARGV[1])
end
return 1
`;

export const RENEW = `
-- KEYS: taken, leases  ARGV: job id. Only a taken job holds a lease.
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
${NOW}
redis.call('ZADD', KEYS[2], now, ARGV[1])
return 1
`;

export const REQUEUE = `
-- KEYS: queue, taken, leases, job  ARGV: job id
-- Only a taken job that never started goes back (next in line); a gone job is just dropped.
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
local status = redis.call('HGET', KEYS[4], 'status')
if status and status ~= '"queued"' then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if not status then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
return 1
`;

export const ORPHANS = `
-- KEYS: taken, leases  ARGV: job key prefix ("P job:"), stale ms
-- (single Redis server: the job hashes are named from the taken set, not declared in KEYS)
-- Returns {running ids, queued ids}. Taken entries of jobs gone, or ended and stale but never
-- released, are dropped on the way.
${NOW}
local cutoff = now - tonumber(ARGV[2])
local taken = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local running, queued = {}, {}
for j = 1, #taken, 2 do
  local id = taken[j]
  local at = tonumber(taken[j + 1])
  if at < cutoff then
    local status = redis.call('HGET', ARGV[1] .. id, 'status')
    if status == '"queued"' then
      queued[#queued + 1] = id
    elseif status == '"running"' then
      local lease = redis.call('ZSCORE', KEYS[2], id)
      if lease then at = tonumber(lease) end
      if at < cutoff then running[#running + 1] = id end
    else
      redis.call('ZREM', KEYS[1], id)
      redis.call('ZREM', KEYS[2], id)
    end
  end
end
return {running, queued}
`;
