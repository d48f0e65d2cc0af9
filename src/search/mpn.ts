/**
 * MPN search: up to `limit` candidates in relevance tiers (exact, variant, prefix, infix, fuzzy;
 * src/engines/mpn-tiers.ts defines them), case- and punctuation-insensitive. The engine answers
 * through SearchReader.mpnSearch: SQLite composes the tiers from B-tree and trigram lookups,
 * OpenSearch from one bool query.
 *
 * With `stems` (GET /v1/parts/search), the catalogue MPNs the query extends by a packaging suffix
 * (packaging-stems.ts: "LM358DR" lists LM358D) join the variants, marked `stem` so that they rank after
 * those the engine found (orderCandidates), when the query is itself an MPN (an exact hit, or an
 * alternate MPN's) or no MPN starts with it (a BOM line's "STM32F103C8T6TR"): a prefix query's results
 * all start with it. The list may then hold more than `limit`: the caller cuts it after ordering.
 */
import { normaliseMpn } from '../catalog/mpn.ts';
import type { EngineFilters, MpnCandidate, SearchReader } from '../engines/port.ts';
import { packagingStemHits } from './packaging-stems.ts';

export type { MpnCandidate, MpnTier } from '../engines/port.ts';

export async function searchMpn(
  engine: SearchReader,
  query: string,
  opts: { limit?: number; filters?: EngineFilters; stems?: boolean } = {},
): Promise<MpnCandidate[]> {
  const key = normaliseMpn(query);
  if (!key) return [];
  const limit = opts.limit ?? 10;
  const cands = await engine.mpnSearch({ key, limit, filters: opts.filters });
  if (!opts.stems) return cands;
  // An MPN itself: its key or an alternate MPN's exactly.
  const isMpn = cands.some((c) => c.tier === 'exact' || (c.tier === 'variant' && c.matched === key));
  const starts = cands.some((c) => c.tier === 'exact' || c.tier === 'variant' || c.tier === 'prefix');
  if (!isMpn && starts) return cands;
  // A part the engine found by a lower tier (infix, fuzzy) moves up to its stem reading; exact and
  // variant hits stay where they are.
  const kept = new Set(cands.filter((c) => c.tier === 'exact' || c.tier === 'variant').map((c) => c.id));
  if (kept.size >= limit) return cands; // the stems would rank below all of these
  const stems: MpnCandidate[] = [];
  const stemIds = new Set<number>();
  for (const h of await packagingStemHits(engine, key, { limit, filters: opts.filters })) {
    if (kept.has(h.id)) continue;
    stemIds.add(h.id);
    stems.push({ id: h.id, tier: 'variant', matched: h.stem, stem: h.order });
  }
  if (!stems.length) return cands;
  // Not cut to `limit` here: the route orders the stems by status and stock, then cuts (orderCandidates).
  return [...cands.filter((c) => kept.has(c.id)), ...stems, ...cands.filter((c) => !kept.has(c.id) && !stemIds.has(c.id))];
}
