/** toEngineFilters on catalogue snapshots that predate the spec vocabulary or its unitless record. */
import { describe, expect, it } from 'vitest';
import type { CatalogMeta, SpecNameInfo } from '../../src/catalog/meta.ts';
import { buildView } from '../../src/catalog/view.ts';
import { toEngineFilters } from '../../src/search/filters.ts';

/** The real view of a snapshot holding only these spec names. */
const viewOf = (specs: SpecNameInfo[] | undefined) => {
  const meta: CatalogMeta = {
    version: 'v1',
    created_at: '2026-11-26T00:00:00.000Z',
    parts: 0,
    embedding: { model: null, dims: null },
    categories: [],
    manufacturers: [],
    lists: [],
    ...(specs ? { specs } : {}),
  };
  return buildView(meta);
};

describe('spec ranges on older snapshots', () => {
  it('takes a range with a unit as given when the snapshot has no spec vocabulary at all', () => {
    const view = viewOf(undefined);
    const f = toEngineFilters({ specs: { 'Voltage - supply': { lte: 5, unit: 'V' } } }, view, view.specUnits);
    expect(f.specs).toEqual([{ name: 'Voltage - supply', range: { lte: 5 } }]);
  });

  it('keeps the earlier reading when the snapshot does not record unitless specs', () => {
    const view = viewOf([{ name: 'Pitch', parts: 10, unit: null }]);
    // a unit on a spec of unknown unit: as given; no unit: refused as before
    expect(toEngineFilters({ specs: { Pitch: { lte: 2.54, unit: 'mm' } } }, view, view.specUnits).specs).toEqual([{ name: 'Pitch', range: { lte: 0.00254 } }]);
    expect(() => toEngineFilters({ specs: { Pitch: { lte: 2.54 } } }, view, view.specUnits)).toThrow();
  });

  it('judges units when the snapshot records unitless specs', () => {
    const view = viewOf([
      { name: 'Number of channels', parts: 10, unit: null, unitless: true },
      { name: 'Pitch', parts: 10, unit: null, unitless: false },
    ]);
    expect(toEngineFilters({ specs: { 'Number of channels': { gte: 2 } } }, view, view.specUnits).specs).toEqual([
      { name: 'Number of channels', range: { gte: 2 } },
    ]);
    expect(() => toEngineFilters({ specs: { 'Number of channels': { gte: 2, unit: 'V' } } }, view, view.specUnits)).toThrow();
    expect(() => toEngineFilters({ specs: { Pitch: { lte: 2.54, unit: 'mm' } } }, view, view.specUnits)).toThrow();
  });
});
