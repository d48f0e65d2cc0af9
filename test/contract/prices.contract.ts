/**
 * The price-at-quantity contract (catalog/prices.ts, EngineFilters.priceAt): over a seeded random
 * catalogue of offers (several per part, minimum orders, unsorted, duplicate, fractional and huge break
 * quantities, zero prices, other and missing currencies), every engine selects exactly the parts whose
 * reference price at the quantity is at most the price, alone, with text, and in facet totals.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import type { DumpOffer, PartRecord } from '../../src/catalog/part.ts';
import { MAX_ORDER_QUANTITY, priceAtQuantity, priceBands } from '../../src/catalog/prices.ts';
import type { EngineFilters, SearchEngine } from '../../src/engines/port.ts';
import { tempDir } from '../support/fixtures.ts';

/** A small deterministic generator (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PARTS = 160;
const QUANTITIES = [1, 2, 3, 9, 10, 11, 25, 99, 100, 101, 500, 999, 1000, 5000, MAX_ORDER_QUANTITY];
const PRICES = [0.0005, 0.001, 0.01, 0.05, 0.2, 1];

function randomOffers(r: () => number): DumpOffer[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  return Array.from({ length: Math.floor(r() * 4) }, () => {
    const breaks: [number, number][] = Array.from({ length: 1 + Math.floor(r() * 5) }, () => [
      pick([0, 1, 2.5, 10, 10, 25, 100, 100, 1000, 1e12]),
      pick([0, 0.0004, 0.0009, 0.002, 0.01, 0.04, 0.3, 2]),
    ]);
    return { distributor: 'D', currency: pick(['USD', 'USD', 'USD', 'usd', 'EUR']), moq: pick([undefined, 0, 1, 10, 30, 500]), price_breaks: breaks };
  });
}

export function priceContract(name: string, makeEngine: () => Promise<SearchEngine>, cleanup?: () => Promise<void>): void {
  describe(`price at an order quantity: ${name}`, () => {
    let engine: SearchEngine;
    let parts: PartRecord[];
    beforeAll(async () => {
      engine = await makeEngine();
      const dir = tempDir();
      const file = path.join(dir, 'parts.jsonl');
      const r = rng(7);
      const lines = Array.from({ length: PARTS }, (_, i) =>
        JSON.stringify({ mpn: `PB${i}`, manufacturer: 'Acme', description: i % 2 ? 'priced resistor' : 'priced capacitor', offers: randomOffers(r) }),
      );
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const summary = await runIngest({ engine, embedder: null, parts: [file], reportFile: path.join(dir, 'r.jsonl') });
      expect(summary.indexed).toBe(PARTS);
      parts = await engine.getParts((await engine.textSearch({ text: null, filters: {}, limit: PARTS, offset: 0 })).hits.map((h) => h.id));
    });
    afterAll(async () => {
      await cleanup?.();
      await engine?.close();
    });

    it('selects exactly the parts whose price at the quantity is at most the price, alone, with text and in facets', async () => {
      expect(parts.length).toBe(PARTS);
      let nonEmpty = 0;
      for (const quantity of QUANTITIES)
        for (const maxUsd of PRICES) {
          const meets = (p: PartRecord) => (priceAtQuantity(priceBands(p.offers), quantity) ?? Infinity) <= maxUsd;
          const filters: EngineFilters = { priceAt: { quantity, maxUsd } };
          const label = `${quantity} units at most ${maxUsd} USD`;
          const expected = parts.filter(meets).map((p) => p.mpn);
          const got = await engine.textSearch({ text: null, filters, limit: PARTS, offset: 0 });
          expect(new Set((await engine.getParts(got.hits.map((h) => h.id))).map((p) => p.mpn)), label).toEqual(new Set(expected));
          expect(got.total, label).toBe(expected.length);
          const text = await engine.textSearch({ text: 'resistor', filters, limit: PARTS, offset: 0 });
          const expectedText = parts.filter((p) => meets(p) && p.description.includes('resistor')).map((p) => p.mpn);
          expect(new Set((await engine.getParts(text.hits.map((h) => h.id))).map((p) => p.mpn)), `resistor, ${label}`).toEqual(new Set(expectedText));
          expect((await engine.facets({ text: null, filters })).total, `facets, ${label}`).toBe(expected.length);
          if (expected.length > 0 && expected.length < PARTS) nonEmpty++;
        }
      expect(nonEmpty).toBeGreaterThan(QUANTITIES.length * 2); // most cases select some parts and leave out others
    });
  });
}
