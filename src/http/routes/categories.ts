/** Category browsing, detail and name matching (SPEC.md category endpoints). All free, `parts:read`. */
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { categoryNodeSchema, categoryRefSchema, categorySchema, matchRequestSchema, matchResponseSchema } from './catalog-schemas.ts';

export function categoryRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/v1/categories',
      operationId: 'listCategories',
      summary: 'Browse the category tree',
      description: 'Roots by default; `parent` lists its direct children; `all=true` returns every category flat (with `parent`, only that subtree).',
      tags: ['categories'],
      access: 'parts:read',
      query: {
        type: 'object',
        properties: {
          parent: { type: 'string', maxLength: 1000, description: 'Category slug; omitted or empty gives the roots.' },
          all: { type: 'boolean', default: false },
        },
      },
      responses: {
        200: {
          description: 'Category nodes.',
          schema: {
            type: 'object',
            required: ['categories', 'request_id'],
            properties: { categories: { type: 'array', items: categoryNodeSchema }, request_id: requestIdSchema },
          },
        },
      },
      errors: [404],
      handler: async (ctx, { query }) => {
        const categories = await s.categories.browse({ parent: query.parent as string | undefined, all: query.all as boolean });
        return { categories, request_id: ctx.state.requestId };
      },
    },
    {
      method: 'GET',
      path: '/v1/categories/*slug',
      operationId: 'getCategory',
      summary: 'Category detail by full path slug',
      tags: ['categories'],
      access: 'parts:read',
      params: {
        type: 'object',
        required: ['slug'],
        properties: { slug: { type: 'string', minLength: 1, maxLength: 1000, description: 'Full path slug; may span several path segments.' } },
      },
      responses: {
        200: {
          description: 'The category.',
          schema: { type: 'object', required: ['category', 'request_id'], properties: { category: categorySchema, request_id: requestIdSchema } },
        },
      },
      errors: [404],
      handler: async (ctx, { params }) => {
        return { category: await s.categories.get(params.slug as string), request_id: ctx.state.requestId };
      },
    },
    {
      method: 'POST',
      path: '/v1/categories/match',
      operationId: 'matchCategories',
      summary: 'Resolve a full or partial category name',
      description:
        'Full names, partial names, plurals, word order, synonyms and abbreviations ("mlcc", "ldo", "op amp"), typos. Near-duplicate categories are all returned, ranked by part count. Nonsense returns an empty list.',
      tags: ['categories'],
      access: 'parts:read',
      body: matchRequestSchema,
      responses: { 200: { description: 'Matches, best first.', schema: matchResponseSchema('category', categoryRefSchema) } },
      handler: async (ctx, { body }) => {
        return { query: body.query, results: await s.categories.match(body.query, body.limit ?? 5), request_id: ctx.state.requestId };
      },
    },
  ];
}
