/**
 * Admission of one guarded request: the throttle hit for the presented credential, the key and its
 * account, and the monthly request count, as one port so that an adapter can do all three in one
 * round trip (Redis: src/accounts/redis/gate.ts). The HTTP guard turns an Admission into 429 / 401 /
 * 403 / 402 answers; this layer decides nothing about HTTP.
 *
 * `createGate` composes any AccountStore with any Throttle (the embedded default: SQLite accounts and
 * the in-process throttle, where each step is a local call).
 *
 * Throttle buckets: a key this gate has seen authenticate is counted in its own window before it is
 * judged again (and falls back to the other way once it fails). Any other credential (none, malformed,
 * unknown or forged, or a key not yet seen here) is judged only while the client address has failed
 * authentications to spare (`failures`, at `defaultLimit` a window), and counted there when it fails:
 * a flood of random keys is throttled per client, not one bucket per key, and beyond its budget an
 * address's new credentials are refused unjudged, so the refusal tells nothing about them. A valid
 * key is counted in its own window only.
 */
import type { Account, AccountStore, ApiKeyInfo, DebitResult, LocalAccountStore, LocalThrottle, Throttle, ThrottleDecision, UsageClass } from './port.ts';

export interface AdmitRequest {
  /** Throttle bucket of the presented credential (of the client address when there is none). */
  bucket: string;
  /** Throttle bucket of the client address's failed authentications (see the header). */
  failures: string;
  /** The presented key, or null when none was presented. */
  secret: string | null;
  /** The account store's keyHash(secret) (null: malformed), when the caller has it already; else the gate asks the store. */
  keyHash?: string | null;
  /** Throttle limit of the failures bucket. */
  defaultLimit: number;
  windowMs: number;
  /** Billing period key of the monthly request cap ("2026-11"). */
  period: string;
  /** The request counts against the monthly cap only when admitted and the key may use the route. */
  countsFor(key: ApiKeyInfo): boolean;
  /**
   * A paid request's price, to be debited with the admission when the gate can (the Redis gate: in the
   * same script, saving the request a second round trip). Applied only to a request that passes every
   * check before payment (admitted by the throttle, a valid key that may use the route, the account
   * subscribed and within `monthlyCap` requests) on an account whose balance covers at least
   * PRECHARGE_HEADROOM such prices.
   */
  charge?: PreCharge;
}

/**
 * A price is taken at admission only from a balance at least this many times the price: a price held by a
 * call that then fails is unavailable to the account's other calls until it is given back, and with this
 * margin only that many failing calls in flight at once could make another call short of credit.
 */
export const PRECHARGE_HEADROOM = 100;

export interface PreCharge {
  usage_class: UsageClass;
  units: number;
  amount_micros: number;
  /** Monthly quota of the class in units (null: none). */
  quota: number | null;
  /** The monthly request cap: a request over it is refused (429), so not charged. */
  monthlyCap: number;
}

export interface Admission {
  throttle: ThrottleDecision;
  /** The valid, unrevoked key and its account; null otherwise. */
  auth: { key: ApiKeyInfo; account: Account } | null;
  /** Monthly request count after this request, or null when it was not counted. */
  requests: number | null;
  /**
   * The outcome of the request's `charge`: the debit's result when the gate applied it (refused:
   * nothing was charged), null when it did not apply (a check before payment failed), undefined when
   * this gate does not charge at admission (the caller debits after the work, as for any charge).
   */
  charged?: DebitResult | null;
}

export interface Gate {
  admit(req: AdmitRequest): Promise<Admission>;
  /** The same admission without waiting, when every step is in this process (SQLite and the memory throttle). */
  admitNow?(req: AdmitRequest): Admission;
  close(): Promise<void>;
}

/** Largest number of remembered per-key limits before the memory is cleared. */
const KNOWN_LIMITS_MAX = 100_000;

