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
 * The scripts (store-scripts.ts) touch keys of several accounts' namespaces only through KEYS, but the store is written
 * for a single Redis (or a primary with replicas), not Redis Cluster.
 */
import type { Account, AccountStore, ApiKeyInfo, Capability, CreatedKey, DebitResult, UsageSummary } from '../port.ts';
import { USAGE_CLASSES } from '../port.ts';
import { checkPepper, displayPrefix, generateKeySecret, hashKey, keyHashOf, looksLikeKey, newAccountId, newKeyId } from '../keys.ts';
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
} from '../validate.ts';
import { createTurnBatcher } from '../../util/turn.ts';
import { checkPrefix, defineScript, keyTable, pairsToRecord, useConnection, type RedisConnectionOptions } from '../../redis/connection.ts';
import { ADD_CREDIT, AUTHENTICATE, COUNT_REQUEST, CREATE_ACCOUNT, CREATE_KEY, DEBITS, REVOKE_KEY, SET_SUBSCRIPTION, TOUCH_KEY } from './store-scripts.ts';

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

export function createRedisAccountStore(opts: RedisConnectionOptions & { pepper: Buffer; prefix?: string }): AccountStore {
  const pepper = checkPepper(opts.pepper);
  const P = checkPrefix(opts.prefix ?? 'partsearch:');
  const { redis, release } = useConnection(opts);

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
  const debits = createTurnBatcher<CheckedDebit, DebitResult>(
    async (batch) => {
      const keys = keyTable();
      const args: string[] = [new Date().toISOString()];
      for (const d of batch) {
        args.push(
          keys.index(k.acct(d.account_id)),
          keys.index(k.usage(d.account_id, d.period)),
          keys.index(k.refs(d.account_id)),
          keys.index(k.ledger(d.account_id)),
        );
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
    },
    { maxInFlight: 1 },
  );

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
        k.acct(account.id),
        k.names,
        k.accts,
        k.seq,
        k.ledger(account.id),
        account.id,
        name,
        account.subscription ? '1' : '0',
        String(balance),
        account.created_at,
        entry,
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
            k.acct(accountId),
            k.keyHashes,
            k.key(key.id),
            k.keys,
            k.acctKeys(accountId),
            k.seq,
            key.id,
            hashKey(secret, pepper),
            accountId,
            name,
            key.prefix,
            JSON.stringify(capabilities),
            String(rate),
            key.created_at,
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
      return keyHashOf(secret, pepper);
    },

    async keyHashById(keyId) {
      return redis.hget(k.key(keyId), 'key_hash');
    },

    async authenticate(secret, keyHash) {
      // A keyHash from this store (keyHash, keyHashById) needs no check of the secret's form.
      if (keyHash === undefined && !looksLikeKey(secret)) return null;
      const hash = keyHash ?? hashKey(secret, pepper);
      const r = await s.authenticate(k.keyHashes, hash, k.key(''), k.acct(''));
      if (!Array.isArray(r)) return null;
      const h = pairsToRecord(r[0]);
      const key = toKey(h);
      if (!key || key.revoked_at !== null) return null; // found by the keyed hash itself
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
      await release();
    },
  };
}
