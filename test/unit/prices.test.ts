/** Unit prices by order quantity (catalog/prices.ts): the reading both engines index for price.min_quantity. */
import { describe, expect, it } from 'vitest';
import type { DumpOffer } from '../../src/catalog/part.ts';
import { priceAtQuantity, priceBands } from '../../src/catalog/prices.ts';

const offer = (price_breaks: [number, number][], extra: Partial<DumpOffer> = {}): DumpOffer => ({ distributor: 'D', currency: 'USD', price_breaks, ...extra });

describe('price bands', () => {
  it('gives each break the quantities up to the next break, the last one without end', () => {
    expect(
      priceBands([
        offer([
          [1, 0.1],
          [100, 0.06],
          [10, 0.08],
        ]),
      ]),
    ).toEqual([
      { from: 1, to: 10, price: 0.1 },
      { from: 10, to: 100, price: 0.08 },
      { from: 100, to: null, price: 0.06 },
    ]);
  });

  it('cuts the quantities below an offer minimum order', () => {
    expect(
      priceBands([
        offer(
          [
            [1, 0.1],
            [10, 0.08],
            [100, 0.06],
          ],
          { moq: 50 },
        ),
      ]),
    ).toEqual([
      { from: 50, to: 100, price: 0.08 },
      { from: 100, to: null, price: 0.06 },
    ]);
    expect(
      priceBands([
        offer(
          [
            [1, 0.1],
            [10, 0.08],
          ],
          { moq: 500 },
        ),
      ]),
    ).toEqual([{ from: 500, to: null, price: 0.08 }]);
  });

  it('leaves out other currencies, and breaks without a positive price or quantity', () => {
    expect(
      priceBands([
        offer([[1, 0.1]], { currency: 'EUR' }),
        offer([
          [0, 0.1],
          [5, 0],
          [10, 0.2],
        ]),
      ]),
    ).toEqual([{ from: 10, to: null, price: 0.2 }]);
  });

  it('keeps the lower price of two breaks at one quantity', () => {
    expect(
      priceBands([
        offer([
          [10, 0.3],
          [1, 0.5],
          [10, 0.2],
        ]),
      ]),
    ).toEqual([
      { from: 1, to: 10, price: 0.5 },
      { from: 10, to: null, price: 0.2 },
    ]);
  });
});

describe('the price at a quantity', () => {
  const bands = priceBands([
    offer([
      [1, 0.1],
      [100, 0.06],
    ]),
    offer(
      [
        [10, 0.09],
        [1000, 0.03],
      ],
      { moq: 10 },
    ),
  ]);
  it('is the lowest price over the offers whose breaks hold that quantity', () => {
    expect([1, 9, 10, 99, 100, 999, 1000, 1e9].map((q) => priceAtQuantity(bands, q))).toEqual([0.1, 0.1, 0.09, 0.09, 0.06, 0.06, 0.03, 0.03]);
  });
  it('is null when no offer sells that quantity', () => {
    expect(priceAtQuantity(priceBands([offer([[25, 0.1]])]), 24)).toBeNull();
    expect(priceAtQuantity([], 1)).toBeNull();
  });
});
