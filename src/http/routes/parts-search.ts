/**
 * GET /v1/parts/search?mpn=: MPN search (exact, variants, prefix, infix, fuzzy; case- and
 * punctuation-insensitive), at most 10 fully enriched candidates. Free, `parts:read`.
 */
import { mpnIdentity } from '../../catalog/mpn.ts';
import type { PartRecord } from '../../catalog/part.ts';
import { searchMpn, type MpnTier } from '../../search/mpn.ts';
import { answerJson, partSearchResultSchema, PartsJson } from '../../search/present.ts';
import { JsonText, type RouteSpec } from '../route.ts';
import type { AppServices } from '../../service/app-services.ts';

const TIER_ORDER: Record<MpnTier, number> = { exact: 0, variant: 1, prefix: 2, infix: 3, fuzzy: 4 };
const STATUS_ORDER: Record<string, number> = { active: 0, engineering_sample: 1, nrnd: 2, ltb: 3, unknown: 4, obsolete: 5 };

export const partSearchResponseSchema = {
  type: 'object',
  required: ['hits', 'results'],
  properties: { hits: { type: 'integer', description: 'Number of results returned.' }, results: { type: 'array', items: partSearchResultSchema } },
};

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

/** MPN search (REST GET /v1/parts/search and GraphQL supSearchMpn): at most 10 parts, best first. */
export async function mpnSearch(s: AppServices, mpn: string): Promise<PartRecord[]> {
  const cands = await searchMpn(s.engine, mpn, { limit: 10, stems: true });
  return orderCandidates(cands, await s.engine.getParts(cands.map((c) => c.id)), 10, mpn);
}

/** The `mpn` of an MPN search (also GraphQL supSearchMpn's). */
export const mpnSchema = { type: 'string', minLength: 1, maxLength: 200, description: 'Exact or partial MPN.' };

export function partsSearchRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/v1/parts/search',
      operationId: 'searchPartsByMpn',
      summary: 'Search parts by MPN',
      description:
        'Exact, prefix or fuzzy; case- and punctuation-insensitive. Ranking tiers: exact MPN (all manufacturers), packaging variants and alternate MPNs (LM358D lists LM358DR, and LM358DR lists LM358D), prefix, infix, fuzzy (one or two edits). No match: hits 0.',
      tags: ['parts'],
      access: 'parts:read',
      query: { type: 'object', required: ['mpn'], properties: { mpn: mpnSchema } },
      responses: { 200: { description: 'At most 10 candidates, best first.', schema: partSearchResponseSchema } },
      handler: async (_ctx, { query }) => {
        const parts = await mpnSearch(s, query.mpn as string);
        return new JsonText(answerJson({ hits: parts.length, results: new PartsJson(parts) }));
      },
    },
  ];
}
