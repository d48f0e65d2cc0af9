import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteAccountStore } from '../../src/accounts/sqlite/store.ts';
import { hashKey } from '../../src/accounts/keys.ts';
import { tempDir } from '../support/fixtures.ts';
import { accountStoreContract, type LedgerRow } from './accounts.contract.ts';
import { gateContract } from './gate.contract.ts';
import { createGate } from '../../src/accounts/gate.ts';
import { createMemoryThrottle } from '../../src/accounts/memory-throttle.ts';

const pepper = randomBytes(32);
const file = path.join(tempDir('partsearch-accounts-'), 'accounts.db');

accountStoreContract(
  'sqlite',
  async () => createSqliteAccountStore({ file, pepper }),
  undefined,
  async (accountId) => {
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare('SELECT amount_micros, balance_after, usage_class, reference FROM ledger WHERE account_id = ? ORDER BY seq')
        .all(accountId) as LedgerRow[];
    } finally {
      db.close();
    }
  },
);

gateContract('sqlite accounts + memory throttle', async () => {
  const store = createSqliteAccountStore({ file, pepper });
  const other = createSqliteAccountStore({ file, pepper });
  const throttle = createMemoryThrottle();
  return {
    gate: createGate(store, throttle),
    store,
    other,
    async close() {
      await store.close();
      await other.close();
      await throttle.close();
    },
  };
});

describe('sqlite account store specifics', () => {
  it('persists across reopening, and only the keyed hash of a secret reaches the file', async () => {
    const f = path.join(tempDir('partsearch-accounts-'), 'nested', 'accounts.db');
    const s1 = createSqliteAccountStore({ file: f, pepper });
    const a = await s1.createAccount({ name: 'persist', credit_micros: 42 });
    const { secret } = await s1.createKey({ account_id: a.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
    await s1.debit({ account_id: a.id, usage_class: 'part_records', units: 2, amount_micros: 40, period: '2026-11', reference: 'r1' });
    await s1.close();
    await s1.close(); // idempotent

    const bytes = Buffer.concat(fs.readdirSync(path.dirname(f)).map((n) => fs.readFileSync(path.join(path.dirname(f), n))));
    expect(bytes.includes(secret.slice(4))).toBe(false);
    expect(bytes.includes(hashKey(secret, pepper))).toBe(true);

    const s2 = createSqliteAccountStore({ file: f, pepper });
    expect((await s2.findAccount('persist'))?.balance_micros).toBe(2);
    expect((await s2.authenticate(secret))?.account.id).toBe(a.id);
    expect(await s2.debit({ account_id: a.id, usage_class: 'part_records', units: 2, amount_micros: 40, period: '2026-11', reference: 'r1' })).toEqual({
      ok: true,
      balance_micros: 2,
    });
    await s2.close();

    // Another pepper: the same secret no longer authenticates.
    const s3 = createSqliteAccountStore({ file: f, pepper: randomBytes(32) });
    expect(await s3.authenticate(secret)).toBeNull();
    await s3.close();
  });

  it('refuses an empty pepper', () => {
    expect(() => createSqliteAccountStore({ file: path.join(tempDir(), 'x.db'), pepper: Buffer.alloc(0) })).toThrow(/pepper/);
  });
});
