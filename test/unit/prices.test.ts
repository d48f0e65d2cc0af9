/** Unit prices by order quantity (catalog/prices.ts): the reading both engines index for price.min_quantity. */
import { describe, expect, it } from 'vitest';
import type { DumpOffer } from '../../src/catalog/part.ts';
import { MAX_ORDER_QUANTITY, priceAtQuantity, priceBands } from '../../src/catalog/prices.ts';

const offer = (price_breaks: [number, number][], extra: Partial<DumpOffer> = {}): DumpOffer => ({ distributor: 'D', currency: 'USD', price_breaks, ...extra });

/** The bands of one offer with these [quantity, price] breaks. */
const bandsOf = (extra: Partial<DumpOffer>, ...breaks: [number, number][]) => priceBands([offer(breaks, extra)]);

describe('price bands', () => {
  it('gives each break the quantities up to the next break, the last one without end', () => {
    expect(bandsOf({}, [1, 0.1], [100, 0.06], [10, 0.08])).toEqual([
      { from: 1, to: 10, price: 0.1 },
      { from: 10, to: 100, price: 0.08 },
      { from: 100, to: null, price: 0.06 },
    ]);
  });

  it('cuts the quantities below an offer minimum order', () => {
    expect(bandsOf({ moq: 50 }, [1, 0.1], [10, 0.08], [100, 0.06])).toEqual([
      { from: 50, to: 100, price: 0.08 },
      { from: 100, to: null, price: 0.06 },
    ]);
    expect(bandsOf({ moq: 500 }, [1, 0.1], [10, 0.08])).toEqual([{ from: 500, to: null, price: 0.08 }]);
  });

  it('leaves out other currencies, and breaks without a positive price', () => {
    expect(
      priceBands([
        offer([[1, 0.1]], { currency: 'EUR' }),
        offer([
          [5, 0],
          [10, 0.2],
        ]),
      ]),
    ).toEqual([{ from: 10, to: null, price: 0.2 }]);
  });

  it('takes a break at a fraction of a unit from the next whole unit, and one at 0 from 1', () => {
    expect(bandsOf({}, [0, 0.5], [2.5, 0.4], [3, 0.3])).toEqual([
      { from: 1, to: 3, price: 0.5 },
      { from: 3, to: null, price: 0.3 },
    ]);
  });

  it('reads the currency in any case, and leaves out offers without one and values that are no numbers', () => {
    expect(bandsOf({ currency: 'usd' }, [1, 0.1])).toEqual([{ from: 1, to: null, price: 0.1 }]);
    expect(priceBands([{ distributor: 'D', price_breaks: [[1, 0.1]] } as unknown as DumpOffer])).toEqual([]);
    expect(bandsOf({}, [Number.NaN, 0.1], [1, Number.NaN], [5, Infinity], [-1, 0.2], [2, 0.3])).toEqual([{ from: 2, to: null, price: 0.3 }]);
  });

  it('drops a band that ends at the minimum order', () => {
    expect(bandsOf({ moq: 10 }, [1, 0.1], [10, 0.08])).toEqual([{ from: 10, to: null, price: 0.08 }]);
  });

  it('leaves out bands no order quantity reaches, and ends none beyond the largest', () => {
    expect(bandsOf({}, [1, 0.1], [1e12, 0.01], [1e13, 0.001])).toEqual([{ from: 1, to: null, price: 0.1 }]);
    expect(priceAtQuantity(bandsOf({}, [1, 0.1], [1e12, 0.01]), MAX_ORDER_QUANTITY)).toBe(0.1);
  });

  it('keeps the lower price of two breaks at one quantity', () => {
    expect(bandsOf({}, [10, 0.3], [1, 0.5], [10, 0.2])).toEqual([
      { from: 1, to: 10, price: 0.5 },
      { from: 10, to: null, price: 0.2 },
    ]);
  });
});

describe('the price at a quantity', () => {
  const bands = [...bandsOf({}, [1, 0.1], [100, 0.06]), ...bandsOf({ moq: 10 }, [10, 0.09], [1000, 0.03])];
  it('is the lowest price over the offers whose breaks hold that quantity', () => {
    expect([1, 9, 10, 99, 100, 999, 1000, 1e9].map((q) => priceAtQuantity(bands, q))).toEqual([0.1, 0.1, 0.09, 0.09, 0.06, 0.06, 0.03, 0.03]);
  });
  it('is null when no offer sells that quantity', () => {
    expect(priceAtQuantity(bandsOf({}, [25, 0.1]), 24)).toBeNull();
    expect(priceAtQuantity([], 1)).toBeNull();
  });
});
