/**
 * The Redis connection and script helpers every Redis adapter shares (accounts/redis: account store,
 * throttle, gate; jobs/redis-store.ts): with the job store, the only ioredis users.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';

export type ScriptFn = (...args: (string | number)[]) => Promise<unknown>;

/** What a command sent but not answered when its connection closed fails with. */
export const REPLY_LOST_MESSAGE = 'redis: the connection closed before the reply came; the command is not sent again (Redis may have run it)';

/** ioredis's queue of the commands sent on a connection that closed before they were answered (internal). */
interface UnansweredQueue {
  shift(): { command: { reject(e: Error): void } } | undefined;
}

/**
 * A connection. No auto-pipelining: the hot paths batch their own script calls per event-loop turn
 * (util/turn.ts), and measured per request ioredis' pipeline machinery cost more CPU than the
 * writes it saved (bench/middleware.ts: 141 vs 103 µs of server CPU per guarded request).
 *
 * Commands sent but not answered when the connection drops are not sent again after it reconnects
 * (ioredis resends them by default): Redis may have run them already, and running a debit, an
 * admission or a job transition twice would charge, count or move twice. They fail instead
 * (REPLY_LOST_MESSAGE; the request answers 500). ioredis, told not to resend, would leave their promises
 * pending for ever, so the connection's `close` rejects them. Commands issued while the connection is
 * down wait for it as before.
 */
export function connectRedis(url: string): Redis {
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) throw new TypeError(`redis: expected a redis:// or rediss:// URL, got ${String(url)}`);
  return failUnanswered(new Redis(url, { maxRetriesPerRequest: 5, autoResendUnfulfilledCommands: false }));
}

/**
 * Rejects, when `redis` closes, the commands it had sent and not had answered (ioredis keeps them as
 * `prevCommandQueue` when a ready connection closes, and `close` is emitted after that).
 */
export function failUnanswered(redis: Redis): Redis {
  redis.on('close', () => {
    const queue = (redis as unknown as { prevCommandQueue?: UnansweredQueue | null }).prevCommandQueue;
    for (let item = queue?.shift(); item; item = queue?.shift()) item.command.reject(new Error(REPLY_LOST_MESSAGE));
  });
  // Its copies (duplicate() copies the options, not this listener) do the same, unless made to resend.
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (override) => {
    const copy = duplicate(override);
    return override?.autoResendUnfulfilledCommands === true ? copy : failUnanswered(copy);
  };
  return redis;
}

/**
 * A Lua script called by EVALSHA, loaded (SCRIPT LOAD) on first use and again after NOSCRIPT (e.g.
 * after a server restart). Plain EVALSHA commands, unlike ioredis' defineCommand scripts, stay
 * EVALSHA inside pipelines. The first `numberOfKeys` arguments are keys; with `numberOfKeys` null
 * the caller passes the number of keys as the first argument. `name` is for error messages.
 */
export function defineScript(redis: Redis, name: string, numberOfKeys: number | null, lua: string): ScriptFn {
  const sha = createHash('sha1').update(lua).digest('hex');
  const withCount = (args: (string | number)[]) => (numberOfKeys === null ? args : [numberOfKeys, ...args]);
  return async (...args) => {
    const full = withCount(args);
    try {
      return await redis.evalsha(sha, ...(full as [number, ...(string | number)[]]));
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      const loaded = await redis.script('LOAD', lua);
      if (loaded !== sha) throw new Error(`redis: script ${name} loaded as ${String(loaded)}, expected ${sha}`);
      return redis.evalsha(sha, ...(full as [number, ...(string | number)[]]));
    }
  };
}

/**
 * The distinct keys of a batched script call: each key is sent once in KEYS and named in ARGV by
 * its 1-based position, so a batch of requests for the same key, account and bucket does not repeat
 * them (fewer bytes to write and for Redis to parse).
 */
export function keyTable(): { list: string[]; index(key: string): string } {
  const list: string[] = [];
  const at = new Map<string, string>();
  return {
    list,
    index(key) {
      let i = at.get(key);
      if (i === undefined) {
        list.push(key);
        i = String(list.length);
        at.set(key, i);
      }
      return i;
    },
  };
}

export interface RedisConnectionOptions {
  url: string;
  /** A connection to use instead of opening one (it is closed by close() only when `ownsConnection`). */
  connection?: Redis;
  ownsConnection?: boolean;
}

/** The connection a component uses (the one given, or its own from `url`) and how it lets go of it. */
export function useConnection(opts: RedisConnectionOptions): { redis: Redis; release(): Promise<void> } {
  const redis = opts.connection ?? connectRedis(opts.url);
  const owns = opts.ownsConnection ?? opts.connection === undefined;
  return { redis, release: async () => (owns ? quitRedis(redis) : undefined) };
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
