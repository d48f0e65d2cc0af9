/** Small helpers shared by the Redis account store and the Redis throttle (the only ioredis users). */
import { Redis } from 'ioredis';

export type ScriptFn = (...args: (string | number)[]) => Promise<unknown>;

export function connectRedis(url: string): Redis {
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) throw new TypeError(`redis: expected a redis:// or rediss:// URL, got ${String(url)}`);
  // No auto-pipelining: ioredis then sends custom scripts as EVAL with their whole source each time;
  // the hot paths batch their own script calls instead (gate admissions, debits).
  return new Redis(url, { maxRetriesPerRequest: 5 });
}

/**
 * Registers a Lua script (ioredis sends EVALSHA and falls back to EVAL after NOSCRIPT, e.g. after a
 * server restart) and returns a typed caller: the first `numberOfKeys` arguments are keys. With
 * `numberOfKeys` null the caller passes the number of keys as the first argument.
 */
export function defineScript(redis: Redis, name: string, numberOfKeys: number | null, lua: string): ScriptFn {
  redis.defineCommand(name, numberOfKeys === null ? { lua } : { numberOfKeys, lua });
  const fn = (redis as unknown as Record<string, ScriptFn | undefined>)[name];
  if (typeof fn !== 'function') throw new Error(`redis: script ${name} was not registered`);
  return (...args) => fn.apply(redis, args);
}

export function checkPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix === '') throw new TypeError('redis: the key prefix must be a non-empty string');
  return prefix;
}

/** Pairs of a flat HGETALL reply from a script into an object. */
export function pairsToRecord(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}

export async function quitRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}

/**
 * Deletes every key whose name starts with `prefix` (SCAN + DEL in batches); returns how many were
 * deleted. For tests and for tearing down an installation; the prefix must be non-empty.
 */
export async function purgeRedisPrefix(url: string, prefix: string): Promise<number> {
  checkPrefix(prefix);
  const redis = connectRedis(url);
  try {
    const pattern = prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`) + '*';
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    await quitRedis(redis);
  }
}
