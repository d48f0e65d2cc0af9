/** toEngineFilters on catalogue snapshots that predate the spec vocabulary, its unitless record or the price bands. */
import { describe, expect, it } from 'vitest';
import type { CatalogMeta, SpecNameInfo } from '../../src/catalog/meta.ts';
import { buildView } from '../../src/catalog/view.ts';
import { toEngineFilters } from '../../src/search/filters.ts';

/** The real view of a snapshot holding only these spec names. */
const viewOf = (specs: SpecNameInfo[] | undefined, features?: CatalogMeta['features']) => {
  const meta: CatalogMeta = {
    version: 'v1',
    created_at: '2026-11-26T00:00:00.000Z',
    parts: 0,
    embedding: { model: null, dims: null },
    categories: [],
    manufacturers: [],
    lists: [],
    ...(specs ? { specs } : {}),
    ...(features ? { features } : {}),
  };
  return buildView(meta);
};

describe('spec ranges on older snapshots', () => {
  it('takes a range with a unit as given when the snapshot has no spec vocabulary at all', () => {
    const view = viewOf(undefined);
    const f = toEngineFilters({ specs: { 'Voltage - supply': { lte: 5, unit: 'V' } } }, view, view.specUnits);
    expect(f.specs).toEqual([{ name: 'Voltage - supply', range: { lte: 5 }, unit: 'V' }]);
  });

  it('keeps the earlier reading when the snapshot does not record unitless specs', () => {
    const view = viewOf([{ name: 'Pitch', parts: 10, unit: null }]);
    // a unit on a spec of unknown unit: as given; no unit: refused as before
    expect(toEngineFilters({ specs: { Pitch: { lte: 2.54, unit: 'mm' } } }, view, view.specUnits).specs).toEqual([
      { name: 'Pitch', range: { lte: 0.00254 }, unit: 'm' },
    ]);
    expect(() => toEngineFilters({ specs: { Pitch: { lte: 2.54 } } }, view, view.specUnits)).toThrow();
  });

  it('judges units when the snapshot records unitless specs', () => {
    const view = viewOf([
      { name: 'Number of channels', parts: 10, unit: null, unitless: true },
      { name: 'Pitch', parts: 10, unit: null, unitless: false },
    ]);
    expect(toEngineFilters({ specs: { 'Number of channels': { gte: 2 } } }, view, view.specUnits).specs).toEqual([
      { name: 'Number of channels', range: { gte: 2 }, unit: null },
    ]);
    expect(() => toEngineFilters({ specs: { 'Number of channels': { gte: 2, unit: 'V' } } }, view, view.specUnits)).toThrow();
    expect(() => toEngineFilters({ specs: { Pitch: { lte: 2.54, unit: 'mm' } } }, view, view.specUnits)).toThrow();
  });
});

describe('the price at an order quantity on older snapshots', () => {
  it('is refused with a 422 that says to re-ingest when the index holds no price bands', () => {
    const view = viewOf(undefined);
    let error: any;
    try {
      toEngineFilters({ price: { max: 0.1, min_quantity: 100 } }, view, view.specUnits);
    } catch (e) {
      error = e;
    }
    expect(error?.extra?.detail).toEqual([
      {
        loc: ['body', 'filters', 'price', 'min_quantity'],
        msg: 'This index was built before prices by order quantity were indexed: re-ingest the catalogue to filter by the price at a quantity',
        type: 'not_supported',
        input: 100,
      },
    ]);
  });

  it('becomes the price-band filter when the index holds them, and price.max alone stays the lowest price', () => {
    const view = viewOf(undefined, ['price_bands']);
    expect(toEngineFilters({ price: { max: 0.1, min_quantity: 100 } }, view, view.specUnits)).toEqual({
      status: ['active'],
      priceAt: { quantity: 100, maxUsd: 0.1 },
    });
    expect(toEngineFilters({ price: { max: 0.1 } }, view, view.specUnits)).toEqual({ status: ['active'], maxPriceUsd: 0.1 });
  });
});
