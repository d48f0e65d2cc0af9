/**
 * supSearchMpn and supSearch. Both filter (filters.ts) and page (start, limit); their sets are the use
 * cases' of src/service/supply-search.ts:
 *
 *   supSearchMpn(q): the MPN search (supplyMpnPage).
 *   supSearch(q), and either without q: the text search (supplyTextPage). A q that is one word of
 *     letters and digits ("LM1117", "ESP32-C3") is first read as an MPN: when MPNs are, start with or
 *     extend it (exact, variant or prefix tiers), the answer is supSearchMpn's, since the text index
 *     holds MPNs as whole words and a part number's prefix would find nothing there.
 *
 * The page is cut to the parts the account can pay for when `results` is selected (context.ts).
 */
import { supplyMpnPage, supplyTextPage, type SupplyPage } from '../../service/supply-search.ts';
import { page } from '../args.ts';
import { capWarning, moneyFor, take, warn, type GraphQLContext } from '../context.ts';
import { noRateWarning } from '../currency.ts';
import { supFilters } from '../filters.ts';
import { selectsPath } from '../selection.ts';
import { ResultSetNode } from '../types/results.ts';
import type { GraphQLResolveInfo } from 'graphql/index.js';

export interface SearchArgs {
  q?: string | null;
  country: string;
  currency: string;
  start?: number | null;
  limit?: number | null;
  sort?: string | null;
  sortDir?: 'asc' | 'desc' | null;
  inStockOnly?: boolean | null;
  filters?: unknown;
}

/** One word of letters and digits (and the punctuation of part numbers) holding both: read as an MPN first by supSearch. */
const PART_NUMBER = /^(?=[^\s]*\p{L})(?=[^\s]*\p{N})[\p{L}\p{N}\-_./#+]{3,60}$/u;

/** Fields of a result set that need its size or its members beyond the page (an MPN search counts them then). */
const SET_FIELDS = ['hits', 'total', 'specAggs', 'manufacturerAgg', 'categoryAgg', 'inStockAgg', 'suggestedCategories', 'suggestedFilters', 'allFilters'];

function search(kind: 'supSearchMpn' | 'supSearch') {
  return async (args: SearchArgs, ctx: GraphQLContext, info: GraphQLResolveInfo): Promise<ResultSetNode> => {
    const { start, limit } = page(args);
    const f = supFilters(ctx.view, args.filters, { inStockOnly: args.inStockOnly });
    const warnings = [...f.warnings];
    if (args.sort) warnings.push(`sort "${args.sort}" was ignored: results are in relevance order (without q, most stock first).`);
    const currency = args.currency.trim().toUpperCase();
    if (ctx.s.config.currencyRates[currency] === undefined) warnings.push(noRateWarning(currency));
    const q = args.q?.trim() || null;
    let found: SupplyPage | null = null;
    const countHits = SET_FIELDS.some((field) => selectsPath(info.fieldNodes, info.fragments, info.variableValues, [field]));
    if (q && kind === 'supSearchMpn') found = await supplyMpnPage(ctx.s, q, f.filters, start, limit, countHits);
    else if (q && PART_NUMBER.test(q)) {
      const asMpn = await supplyMpnPage(ctx.s, q, f.filters, start, limit, countHits);
      if (asMpn.strong) found = asMpn;
    }
    found ??= await supplyTextPage(ctx.s, q, f.filters, start, limit);
    let shown = found.page;
    if (selectsPath(info.fieldNodes, info.fragments, info.variableValues, ['results'])) {
      const k = take(ctx, shown.length);
      if (k < shown.length) warnings.push(capWarning(kind, k, shown.length));
      shown = shown.slice(0, k);
    }
    for (const w of warnings) warn(ctx, w);
    return new ResultSetNode({
      scope: { ctx, money: moneyFor(ctx, currency) },
      hits: found.hits,
      page: shown,
      akaMpn: found.akaMpn,
      counts: found.counts,
      applied: f.applied,
      categorySlug: f.categorySlug,
      warnings,
    });
  };
}

export const supSearchMpn = search('supSearchMpn');
export const supSearch = search('supSearch');
