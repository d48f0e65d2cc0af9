/** The category tree (REST category endpoints, GraphQL supCategories): browsing, detail, name matching. */
import type { CategoryData, CategoryTree } from '../catalog/categories.ts';
import type { CatalogView } from '../catalog/view.ts';
import { ApiError } from '../errors.ts';
import type { AppServices } from './app-services.ts';

export const presentNode = (c: CategoryData) => ({ slug: c.slug, name: c.name, has_children: c.children.length > 0, part_count: c.part_count });

/** A category slug as given, without leading or trailing slashes. */
export const trimSlashes = (slug: string) => slug.replace(/^\/+|\/+$/g, '');

/** The live catalogue's view; 503 engine_unavailable while none is loaded. */
export async function loadedCatalog(s: AppServices): Promise<CatalogView> {
  const view = await s.catalog.get();
  if (!view) throw new ApiError('engine_unavailable', 'No catalogue has been loaded yet; ingest one first.', { headers: { 'Retry-After': '30' } });
  return view;
}

export const treeOf = async (s: AppServices): Promise<CategoryTree> => (await loadedCatalog(s)).tree;

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
