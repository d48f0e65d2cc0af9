/**
 * Common query words on SQLite (engine.ts textMatch): over a large catalogue a word in very many parts
 * scores but does not select candidates when the query has rarer words. The thresholds are lowered
 * here so that the 12-part fixture exercises it ("0603" is in 5 parts, "resistor" in 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine } from '../../src/engines/port.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';

describe('sqlite text search with common words', () => {
  let pruned: SearchEngine;
  let plain: SearchEngine;
  beforeAll(async () => {
    pruned = await smallSqliteEngine({ commonWord: { parts: 3, share: 0.25 } });
    plain = await smallSqliteEngine();
  });
  afterAll(async () => {
    await pruned?.close();
    await plain?.close();
  });

  const mpns = async (engine: SearchEngine, text: string) => {
    const r = await engine.textSearch({ text, filters: {}, limit: 20, offset: 0 });
    return { total: r.total, mpns: (await engine.getParts(r.hits.map((h) => h.id))).map((p) => p.mpn) };
  };

  it('selects candidates by the rarer words and still ranks by every word', async () => {
    const p = await mpns(pruned, '0603 resistor');
    expect(p.mpns.sort()).toEqual(['0603WAF1002T5E', 'RC0603FR-0710KL', 'RC0603FR-074K7L']);
    expect(p.total).toBe(3);
    // Without the bound every part with either word matches (the 0603 capacitors too).
    const all = await mpns(plain, '0603 resistor');
    expect(all.total).toBeGreaterThan(3);
    expect(all.mpns.slice(0, 3).sort()).toEqual(p.mpns.sort());
  });

  it('keeps OR semantics for one word, and when no word is common', async () => {
    expect((await mpns(pruned, '0603')).total).toBe((await mpns(plain, '0603')).total);
    const both = await mpns(pruned, 'resistor capacitor');
    expect(both.total).toBeGreaterThan(0);
    expect(both).toEqual(await mpns(plain, 'resistor capacitor'));
  });

  it('counts facets over the same match as search', async () => {
    const f = await pruned.facets({ text: '0603 resistor', filters: {} });
    expect(f.total).toBe(3);
  });
});
