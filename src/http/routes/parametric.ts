/**
 * POST /v1/parts/search (parametric search) and POST /v1/parts/search/facets: free text plus
 * PartFilters; facets count over the whole filtered set. Free, `parts:read`.
 */
import { visibleLists } from './lists.ts';
import type { AuthState } from '../middleware/guard.ts';
import { JsonText, type RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { partFiltersSchema, toEngineFilters, type PartFiltersInput } from '../../search/filters.ts';
import { answerJson, partSearchResultSchema, PartsJson } from '../../search/present.ts';

/** The request's PartFilters as engine filters (lists: those visible to the account); errors name `loc`. */
export async function filtersFor(
  s: AppServices,
  account: AuthState['account'],
  f: PartFiltersInput | undefined,
  loc: (string | number)[] = ['body', 'filters'],
) {
  const view = await s.catalog.get();
  const lists = new Set(visibleLists(view?.lists ?? [], account).map((l) => l.list_id));
  return { view, filters: toEngineFilters(f, view, view?.specUnits ?? new Map(), loc, lists) };
}

export interface ParametricRequest {
  query?: string;
  filters?: PartFiltersInput;
  limit: number;
  offset: number;
}

/** Parametric search (REST POST /v1/parts/search and GraphQL supSearch): a page of parts and the total. */
export async function parametricSearch(s: AppServices, account: AuthState['account'], req: ParametricRequest, loc?: (string | number)[]) {
  const { filters } = await filtersFor(s, account, req.filters, loc);
  const r = await s.engine.textSearch({ text: req.query?.trim() || null, filters, limit: req.limit, offset: req.offset });
  return { total: r.total, parts: await s.engine.getParts(r.hits.map((h) => h.id)) };
}

export interface FacetsRequest {
  query?: string;
  filters?: PartFiltersInput;
  specs?: string[];
  size: number;
}

/** Facets of a filtered set (REST POST /v1/parts/search/facets and GraphQL supSearch aggregations). */
export async function facetCounts(s: AppServices, account: AuthState['account'], req: FacetsRequest, loc?: (string | number)[]) {
  const { view, filters } = await filtersFor(s, account, req.filters, loc);
  const text = req.query?.trim() || null;
  // One aggregation pass when the caller names the specs; a second only to bucket the set's top 10.
  const first = await s.engine.facets({ text, filters, size: req.size, ...(req.specs ? { specValues: req.specs } : {}) });
  const names: string[] = req.specs ?? Object.keys(first.specNames).slice(0, 10);
  const f = req.specs || names.length === 0 ? first : await s.engine.facets({ text, filters, specValues: names, size: req.size });
  const specs = Object.fromEntries(
    names.map((n) => [n, { parts: first.specNames[n] ?? 0, ...(f.specValues[n] ?? { values: [], min: null, max: null, unit: null }) }]),
  );
  return {
    total: first.total,
    specs,
    available_specs: first.specNames,
    manufacturers: first.manufacturers.map((m) => ({ slug: m.slug, name: view?.manufacturers.get(m.slug)?.name ?? m.slug, count: m.count })),
    categories: first.categories.map((c) => ({ slug: c.slug, name: view?.tree.get(c.slug)?.name ?? c.slug, count: c.count })),
  };
}

/** Body of the parametric routes: optional free text and PartFilters, plus the route's own members. */
const searchBody = (extra: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  properties: { query: { type: 'string', maxLength: 500 }, filters: partFiltersSchema, ...extra },
});

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
        const { total, parts } = await parametricSearch(s, (ctx.state.auth as AuthState).account, body);
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
              specs: {
                type: 'object',
                additionalProperties: {
                  type: 'object',
                  properties: {
                    parts: { type: 'integer' },
                    values: { type: 'array', items: { type: 'object', properties: { value: { type: 'string' }, count: { type: 'integer' } } } },
                    min: { type: ['number', 'null'] },
                    max: { type: ['number', 'null'] },
                    unit: { type: ['string', 'null'] },
                  },
                },
              },
              available_specs: {
                type: 'object',
                additionalProperties: { type: 'integer' },
                description: 'Every spec name in the set with the number of parts that have it.',
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
      handler: async (ctx, { body }) => ({ ...(await facetCounts(s, (ctx.state.auth as AuthState).account, body)), request_id: ctx.state.requestId }),
    },
  ];
}
