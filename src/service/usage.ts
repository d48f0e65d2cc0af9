/** An account's usage per metered class in the current billing period (UTC month), its balance and subscription (REST GET /v1/usage). */
import { periodOf, usd } from '../accounts/billing.ts';
import { USAGE_CLASSES, type Account } from '../accounts/port.ts';
import type { UsageDeps } from './deps.ts';

/** `account`: as the caller was admitted; its balance and subscription are read afresh. */
export async function currentUsage(deps: UsageDeps, account: Account) {
  const period = periodOf();
  const u = await deps.accounts.usage(account.id, period.key);
  const fresh = await deps.accounts.getAccount(account.id);
  return {
    period: { start: period.start, end: period.end },
    usage: Object.fromEntries(USAGE_CLASSES.map((c) => [c, { units: u.by_class[c].units, amount_usd: usd(u.by_class[c].amount_micros) }])),
    monthly_request_cap: deps.billing.monthlyRequestCap,
    balance_usd: usd(fresh?.balance_micros ?? account.balance_micros),
    subscription: fresh?.subscription ?? account.subscription,
  };
}
