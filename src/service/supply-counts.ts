/**
 * Supply API use case: the counts behind a result set's aggregations (manufacturerAgg, categoryAgg, specAggs, inStockAgg...),
 * from one of two sources:
 *
 *   engineSet: a keyword search or a filtered listing: the engine's facets over the whole set. The
 *     aggregation fields of one result set asked in one request share ONE facets call (they resolve
 *     side by side; their spec names and sizes are gathered first), and the in-stock count one search.
 *   recordSet: an MPN search: the candidates' records, counted here (an MPN search has no engine facets).
 */
import type { PartRecord } from '../catalog/part.ts';
import type { EngineFilters, FacetResult, SearchReader, SpecValueFacet } from '../engines/port.ts';
import { specAttributeId } from '../vocabulary/attributes.ts';

export interface SetCounts {
  /** Facets of the set with value buckets of `specNames` (at most `size` each). */
  facets(specNames: readonly string[], size: number): Promise<FacetResult>;
  /** Parts of the set in stock. */
  inStock(): Promise<number>;
}

/** Calls made in one turn of the event loop, answered by one call with everything they asked. */
function gathered<T>(run: (specNames: string[], size: number) => Promise<T>) {
  let pending: { names: Set<string>; size: number; promise: Promise<T> } | null = null;
  return (specNames: readonly string[], size: number): Promise<T> => {
    if (!pending) {
      const p = { names: new Set<string>(), size: 0, promise: undefined as unknown as Promise<T> };
      p.promise = Promise.resolve().then(() => {
        pending = null;
        return run([...p.names], p.size);
      });
      pending = p;
    }
    for (const n of specNames) pending.names.add(n);
    pending.size = Math.max(pending.size, size);
    return pending.promise;
  };
}

export function engineSet(engine: SearchReader, text: string | null, filters: EngineFilters): SetCounts {
  let stocked: Promise<number> | null = null;
  return {
    facets: gathered((specValues, size) => engine.facets({ text, filters, size: Math.max(size, 1), ...(specValues.length ? { specValues } : {}) })),
    inStock: () =>
      (stocked ??= engine.textSearch({ text, filters: { ...filters, inStock: true }, limit: 1, offset: 0, exactTotal: true }).then((r) => r.total)),
  };
}

/** Value buckets and numeric extent of one spec name over records. */
function specFacet(records: readonly PartRecord[], name: string, size: number): SpecValueFacet {
  const counts = new Map<string, number>();
  let min: number | null = null;
  let max: number | null = null;
  let unit: string | null = null;
  for (const r of records) {
    for (const s of r.specs) {
      if (s.name !== name) continue;
      counts.set(s.value, (counts.get(s.value) ?? 0) + 1);
      if (s.min !== null) min = min === null ? s.min : Math.min(min, s.min);
      if (s.max !== null) max = max === null ? s.max : Math.max(max, s.max);
      unit ??= s.unit;
    }
  }
  const values = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, size);
  return { values: values.map(([value, count]) => ({ value, count })), min, max, unit };
}

const top = (counts: Map<string, number>, size: number) =>
  [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, size)
    .map(([slug, count]) => ({ slug, count }));

export function recordSet(records: () => Promise<readonly PartRecord[]>): SetCounts {
  return {
    async facets(specNames, size) {
      const rs = await records();
      const names = new Map<string, number>();
      const attributes = new Map<string, number>();
      const makers = new Map<string, number>();
      const categories = new Map<string, number>();
      for (const r of rs) {
        for (const n of new Set(r.specs.map((s) => s.name))) names.set(n, (names.get(n) ?? 0) + 1);
        for (const a of new Set(r.specs.flatMap((s) => specAttributeId(s) ?? []))) attributes.set(a, (attributes.get(a) ?? 0) + 1);
        makers.set(r.manufacturer.slug, (makers.get(r.manufacturer.slug) ?? 0) + 1);
        if (r.category) categories.set(r.category.slug, (categories.get(r.category.slug) ?? 0) + 1);
      }
      return {
        total: rs.length,
        specNames: Object.fromEntries([...names].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
        attributes: Object.fromEntries([...attributes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
        specValues: Object.fromEntries(specNames.map((n) => [n, specFacet(rs, n, size)])),
        attributeValues: {},
        manufacturers: top(makers, size),
        categories: top(categories, size),
      };
    },
    async inStock() {
      return (await records()).filter((r) => r.stock > 0).length;
    },
  };
}
