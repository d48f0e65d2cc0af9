/** Input validation, errors and small helpers shared by the SQLite and Redis account stores. */
import { CAPABILITIES, USAGE_CLASSES, type Capability, type DebitRequest, type UsageClass, type UsageSummary } from './port.ts';

/** Free starting credit of a new account (SPEC.md Limits): 5 USD. */
export const DEFAULT_CREDIT_MICROS = 5_000_000;

export class UnknownAccountError extends Error {
  constructor(readonly accountId: string) {
    super(`unknown account: ${accountId}`);
    this.name = 'UnknownAccountError';
  }
}

export class DuplicateAccountNameError extends Error {
  constructor(readonly accountName: string) {
    super(`an account named "${accountName}" already exists`);
    this.name = 'DuplicateAccountNameError';
  }
}

export function checkMicros(what: string, v: unknown, min = 0): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new RangeError(`accounts: ${what} must be an integer >= ${min} (micro-USD), got ${String(v)}`);
  }
  return v;
}

export function checkCount(what: string, v: unknown, min = 0): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw new RangeError(`accounts: ${what} must be an integer >= ${min}, got ${String(v)}`);
  return v;
}

export function checkText(what: string, v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '') throw new TypeError(`accounts: ${what} must be a non-empty string`);
  return v;
}

/** De-duplicated capabilities in the canonical order; throws on an unknown one. */
export function checkCapabilities(caps: unknown): Capability[] {
  if (!Array.isArray(caps)) throw new TypeError('accounts: capabilities must be an array');
  for (const c of caps) {
    if (!(CAPABILITIES as readonly unknown[]).includes(c)) throw new RangeError(`accounts: unknown capability ${String(c)}`);
  }
  return CAPABILITIES.filter((c) => caps.includes(c));
}

/** Parses a stored capabilities list (JSON array), dropping anything unknown. */
export function parseCapabilities(json: string): Capability[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? CAPABILITIES.filter((c) => v.includes(c)) : [];
  } catch {
    return [];
  }
}

/** `last_used_at` is refreshed at most this often, so authentication is not a write on every request. */
export const LAST_USED_GRANULARITY_MS = 60_000;

/** The last timestamp parsed by needsLastUsedUpdate: a busy key asks about the same one on every request. */
let lastParsed: { text: string; ms: number } = { text: '', ms: NaN };

export function needsLastUsedUpdate(lastUsedAt: string | null, nowMs: number): boolean {
  if (!lastUsedAt) return true;
  if (lastParsed.text !== lastUsedAt) lastParsed = { text: lastUsedAt, ms: Date.parse(lastUsedAt) };
  const t = lastParsed.ms;
  return !Number.isFinite(t) || nowMs - t >= LAST_USED_GRANULARITY_MS;
}

export interface CheckedDebit {
  account_id: string;
  usage_class: UsageClass;
  units: number;
  amount_micros: number;
  quota: number | null;
  period: string;
  reference: string | null;
}

export function checkDebit(req: DebitRequest): CheckedDebit {
  if (!(USAGE_CLASSES as readonly unknown[]).includes(req.usage_class)) throw new RangeError(`accounts: unknown usage class ${String(req.usage_class)}`);
  const quota = req.monthly_quota_units ?? null;
  // A refund is a debit of negative units and amount: both adapters' checks pass it (a balance is never
  // below a negative amount, usage never over its quota by less), and their sums take it back.
  const sign = req.refund === true ? -1 : 1;
  return {
    account_id: checkText('account_id', req.account_id),
    usage_class: req.usage_class,
    units: sign * checkCount('units', req.units),
    amount_micros: sign * checkMicros('amount_micros', req.amount_micros),
    quota: quota === null ? null : checkCount('monthly_quota_units', quota),
    period: checkText('period', req.period),
    reference: req.reference === undefined || req.reference === null ? null : checkText('reference', req.reference),
  };
}

export function emptyUsage(period: string): UsageSummary {
  const by_class = {} as UsageSummary['by_class'];
  for (const c of USAGE_CLASSES) by_class[c] = { units: 0, amount_micros: 0 };
  return { period, by_class };
}
