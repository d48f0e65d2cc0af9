/** The category tree (REST category endpoints, GraphQL supCategories): browsing, detail, name matching. */
import type { CategoryData, CategoryTree } from '../catalog/categories.ts';
import type { CatalogView } from '../catalog/view.ts';
import { ApiError, notFound } from '../errors.ts';
import type { CatalogDeps } from './deps.ts';

export const presentNode = (c: CategoryData) => ({ slug: c.slug, name: c.name, has_children: c.children.length > 0, part_count: c.part_count });

/** A category slug as given, without leading or trailing slashes. */
export const trimSlashes = (slug: string) => slug.replace(/^\/+|\/+$/g, '');

/** The live catalogue's view; 503 engine_unavailable while none is loaded. */
export async function loadedCatalog(deps: CatalogDeps): Promise<CatalogView> {
  const view = await deps.catalog.get();
  if (!view) throw new ApiError('engine_unavailable', 'No catalogue has been loaded yet; ingest one first.', { headers: { 'Retry-After': '30' } });
  return view;
}

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

/**
 * GET /v1/categories: the roots, or `parent`'s direct children; with `all`, every category flat (under
 * `parent`: its subtree). An unknown parent is not_found.
 */
export async function browseCategories(deps: CatalogDeps, opts: { parent?: string; all?: boolean }) {
  const { tree } = await loadedCatalog(deps);
  const parent = opts.parent === undefined ? undefined : trimSlashes(opts.parent) || undefined;
  if (parent !== undefined && !tree.get(parent)) throw notFound(`Category "${parent}"`);
  let nodes: CategoryData[];
  if (opts.all) nodes = tree.flatten(parent);
  else nodes = parent === undefined ? tree.roots() : tree.children(parent);
  return nodes.map(presentNode);
}

/** GET /v1/categories/{slug}: a category's detail by its full path slug, or not_found. */
export async function getCategory(deps: CatalogDeps, slug: string) {
  const { tree } = await loadedCatalog(deps);
  const c = tree.get(trimSlashes(slug));
  if (!c) throw notFound(`Category "${trimSlashes(slug)}"`);
  return presentCategory(tree, c);
}

/** POST /v1/categories/match: categories a full or partial name resolves to, best first (none while no catalogue is loaded). */
export async function matchCategories(deps: CatalogDeps, query: string, limit: number) {
  const view = await deps.catalog.get();
  if (!view) return [];
  return view
    .categoryMatcher()
    .match(query, limit)
    .flatMap((m) => {
      const ref = view.tree.ref(m.slug);
      return ref ? [{ category: ref, confidence: m.confidence }] : [];
    });
}
