/**
 * MPN search (REST GET /v1/parts/search, GraphQL supSearchMpn, the relevance runner's MPN suites):
 * exact, variants, prefix, infix, fuzzy (case- and punctuation-insensitive), at most 10 parts.
 */
import { mpnIdentity } from '../catalog/mpn.ts';
import type { PartRecord } from '../catalog/part.ts';
import { searchMpn, type MpnTier } from '../search/mpn.ts';
import type { SearchDeps } from './deps.ts';

const TIER_ORDER: Record<MpnTier, number> = { exact: 0, variant: 1, prefix: 2, infix: 3, fuzzy: 4 };
const STATUS_ORDER: Record<string, number> = { active: 0, engineering_sample: 1, nrnd: 2, ltb: 3, unknown: 4, obsolete: 5 };

/**
 * Within a tier: active before obsolete, then more stock first; the tier order itself is kept, and the
 * packaging stems of a query come after the engine's variants, longer stems first. At most `limit`.
 */
export function orderCandidates(cands: { id: number; tier: MpnTier; stem?: number }[], parts: PartRecord[], limit = 10, query?: string): PartRecord[] {
  const byId = new Map(parts.map((p) => [p.id, p]));
  // Among exact hits (one search key), the MPN as the query writes it first: "SMF6.0CA" before SMF60CA.
  const written = query === undefined ? null : mpnIdentity(query);
  const asWritten = (c: { tier: MpnTier }, p: PartRecord) => (c.tier === 'exact' && written !== null && mpnIdentity(p.mpn) === written ? 1 : 0);
  return cands
    .map((c, i) => ({ c, i, p: byId.get(c.id) }))
    .filter((x): x is { c: (typeof cands)[number]; i: number; p: PartRecord } => x.p !== undefined)
    .sort(
      (a, b) =>
        TIER_ORDER[a.c.tier] - TIER_ORDER[b.c.tier] ||
        (a.c.stem ?? -1) - (b.c.stem ?? -1) ||
        asWritten(b.c, b.p) - asWritten(a.c, a.p) ||
        (a.c.tier === 'exact' || a.c.tier === 'variant' ? (STATUS_ORDER[a.p.status] ?? 9) - (STATUS_ORDER[b.p.status] ?? 9) || b.p.stock - a.p.stock : 0) ||
        a.i - b.i,
    )
    .slice(0, limit)
    .map((x) => x.p);
}

/** Most candidates an MPN search answers (SPEC.md: up to 10). */
export const MPN_RESULTS = 10;

/** MPN search: at most MPN_RESULTS parts, best first. */
export async function mpnSearch(deps: Pick<SearchDeps, 'engine'>, mpn: string): Promise<PartRecord[]> {
  const cands = await searchMpn(deps.engine, mpn, { limit: MPN_RESULTS, stems: true });
  return orderCandidates(cands, await deps.engine.getParts(cands.map((c) => c.id)), MPN_RESULTS, mpn);
}

/** The `mpn` of an MPN search (also GraphQL supSearchMpn's). */
export const mpnSchema = { type: 'string', minLength: 1, maxLength: 200, description: 'Exact or partial MPN.' };
