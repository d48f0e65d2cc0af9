/**
 * Sliding-window LOG throttle in Redis, shared by every API process: per bucket a sorted set of the
 * admitted requests (score = time in ms, member unique). One Lua script per hit trims the entries
 * that left the window, counts, adds this request only when it is admitted, refreshes the expiry and
 * returns count and oldest, so concurrent hits from any number of connections are exact. Time is the
 * Redis server's clock (TIME), one clock for all processes, unless the caller passes `nowMs`.
 * Same semantics as the memory throttle (refused requests are not logged).
 */
import { randomBytes } from 'node:crypto';
import type { Throttle, ThrottleDecision } from './port.ts';
import { checkPrefix, defineScript, useConnection, type RedisConnectionOptions } from './redis-util.ts';
import { checkThrottleArgs, throttleDecision } from './throttle-math.ts';

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
 * `nowS` is its string form). `window_open(key, window)` trims a bucket's window and reads it once;
 * `window_hit(b, limit, member)` decides one hit as if alone (admitted when fewer than `limit` are in
 * the window; returns 1/0); `window_oldest(b)` is the oldest counted request (now when none);
 * `windows_close()` writes the admitted entries and the expiries, once per bucket (the newest entry is
 * read only for a bucket that took one, so refused hits cost no more than the trim and the reads). Used by HIT (a batch
 * of one) and by the gate's admission script (src/accounts/redis-gate.ts).
 */
export const WINDOWS_LUA = `
local nowS = string.format('%.17g', now)
local windows, windowOrder = {}, {}
local function window_flush(b)
  if #b.add > 0 then
    redis.call('ZADD', b.key, unpack(b.add))
    local newest = now
    local last = redis.call('ZRANGE', b.key, -1, -1, 'WITHSCORES')
    if last[2] then newest = math.max(now, tonumber(last[2])) end
    redis.call('PEXPIRE', b.key, math.ceil(b.window + math.max(0, newest - now)))
    b.add = {}
  end
end
local function window_open(key, window)
  local b = windows[key]
  if b and b.window == window then return b end
  if b then window_flush(b) else windowOrder[#windowOrder + 1] = key end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%.17g', now - window))
  b = {key = key, window = window, count = redis.call('ZCARD', key), add = {}}
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if first[2] then b.oldest = tonumber(first[2]) end
  windows[key] = b
  return b
end
local function window_hit(b, limit, member)
  if b.count >= limit then return 0 end
  b.count = b.count + 1
  b.add[#b.add + 1] = nowS
  b.add[#b.add + 1] = member
  if not b.oldest or now < b.oldest then b.oldest = now end
  return 1
end
local function window_oldest(b)
  return string.format('%.17g', b.oldest or now)
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

/** Redis key of a throttle bucket. */
export const throttleKey = (prefix: string, bucket: string): string => `${prefix}rl:${bucket}`;

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
  const nextMember = memberSequence();

  return {
    async hit(bucket, limit, windowMs, nowMs) {
      checkThrottleArgs(bucket, limit, windowMs, nowMs);
      const r = await hit(throttleKey(prefix, bucket), String(limit), String(windowMs), nowMs === undefined ? '' : String(nowMs), nextMember());
      return decodeThrottleReply(r, limit, windowMs);
    },
    async close() {
      await release();
    },
  };
}
