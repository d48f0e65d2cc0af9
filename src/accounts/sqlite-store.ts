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
 *     in one `BEGIN IMMEDIATE` transaction, each in its own savepoint with the same checks as alone,
 *     in arrival order. Each caller still gets its own result once the transaction has committed.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Account, AccountStore, ApiKeyInfo, Capability, CreatedKey, DebitRequest, DebitResult, UsageSummary } from './port.ts';
import { USAGE_CLASSES } from './port.ts';
import { checkPepper, displayPrefix, generateKeySecret, hashesEqual, hashKey, looksLikeKey, newAccountId, newKeyId } from './keys.ts';
import { createTurnBatcher, oncePerTurn } from '../util/turn.ts';
import { applyDebits } from './sqlite-debits.ts';
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
} from './validate.ts';

const DDL = `
CREATE TABLE IF NOT EXISTS accounts (
  id             TEXT PRIMARY KEY,
  name           TEXT NOT NULL UNIQUE,
  subscription   INTEGER NOT NULL DEFAULT 0 CHECK (subscription IN (0, 1)),
  balance_micros INTEGER NOT NULL CHECK (balance_micros >= 0),
  created_at     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  id                    TEXT PRIMARY KEY,
  account_id            TEXT NOT NULL REFERENCES accounts(id),
  name                  TEXT NOT NULL,
  key_hash              TEXT NOT NULL,
  prefix                TEXT NOT NULL,
  capabilities          TEXT NOT NULL,
  rate_limit_per_minute INTEGER NOT NULL,
  created_at            TEXT NOT NULL,
  revoked_at            TEXT,
  last_used_at          TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS api_keys_key_hash ON api_keys(key_hash);
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys(account_id);
CREATE TABLE IF NOT EXISTS ledger (
  seq            INTEGER PRIMARY KEY, -- append-only (never deleted), so rowids only grow without AUTOINCREMENT's extra page per commit
  account_id     TEXT NOT NULL REFERENCES accounts(id),
  kind           TEXT NOT NULL CHECK (kind IN ('credit', 'debit')),
  amount_micros  INTEGER NOT NULL,
  balance_after  INTEGER NOT NULL,
  usage_class    TEXT,
  units          INTEGER,
  period         TEXT,
  reference      TEXT,
  created_at     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_account ON ledger(account_id, seq);
CREATE TABLE IF NOT EXISTS usage (
  account_id     TEXT NOT NULL REFERENCES accounts(id),
  period         TEXT NOT NULL,
  usage_class    TEXT NOT NULL,
  units          INTEGER NOT NULL DEFAULT 0,
  amount_micros  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, period, usage_class)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS request_counts (
  account_id     TEXT NOT NULL REFERENCES accounts(id),
  period         TEXT NOT NULL,
  count          INTEGER NOT NULL,
  PRIMARY KEY (account_id, period)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS debit_refs (
  account_id     TEXT NOT NULL REFERENCES accounts(id),
  reference      TEXT NOT NULL,
  ledger_seq     INTEGER NOT NULL,
  PRIMARY KEY (account_id, reference)
) WITHOUT ROWID;
`;

interface AccountRow {
  id: string;
  name: string;
  subscription: number;
  balance_micros: number;
  created_at: string;
}

interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  capabilities: string;
  rate_limit_per_minute: number;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  subscription: r.subscription === 1,
  balance_micros: r.balance_micros,
  created_at: r.created_at,
});

const toKey = (r: KeyRow): ApiKeyInfo => ({
  id: r.id,
  account_id: r.account_id,
  name: r.name,
  capabilities: parseCapabilities(r.capabilities),
  rate_limit_per_minute: r.rate_limit_per_minute,
  prefix: r.prefix,
  created_at: r.created_at,
  revoked_at: r.revoked_at,
  last_used_at: r.last_used_at,
});

function openAccountsDb(file: string): Database.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // WAL + NORMAL: a committed debit or credit survives a process crash; a power cut can lose the
  // last moments of debits (in the customer's favour) but never corrupts the ledger. FULL would
  // add an fsync to every paid request.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  db.exec(DDL);
  return db;
}

export function createSqliteAccountStore(opts: { file: string; pepper: Buffer }): AccountStore {
  const pepper = checkPepper(opts.pepper);
  const db = openAccountsDb(opts.file);

  const q = {
    accountById: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
    accountByName: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE name = ?'),
    accounts: db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY rowid'),
    insertAccount: db.prepare('INSERT INTO accounts (id, name, subscription, balance_micros, created_at) VALUES (?, ?, ?, ?, ?)'),
    addBalance: db.prepare<[number, string], { balance_micros: number }>(
      'UPDATE accounts SET balance_micros = balance_micros + ? WHERE id = ? RETURNING balance_micros',
    ),
    setSubscription: db.prepare('UPDATE accounts SET subscription = ? WHERE id = ?'),
    ledger: db.prepare<[string, string, number, number, string | null, number | null, string | null, string | null, string]>(
      `INSERT INTO ledger (account_id, kind, amount_micros, balance_after, usage_class, units, period, reference, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertKey: db.prepare(
      `INSERT INTO api_keys (id, account_id, name, key_hash, prefix, capabilities, rate_limit_per_minute, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    keyById: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
    keyByHash: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
    keys: db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY rowid'),
    keysOf: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE account_id = ? ORDER BY rowid'),
    revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    touchKey: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
    usageOf: db.prepare<[string, string, string], { units: number }>('SELECT units FROM usage WHERE account_id = ? AND period = ? AND usage_class = ?'),
    usageAll: db.prepare<[string, string], { usage_class: string; units: number; amount_micros: number }>(
      'SELECT usage_class, units, amount_micros FROM usage WHERE account_id = ? AND period = ?',
    ),
    addUsage: db.prepare(
      `INSERT INTO usage (account_id, period, usage_class, units, amount_micros) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id, period, usage_class) DO UPDATE SET units = units + excluded.units, amount_micros = amount_micros + excluded.amount_micros`,
    ),
    refExists: db.prepare<[string, string], { ledger_seq: number }>('SELECT ledger_seq FROM debit_refs WHERE account_id = ? AND reference = ?'),
    insertRef: db.prepare('INSERT INTO debit_refs (account_id, reference, ledger_seq) VALUES (?, ?, ?)'),
    addRequests: db.prepare<[string, string, number, number], { count: number }>(
      `INSERT INTO request_counts (account_id, period, count) VALUES (?, ?, ?)
       ON CONFLICT (account_id, period) DO UPDATE SET count = count + ? RETURNING count`,
    ),
    requestCount: db.prepare<[string, string], { count: number }>('SELECT count FROM request_counts WHERE account_id = ? AND period = ?'),
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
  };

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
      return looksLikeKey(secret) ? hashKey(secret, pepper) : null;
    },

    async authenticate(secret, keyHash) {
      if (!looksLikeKey(secret)) return null;
      const hash = keyHash ?? hashKey(secret, pepper);
      dropCacheIfStale();
      let key = keyCache.get(hash); // a hit is keyed by this very hash: nothing left to compare
      if (!key) {
        const row = q.keyByHash.get(hash);
        if (!row || !hashesEqual(row.key_hash, hash)) return null;
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

    async countRequest(accountId, period) {
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
