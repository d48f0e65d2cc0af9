/**
 * The gate contract (admission: throttle step, key, account, monthly request count), run against
 * createGate over SQLite accounts + the memory throttle, and against the Redis gate (REDIS_URL).
 * `open()` returns a gate with the store it reads (and a second store on the same backing, standing
 * for another process or the CLI).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmitRequest, Gate } from '../../src/accounts/gate.ts';
import type { AccountStore, ApiKeyInfo } from '../../src/accounts/port.ts';

export interface GateUnderTest {
  gate: Gate;
  store: AccountStore;
  other: AccountStore;
  close(): Promise<void>;
}

const PERIOD = '2026-11';
const nextTurn = () => new Promise((r) => setImmediate(r));

/** An admission request for `secret` on a bucket of its own, in PERIOD, counted; `more` overrides. */
export const admitRequest = (secret: string | null, more: Partial<AdmitRequest> = {}): AdmitRequest => ({
  bucket: `cred:${randomBytes(8).toString('hex')}`,
  failures: `fail:${randomBytes(8).toString('hex')}`,
  secret,
  defaultLimit: 60,
  windowMs: 60_000,
  period: PERIOD,
  countsFor: () => true,
  ...more,
});

export function gateContract(name: string, open: () => Promise<GateUnderTest>): void {
  describe(`gate contract: ${name}`, () => {
    let t: GateUnderTest;
    beforeAll(async () => {
      t = await open();
    });
    afterAll(async () => {
      await t?.close();
    });

    const req = admitRequest;
    const newKey = async (limit = 5, credit = 1_000) => {
      const account = await t.store.createAccount({ name: `gate-${randomBytes(5).toString('hex')}`, credit_micros: credit });
      const { key, secret } = await t.store.createKey({ account_id: account.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: limit });
      return { account, key, secret };
    };

    it('admits a valid key under its own limit, counts the request, and refuses past the limit', async () => {
      const { account, secret } = await newKey(3);
      const r = req(secret);
      const seen = [];
      for (let i = 0; i < 4; i++) seen.push(await t.gate.admit(r)); // first: key unknown to the gate; then the fast path
      expect(seen.map((a) => a.throttle.allowed)).toEqual([true, true, true, false]);
      expect(seen.map((a) => a.throttle.remaining)).toEqual([2, 1, 0, 0]);
      expect(seen.every((a) => a.throttle.limit === 3)).toBe(true);
      expect(seen.map((a) => a.auth?.account.id)).toEqual([account.id, account.id, account.id, account.id]);
      expect(seen.map((a) => a.requests)).toEqual([1, 2, 3, null]); // a refused request is not counted
    });

    it('takes the keyed hash the guard already derived (as the guard always passes it)', async () => {
      const { account, secret } = await newKey(2);
      const r = req(secret, { keyHash: t.store.keyHash(secret) });
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await t.gate.admit(r));
      expect(seen.map((a) => a.throttle.allowed)).toEqual([true, true, false]);
      expect(seen.map((a) => a.auth?.account.id)).toEqual([account.id, account.id, account.id]);
      // a malformed secret: no hash, refused, still throttled
      const bad = await t.gate.admit(req('not-a-key', { keyHash: null }));
      expect(bad.auth).toBeNull();
      expect(bad.throttle.allowed).toBe(true);
    });

    it('a burst admitted together is decided in arrival order, as one admission after another', async () => {
      const a = await newKey(5);
      const b = await newKey(2);
      const ra = req(a.secret);
      const rb = req(b.secret);
      await t.gate.admit(ra); // the keys become known to the gate (Redis: the fast path, batched per turn)
      await t.gate.admit(rb);
      const burst = await Promise.all([ra, rb, ra, ra, rb, ra, ra, ra].map((r) => t.gate.admit(r)));
      const of = (r: AdmitRequest) => burst.filter((_, i) => [ra, rb, ra, ra, rb, ra, ra, ra][i] === r);
      expect(of(ra).map((x) => x.throttle.allowed)).toEqual([true, true, true, true, false, false]);
      expect(of(ra).map((x) => x.throttle.remaining)).toEqual([3, 2, 1, 0, 0, 0]);
      expect(of(ra).map((x) => x.requests)).toEqual([2, 3, 4, 5, null, null]);
      expect(of(rb).map((x) => x.throttle.allowed)).toEqual([true, false]);
      expect(of(rb).map((x) => x.requests)).toEqual([2, null]);
      expect(burst.every((x) => x.auth !== null)).toBe(true);
      // Reset: when the oldest counted request leaves the window, the same for the whole burst.
      expect(new Set(of(ra).map((x) => x.throttle.reset)).size).toBe(1);
      // The counts were written: the next admission of another turn continues from them.
      await nextTurn();
      const more = await t.gate.admit(req(a.secret, { bucket: `cred:${randomBytes(8).toString('hex')}` }));
      expect(more.requests).toBe(6);
    });

    it('a burst admitted together leaves the window together, and its slots come back', async () => {
      const a = await newKey(4);
      const r = req(a.secret, { windowMs: 400 });
      await t.gate.admit(r); // known to the gate: the rest goes the batched way
      const burst = await Promise.all(Array.from({ length: 5 }, () => t.gate.admit(r)));
      expect(burst.map((x) => x.throttle.allowed)).toEqual([true, true, true, false, false]);
      await new Promise((res) => setTimeout(res, 450));
      // All four counted requests left: four slots, not one.
      const again = await Promise.all(Array.from({ length: 5 }, () => t.gate.admit(r)));
      expect(again.map((x) => x.throttle.allowed)).toEqual([true, true, true, true, false]);
      expect(again.map((x) => x.throttle.remaining)).toEqual([3, 2, 1, 0, 0]);
    });

    it('does not count a request the key may not make, and counts nothing without a valid key', async () => {
      const { secret } = await newKey();
      const denied = await t.gate.admit(req(secret, { countsFor: (k: ApiKeyInfo) => k.capabilities.includes('ai:run') }));
      expect(denied.auth).not.toBeNull();
      expect(denied.requests).toBeNull();
      for (const bad of [null, 'psk_nope', `psk_${'A'.repeat(43)}`]) {
        const a = await t.gate.admit(req(bad));
        expect(a.auth).toBeNull();
        expect(a.requests).toBeNull();
        expect(a.throttle).toMatchObject({ allowed: true, limit: 60, remaining: 59 });
      }
    });

    it('throttles an invalid key under the default limit, per client address', async () => {
      const r = req(`psk_${'B'.repeat(43)}`, { defaultLimit: 2 });
      const allowed = [];
      for (let i = 0; i < 3; i++) allowed.push((await t.gate.admit(r)).throttle.allowed);
      expect(allowed).toEqual([true, true, false]);
    });

    it('counts failed authentications per client address, whatever the credential; a valid key keeps its own window', async () => {
      const failures = `fail:${randomBytes(8).toString('hex')}`;
      const known = await newKey(100);
      // A key the gate has seen authenticate (from this address).
      const knownReq = req(known.secret, { failures, defaultLimit: 3 });
      expect((await t.gate.admit(knownReq)).auth).not.toBeNull();
      // Random keys, each of its own bucket, none, and a malformed one: one budget of 3 for the address.
      const random = () => req(`psk_${randomBytes(32).toString('base64url')}`, { failures, defaultLimit: 3 });
      const seen = [];
      for (const r of [random(), req(null, { failures, defaultLimit: 3 }), req('not-a-key', { failures, defaultLimit: 3 }), random(), random()]) {
        seen.push(await t.gate.admit(r));
      }
      expect(seen.map((a) => [a.throttle.allowed, a.throttle.remaining, a.auth])).toEqual([
        [true, 2, null],
        [true, 1, null],
        [true, 0, null],
        [false, 0, null],
        [false, 0, null],
      ]);
      expect(seen[3]!.throttle.retryAfter).toBeGreaterThanOrEqual(59);
      // The known key is counted in its own window, not the address's.
      const again = await t.gate.admit(knownReq);
      expect([again.throttle.allowed, again.throttle.limit, again.auth?.key.id]).toEqual([true, 100, known.key.id]);
      // A valid key the gate has not seen is refused unjudged while the address has no failures to spare:
      // its answer is the same as a wrong key's.
      const fresh = await newKey(100);
      const unjudged = await t.gate.admit(req(fresh.secret, { failures, defaultLimit: 3 }));
      expect([unjudged.throttle.allowed, unjudged.auth, unjudged.requests]).toEqual([false, null, null]);
      // From another address it is judged and counted in its own window.
      const elsewhere = await t.gate.admit(req(fresh.secret));
      expect([elsewhere.throttle.allowed, elsewhere.throttle.limit, elsewhere.auth?.key.id]).toEqual([true, 100, fresh.key.id]);
    });

    it('a key revoked after it was seen is counted as a failure of its address from then on', async () => {
      const failures = `fail:${randomBytes(8).toString('hex')}`;
      const { key, secret } = await newKey(100);
      const r = req(secret, { failures, defaultLimit: 2 });
      await t.gate.admit(r);
      await t.gate.admit(r);
      await t.other.revokeKey(key.id);
      await nextTurn();
      const after = [];
      for (let i = 0; i < 4; i++) after.push(await t.gate.admit(r));
      expect(after.map((a) => a.auth)).toEqual([null, null, null, null]);
      expect(after.map((a) => a.throttle.allowed)).toEqual([true, true, false, false]);
    });

    it('reads balance and subscription fresh, and refuses a key revoked elsewhere on its next request', async () => {
      const { account, key, secret } = await newKey(100, 500);
      const r = req(secret);
      await t.gate.admit(r);
      expect((await t.gate.admit(r)).auth?.account).toMatchObject({ balance_micros: 500, subscription: false });
      await t.other.addCredit(account.id, 250);
      await t.other.setSubscription(account.id, true);
      await t.other.debit({ account_id: account.id, usage_class: 'part_records', units: 1, amount_micros: 50, period: PERIOD });
      await nextTurn();
      expect((await t.gate.admit(r)).auth?.account).toMatchObject({ balance_micros: 700, subscription: true });
      await t.other.revokeKey(key.id);
      await nextTurn();
      const after = await t.gate.admit(r);
      expect(after.auth).toBeNull();
      expect(after.requests).toBeNull();
    });
  });
}
