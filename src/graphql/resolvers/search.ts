/**
 * supSearchMpn and supSearch. Both filter (filters.ts) and page (start, limit); their sets differ:
 *
 *   supSearchMpn(q): the MPN search of REST's GET /v1/parts/search (tiers: exact, packaging variants and
 *     alternate MPNs, prefix, infix, fuzzy) down to start + limit candidates; `hits` counts those, or the
 *     MPNs starting with q (up to 100), whichever is more. The page's records are read in one call; the
 *     aggregations count the records of those candidates and MPNs.
 *   supSearch(q), and either without q: one engine search (BM25 over the text fields; without text,
 *     the filtered parts most stock first) that returns the page's records with it; `hits` is the set's
 *     size and the aggregations are the engine's facets over the whole set. A q that is one word of
 *     letters and digits ("LM1117", "ESP32-C3") is first read as an MPN: when MPNs are, start with or
 *     extend it (exact, variant or prefix tiers), the answer is supSearchMpn's, since the text index
 *     holds MPNs as whole words and a part number's prefix would find nothing there.
 *
 * The page is cut to the parts the account can pay for when `results` is selected (context.ts).
 */
import { normaliseMpn } from '../../catalog/mpn.ts';
import type { PartRecord } from '../../catalog/part.ts';
import type { EngineFilters } from '../../engines/port.ts';
import { orderCandidates } from '../../service/mpn-search.ts';
import { searchMpn } from '../../search/mpn.ts';
import { engineSet, recordSet, type SetCounts } from '../aggregate.ts';
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

/** MPNs starting with the query that an MPN search counts at most in `hits` (more when start + limit is). */
export const MPN_HITS_WINDOW = 100;

interface Found {
  /** The MPN search found MPNs that are, or start with, the query (exact, variant and prefix tiers). */
  strong?: boolean;
  hits: number;
  page: PartRecord[];
  counts: SetCounts;
  akaMpn?: Map<number, string>;
}

async function mpnSet(ctx: GraphQLContext, q: string, filters: EngineFilters, start: number, limit: number, countHits: boolean): Promise<Found> {
  const { engine } = ctx.s;
  const key = normaliseMpn(q);
  const seen = new Set<number>();
  // The page: the tiers down to start + limit candidates; `hits`: as many, or the MPNs (and alternate
  // MPNs) that start with the query, counted up to MPN_HITS_WINDOW, whichever is more: a broad query
  // pages on without the lower tiers' cost (infix and fuzzy lookups) on every page. The count is made
  // when `hits` is asked for and the page is full (a page the tiers could not fill counted them all).
  const found = await searchMpn(engine, q, { limit: Math.max(start + limit, 1), filters, stems: true });
  const full = new Set(found.map((c) => c.id)).size >= start + limit;
  const starting = key && countHits && full ? await engine.mpnLookup({ key, mode: 'prefix', limit: MPN_HITS_WINDOW, filters }) : [];
  const cands = found.filter((c) => !seen.has(c.id) && seen.add(c.id));
  const records = await engine.getParts(cands.map((c) => c.id));
  const ordered = orderCandidates(cands, records, start + limit, q);
  let all: Promise<PartRecord[]> | null = null;
  const akaMpn = new Map<number, string>();
  const byId = new Map(records.map((r) => [r.id, r]));
  for (const c of cands) {
    const r = byId.get(c.id);
    const alias = r && c.matched !== r.mpn_norm ? r.aliases.find((a) => normaliseMpn(a) === c.matched) : undefined;
    if (alias) akaMpn.set(c.id, alias);
  }
  const prefixIds = new Set(starting.map((h) => h.id));
  const hits = Math.max(cands.length, new Set([...prefixIds, ...cands.filter((c) => c.tier === 'exact' || c.tier === 'variant').map((c) => c.id)]).size);
  return {
    strong: cands.some((c) => c.tier === 'exact' || c.tier === 'variant' || c.tier === 'prefix'),
    hits,
    page: ordered.slice(start, start + limit),
    // Aggregations count the MPNs that start with the query, and the page's candidates.
    counts: recordSet(() => (all ??= engine.getParts([...new Set([...starting.map((h) => h.id), ...cands.map((c) => c.id)])]))),
    akaMpn,
  };
}

async function textSet(ctx: GraphQLContext, text: string | null, filters: EngineFilters, start: number, limit: number): Promise<Found> {
  const { engine } = ctx.s;
  const r = await engine.textSearch({ text, filters, limit: Math.max(limit, 1), offset: start, records: true });
  const hits = r.hits.slice(0, limit);
  const page = hits.every((h) => h.record) ? hits.map((h) => h.record!) : await engine.getParts(hits.map((h) => h.id));
  return { hits: r.total, page, counts: engineSet(engine, text, filters) };
}

function search(kind: 'supSearchMpn' | 'supSearch') {
  return async (args: SearchArgs, ctx: GraphQLContext, info: GraphQLResolveInfo): Promise<ResultSetNode> => {
    const { start, limit } = page(args);
    const f = supFilters(ctx.view, args.filters, { inStockOnly: args.inStockOnly });
    const warnings = [...f.warnings];
    if (args.sort) warnings.push(`sort "${args.sort}" was ignored: results are in relevance order (without q, most stock first).`);
    const currency = args.currency.trim().toUpperCase();
    if (ctx.s.config.currencyRates[currency] === undefined) warnings.push(noRateWarning(currency));
    const q = args.q?.trim() || null;
    let found: Found | null = null;
    const countHits = SET_FIELDS.some((field) => selectsPath(info.fieldNodes, info.fragments, info.variableValues, [field]));
    if (q && kind === 'supSearchMpn') found = await mpnSet(ctx, q, f.filters, start, limit, countHits);
    else if (q && PART_NUMBER.test(q)) {
      const asMpn = await mpnSet(ctx, q, f.filters, start, limit, countHits);
      if (asMpn.strong) found = asMpn;
    }
    found ??= await textSet(ctx, q, f.filters, start, limit);
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
