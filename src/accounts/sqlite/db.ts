/**
 * The account store's SQLite file: its schema, opening (WAL, NORMAL sync, busy timeout, foreign keys),
 * row types and the prepared statements store.ts and debits.ts run.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Account, ApiKeyInfo } from '../port.ts';
import { parseCapabilities } from '../validate.ts';

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

export interface AccountRow {
  id: string;
  name: string;
  subscription: number;
  balance_micros: number;
  created_at: string;
}

export interface KeyRow {
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

export const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  subscription: r.subscription === 1,
  balance_micros: r.balance_micros,
  created_at: r.created_at,
});

export const toKey = (r: KeyRow): ApiKeyInfo => ({
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

export function openAccountsDb(file: string): Database.Database {
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

/** The statements of the store, prepared once per connection. */
export function prepareAccountStatements(db: Database.Database) {
  return {
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
}
