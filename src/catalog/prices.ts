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
 */
import type { DumpOffer } from './part.ts';

export interface PriceBand {
  from: number;
  /** Exclusive; null: every larger order. */
  to: number | null;
  price: number;
}

const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/** The bands of a part's offers (see the module comment), in offer order, each offer's by quantity. */
export function priceBands(offers: readonly DumpOffer[]): PriceBand[] {
  const out: PriceBand[] = [];
  for (const o of offers) {
    if (o.currency?.toUpperCase() !== 'USD') continue;
    const breaks = (o.price_breaks ?? []).filter(([q, p]) => positive(q) && positive(p)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const moq = positive(o.moq) ? o.moq : 0;
    for (let i = 0; i < breaks.length; i++) {
      const [qty, price] = breaks[i]!;
      // Two breaks at one quantity: the first (lower price, by the sort) holds it.
      if (i > 0 && breaks[i - 1]![0] === qty) continue;
      let to: number | null = null;
      for (let j = i + 1; j < breaks.length; j++)
        if (breaks[j]![0] > qty) {
          to = breaks[j]![0];
          break;
        }
      if (to !== null && to <= moq) continue;
      out.push({ from: Math.max(qty, moq), to, price });
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
