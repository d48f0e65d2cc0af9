/**
 * The account-store contract: one suite, run against every adapter (SQLite always, Redis when
 * REDIS_URL is set). `open()` opens a store instance on the adapter's backing for this suite (the
 * same SQLite file / the same Redis prefix on every call, a new connection each time), so the
 * concurrency test can drive one account through two instances. Every test creates its own
 * accounts, so the tests do not depend on each other.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountStore, UsageClass } from '../../src/accounts/port.ts';
import { USAGE_CLASSES } from '../../src/accounts/port.ts';

const PERIOD = '2026-11';
const unique = (what: string) => `${what}-${randomBytes(5).toString('hex')}`;

/** One ledger entry as an adapter stores it (read back by the adapter's test). */
export interface LedgerRow {
  amount_micros: number;
  balance_after: number;
  usage_class: string | null;
  reference: string | null;
}

export function accountStoreContract(
  name: string,
  open: () => Promise<AccountStore>,
  cleanup?: () => Promise<void>,
  /** The account's ledger entries, oldest first, read from the backing store directly. */
  ledgerOf?: (accountId: string) => Promise<LedgerRow[]>,
): void {
  describe(`account store contract: ${name}`, () => {
    let store: AccountStore;
    const extra: AccountStore[] = [];

    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      for (const s of extra) await s.close();
      await store?.close();
      await cleanup?.();
    });

    const debit = (
      account_id: string,
      amount_micros: number,
      more: { units?: number; cls?: UsageClass; quota?: number | null; reference?: string; period?: string } = {},
    ) =>
      store.debit({
        account_id,
        usage_class: more.cls ?? 'part_records',
        units: more.units ?? 1,
        amount_micros,
        monthly_quota_units: more.quota ?? null,
        period: more.period ?? PERIOD,
        ...(more.reference === undefined ? {} : { reference: more.reference }),
      });

    describe('accounts', () => {
      it('creates an account with 5 USD of free credit and no subscription by default', async () => {
        const name = unique('acme');
        const a = await store.createAccount({ name });
        expect(a.id).toMatch(/^acc_[a-z2-7]{20}$/);
        expect(a).toMatchObject({ name, subscription: false, balance_micros: 5_000_000 });
        expect(Number.isNaN(Date.parse(a.created_at))).toBe(false);
        expect(await store.getAccount(a.id)).toEqual(a);
      });

      it('honours credit_micros and subscription at creation (0 credit included)', async () => {
        const a = await store.createAccount({ name: unique('paid'), subscription: true, credit_micros: 1_234_567 });
        expect(a).toMatchObject({ subscription: true, balance_micros: 1_234_567 });
        const z = await store.createAccount({ name: unique('zero'), credit_micros: 0 });
        expect((await store.getAccount(z.id))?.balance_micros).toBe(0);
      });

      it('finds by id and by exact name; unknown -> null', async () => {
        const name = unique('Findme');
        const a = await store.createAccount({ name });
        expect(await store.findAccount(a.id)).toEqual(a);
        expect(await store.findAccount(name)).toEqual(a);
        expect(await store.findAccount(name.toLowerCase())).toBeNull();
        expect(await store.findAccount('acc_aaaaaaaaaaaaaaaaaaaa')).toBeNull();
        expect(await store.getAccount('acc_aaaaaaaaaaaaaaaaaaaa')).toBeNull();
      });

      it('rejects a duplicate name and an empty name', async () => {
        const name = unique('dup');
        await store.createAccount({ name });
        await expect(store.createAccount({ name })).rejects.toThrow(/already exists/);
        await expect(store.createAccount({ name: '  ' })).rejects.toThrow();
        await expect(store.createAccount({ name: unique('neg'), credit_micros: -1 })).rejects.toThrow(RangeError);
        await expect(store.createAccount({ name: unique('frac'), credit_micros: 1.5 })).rejects.toThrow(RangeError);
      });

      it('lists accounts in creation order', async () => {
        const a = await store.createAccount({ name: unique('list-a') });
        const b = await store.createAccount({ name: unique('list-b') });
        const ids = (await store.listAccounts()).map((x) => x.id);
        expect(ids).toContain(a.id);
        expect(ids.indexOf(b.id)).toBeGreaterThan(ids.indexOf(a.id));
      });

      it('adds credit; rejects non-positive or fractional amounts and unknown accounts', async () => {
        const a = await store.createAccount({ name: unique('credit') });
        const after = await store.addCredit(a.id, 2_500_000);
        expect(after.balance_micros).toBe(7_500_000);
        expect((await store.getAccount(a.id))?.balance_micros).toBe(7_500_000);
        await expect(store.addCredit(a.id, 0)).rejects.toThrow(RangeError);
        await expect(store.addCredit(a.id, -5)).rejects.toThrow(RangeError);
        await expect(store.addCredit(a.id, 0.5)).rejects.toThrow(RangeError);
        await expect(store.addCredit('acc_aaaaaaaaaaaaaaaaaaaa', 10)).rejects.toThrow(/unknown account/);
      });

      it('switches the subscription on and off', async () => {
        const a = await store.createAccount({ name: unique('sub') });
        expect((await store.setSubscription(a.id, true)).subscription).toBe(true);
        expect((await store.getAccount(a.id))?.subscription).toBe(true);
        expect((await store.setSubscription(a.id, false)).subscription).toBe(false);
        expect((await store.getAccount(a.id))?.subscription).toBe(false);
        await expect(store.setSubscription('acc_aaaaaaaaaaaaaaaaaaaa', true)).rejects.toThrow(/unknown account/);
      });
    });

    describe('keys', () => {
      it('creates a key: the secret is returned once, listings carry neither secret nor hash', async () => {
        const a = await store.createAccount({ name: unique('keys') });
        const { key, secret } = await store.createKey({
          account_id: a.id,
          name: 'production',
          capabilities: ['parts:read', 'ai:run'],
          rate_limit_per_minute: 60,
        });
        expect(secret).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
        expect(key.id).toMatch(/^key_[a-z2-7]{20}$/);
        expect(key).toMatchObject({
          account_id: a.id,
          name: 'production',
          prefix: secret.slice(0, 12),
          revoked_at: null,
          last_used_at: null,
          rate_limit_per_minute: 60,
        });
        expect(JSON.stringify(key)).not.toContain(secret);

        const listed = await store.listKeys(a.id);
        expect(listed.map((k) => k.id)).toEqual([key.id]);
        const all = await store.listKeys();
        expect(all.map((k) => k.id)).toContain(key.id);
        for (const list of [listed, all]) {
          const json = JSON.stringify(list);
          expect(json).not.toContain(secret);
          expect(json).not.toContain(secret.slice(12));
          expect(json).not.toMatch(/[0-9a-f]{64}/);
          for (const k of list)
            expect(Object.keys(k).sort()).toEqual([
              'account_id',
              'capabilities',
              'created_at',
              'id',
              'last_used_at',
              'name',
              'prefix',
              'rate_limit_per_minute',
              'revoked_at',
            ]);
        }
      });

      it('two keys get different secrets; listKeys(account) only lists that account', async () => {
        const a = await store.createAccount({ name: unique('k2a') });
        const b = await store.createAccount({ name: unique('k2b') });
        const k1 = await store.createKey({ account_id: a.id, name: 'one', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
        const k2 = await store.createKey({ account_id: a.id, name: 'two', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
        const k3 = await store.createKey({ account_id: b.id, name: 'three', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
        expect(new Set([k1.secret, k2.secret, k3.secret]).size).toBe(3);
        expect((await store.listKeys(a.id)).map((k) => k.id)).toEqual([k1.key.id, k2.key.id]);
        expect((await store.listKeys(b.id)).map((k) => k.id)).toEqual([k3.key.id]);
        expect(await store.listKeys('acc_aaaaaaaaaaaaaaaaaaaa')).toEqual([]);
      });

      it('stores capabilities and the per-key rate limit; rejects bad input', async () => {
        const a = await store.createAccount({ name: unique('caps') });
        const { secret } = await store.createKey({
          account_id: a.id,
          name: 'read-only',
          capabilities: ['parts:read', 'parts:read'],
          rate_limit_per_minute: 120,
        });
        const auth = await store.authenticate(secret);
        expect(auth?.key.capabilities).toEqual(['parts:read']);
        expect(auth?.key.rate_limit_per_minute).toBe(120);
        const none = await store.createKey({ account_id: a.id, name: 'nothing', capabilities: [], rate_limit_per_minute: 1 });
        expect((await store.authenticate(none.secret))?.key.capabilities).toEqual([]);

        await expect(store.createKey({ account_id: a.id, name: 'bad', capabilities: ['admin' as never], rate_limit_per_minute: 60 })).rejects.toThrow(
          /capability/,
        );
        await expect(store.createKey({ account_id: a.id, name: 'bad', capabilities: ['parts:read'], rate_limit_per_minute: 0 })).rejects.toThrow(RangeError);
        await expect(
          store.createKey({ account_id: 'acc_aaaaaaaaaaaaaaaaaaaa', name: 'x', capabilities: ['parts:read'], rate_limit_per_minute: 60 }),
        ).rejects.toThrow(/unknown account/);
      });

      it('authenticates the right secret, and nothing else', async () => {
        const a = await store.createAccount({ name: unique('auth'), subscription: true });
        const { key, secret } = await store.createKey({ account_id: a.id, name: 'ci', capabilities: ['ai:run'], rate_limit_per_minute: 60 });
        const auth = await store.authenticate(secret);
        expect(auth?.key.id).toBe(key.id);
        expect(auth?.account).toMatchObject({ id: a.id, subscription: true, balance_micros: 5_000_000 });
        expect(auth?.key.last_used_at).not.toBeNull();
        expect((await store.listKeys(a.id))[0]?.last_used_at).not.toBeNull();

        // Well-formed but unknown.
        expect(await store.authenticate(`psk_${randomBytes(32).toString('base64url')}`)).toBeNull();
        // One character changed.
        const last = secret.at(-1) === 'A' ? 'B' : 'A';
        expect(await store.authenticate(secret.slice(0, -1) + last)).toBeNull();
        // Malformed.
        for (const bad of [
          '',
          'psk_',
          secret + 'x',
          secret.slice(0, -1),
          ` ${secret}`,
          `Bearer ${secret}`,
          secret.replace('psk_', 'pk_x'),
          secret.slice(0, -1) + '=',
          key.id,
          key.prefix,
        ]) {
          expect(await store.authenticate(bad)).toBeNull();
        }
        expect(await store.authenticate(undefined as unknown as string)).toBeNull();
      });

      it('a revoked key fails immediately; revoking is idempotent; unknown -> null', async () => {
        const a = await store.createAccount({ name: unique('revoke') });
        const { key, secret } = await store.createKey({ account_id: a.id, name: 'leaked', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
        const other = await store.createKey({ account_id: a.id, name: 'kept', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
        expect(await store.authenticate(secret)).not.toBeNull();
        const revoked = await store.revokeKey(key.id);
        expect(revoked?.id).toBe(key.id);
        expect(revoked?.revoked_at).not.toBeNull();
        expect(await store.authenticate(secret)).toBeNull();
        expect(await store.authenticate(other.secret)).not.toBeNull();
        const again = await store.revokeKey(key.id);
        expect(again?.revoked_at).toBe(revoked?.revoked_at);
        expect((await store.listKeys(a.id)).find((k) => k.id === key.id)?.revoked_at).toBe(revoked?.revoked_at);
        expect(await store.revokeKey('key_aaaaaaaaaaaaaaaaaaaa')).toBeNull();
      });

      it("finds a key's stored hash by its id, and authenticates by that hash whatever credential it stands for", async () => {
        const a = await store.createAccount({ name: unique('by-id') });
        const { key, secret } = await store.createKey({ account_id: a.id, name: 'token', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
        const hash = await store.keyHashById(key.id);
        expect(hash).toBe(store.keyHash(secret));
        expect(await store.keyHashById('key_aaaaaaaaaaaaaaaaaaaa')).toBeNull();
        // An access token is no key: admitted by the hash of the key it names.
        expect((await store.authenticate('eyJ.token.signature', hash!))?.key.id).toBe(key.id);
        await store.revokeKey(key.id);
        expect(await store.keyHashById(key.id)).toBe(hash);
        expect(await store.authenticate('eyJ.token.signature', hash!)).toBeNull();
      });

      it('a second instance on the same backing authenticates the same key', async () => {
        const a = await store.createAccount({ name: unique('shared') });
        const { secret } = await store.createKey({ account_id: a.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
        const second = await open();
        extra.push(second);
        expect((await second.authenticate(secret))?.account.id).toBe(a.id);
      });

      it('sees revocation, credit and subscription changes made through another instance at once', async () => {
        const a = await store.createAccount({ name: unique('elsewhere'), credit_micros: 100 });
        const { key, secret } = await store.createKey({ account_id: a.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
        const second = await open();
        extra.push(second);
        // Warm whatever this instance keeps about the key and the account.
        expect((await store.authenticate(secret))?.account).toMatchObject({ balance_micros: 100, subscription: false });
        await second.addCredit(a.id, 900);
        await second.setSubscription(a.id, true);
        // Another process's change reaches this one through I/O, i.e. in a later turn of the event loop.
        const nextTurn = () => new Promise((r) => setImmediate(r));
        await nextTurn();
        expect((await store.authenticate(secret))?.account).toMatchObject({ balance_micros: 1_000, subscription: true });
        expect(await second.debit({ account_id: a.id, usage_class: 'part_records', units: 1, amount_micros: 400, period: PERIOD })).toEqual({
          ok: true,
          balance_micros: 600,
        });
        await nextTurn();
        expect((await store.authenticate(secret))?.account.balance_micros).toBe(600);
        await second.revokeKey(key.id);
        await nextTurn();
        expect(await store.authenticate(secret)).toBeNull();
      });
    });

    describe('debit, usage and request counts', () => {
      it.skipIf(!ledgerOf)('group-commits a burst of debits into a ledger whose balances chain exactly and whose sums match usage', async () => {
        const a = await store.createAccount({ name: unique('burst'), credit_micros: 200_000 });
        const classes = ['part_records', 'match_lines', 'ai_tokens'] as const;
        // 60 debits in one turn: 51 at 3,000 and 9 zero-priced; every tenth carries a reference.
        const results = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            debit(a.id, i % 7 === 0 ? 0 : 3_000, { cls: classes[i % 3]!, units: 2, ...(i % 10 === 0 ? { reference: `r${i}` } : {}) }),
          ),
        );
        expect(results.every((r) => r.ok)).toBe(true);
        const final = (await store.getAccount(a.id))!.balance_micros;
        expect(final).toBe(200_000 - 51 * 3_000);
        const usage = await store.usage(a.id, PERIOD);
        const rows = await ledgerOf!(a.id);
        expect(rows[0]).toMatchObject({ amount_micros: 200_000, balance_after: 200_000 }); // the initial credit
        for (let i = 1; i < rows.length; i++) expect(rows[i]!.balance_after).toBe(rows[i - 1]!.balance_after + rows[i]!.amount_micros);
        expect(rows.at(-1)!.balance_after).toBe(final);
        expect(rows.filter((r) => r.reference?.startsWith('r')).length).toBe(6); // referenced debits keep their own entries
        // One batch: the credit, one entry per class for the unreferenced debits, one per referenced debit.
        expect(rows).toHaveLength(1 + classes.length + 6);
        for (const cls of classes)
          expect(-rows.filter((r) => r.usage_class === cls).reduce((n, r) => n + r.amount_micros, 0)).toBe(usage.by_class[cls].amount_micros);
        // A reference already applied is applied once, also in a later batch.
        expect(await debit(a.id, 3_000, { units: 2, reference: 'r10' })).toEqual({ ok: true, balance_micros: final });
      });

      it('debits down to exactly zero, then refuses with insufficient_credit', async () => {
        const a = await store.createAccount({ name: unique('debit'), credit_micros: 1_000_000 });
        expect(await debit(a.id, 300_000, { units: 3 })).toEqual({ ok: true, balance_micros: 700_000 });
        expect(await debit(a.id, 600_000, { units: 6 })).toEqual({ ok: true, balance_micros: 100_000 });
        expect(await debit(a.id, 100_001)).toEqual({ ok: false, reason: 'insufficient_credit', balance_micros: 100_000 });
        expect(await debit(a.id, 100_000)).toEqual({ ok: true, balance_micros: 0 });
        expect(await debit(a.id, 1)).toEqual({ ok: false, reason: 'insufficient_credit', balance_micros: 0 });
        expect((await store.getAccount(a.id))?.balance_micros).toBe(0);
        const u = await store.usage(a.id, PERIOD);
        expect(u.by_class.part_records).toEqual({ units: 10, amount_micros: 1_000_000 });
      });

      it('a zero-amount debit succeeds at zero balance and still records usage', async () => {
        const a = await store.createAccount({ name: unique('free'), credit_micros: 0 });
        expect(await debit(a.id, 0, { units: 7, cls: 'match_lines' })).toEqual({ ok: true, balance_micros: 0 });
        expect((await store.usage(a.id, PERIOD)).by_class.match_lines).toEqual({ units: 7, amount_micros: 0 });
      });

      it('a refund gives back units and money of an earlier hold, once per reference, and frees its quota', async () => {
        const a = await store.createAccount({ name: unique('hold'), credit_micros: 1_000_000 });
        const hold = { units: 20_000, cls: 'ai_tokens' as const, quota: 30_000 };
        expect(await debit(a.id, 200_000, { ...hold, reference: 'job_1:hold' })).toEqual({ ok: true, balance_micros: 800_000 });
        // A second hold would pass the quota: refused.
        expect((await debit(a.id, 200_000, hold)).ok).toBe(false);
        const refund = { account_id: a.id, usage_class: 'ai_tokens' as const, units: 18_500, amount_micros: 185_000, period: PERIOD, refund: true };
        expect(await store.debit({ ...refund, reference: 'job_1:settle' })).toEqual({ ok: true, balance_micros: 985_000 });
        expect(await store.debit({ ...refund, reference: 'job_1:settle' })).toEqual({ ok: true, balance_micros: 985_000 });
        expect((await store.usage(a.id, PERIOD)).by_class.ai_tokens).toEqual({ units: 1_500, amount_micros: 15_000 });
        expect((await debit(a.id, 200_000, hold)).ok).toBe(true);
        if (ledgerOf) {
          const rows = (await ledgerOf(a.id)).filter((r) => r.usage_class === 'ai_tokens');
          expect(rows.map((r) => [r.amount_micros, r.reference])).toEqual([
            [-200_000, 'job_1:hold'],
            [185_000, 'job_1:settle'],
            [-200_000, null],
          ]);
        }
        await expect(store.debit({ ...refund, units: -1 })).rejects.toThrow(RangeError);
      });

      it.skipIf(!ledgerOf)('keeps a refund its own ledger entry when a charge of the same class commits with it', async () => {
        const a = await store.createAccount({ name: unique('net'), credit_micros: 100_000 });
        expect(await debit(a.id, 2_000)).toEqual({ ok: true, balance_micros: 98_000 });
        // One batch: the refund of that price and a new charge of the same class (as when a part lookup that
        // held its price at admission fails while another succeeds).
        const both = await Promise.all([
          store.debit({ account_id: a.id, usage_class: 'part_records', units: 1, amount_micros: 2_000, period: PERIOD, refund: true }),
          debit(a.id, 2_000),
        ]);
        expect(both).toEqual([
          { ok: true, balance_micros: 100_000 },
          { ok: true, balance_micros: 98_000 },
        ]);
        const rows = (await ledgerOf!(a.id)).filter((r) => r.usage_class === 'part_records');
        expect(rows.map((r) => [r.amount_micros, r.balance_after])).toEqual([
          [-2_000, 98_000],
          [2_000, 100_000],
          [-2_000, 98_000],
        ]);
        expect((await store.usage(a.id, PERIOD)).by_class.part_records).toEqual({ units: 1, amount_micros: 2_000 });
        // A refund paying for a charge of the same batch: no entry shows a balance the account never had.
        const b = await store.createAccount({ name: unique('net'), credit_micros: 2_000 });
        const refund = { account_id: b.id, usage_class: 'part_records' as const, units: 1, amount_micros: 2_000, period: PERIOD, refund: true };
        expect(await Promise.all([debit(b.id, 2_000), store.debit(refund), debit(b.id, 2_000)])).toEqual([
          { ok: true, balance_micros: 0 },
          { ok: true, balance_micros: 2_000 },
          { ok: true, balance_micros: 0 },
        ]);
        const chain = (await ledgerOf!(b.id)).map((r) => [r.amount_micros, r.balance_after]);
        expect(chain).toEqual([
          [2_000, 2_000], // the initial credit
          [2_000, 4_000],
          [-4_000, 0],
        ]);
      });

      it('enforces the monthly quota atomically with the balance (per class and period)', async () => {
        const a = await store.createAccount({ name: unique('quota') });
        expect((await debit(a.id, 600, { units: 6, quota: 10 })).ok).toBe(true);
        expect(await debit(a.id, 500, { units: 5, quota: 10 })).toEqual({ ok: false, reason: 'usage_limit_exceeded', balance_micros: 4_999_400 });
        expect(await debit(a.id, 400, { units: 4, quota: 10 })).toEqual({ ok: true, balance_micros: 4_999_000 });
        expect((await debit(a.id, 100, { units: 1, quota: 10 })).ok).toBe(false);
        // Other class, other period: their own quota.
        expect((await debit(a.id, 100, { units: 1, quota: 10, cls: 'ai_tokens' })).ok).toBe(true);
        expect((await debit(a.id, 100, { units: 10, quota: 10, period: '2026-12' })).ok).toBe(true);
        // No quota given: unlimited.
        expect((await debit(a.id, 100, { units: 1000 })).ok).toBe(true);
        const u = await store.usage(a.id, PERIOD);
        expect(u.by_class.part_records).toEqual({ units: 1010, amount_micros: 1_100 });
        // Quota 0 refuses any units.
        expect((await debit(a.id, 0, { units: 1, quota: 0, cls: 'graphql_parts' })).ok).toBe(false);
      });

      it('applies a debit with the same reference once', async () => {
        const a = await store.createAccount({ name: unique('idem'), credit_micros: 1_000_000 });
        const b = await store.createAccount({ name: unique('idem-b'), credit_micros: 1_000_000 });
        const ref = unique('job');
        expect(await debit(a.id, 250_000, { units: 25, reference: ref })).toEqual({ ok: true, balance_micros: 750_000 });
        expect(await debit(a.id, 250_000, { units: 25, reference: ref })).toEqual({ ok: true, balance_micros: 750_000 });
        expect(await debit(a.id, 100_000, { units: 10 })).toEqual({ ok: true, balance_micros: 650_000 });
        expect(await debit(a.id, 250_000, { units: 25, reference: ref })).toEqual({ ok: true, balance_micros: 650_000 });
        expect((await store.usage(a.id, PERIOD)).by_class.part_records).toEqual({ units: 35, amount_micros: 350_000 });
        // References are per account.
        expect(await debit(b.id, 250_000, { units: 25, reference: ref })).toEqual({ ok: true, balance_micros: 750_000 });
        // A refused debit does not consume its reference.
        const ref2 = unique('job');
        expect((await debit(a.id, 5_000_000, { reference: ref2 })).ok).toBe(false);
        await store.addCredit(a.id, 5_000_000);
        expect(await debit(a.id, 5_000_000, { reference: ref2 })).toEqual({ ok: true, balance_micros: 650_000 });
      });

      it('rejects malformed debits and unknown accounts', async () => {
        const a = await store.createAccount({ name: unique('bad-debit') });
        await expect(debit(a.id, -1)).rejects.toThrow(RangeError);
        await expect(debit(a.id, 1.5)).rejects.toThrow(RangeError);
        await expect(debit(a.id, 1, { units: -1 })).rejects.toThrow(RangeError);
        await expect(debit(a.id, 1, { cls: 'nope' as UsageClass })).rejects.toThrow(RangeError);
        await expect(debit('acc_aaaaaaaaaaaaaaaaaaaa', 1)).rejects.toThrow(/unknown account/);
        expect((await store.getAccount(a.id))?.balance_micros).toBe(5_000_000);
      });

      it('usage() sums per class for a period, with every class present', async () => {
        const a = await store.createAccount({ name: unique('usage'), credit_micros: 10_000_000 });
        await debit(a.id, 2_000, { units: 1, cls: 'part_records' });
        await debit(a.id, 3_000, { units: 2, cls: 'part_records' });
        await debit(a.id, 10_000, { units: 1_000, cls: 'ai_tokens' });
        await debit(a.id, 250, { units: 250, cls: 'match_lines' });
        await debit(a.id, 99, { units: 1, cls: 'graphql_parts', period: '2026-10' });
        const u = await store.usage(a.id, PERIOD);
        expect(u.period).toBe(PERIOD);
        expect(Object.keys(u.by_class).sort()).toEqual([...USAGE_CLASSES].sort());
        expect(u.by_class).toEqual({
          part_records: { units: 3, amount_micros: 5_000 },
          ai_tokens: { units: 1_000, amount_micros: 10_000 },
          match_lines: { units: 250, amount_micros: 250 },
          graphql_parts: { units: 0, amount_micros: 0 },
        });
        expect((await store.usage(a.id, '2026-10')).by_class.graphql_parts).toEqual({ units: 1, amount_micros: 99 });
        expect((await store.usage(a.id, '1999-01')).by_class.part_records).toEqual({ units: 0, amount_micros: 0 });
        expect((await store.getAccount(a.id))?.balance_micros).toBe(10_000_000 - 15_349);
      });

      it('countRequest counts per account and period', async () => {
        const a = await store.createAccount({ name: unique('count-a') });
        const b = await store.createAccount({ name: unique('count-b') });
        expect(await store.countRequest(a.id, PERIOD)).toBe(1);
        expect(await store.countRequest(a.id, PERIOD)).toBe(2);
        expect(await store.countRequest(a.id, PERIOD)).toBe(3);
        expect(await store.countRequest(a.id, '2026-12')).toBe(1);
        expect(await store.countRequest(b.id, PERIOD)).toBe(1);
        const counts = await Promise.all(Array.from({ length: 50 }, () => store.countRequest(b.id, PERIOD)));
        expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
        await expect(store.countRequest('acc_aaaaaaaaaaaaaaaaaaaa', PERIOD)).rejects.toThrow(/unknown account/);
      });

      it('concurrency: 200 parallel debits through two instances -> exactly 100 succeed, balance exactly 0', async () => {
        const a = await store.createAccount({ name: unique('race'), credit_micros: 1_000_000 });
        const second = await open();
        extra.push(second);
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            (i % 2 === 0 ? store : second).debit({ account_id: a.id, usage_class: 'part_records', units: 1, amount_micros: 10_000, period: PERIOD }),
          ),
        );
        const ok = results.filter((r) => r.ok);
        expect(ok).toHaveLength(100);
        expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'insufficient_credit')).toBe(true);
        // Every successful debit saw a distinct balance: 990_000 ... 0.
        expect(ok.map((r) => r.balance_micros).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i * 10_000));
        expect((await store.getAccount(a.id))?.balance_micros).toBe(0);
        expect((await second.getAccount(a.id))?.balance_micros).toBe(0);
        expect((await store.usage(a.id, PERIOD)).by_class.part_records).toEqual({ units: 100, amount_micros: 1_000_000 });
      });

      it('concurrency: parallel debits with one reference are applied once', async () => {
        const a = await store.createAccount({ name: unique('race-ref'), credit_micros: 1_000_000 });
        const second = await open();
        extra.push(second);
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            (i % 2 === 0 ? store : second).debit({
              account_id: a.id,
              usage_class: 'ai_tokens',
              units: 5,
              amount_micros: 10_000,
              period: PERIOD,
              reference: 'same',
            }),
          ),
        );
        expect(results.every((r) => r.ok)).toBe(true);
        expect((await store.getAccount(a.id))?.balance_micros).toBe(990_000);
        expect((await store.usage(a.id, PERIOD)).by_class.ai_tokens).toEqual({ units: 5, amount_micros: 10_000 });
      });
    });
  });
}
