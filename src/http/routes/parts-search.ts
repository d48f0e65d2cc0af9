/**
 * GET /v1/parts/search?mpn=: MPN search (exact, variants, prefix, infix, fuzzy; case- and
 * punctuation-insensitive), at most 10 fully enriched candidates. Free, `parts:read`.
 */
import { answerJson, partSearchResultSchema, PartsJson } from '../../search/present.ts';
import { JsonText, type RouteSpec } from '../route.ts';
import type { AppServices } from '../../service/app-services.ts';
import { mpnSchema } from '../../service/mpn-search.ts';

export const partSearchResponseSchema = {
  type: 'object',
  required: ['hits', 'results'],
  properties: { hits: { type: 'integer', description: 'Number of results returned.' }, results: { type: 'array', items: partSearchResultSchema } },
};

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
        const parts = await s.parts.searchMpn(query.mpn as string);
        return new JsonText(answerJson({ hits: parts.length, results: new PartsJson(parts) }));
      },
    },
  ];
}
