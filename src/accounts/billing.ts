/**
 * Prices, quotas and periods. Prices are per unit in micro-USD (AI tokens: per 1,000 tokens),
 * configured by PRICES_USD; monthly quotas by MONTHLY_QUOTAS. The billing period is the UTC
 * calendar month.
 */
import type { AccountStore, DebitResult, UsageClass } from './port.ts';

export interface BillingConfig {
  /** micro-USD per unit; ai_tokens per 1,000 tokens. */
  prices: Record<UsageClass, number>;
  /** Monthly quota in units per class (absent: none). */
  quotas: Partial<Record<UsageClass, number>>;
  /** Monthly anti-abuse cap on REST requests per account. */
  monthlyRequestCap: number;
  /** Default per-key throttle (requests per 60 s); also for requests without a valid key. */
  defaultRateLimitPerMinute: number;
}

export const DEFAULT_PRICES_USD: Record<UsageClass, number> = {
  part_records: 0.002,
  ai_tokens: 0.01,
  match_lines: 0.001,
  graphql_parts: 0.002,
};

export const usd = (micros: number): number => Math.round(micros) / 1_000_000;
export const micros = (dollars: number): number => Math.round(dollars * 1_000_000);

/** Price of `units` of a class, micro-USD (AI tokens priced per 1,000). */
export function priceOf(cfg: BillingConfig, cls: UsageClass, units: number): number {
  const unitPrice = cfg.prices[cls];
  return Math.round(cls === 'ai_tokens' ? (unitPrice * units) / 1000 : unitPrice * units);
}

export function periodOf(date = new Date()): { key: string; start: string; end: string; secondsLeft: number } {
  const start = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const end = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
  return {
    key: `${start.getUTCFullYear()}-${String(start.getUTCMonth() + 1).padStart(2, '0')}`,
    start: start.toISOString(),
    end: end.toISOString(),
    secondsLeft: Math.max(1, Math.ceil((end.getTime() - date.getTime()) / 1000)),
  };
}

let periodMemo: { key: string; start: string; end: string; startMs: number; endMs: number } | null = null;

/** `periodOf(now)` for the hot path: the period's strings are computed once per month, not per request. */
export function currentPeriod(nowMs = Date.now()): { key: string; start: string; end: string; secondsLeft: number } {
  if (!periodMemo || nowMs < periodMemo.startMs || nowMs >= periodMemo.endMs) {
    const p = periodOf(new Date(nowMs));
    periodMemo = { key: p.key, start: p.start, end: p.end, startMs: Date.parse(p.start), endMs: Date.parse(p.end) };
  }
  const m = periodMemo;
  return { key: m.key, start: m.start, end: m.end, secondsLeft: Math.max(1, Math.ceil((m.endMs - nowMs) / 1000)) };
}

/**
 * Debits `units` of a class at its configured price, under the class's monthly quota, in the current
 * billing period: what the HTTP charge and an AI job's hold both do. Returns the debit's result with the
 * amount and period it was for.
 */
export async function debitAtPrice(
  accounts: AccountStore,
  cfg: BillingConfig,
  accountId: string,
  cls: UsageClass,
  units: number,
  reference?: string,
): Promise<{ result: DebitResult; amount_micros: number; period: string }> {
  const amount_micros = priceOf(cfg, cls, units);
  const period = currentPeriod().key;
  const result = await accounts.debit({
    account_id: accountId,
    usage_class: cls,
    units,
    amount_micros,
    monthly_quota_units: cfg.quotas[cls] ?? null,
    period,
    ...(reference === undefined ? {} : { reference }),
  });
  return { result, amount_micros, period };
}