const isLocal = (accounts: AccountStore, throttle: Throttle): [LocalAccountStore, LocalThrottle] | null =>
  'authenticateNow' in accounts && 'countRequestNow' in accounts && 'hitNow' in throttle && 'peekNow' in throttle
    ? [accounts as LocalAccountStore, throttle as LocalThrottle]
    : null;

/** The key and account of an admission's presented secret, from an in-process store. */
const judgeNow = (store: LocalAccountStore, r: AdmitRequest): Admission['auth'] =>
  r.secret === null ? null : store.authenticateNow(r.secret, r.keyHash ?? undefined);

/**
 * The gate over separate ports. Does not own them: closing it closes nothing. Over in-process ports it
 * also admits synchronously (`admitNow`), in the same steps.
 */
export function createGate(accounts: AccountStore, throttle: Throttle): Gate {
  // Per-bucket limits learnt from authentication: the buckets of keys seen to authenticate, whose
  // requests are counted in their own window before the key is judged (see the header).
  const knownLimits = new Map<string, number>();
  const remember = (bucket: string, auth: Admission['auth']) => {
    if (!auth) return;
    if (knownLimits.size >= KNOWN_LIMITS_MAX) knownLimits.clear();
    knownLimits.set(bucket, auth.key.rate_limit_per_minute);
  };
  const local = isLocal(accounts, throttle);
  const admitNow = local
    ? (r: AdmitRequest): Admission => {
        const [store, memory] = local;
        // As admit, step for step.
        const known = knownLimits.get(r.bucket);
        let t: ThrottleDecision;
        let auth: Admission['auth'];
        if (known !== undefined) {
          t = memory.hitNow(r.bucket, known, r.windowMs);
          auth = judgeNow(store, r);
          if (!auth) {
            knownLimits.delete(r.bucket);
            if (t.allowed) t = memory.hitNow(r.failures, r.defaultLimit, r.windowMs);
          }
        } else {
          const room = memory.peekNow(r.failures, r.defaultLimit, r.windowMs);
          if (!room.allowed) return { throttle: room, auth: null, requests: null };
          auth = judgeNow(store, r);
          t = auth ? memory.hitNow(r.bucket, auth.key.rate_limit_per_minute, r.windowMs) : memory.hitNow(r.failures, r.defaultLimit, r.windowMs);
        }
        remember(r.bucket, auth);
        const requests = auth && t.allowed && r.countsFor(auth.key) ? store.countRequestNow(auth.account.id, r.period) : null;
        return { throttle: t, auth, requests };
      }
    : undefined;
  if (admitNow) return { admitNow, admit: async (r) => admitNow(r), async close() {} };
  const judge = (r: AdmitRequest) => (r.secret === null ? null : accounts.authenticate(r.secret, r.keyHash ?? undefined));
  return {
    async admit(r) {
      const known = knownLimits.get(r.bucket);
      let auth: Admission['auth'];
      let t: ThrottleDecision;
      if (known !== undefined) {
        // A key seen to authenticate: counted in its window (before, or while, it is judged again).
        [t, auth] = await Promise.all([throttle.hit(r.bucket, known, r.windowMs), judge(r)]);
        if (!auth) {
          knownLimits.delete(r.bucket);
          if (t.allowed) t = await throttle.hit(r.failures, r.defaultLimit, r.windowMs);
        }
      } else {
        // Any other credential: judged only while the address has failures to spare; a failure counts there.
        const room = await throttle.peek(r.failures, r.defaultLimit, r.windowMs);
        if (!room.allowed) return { throttle: room, auth: null, requests: null };
        auth = await judge(r);
        t = await (auth ? throttle.hit(r.bucket, auth.key.rate_limit_per_minute, r.windowMs) : throttle.hit(r.failures, r.defaultLimit, r.windowMs));
      }
      remember(r.bucket, auth);
      const requests = auth && t.allowed && r.countsFor(auth.key) ? await accounts.countRequest(auth.account.id, r.period) : null;
      return { throttle: t, auth, requests };
    },
    async close() {},
  };
}
