/**
 * Engine-neutral filters -> OpenSearch bool clauses (filter context: no scoring, cached).
 * Mirrors src/engines/sqlite/filters.ts clause by clause.
 */
import type { EngineFilters, NumericRange, SpecFilter, SpecKey } from '../port.ts';
import { sameNumberBounds } from '../same-number.ts';

export type Dsl = Record<string, unknown>;

export interface FilterClauses {
  filter: Dsl[];
  must_not: Dsl[];
}

/** A range's conditions on a spec's [min, max]: the whole range lies within the bounds. */
function rangeClauses(r: NumericRange): Dsl[] {
  const min: Dsl = {};
  const max: Dsl = {};
  if (r.gte !== undefined) min.gte = r.gte;
  if (r.gt !== undefined) min.gt = r.gt;
  if (r.lte !== undefined) max.lte = r.lte;
  if (r.lt !== undefined) max.lt = r.lt;
  return [...(Object.keys(min).length ? [{ range: { 'specs.min': min } }] : []), ...(Object.keys(max).length ? [{ range: { 'specs.max': max } }] : [])];
}

/** The nested specs a condition is on: by name, or by canonical attribute. */
function keyClause(s: SpecKey): Dsl {
  const [field, keys] = s.attribute !== undefined ? ['specs.attribute', s.attribute] : ['specs.name', s.name];
  return typeof keys === 'string' ? { term: { [field]: keys } } : { terms: { [field]: [...keys] } };
}

function specClause(s: SpecFilter): Dsl {
  // An index version from before attributes has no specs.attribute: an attribute condition matches nothing there.
  const conds: Dsl[] = [keyClause(s)];
  if ('values' in s) {
    const unit: Dsl = s.numUnit ? { term: { 'specs.unit': s.numUnit } } : { bool: { must_not: { exists: { field: 'specs.unit' } } } };
    const same = (s.nums ?? []).map((v) => {
      const [gte, lte] = sameNumberBounds(v);
      return { bool: { filter: [...rangeClauses({ gte, lte }), unit] } };
    });
    conds.push(
      same.length ? { bool: { should: [{ terms: { 'specs.value': s.values } }, ...same], minimum_should_match: 1 } } : { terms: { 'specs.value': s.values } },
    );
  } else {
    // A part matches when its [min, max] lies within the bounds (and it has a number at all), in the
    // range's unit or as a plain number.
    conds.push({ exists: { field: 'specs.min' } }, ...rangeClauses(s.range));
    const plain: Dsl = { bool: { must_not: { exists: { field: 'specs.unit' } } } };
    if (s.unit === null) conds.push(plain);
    else if (s.unit !== undefined) conds.push({ bool: { should: [{ term: { 'specs.unit': s.unit } }, plain], minimum_should_match: 1 } });
  }
  return { nested: { path: 'specs', query: { bool: { filter: conds } }, score_mode: 'none' } };
}

/** A price band holding the quantity at no more than the price (catalog/prices.ts); a band without `to` has no end. */
function priceAtClause(quantity: number, maxUsd: number): Dsl {
  const conds: Dsl[] = [
    { range: { 'price_bands.price': { lte: maxUsd } } },
    { range: { 'price_bands.from': { lte: quantity } } },
    {
      bool: {
        should: [{ range: { 'price_bands.to': { gt: quantity } } }, { bool: { must_not: { exists: { field: 'price_bands.to' } } } }],
        minimum_should_match: 1,
      },
    },
  ];
  // ignore_unmapped: an index from before the bands (reached in the second a rollback takes to show in the
  // catalogue view, which refuses min_quantity on such versions) matches nothing instead of failing.
  return { nested: { path: 'price_bands', query: { bool: { filter: conds } }, score_mode: 'none', ignore_unmapped: true } };
}

export function filterClauses(f: EngineFilters): FilterClauses {
  const filter: Dsl[] = [];
  const mustNot: Dsl[] = [];
  if (f.status?.length) filter.push({ terms: { status: f.status } });
  // category.slug.tree holds every ancestor path of the slug: a term on a slug is its subtree.
  if (f.categories?.length) filter.push({ terms: { 'category.slug.tree': f.categories } });
  if (f.excludeCategories?.length) mustNot.push({ terms: { 'category.slug.tree': f.excludeCategories } });
  if (f.manufacturers?.length) filter.push({ terms: { 'manufacturer.slug': f.manufacturers } });
  if (f.packages?.length) {
    const any = f.packages.map((value) => ({ term: { 'package.keyword': { value: value.trim(), case_insensitive: true } } }));
    filter.push({ bool: { should: any, minimum_should_match: 1 } });
  }
  if (f.lists?.length) filter.push({ terms: { lists: f.lists } });
  for (const s of f.specs ?? []) filter.push(specClause(s));
  if (f.inStock) filter.push({ range: { stock: { gt: 0 } } });
  if (f.maxPriceUsd !== undefined) filter.push({ range: { min_price_usd: { lte: f.maxPriceUsd } } });
  if (f.priceAt) filter.push(priceAtClause(f.priceAt.quantity, f.priceAt.maxUsd));
  return { filter, must_not: mustNot };
}

/** A bool query of `must` (scored) under the filters; match_all when there is neither. */
export function filtered(f: EngineFilters, must: Dsl[] = [], should: Dsl[] = []): Dsl {
  const c = filterClauses(f);
  if (!must.length && !should.length && !c.filter.length && !c.must_not.length) return { match_all: {} };
  const bool: Dsl = {};
  if (must.length) bool.must = must;
  if (should.length) bool.should = should;
  if (c.filter.length) bool.filter = c.filter;
  if (c.must_not.length) bool.must_not = c.must_not;
  return { bool };
}

/** The filters alone as one query (for the knn `filter`), or null when nothing constrains. */
export function filterQuery(f: EngineFilters): Dsl | null {
  const c = filterClauses(f);
  if (!c.filter.length && !c.must_not.length) return null;
  return { bool: { filter: c.filter, must_not: c.must_not } };
}
