/**
 * Sliding-window LOG throttle in Redis, shared by every API process: per bucket a sorted set of the
 * admitted requests by time (the requests one script call admitted share a member holding their
 * count: WINDOWS_LUA) and their number. One Lua script per hit (or per batch of admissions) trims the
 * entries that left the window, counts, adds the admitted requests, refreshes the expiry and returns
 * count and oldest, so concurrent hits from any number of connections are exact. Time is the
 * Redis server's clock (TIME), one clock for all processes, unless the caller passes `nowMs`.
 * Same semantics as the memory throttle (refused requests are not logged).
 */
import { randomBytes } from 'node:crypto';
import type { Throttle, ThrottleDecision } from '../port.ts';
import { checkPrefix, defineScript, useConnection, type RedisConnectionOptions } from '../../redis/connection.ts';
import { checkThrottleArgs, throttleDecision } from '../throttle-math.ts';

/** Lua: `clock(arg)` is `arg` as a number, or the Redis server's time in ms when `arg` is ''. */
export const CLOCK_LUA = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local function clock(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * Lua: the sliding windows of one batch of hits at the time `now` (a local the script defines first;
 * `nowS` is its string form). A window is a sorted set of the admitted requests by time, where the
 * requests one script admitted to a bucket (all at its `now`) are one member "<count>:<unique>", and
 * beside it (key .. '#n') the number of requests the set holds: a batch of 30 admissions adds one
 * member, not 30, and the set holds a member per batch rather than per request (at 4,000 requests/s a
 * minute's window was 240,000 members). Still exact: every admitted request is in the count until its
 * member leaves the window, and the oldest member is the oldest counted request.
 *
 * `window_open(key, window)` trims a bucket's window (subtracting the counts of the members that
 * left) and reads it once; `window_hit(b, limit, member)` decides one hit as if alone (admitted when
 * fewer than `limit` are in the window; returns 1/0); `window_oldest(b)` is the oldest counted request
 * (now when none); `windows_close()` writes each bucket that took hits: its member, its count and the
 * expiries. Used by HIT (a batch of one) and by the gate's admission script (src/accounts/redis/gate.ts).
 */
export const WINDOWS_LUA = `
local nowS = string.format('%.17g', now)
local windows, windowOrder = {}, {}
local function window_flush(b)
  if b.added > 0 then
    local nkey = b.key .. '#n'
    redis.call('ZADD', b.key, nowS, b.added .. ':' .. b.member)
    redis.call('SET', nkey, b.count)
    local newest = now
    local last = redis.call('ZRANGE', b.key, -1, -1, 'WITHSCORES')
    if last[2] then newest = math.max(now, tonumber(last[2])) end
    local ttl = math.ceil(b.window + math.max(0, newest - now))
    redis.call('PEXPIRE', b.key, ttl)
    redis.call('PEXPIRE', nkey, ttl)
    b.added, b.member = 0, nil
  end
end
local function window_open(key, window)
  local b = windows[key]
  if b and b.window == window then return b end
  if b then window_flush(b) else windowOrder[#windowOrder + 1] = key end
  local nkey = key .. '#n'
  local cutoff = string.format('%.17g', now - window)
  local count = tonumber(redis.call('GET', nkey) or '-1')
  if count < 0 then
    -- No count beside the set (a set written before the count existed): the members' own counts.
    count = 0
    for _, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do count = count + (tonumber(string.match(m, '^(%d+):')) or 1) end
  end
  local gone = redis.call('ZRANGEBYSCORE', key, '-inf', cutoff)
  if #gone > 0 then
    for _, m in ipairs(gone) do count = count - (tonumber(string.match(m, '^(%d+):')) or 0) end
    redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
  end
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  -- An empty set counts nothing (its count key may have outlived it).
  if not first[2] or count < 0 then count = 0 end
  if #gone > 0 then redis.call('SET', nkey, count, 'KEEPTTL') end
  b = {key = key, window = window, count = count, added = 0}
  if first[2] then b.oldest = tonumber(first[2]) end
  windows[key] = b
  return b
end
local function window_hit(b, limit, member)
  if b.count >= limit then return 0 end
  b.count = b.count + 1
  b.added = b.added + 1
  if not b.member then b.member = member end
  if not b.oldest or now < b.oldest then b.oldest = now end
  return 1
end
local function window_oldest(b)
  local o = b.oldest or now
  if b.oS ~= o then b.oS, b.oF = o, string.format('%.17g', o) end
  return b.oF
end
local function windows_close()
  for _, key in ipairs(windowOrder) do window_flush(windows[key]) end
end
`;

const HIT = `
-- KEYS: bucket  ARGV: limit, windowMs, nowMs ('' = server clock), member
${CLOCK_LUA}
local now = clock(ARGV[3])
${WINDOWS_LUA}
local b = window_open(KEYS[1], tonumber(ARGV[2]))
local allowed = window_hit(b, tonumber(ARGV[1]), ARGV[4])
windows_close()
return {allowed, b.count, window_oldest(b), nowS}
`;

const PEEK = `
-- KEYS: bucket  ARGV: limit, windowMs, nowMs ('' = server clock). The HIT a request would get, unwritten.
${CLOCK_LUA}
local now = clock(ARGV[3])
${WINDOWS_LUA}
local b = window_open(KEYS[1], tonumber(ARGV[2]))
local allowed = 0
local count = b.count
if count < tonumber(ARGV[1]) then
  allowed, count = 1, count + 1
end
return {allowed, count, window_oldest(b), nowS}
`;

/** Redis key of a throttle bucket. */
// rlw: windows of counted members (WINDOWS_LUA); the per-request sets of earlier versions were rl:.
export const throttleKey = (prefix: string, bucket: string): string => `${prefix}rlw:${bucket}`;

/** Unique members for the sliding-window sets of one process. */
export function memberSequence(): () => string {
  const instance = randomBytes(6).toString('hex');
  let seq = 0;
  return () => {
    seq = (seq + 1) % Number.MAX_SAFE_INTEGER;
    return `${instance}:${seq}`;
  };
}

/** Decodes the {allowed, count, oldest, now} of a throttle reply starting at `at`. */
export function decodeThrottleReply(r: unknown, limit: number, windowMs: number, at = 0): ThrottleDecision {
  if (!Array.isArray(r) || r.length < at + 4) throw new Error('throttle: unexpected reply from the throttle script');
  return throttleDecision(Number(r[at]) === 1, limit, Number(r[at + 1]), Number(r[at + 2]), Number(r[at + 3]), windowMs);
}

export function createRedisThrottle(opts: RedisConnectionOptions & { prefix?: string }): Throttle {
  const prefix = checkPrefix(opts.prefix ?? 'partsearch:');
  const { redis, release } = useConnection(opts);
  const hit = defineScript(redis, 'psThrottleHit', 1, HIT);
  const peek = defineScript(redis, 'psThrottlePeek', 1, PEEK);
  const nextMember = memberSequence();

  return {
    async hit(bucket, limit, windowMs, nowMs) {
      checkThrottleArgs(bucket, limit, windowMs, nowMs);
      const r = await hit(throttleKey(prefix, bucket), String(limit), String(windowMs), nowMs === undefined ? '' : String(nowMs), nextMember());
      return decodeThrottleReply(r, limit, windowMs);
    },
    async peek(bucket, limit, windowMs, nowMs) {
      checkThrottleArgs(bucket, limit, windowMs, nowMs);
      const r = await peek(throttleKey(prefix, bucket), String(limit), String(windowMs), nowMs === undefined ? '' : String(nowMs));
      return decodeThrottleReply(r, limit, windowMs);
    },
    async close() {
      await release();
    },
  };
}
