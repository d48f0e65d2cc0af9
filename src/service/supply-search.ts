/**
 * Supply API use cases: the pages and sets of supSearchMpn and supSearch (GraphQL, src/graphql/resolvers).
 *
 *   supplyMpnPage: the MPN search of REST's GET /v1/parts/search (tiers: exact, packaging variants and
 *     alternate MPNs, prefix, infix, fuzzy) down to start + limit candidates, the page's records read in
 *     one call; `hits` counts those, or the MPNs starting with q (up to MPN_HITS_WINDOW), whichever is
 *     more, when asked (`countHits`); the set's counts are those candidates' and MPNs' records.
 *   supplyTextPage: one engine search (BM25 over the text fields; without text, the filtered parts most
 *     stock first) that returns the page's records with it; `hits` is the set's size and its counts are
 *     the engine's facets over the whole set.
 */
import { normaliseMpn } from '../catalog/mpn.ts';
import type { PartRecord } from '../catalog/part.ts';
import type { EngineFilters } from '../engines/port.ts';
import { searchMpn } from '../search/mpn.ts';
import type { SearchDeps } from './deps.ts';
import { orderCandidates } from './mpn-search.ts';
import { engineSet, recordSet, type SetCounts } from './supply-counts.ts';

/** MPNs starting with the query that an MPN search counts at most in `hits` (more when start + limit is). */
export const MPN_HITS_WINDOW = 100;

export interface SupplyPage {
  /** The MPN search found MPNs that are, or start with, the query (exact, variant and prefix tiers). */
  strong?: boolean;
  hits: number;
  page: PartRecord[];
  counts: SetCounts;
  /** Per part id: the alternate MPN the query matched, when it was one. */
  akaMpn?: Map<number, string>;
}

type Deps = Pick<SearchDeps, 'engine'>;

export async function supplyMpnPage(d: Deps, q: string, filters: EngineFilters, start: number, limit: number, countHits: boolean): Promise<SupplyPage> {
  const { engine } = d;
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

export async function supplyTextPage(d: Deps, text: string | null, filters: EngineFilters, start: number, limit: number): Promise<SupplyPage> {
  const { engine } = d;
  const r = await engine.textSearch({ text, filters, limit: Math.max(limit, 1), offset: start, records: true });
  const hits = r.hits.slice(0, limit);
  const page = hits.every((h) => h.record) ? hits.map((h) => h.record!) : await engine.getParts(hits.map((h) => h.id));
  return { hits: r.total, page, counts: engineSet(engine, text, filters) };
}
