/**
 * supMultiMatch: BOM lines to parts, one SupPartMatch per line in order; a line's matches are the use case
 * supplyMatchLine's (src/service/supply-match.ts). `hits` counts them, `parts` is the page
 * start..start+limit (limit 0-20, default 3), paid per part.
 *
 * Lines are matched side by side (at most LINE_CONCURRENCY at a time), each with its records in its own
 * lookup. A line without an MPN, or with only a SKU (the catalogue matches by MPN), matches nothing and
 * says why in `error`, as does a line whose parts were capped to what the account can pay for.
 */
import type { GraphQLResolveInfo } from 'graphql/index.js';
import { normaliseMpn } from '../../catalog/mpn.ts';
import { supplyMatchLine } from '../../service/supply-match.ts';
import { intArg } from '../args.ts';
import { capWarning, moneyFor, take, warn, type GraphQLContext } from '../context.ts';
import { supFilters } from '../filters.ts';
import { selectsPath } from '../selection.ts';
import { PartNode } from '../types/part.ts';
import { validationError } from '../../errors.ts';

/** Most lines in one request (as one REST batch). */
export const MAX_MATCH_LINES = 250;
const LINE_CONCURRENCY = 8;

export interface MatchQueryArgs {
  mpn?: string | null;
  sku?: string | null;
  mpnOrSku?: string | null;
  manufacturer?: string | null;
  seller?: string | null;
  start: number;
  limit: number;
  reference?: string | null;
}

export interface MultiMatchArgs {
  queries: MatchQueryArgs[];
  options?: { requireAuthorizedSellers?: boolean | null; requireStockAvailable?: boolean | null; filters?: unknown } | null;
  currency: string;
}

/** Runs `work` over `items` with at most `n` at a time, answers in order. */
async function bounded<T, R>(items: readonly T[], n: number, work: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
  return out;
}

export async function supMultiMatch(args: MultiMatchArgs, ctx: GraphQLContext, info: GraphQLResolveInfo) {
  if (args.queries.length > MAX_MATCH_LINES) {
    throw validationError([{ loc: ['queries'], msg: `must hold at most ${MAX_MATCH_LINES} lines`, type: 'value_error', ctx: { max_items: MAX_MATCH_LINES } }]);
  }
  const lines = args.queries.map((q, i) => ({
    q,
    start: intArg(['queries', i, 'start'], q.start, 0, 0, 100),
    limit: intArg(['queries', i, 'limit'], q.limit, 3, 0, 20),
  }));
  const f = supFilters(ctx.view, args.options?.filters ?? null, { inStockOnly: args.options?.requireStockAvailable });
  for (const w of f.warnings) warn(ctx, w);
  const money = moneyFor(ctx, args.currency);
  const showsParts = selectsPath(info.fieldNodes, info.fragments, info.variableValues, ['parts']);
  const matched = await bounded(lines, LINE_CONCURRENCY, async ({ q, start, limit }) => {
    const mpn = (q.mpn ?? q.mpnOrSku ?? '').trim();
    if (!normaliseMpn(mpn)) {
      const error = q.sku ? 'The catalogue matches by MPN, not by seller SKU: send mpn or mpnOrSku.' : 'The query has no MPN to match.';
      return { q, parts: [], start, limit, error };
    }
    const parts = await supplyMatchLine(ctx.s, ctx.view, {
      mpn,
      manufacturer: q.manufacturer,
      window: Math.min(50, Math.max(10, start + limit)),
      filters: f.filters,
      withOffers: args.options?.requireAuthorizedSellers === true,
    });
    return { q, parts, start, limit, error: null as string | null };
  });
  return matched.map((m, i) => {
    const hits = m.parts.length;
    let shown = m.parts.slice(m.start, m.start + m.limit);
    let error = m.error;
    if (showsParts) {
      const k = take(ctx, shown.length);
      if (k < shown.length) {
        error = capWarning(`supMultiMatch line ${i}`, k, shown.length);
        warn(ctx, error);
      }
      shown = shown.slice(0, k);
    }
    return {
      reference: m.q.reference ?? null,
      hits,
      parts: shown.map((r) => new PartNode(r, { ctx, money })),
      error,
      errorString: error,
    };
  });
}
