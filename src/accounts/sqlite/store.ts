/**
 * The embedded account store: one SQLite file of its own (not the catalogue database). Every
 * change of money is one `BEGIN IMMEDIATE` transaction, so a debit checks the balance and the
 * monthly quota and applies itself without any other writer in between, in this process or in
 * another one using the same file (busy_timeout makes the others wait).
 *
 * Tables: accounts, api_keys (unique index on key_hash; the secret itself is never stored),
 * ledger (every credit and every debit of money, with the balance after it; zero-priced usage is
 * recorded in `usage` only), usage (per account, period and class), request_counts (per account
 * and period) and debit_refs (idempotency references, per account).
 *
 * Hot path (every guarded request):
 *   - authentication reads a per-process cache of keys and accounts, which is dropped whenever
 *     another connection (another API process, the `keys revoke` command) has committed to the
 *     file since (`PRAGMA data_version`, read once per turn of the event loop); changes made
 *     through this store update or drop the cache themselves. A key revoked by another process is
 *     refused from the next turn of this process's event loop on, i.e. on its next request.
 *   - debits are group-committed: the debits requested during one turn of the event loop are applied
 *     in one `BEGIN IMMEDIATE` transaction, in arrival order, each checked as if alone (debits.ts).
 *     Each caller still gets its own result once the transaction has committed.
 *
 * Schema, rows and prepared statements: db.ts.
 */
import type { Account, ApiKeyInfo, Capability, CreatedKey, DebitRequest, DebitResult, LocalAccountStore, UsageSummary } from '../port.ts';
import { USAGE_CLASSES } from '../port.ts';
import { checkPepper, displayPrefix, generateKeySecret, hashKey, keyHashOf, looksLikeKey, newAccountId, newKeyId } from '../keys.ts';
import { createTurnBatcher, oncePerTurn } from '../../util/turn.ts';
import { applyDebits } from './debits.ts';
import { openAccountsDb, prepareAccountStatements, toAccount, toKey, type AccountRow, type KeyRow } from './db.ts';
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
} from '../validate.ts';

