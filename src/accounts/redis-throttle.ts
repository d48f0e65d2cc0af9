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

/**
 * The sliding-window step shared by the throttle's own script and the gate's admission script
 * (src/accounts/redis-gate.ts). Operates on KEYS[1] (the bucket) with ARGV[1..4] = limit, windowMs,
 * nowMs ('' = server clock), member; leaves `allowed` (0/1), `count`, `oldest` and `now` set.
 */
export const THROTTLE_STEP_LUA = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local now
if ARGV[3] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[3])
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.17g', now - window))
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], string.format('%.17g', now), ARGV[4])
  count = count + 1
  allowed = 1
  local newest = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window + math.max(0, newest - now)))
end
local oldest = now
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if first[2] then oldest = tonumber(first[2]) end
`;

const HIT = `
-- KEYS: bucket  ARGV: limit, windowMs, nowMs ('' = server clock), member
${THROTTLE_STEP_LUA}
return {allowed, count, string.format('%.17g', oldest), string.format('%.17g', now)}
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

/** Decodes the {allowed, count, oldest, now} head of a throttle script's reply. */
export function decodeThrottleReply(r: unknown, limit: number, windowMs: number): ThrottleDecision {
  if (!Array.isArray(r) || r.length < 4) throw new Error('throttle: unexpected reply from the throttle script');
  const [allowed, count, oldest, now] = r.slice(0, 4).map(Number) as [number, number, number, number];
  return throttleDecision(allowed === 1, limit, count, oldest, now, windowMs);
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
