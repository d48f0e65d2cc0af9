/**
 * Ports of the account layer: accounts with a dollar credit balance and a subscription flag, API
 * keys (only a keyed hash is stored), the usage ledger, and the per-key sliding-window throttle.
 * Adapters: SQLite (embedded default; exact within one process) and Redis (shared by every API
 * process; exact across processes through one atomic script per operation). One contract suite
 * (test/contract/accounts.contract.ts) runs against both.
 *
 * Money is kept in micro-dollars (integers: 1 USD = 1_000_000) so that sums are exact.
 */

export type Capability = 'parts:read' | 'ai:run';
export const CAPABILITIES: readonly Capability[] = ['parts:read', 'ai:run'];

/** Metered usage classes (SPEC.md Limits, "Usage metering"). */
export type UsageClass = 'part_records' | 'ai_tokens' | 'match_lines' | 'graphql_parts';
export const USAGE_CLASSES: readonly UsageClass[] = ['part_records', 'ai_tokens', 'match_lines', 'graphql_parts'];

export interface Account {
  id: string; // "acc_" + opaque
  name: string;
  subscription: boolean;
  /** Remaining credit, micro-USD. */
  balance_micros: number;
  created_at: string;
}

export interface ApiKeyInfo {
  id: string; // "key_" + opaque; never the secret
  account_id: string;
  name: string;
  capabilities: Capability[];
  rate_limit_per_minute: number;
  /** First characters of the key, for recognising it in listings (e.g. "psk_AbCdEfGh"). */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface CreatedKey {
  key: ApiKeyInfo;
  /** The secret, shown once. */
  secret: string;
}

export interface DebitRequest {
  account_id: string;
  usage_class: UsageClass;
  units: number;
  /** Price of these units, micro-USD (>= 0). */
  amount_micros: number;
  /** Monthly quota of this class in units (null: none). Checked atomically with the balance. */
  monthly_quota_units?: number | null;
  /** Billing period key, e.g. "2026-11" (UTC month). */
  period: string;
  /** Idempotency: a debit with the same reference (per account) is applied once. */
  reference?: string;
  /**
   * Gives back `units` and `amount_micros` of an earlier debit instead (the unused part of an AI job's
   * hold: jobs/lifecycle.ts settle): the balance rises, the class's usage falls; never refused.
   */
  refund?: boolean;
}

/** The caller a request was admitted for (the HTTP guard's `ctx.state.auth`): the key it presented and the key's account. */
export interface AuthState {
  key: ApiKeyInfo;
  account: Account;
}

export type DebitResult = { ok: true; balance_micros: number } | { ok: false; reason: 'insufficient_credit' | 'usage_limit_exceeded'; balance_micros: number };

export interface UsageSummary {
  period: string;
  by_class: Record<UsageClass, { units: number; amount_micros: number }>;
}

export interface AccountStore {
  createAccount(input: { name: string; subscription?: boolean; credit_micros?: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  /** By id or by exact name. */
  findAccount(idOrName: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  addCredit(accountId: string, micros: number): Promise<Account>;
  setSubscription(accountId: string, on: boolean): Promise<Account>;

  createKey(input: { account_id: string; name: string; capabilities: Capability[]; rate_limit_per_minute: number }): Promise<CreatedKey>;
  listKeys(accountId?: string): Promise<ApiKeyInfo[]>;
  revokeKey(keyId: string): Promise<ApiKeyInfo | null>;
  /** The stored form (keyed hash) of a presented secret, or null when it is malformed. */
  keyHash(secret: string): string | null;
  /**
   * The stored keyed hash of a key, by its id (revoked keys too), or null for an unknown id: what an
   * access token naming the key (accounts/tokens.ts) is admitted by. It never changes for a key.
   */
  keyHashById(keyId: string): Promise<string | null>;
  /**
   * The key and its account for a presented secret, or null (unknown, malformed or revoked). Keys are
   * found by their keyed hash, so no secret is ever compared. `keyHash`: this store's keyHash(secret)
   * when the caller has it already (the HTTP guard remembers it per connection), so that it is not
   * computed twice; only that (never null: keyHash() is null for a malformed secret, whose form is then
   * checked here), since the store may take the secret's form as checked by it.
   */
  authenticate(secret: string, keyHash?: string): Promise<{ key: ApiKeyInfo; account: Account } | null>;

  /** Atomic: never drives the balance below zero, never exceeds the monthly quota. */
  debit(req: DebitRequest): Promise<DebitResult>;
  usage(accountId: string, period: string): Promise<UsageSummary>;
  /** Counts one request against the monthly anti-abuse cap; returns the count after this one. */
  countRequest(accountId: string, period: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * An account store that answers authentication and request counting without I/O (SQLite: a per-process
 * cache and in-memory counts): the same answers as `authenticate` and `countRequest`, synchronously, so
 * that an in-process gate admits a request without a promise per step (src/accounts/gate.ts).
 */
export interface LocalAccountStore extends AccountStore {
  authenticateNow(secret: string, keyHash?: string): { key: ApiKeyInfo; account: Account } | null;
  countRequestNow(accountId: string, period: string): number;
}

export interface ThrottleDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one (0 when refused). */
  remaining: number;
  /** Epoch seconds when the oldest counted request leaves the window. */
  reset: number;
  /** Seconds to wait before retrying (only meaningful when refused), at least 1. */
  retryAfter: number;
}

/** Sliding-window log throttle: at most `limit` admitted requests in any `windowMs`. */
export interface Throttle {
  hit(bucket: string, limit: number, windowMs: number, nowMs?: number): Promise<ThrottleDecision>;
  /**
   * The decision a hit would get now, without counting anything: whether the bucket has room for one
   * more (the guard asks before judging a credential whose failures it must count).
   */
  peek(bucket: string, limit: number, windowMs: number, nowMs?: number): Promise<ThrottleDecision>;
  close(): Promise<void>;
}

/** A throttle kept in this process: `hit`'s and `peek`'s answers, synchronously. */
export interface LocalThrottle extends Throttle {
  hitNow(bucket: string, limit: number, windowMs: number, nowMs?: number): ThrottleDecision;
  peekNow(bucket: string, limit: number, windowMs: number, nowMs?: number): ThrottleDecision;
}