export function createSqliteAccountStore(opts: { file: string; pepper: Buffer }): LocalAccountStore {
  const pepper = checkPepper(opts.pepper);
  const db = openAccountsDb(opts.file);

  const q = prepareAccountStatements(db);

  /** Keys by hash and accounts by id, valid while no other connection has written (see header). */
  const keyCache = new Map<string, ApiKeyInfo>();
  const accountCache = new Map<string, Account>();
  const CACHE_MAX = 10_000;
  let seenVersion = q.dataVersion.get();
  // Reading data_version costs about as much as a query (it opens a read transaction), so it is
  // read once per turn of the event loop: requests handled in the same turn share one check.
  const firstThisTurn = oncePerTurn();
  const dropCacheIfStale = () => {
    if (!firstThisTurn()) return;
    const v = q.dataVersion.get();
    if (v !== seenVersion) {
      seenVersion = v;
      keyCache.clear();
      accountCache.clear();
    }
  };
  const cachedAccount = (id: string): Account | null => {
    let a = accountCache.get(id);
    if (!a) {
      const row = q.accountById.get(id);
      if (!row) return null;
      if (accountCache.size >= CACHE_MAX) accountCache.clear();
      a = toAccount(row);
      accountCache.set(id, a);
    }
    return a;
  };

  /**
   * Monthly request counts are an anti-abuse cap, not money: they are counted in memory and written
   * every 250 ms (and at 256 pending, and on close) instead of one write per request. Exact within
   * this process; other processes' counts are seen after their next flush.
   */
  const requestCounts = new Map<string, { accountId: string; period: string; persisted: number; pending: number }>();
  const flushRequestCounts = db.transaction(() => {
    for (const [k, c] of requestCounts) {
      if (c.pending > 0) {
        const r = q.addRequests.get(c.accountId, c.period, c.pending, c.pending);
        c.persisted = r?.count ?? c.persisted + c.pending;
        c.pending = 0;
      } else requestCounts.delete(k);
    }
  });
  const flushTimer = setInterval(() => {
    if (!closed) flushRequestCounts();
  }, 250);
  flushTimer.unref();

  const mustGetAccount = (id: string): AccountRow => {
    const row = q.accountById.get(id);
    if (!row) throw new UnknownAccountError(id);
    return row;
  };

  const createAccountTx = db.transaction((a: AccountRow) => {
    if (q.accountByName.get(a.name)) throw new DuplicateAccountNameError(a.name);
    q.insertAccount.run(a.id, a.name, a.subscription, a.balance_micros, a.created_at);
    if (a.balance_micros > 0) q.ledger.run(a.id, 'credit', a.balance_micros, a.balance_micros, null, null, null, 'initial credit', a.created_at);
  });

  const addCreditTx = db.transaction((id: string, amount: number): AccountRow => {
    mustGetAccount(id);
    const r = q.addBalance.get(amount, id);
    if (!r) throw new UnknownAccountError(id);
    q.ledger.run(id, 'credit', amount, r.balance_micros, null, null, null, null, new Date().toISOString());
    return mustGetAccount(id);
  });

  const debitBatchTx = db.transaction((ds: CheckedDebit[]) => applyDebits(q, ds));

  const debits = createTurnBatcher<CheckedDebit, DebitResult>((ds) => {
    const outcomes = debitBatchTx.immediate(ds);
    outcomes.forEach((o, i) => {
      if (o instanceof Error) return;
      const cached = accountCache.get(ds[i]!.account_id);
      if (cached) cached.balance_micros = o.balance_micros;
    });
    return outcomes;
  });

  /** authenticate(), without I/O: the key and account caches, checked against data_version once per turn. */
  function authenticateNow(secret: string, keyHash?: string): { key: ApiKeyInfo; account: Account } | null {
    // A keyHash from this store's keyHash() is of a well-formed secret; otherwise check the form first.
    if (keyHash === undefined && !looksLikeKey(secret)) return null;
    const hash = keyHash ?? hashKey(secret, pepper);
    dropCacheIfStale();
    let key = keyCache.get(hash); // a hit is keyed by this very hash: nothing left to compare
    if (!key) {
      const row = q.keyByHash.get(hash);
      if (!row) return null; // found by the keyed hash itself: nothing left to compare
      if (keyCache.size >= CACHE_MAX) keyCache.clear();
      key = toKey(row);
      keyCache.set(hash, key);
    }
    if (key.revoked_at !== null) return null;
    const account = cachedAccount(key.account_id);
    if (!account) return null;
    const now = Date.now();
    if (needsLastUsedUpdate(key.last_used_at, now)) {
      key.last_used_at = new Date(now).toISOString();
      q.touchKey.run(key.last_used_at, key.id);
    }
    return { key, account };
  }

  /** countRequest(), in memory (see requestCounts). */
  function countRequestNow(accountId: string, period: string): number {
    checkText('period', period);
    const k = `${accountId}\u0000${period}`;
    let c = requestCounts.get(k);
    if (!c) {
      mustGetAccount(accountId);
      const row = q.requestCount.get(accountId, period);
      c = { accountId, period, persisted: row?.count ?? 0, pending: 0 };
      requestCounts.set(k, c);
    }
    c.pending++;
    if (c.pending >= 256) flushRequestCounts();
    return c.persisted + c.pending;
  }

  let closed = false;

  return {
    async createAccount(input) {
      const account: AccountRow = {
        id: newAccountId(),
        name: checkText('name', input.name),
        subscription: input.subscription ? 1 : 0,
        balance_micros: input.credit_micros === undefined ? DEFAULT_CREDIT_MICROS : checkMicros('credit_micros', input.credit_micros),
        created_at: new Date().toISOString(),
      };
      createAccountTx.immediate(account);
      return toAccount(account);
    },

    async getAccount(id) {
      const row = q.accountById.get(id);
      return row ? toAccount(row) : null;
    },

    async findAccount(idOrName) {
      const row = q.accountById.get(idOrName) ?? q.accountByName.get(idOrName);
      return row ? toAccount(row) : null;
    },

    async listAccounts() {
      return q.accounts.all().map(toAccount);
    },

    async addCredit(accountId, micros) {
      const amount = checkMicros('credit', micros, 1);
      debits.flush(); // debits requested before this credit are applied before it
      accountCache.delete(accountId);
      return toAccount(addCreditTx.immediate(accountId, amount));
    },

    async setSubscription(accountId, on) {
      mustGetAccount(accountId);
      accountCache.delete(accountId);
      q.setSubscription.run(on ? 1 : 0, accountId);
      return toAccount(mustGetAccount(accountId));
    },

    async createKey(input): Promise<CreatedKey> {
      mustGetAccount(input.account_id);
      const capabilities: Capability[] = checkCapabilities(input.capabilities);
      const rate = checkCount('rate_limit_per_minute', input.rate_limit_per_minute, 1);
      const name = checkText('key name', input.name);
      const secret = generateKeySecret();
      const row: KeyRow = {
        id: newKeyId(),
        account_id: input.account_id,
        name,
        key_hash: hashKey(secret, pepper),
        prefix: displayPrefix(secret),
        capabilities: JSON.stringify(capabilities),
        rate_limit_per_minute: rate,
        created_at: new Date().toISOString(),
        revoked_at: null,
        last_used_at: null,
      };
      q.insertKey.run(row.id, row.account_id, row.name, row.key_hash, row.prefix, row.capabilities, row.rate_limit_per_minute, row.created_at);
      return { key: toKey(row), secret };
    },

    async listKeys(accountId) {
      return (accountId === undefined ? q.keys.all() : q.keysOf.all(accountId)).map(toKey);
    },

    async revokeKey(keyId) {
      q.revoke.run(new Date().toISOString(), keyId);
      for (const [hash, k] of keyCache) if (k.id === keyId) keyCache.delete(hash);
      const row = q.keyById.get(keyId);
      return row ? toKey(row) : null;
    },

    keyHash(secret) {
      return keyHashOf(secret, pepper);
    },

    async keyHashById(keyId) {
      return q.keyById.get(keyId)?.key_hash ?? null;
    },

    authenticateNow,

    async authenticate(secret, keyHash) {
      return authenticateNow(secret, keyHash);
    },

    async debit(req: DebitRequest) {
      const d = checkDebit(req);
      if (closed) throw new Error('accounts: the store is closed');
      return debits.add(d);
    },

    async usage(accountId, period): Promise<UsageSummary> {
      const summary = emptyUsage(period);
      for (const r of q.usageAll.all(accountId, period)) {
        const cls = USAGE_CLASSES.find((c) => c === r.usage_class);
        if (cls) summary.by_class[cls] = { units: r.units, amount_micros: r.amount_micros };
      }
      return summary;
    },

    countRequestNow,

    async countRequest(accountId, period) {
      return countRequestNow(accountId, period);
    },

    async close() {
      if (closed) return;
      debits.flush();
      closed = true;
      clearInterval(flushTimer);
      flushRequestCounts();
      db.close();
    },
  };
}
