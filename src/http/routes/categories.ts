/** Category browsing, detail and name matching (SPEC.md category endpoints). All free, `parts:read`. */
import type { CategoryData } from '../../catalog/categories.ts';
import { notFound } from '../../errors.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { presentCategory, presentNode, treeOf, trimSlashes } from '../../service/categories.ts';
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
        const tree = await treeOf(s);
        const parent = query.parent === undefined ? undefined : trimSlashes(query.parent as string) || undefined;
        if (parent !== undefined && !tree.get(parent)) throw notFound(`Category "${parent}"`);
        let nodes: CategoryData[];
        if (query.all) nodes = tree.flatten(parent);
        else nodes = parent === undefined ? tree.roots() : tree.children(parent);
        return { categories: nodes.map(presentNode), request_id: ctx.state.requestId };
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
        const tree = await treeOf(s);
        const slug = trimSlashes(params.slug as string);
        const c = tree.get(slug);
        if (!c) throw notFound(`Category "${slug}"`);
        return { category: presentCategory(tree, c), request_id: ctx.state.requestId };
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
        const view = await s.catalog.get();
        const results = view
          ? view
              .categoryMatcher()
              .match(body.query, body.limit ?? 5)
              .flatMap((m) => {
                const ref = view.tree.ref(m.slug);
                return ref ? [{ category: ref, confidence: m.confidence }] : [];
              })
          : [];
        return { query: body.query, results, request_id: ctx.state.requestId };
      },
    },
  ];
}
