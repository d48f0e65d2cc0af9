/**
 * Unit prices by order quantity, engine-neutral: what `price.min_quantity` filters on.
 *
 * A price band is one price break of one USD offer and the quantities it applies to: an order of
 * `from` up to (not including) `to` units (the next break's quantity; null for the last break) pays
 * `price` per unit. An offer's minimum order quantity (`moq`) cuts the bands below it: an order of
 * fewer units cannot be placed there. Offers in other currencies have no bands (the API compares
 * USD only), nor do breaks with a price or quantity that is not a positive number.
 *
 * The price of a part at quantity q is the lowest price over its bands holding q: the best unit price
 * an order of q units gets from any one offer. Both engines index the bands and answer
 * `priceAt: {quantity, maxUsd}` with the parts whose price at `quantity` is at most `maxUsd`.
 *
 * Order quantities are whole numbers from 1 to MAX_ORDER_QUANTITY, so band bounds are whole too (a break
 * at 2.5 units is the price from 3 on; at 0, from 1): OpenSearch stores them as longs. A band starting
 * above MAX_ORDER_QUANTITY holds no order and is left out; one ending above it has no end.
 */
import type { DumpOffer } from './part.ts';

export interface PriceBand {
  from: number;
  /** Exclusive; null: every larger order. */
  to: number | null;
  price: number;
}

/** The largest order quantity a filter takes (PartFilters price.min_quantity). */
export const MAX_ORDER_QUANTITY = 1_000_000_000;

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
/** The first whole order quantity at or above q (at least 1). */
const wholeFrom = (q: number) => Math.max(1, Math.ceil(q));

/** The bands of a part's offers (see the module comment), in offer order, each offer's by quantity. */
export function priceBands(offers: readonly DumpOffer[]): PriceBand[] {
  const out: PriceBand[] = [];
  for (const o of offers) {
    if (o.currency?.toUpperCase() !== 'USD') continue;
    // Breaks by the first whole quantity they price; of two at one quantity, the lower price holds it.
    const breaks = (o.price_breaks ?? [])
      .filter(([q, p]) => finite(q) && q >= 0 && finite(p) && p > 0)
      .map(([q, p]): [number, number] => [wholeFrom(q), p])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .filter(([q], i, all) => i === 0 || all[i - 1]![0] !== q);
    const moq = finite(o.moq) && o.moq > 0 ? wholeFrom(o.moq) : 1;
    for (let i = 0; i < breaks.length; i++) {
      const [qty, price] = breaks[i]!;
      const to = breaks[i + 1]?.[0] ?? null;
      const from = Math.max(qty, moq);
      if ((to !== null && to <= from) || from > MAX_ORDER_QUANTITY) continue;
      out.push({ from, to: to !== null && to > MAX_ORDER_QUANTITY ? null : to, price });
    }
  }
  return out;
}

/** The lowest unit price of an order of `quantity` units over the bands; null when no band holds it. */
export function priceAtQuantity(bands: readonly PriceBand[], quantity: number): number | null {
  let best: number | null = null;
  for (const b of bands) if (b.from <= quantity && (b.to === null || quantity < b.to) && (best === null || b.price < best)) best = b.price;
  return best;
}
