/**
 * Parametric search and facets (REST POST /v1/parts/search and /v1/parts/search/facets, GraphQL
 * supSearch and its aggregations): free text plus PartFilters; facets count over the whole filtered set.
 */
import type { CatalogView } from '../catalog/view.ts';
import { validationError, type ValidationDetail } from '../errors.ts';
import { toEngineFilters, type PartFiltersInput } from '../search/filters.ts';
import { attributeByKey } from '../vocabulary/attributes.ts';
import type { CatalogDeps, SearchDeps } from './deps.ts';
import { visibleLists, type ListViewer } from './lists.ts';

/** Where a request holds its PartFilters: validation errors start their `loc` with it. */
export type FiltersAt = (string | number)[];

/** The request's PartFilters as engine filters (lists: those visible to the account); errors name `loc`. */
export async function filtersFor(deps: CatalogDeps, account: ListViewer, f: PartFiltersInput | undefined, loc: FiltersAt = ['body', 'filters']) {
  const view = await deps.catalog.get();
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
export async function parametricSearch(deps: SearchDeps, account: ListViewer, req: ParametricRequest, loc?: FiltersAt) {
  const { filters } = await filtersFor(deps, account, req.filters, loc);
  const r = await deps.engine.textSearch({ text: req.query?.trim() || null, filters, limit: req.limit, offset: req.offset });
  return { total: r.total, parts: await deps.engine.getParts(r.hits.map((h) => h.id)) };
}

export interface FacetsRequest {
  query?: string;
  filters?: PartFiltersInput;
  specs?: string[];
  /** Canonical attributes (ids or shortnames) to bucket, whatever the names of their specs. */
  attributes?: string[];
  size: number;
}

/** The canonical attribute ids of a request's `attributes`; 422 naming each unknown one, or all of them on an index without attributes. */
function attributeIds(keys: readonly string[] | undefined, view: CatalogView | null): string[] {
  if (!keys?.length) return [];
  const detail: ValidationDetail[] = [];
  if (view && !(view.meta.features ?? []).includes('spec_attributes')) {
    detail.push({
      loc: ['body', 'attributes'],
      msg: 'This index was built before spec attributes were stored: re-ingest the catalogue to count facets by attribute',
      type: 'not_supported',
      input: keys,
    });
  }
  const ids = keys.map((k, i) => {
    const a = attributeByKey(k);
    if (!a)
      detail.push({ loc: ['body', 'attributes', i], msg: `Unknown attribute "${k}" (GET /v1/attributes lists them)`, type: 'unknown_attribute', input: k });
    return a?.id ?? k;
  });
  if (detail.length) throw validationError(detail);
  return [...new Set(ids)];
}

/** Facets of a filtered set (REST POST /v1/parts/search/facets and GraphQL supSearch aggregations). */
export async function facetCounts(deps: SearchDeps, account: ListViewer, req: FacetsRequest, loc?: FiltersAt) {
  const { view, filters } = await filtersFor(deps, account, req.filters, loc);
  const attributes = attributeIds(req.attributes, view);
  const text = req.query?.trim() || null;
  // One aggregation pass when the caller names the specs; a second only to bucket the set's top 10.
  const first = await deps.engine.facets({
    text,
    filters,
    size: req.size,
    ...(req.specs ? { specValues: req.specs } : {}),
    ...(attributes.length ? { attributeValues: attributes } : {}),
  });
  const names: string[] = req.specs ?? Object.keys(first.specNames).slice(0, 10);
  const f = req.specs || names.length === 0 ? first : await deps.engine.facets({ text, filters, specValues: names, size: req.size });
  const none = { values: [], min: null, max: null, unit: null };
  const specs = Object.fromEntries(names.map((n) => [n, { parts: first.specNames[n] ?? 0, ...(f.specValues[n] ?? none) }]));
  return {
    total: first.total,
    specs,
    available_specs: first.specNames,
    ...(attributes.length
      ? { attributes: Object.fromEntries(attributes.map((a) => [a, { parts: first.attributes[a] ?? 0, ...(first.attributeValues[a] ?? none) }])) }
      : {}),
    available_attributes: first.attributes,
    manufacturers: first.manufacturers.map((m) => ({ slug: m.slug, name: view?.manufacturers.get(m.slug)?.name ?? m.slug, count: m.count })),
    categories: first.categories.map((c) => ({ slug: c.slug, name: view?.tree.get(c.slug)?.name ?? c.slug, count: c.count })),
  };
}
