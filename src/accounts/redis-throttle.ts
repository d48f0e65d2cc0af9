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
import { checkPrefix, connectRedis, defineScript, quitRedis } from './redis-util.ts';
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
 * `throttle_step(bucket, limit, window, now, member)` trims the bucket's window, admits the request
 * when fewer than `limit` are in it, and returns allowed (0/1), count, oldest and now. (The gate's
 * admission script, src/accounts/redis-gate.ts, does the same steps for a whole batch at once.)
 */
const THROTTLE_LUA = `
${CLOCK_LUA}
local function throttle_step(bucket, limit, window, now, member)
  redis.call('ZREMRANGEBYSCORE', bucket, '-inf', string.format('%.17g', now - window))
  local count = redis.call('ZCARD', bucket)
  local allowed = 0
  if count < limit then
    redis.call('ZADD', bucket, string.format('%.17g', now), member)
    count = count + 1
    allowed = 1
    local newest = tonumber(redis.call('ZRANGE', bucket, -1, -1, 'WITHSCORES')[2])
    redis.call('PEXPIRE', bucket, math.ceil(window + math.max(0, newest - now)))
  end
  local oldest = now
  local first = redis.call('ZRANGE', bucket, 0, 0, 'WITHSCORES')
  if first[2] then oldest = tonumber(first[2]) end
  return allowed, count, string.format('%.17g', oldest), string.format('%.17g', now)
end
`;

const HIT = `
-- KEYS: bucket  ARGV: limit, windowMs, nowMs ('' = server clock), member
${THROTTLE_LUA}
local allowed, count, oldest, now = throttle_step(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), clock(ARGV[3]), ARGV[4])
return {allowed, count, oldest, now}
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

export function createRedisThrottle(opts: { url: string; prefix?: string }): Throttle {
  const prefix = checkPrefix(opts.prefix ?? 'partsearch:');
  const redis = connectRedis(opts.url);
  const hit = defineScript(redis, 'psThrottleHit', 1, HIT);
  const nextMember = memberSequence();

  return {
    async hit(bucket, limit, windowMs, nowMs) {
      checkThrottleArgs(bucket, limit, windowMs, nowMs);
      const r = await hit(throttleKey(prefix, bucket), String(limit), String(windowMs), nowMs === undefined ? '' : String(nowMs), nextMember());
      return decodeThrottleReply(r, limit, windowMs);
    },
    async close() {
      await quitRedis(redis);
    },
  };
}
