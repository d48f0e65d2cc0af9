/**
 * POST /v1/parts/search (parametric search) and POST /v1/parts/search/facets: free text plus
 * PartFilters; facets count over the whole filtered set. Free, `parts:read`.
 */
import type { AuthState } from '../middleware/guard.ts';
import { JsonText, type RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { partFiltersSchema } from '../../search/filters.ts';
import { answerJson, partSearchResultSchema, PartsJson } from '../../search/present.ts';

/** Body of the parametric routes: optional free text and PartFilters, plus the route's own members. */
const searchBody = (extra: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  properties: { query: { type: 'string', maxLength: 500 }, filters: partFiltersSchema, ...extra },
});

/** A spec's or an attribute's value buckets and numeric extent over the set. */
const valueFacetSchema = {
  type: 'object',
  properties: {
    parts: { type: 'integer' },
    values: { type: 'array', items: { type: 'object', properties: { value: { type: 'string' }, count: { type: 'integer' } } } },
    min: { type: ['number', 'null'] },
    max: { type: ['number', 'null'] },
    unit: { type: ['string', 'null'] },
  },
} as const;

export function parametricRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/v1/parts/search',
      operationId: 'searchParts',
      summary: 'Parametric search: free text plus hard filters',
      description:
        'BM25 over the text fields when `query` is given (best first), otherwise every part matching the filters (most stock first). Filters are PartFilters; numeric spec ranges compare in SI units.',
      tags: ['parts'],
      access: 'parts:read',
      body: searchBody({
        sort: { enum: ['relevance'], default: 'relevance', description: 'Only relevance for now (text: BM25; no text: stock).' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        offset: { type: 'integer', minimum: 0, maximum: 10000, default: 0 },
      }),
      responses: {
        200: {
          description: 'A page of matching parts.',
          schema: {
            type: 'object',
            required: ['total', 'hits', 'offset', 'results', 'request_id'],
            properties: {
              total: { type: 'integer', description: 'Parts matching query and filters.' },
              hits: { type: 'integer' },
              offset: { type: 'integer' },
              results: { type: 'array', items: partSearchResultSchema },
              request_id: requestIdSchema,
            },
          },
        },
      },
      handler: async (ctx, { body }) => {
        const { total, parts } = await s.parts.parametric((ctx.state.auth as AuthState).account, body);
        return new JsonText(answerJson({ total, hits: parts.length, offset: body.offset, results: new PartsJson(parts), request_id: ctx.state.requestId }));
      },
    },
    {
      method: 'POST',
      path: '/v1/parts/search/facets',
      operationId: 'searchFacets',
      summary: 'Facets of a filtered set: spec values, numeric extents, manufacturers, categories',
      tags: ['parts'],
      access: 'parts:read',
      body: searchBody({
        specs: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          maxItems: 30,
          description: 'Spec names to bucket; default: the 10 most common in the set.',
        },
        attributes: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          maxItems: 30,
          description: 'Canonical attributes (ids or shortnames, GET /v1/attributes) to bucket over every spec of each, whatever its name.',
        },
        size: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Buckets per facet.' },
      }),
      responses: {
        200: {
          description: 'Facet counts over the whole filtered set.',
          schema: {
            type: 'object',
            required: ['total', 'specs', 'manufacturers', 'categories', 'request_id'],
            properties: {
              total: { type: 'integer' },
              specs: { type: 'object', additionalProperties: valueFacetSchema },
              available_specs: {
                type: 'object',
                additionalProperties: { type: 'integer' },
                description: 'Every spec name in the set with the number of parts that have it.',
              },
              attributes: { type: 'object', additionalProperties: valueFacetSchema, description: 'Per attribute asked for, by id.' },
              available_attributes: {
                type: 'object',
                additionalProperties: { type: 'integer' },
                description: 'Every canonical attribute in the set (by id) with the number of parts that have a spec of it.',
              },
              manufacturers: {
                type: 'array',
                items: { type: 'object', properties: { slug: { type: 'string' }, name: { type: 'string' }, count: { type: 'integer' } } },
              },
              categories: {
                type: 'array',
                items: { type: 'object', properties: { slug: { type: 'string' }, name: { type: 'string' }, count: { type: 'integer' } } },
              },
              request_id: requestIdSchema,
            },
          },
        },
      },
      handler: async (ctx, { body }) => ({ ...(await s.parts.facets((ctx.state.auth as AuthState).account, body)), request_id: ctx.state.requestId }),
    },
  ];
}
