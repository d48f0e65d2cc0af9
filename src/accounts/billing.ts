/**
 * Prices, quotas and periods. Prices are per unit in micro-USD (AI tokens: per 1,000 tokens),
 * configured by PRICES_USD; monthly quotas by MONTHLY_QUOTAS. The billing period is the UTC
 * calendar month.
 */
import type { UsageClass } from './port.ts';

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
