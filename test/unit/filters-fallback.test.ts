/** toEngineFilters on catalogue snapshots that predate the spec vocabulary or its unitless record. */
import { describe, expect, it } from 'vitest';
import type { CatalogView } from '../../src/catalog/view.ts';
import { toEngineFilters } from '../../src/search/filters.ts';

/** The parts of a view toEngineFilters reads about specs. */
const view = (unitless: string[] | null) =>
  ({
    lists: [],
    tree: { has: () => true },
    manufacturers: { get: () => null },
    unitlessNumericSpecs: () => new Set(unitless ?? []),
    knowsUnitless: () => unitless !== null,
  }) as unknown as CatalogView;

describe('spec ranges on older snapshots', () => {
  it('takes a range with a unit as given when the snapshot has no spec vocabulary at all', () => {
    const f = toEngineFilters({ specs: { 'Voltage - supply': { lte: 5, unit: 'V' } } }, null, new Map());
    expect(f.specs).toEqual([{ name: 'Voltage - supply', range: { lte: 5 } }]);
  });

  it('keeps the earlier reading when the snapshot does not record unitless specs', () => {
    const units = new Map<string, null>([['Pitch', null]]);
    // a unit on a spec of unknown unit: as given; no unit: refused as before
    expect(toEngineFilters({ specs: { Pitch: { lte: 2.54, unit: 'mm' } } }, view(null), units).specs).toEqual([{ name: 'Pitch', range: { lte: 0.00254 } }]);
    expect(() => toEngineFilters({ specs: { Pitch: { lte: 2.54 } } }, view(null), units)).toThrow();
  });

  it('judges units when the snapshot records unitless specs', () => {
    const units = new Map<string, null>([['Number of channels', null]]);
    expect(toEngineFilters({ specs: { 'Number of channels': { gte: 2 } } }, view(['Number of channels']), units).specs).toEqual([
      { name: 'Number of channels', range: { gte: 2 } },
    ]);
    expect(() => toEngineFilters({ specs: { 'Number of channels': { gte: 2, unit: 'V' } } }, view(['Number of channels']), units)).toThrow();
  });
});
