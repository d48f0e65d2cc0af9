/**
 * What every resolver of one GraphQL request shares: the services, the caller, the catalogue snapshot
 * (read once, before execution), the metering of paid parts, the request's warnings, and the batch
 * loaders that keep resolvers from one round trip per part.
 *
 * Metering: a paid field takes the parts it returns from the request's allowance (the parts the account
 * can still pay for, computed before execution: src/http/routes/graphql.ts); what it cannot take is left out and said in
 * a warning (SPEC.md Errors 4). The parts taken are debited once, after execution.
 */
import type { CatalogView } from '../catalog/view.ts';
import type { AuthState } from '../accounts/port.ts';
import type { AppServices } from '../service/app-services.ts';
import { money, type Money } from './currency.ts';
import { createSimilarLoader, type SimilarLoader } from './similar.ts';

export type GraphQLContext = {
  s: AppServices;
  auth: AuthState;
  view: CatalogView;
  /** Absolute base URL of this service (octopartUrl, clickUrl). */
  baseUrl: string;
  /** When the live index version was loaded (offers' `updated`). */
  loadedAt: string;
  /** Parts the account can still pay for in this request (Infinity when nothing paid is selected). */
  allowance: number;
  /** Paid parts returned so far. */
  paidParts: number;
  /** Every warning of the request, also in the response's extensions. */
  warnings: string[];
  similar: SimilarLoader;
};

export function newContext(s: AppServices, auth: AuthState, view: CatalogView, baseUrl: string, allowance: number): GraphQLContext {
  const ctx: GraphQLContext = {
    s,
    auth,
    view,
    baseUrl,
    loadedAt: view.meta.created_at,
    allowance,
    paidParts: 0,
    warnings: [],
    similar: undefined as unknown as SimilarLoader,
  };
  ctx.similar = createSimilarLoader(ctx);
  return ctx;
}

/** Takes up to `n` paid parts from the allowance; returns how many may be returned. */
export function take(ctx: GraphQLContext, n: number): number {
  const k = Math.max(0, Math.min(n, ctx.allowance - ctx.paidParts));
  ctx.paidParts += k;
  return k;
}

/** A warning of the request (kept once). */
export function warn(ctx: GraphQLContext, message: string): void {
  if (!ctx.warnings.includes(message)) ctx.warnings.push(message);
}

export const capWarning = (what: string, k: number, n: number) =>
  `${what}: ${n - k} of ${n} parts left out: the account's credit or monthly quota covers ${k} more.`;

/** Prices of one root field, converted into the currency it asks for. */
export function moneyFor(ctx: GraphQLContext, currency: string): Money {
  return money(ctx.s.config.currencyRates, currency, (m) => warn(ctx, m));
}
