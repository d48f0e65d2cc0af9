/** GET /v1/parts/agentic-search: natural-language part search (SPEC.md AgenticSearchResponse). Free, `parts:read`. */
import { PART_STATUSES, type PartStatus } from '../../catalog/status.ts';
import { answerJson, partSearchResultSchema, PartsJson } from '../../search/present.ts';
import { JsonText, type RouteSpec } from '../route.ts';
import { statusFilter } from '../../service/agentic-search.ts';
import type { AppServices } from '../../service/app-services.ts';

export function agenticRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/v1/parts/agentic-search',
      operationId: 'agenticSearch',
      summary: 'Free-text semantic and keyword part search',
      description:
        'Understands unit-aware spec constraints ("10k 0603 1% resistor", "100nF 50V X7R", "3.3V LDO SOT-23-5"), packages and MPNs; hybrid BM25 + vector retrieval fused by reciprocal rank, parts of the named categories and parts satisfying the parsed constraints first; available_specs counts spec names over the first block of the ranking (the first 100-odd results, the same for every page of a query). Lexical-only without an embedding model.',
      tags: ['parts'],
      access: 'parts:read',
      query: {
        type: 'object',
        required: ['search_query'],
        properties: {
          search_query: { type: 'string', minLength: 1, maxLength: 500 },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
          offset: {
            type: 'integer',
            minimum: 0,
            default: 0,
            description: 'Results to skip. The ranking holds at most 500 parts: a page at or past its end is empty.',
          },
          part_status: { type: 'array', items: { enum: [...PART_STATUSES] }, description: 'Repeat the parameter once per value; default active.' },
        },
      },
      responses: {
        200: {
          description: 'A page of results.',
          headers: {
            'X-Search-Mode': {
              description: 'hybrid (BM25 and kNN fused) or lexical-only (no model, no vectors, or the query could not be embedded).',
              schema: { type: 'string', enum: ['hybrid', 'lexical-only'] },
            },
          },
          schema: {
            type: 'object',
            required: ['hits', 'results', 'available_specs'],
            properties: {
              hits: { type: 'integer', description: 'Number of results in this response.' },
              results: { type: 'array', items: partSearchResultSchema },
              available_specs: { type: 'object', additionalProperties: { type: 'integer' } },
            },
          },
        },
      },
      handler: async (ctx, { query }) => {
        const r = await s.parts.agentic({
          query: query.search_query as string,
          limit: query.limit as number,
          offset: query.offset as number,
          filters: { status: statusFilter(query.part_status as PartStatus[] | undefined) },
        });
        ctx.set('X-Search-Mode', r.retrieval === 'hybrid' ? 'hybrid' : 'lexical-only');
        return new JsonText(answerJson({ hits: r.parts.length, results: new PartsJson(r.parts), available_specs: r.availableSpecs }));
      },
    },
  ];
}
