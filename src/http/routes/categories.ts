/** Category browsing, detail and name matching (SPEC.md category endpoints). All free, `parts:read`. */
import type { CategoryData, CategoryTree } from '../../catalog/categories.ts';
import type { CatalogView } from '../../catalog/view.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { categoryNodeSchema, categoryRefSchema, categorySchema, matchRequestSchema, matchResponseSchema } from './catalog-schemas.ts';

export const presentNode = (c: CategoryData) => ({ slug: c.slug, name: c.name, has_children: c.children.length > 0, part_count: c.part_count });

/** A category slug as given, without leading or trailing slashes. */
export const trimSlashes = (slug: string) => slug.replace(/^\/+|\/+$/g, '');

/** The live catalogue's view; 503 engine_unavailable while none is loaded. */
export async function loadedCatalog(s: AppServices): Promise<CatalogView> {
  const view = await s.catalog.get();
  if (!view) throw new ApiError('engine_unavailable', 'No catalogue has been loaded yet; ingest one first.', { headers: { 'Retry-After': '30' } });
  return view;
}

const treeOf = async (s: AppServices): Promise<CategoryTree> => (await loadedCatalog(s)).tree;

/** A category's detail (SPEC.md Category, with `part_count`). */
export function presentCategory(tree: CategoryTree, c: CategoryData) {
  return {
    slug: c.slug,
    name: c.name,
    description: c.description ?? '',
    path: tree.path(c.slug),
    children: tree.children(c.slug).map(presentNode),
    part_count: c.part_count,
  };
}

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
