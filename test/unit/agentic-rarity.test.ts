/**
 * Partial matches in agentic search (src/search/agentic.ts, ranking-keys.ts constraintWeights): between
 * parts meeting as many of the query's constraints, the one meeting the constraint fewer candidates meet
 * ranks first, whichever order the query names them in. Real SQLite, lexical-only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteCatalog } from '../support/small-engine.ts';
import type { CatalogView } from '../../src/catalog/view.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { agenticSearch } from '../../src/search/agentic.ts';
import { constraintWeights, weightMet } from '../../src/search/ranking-keys.ts';

const crystal = (mpn: string, mhz: number, pf: number) => ({
  mpn,
  manufacturer: 'Acme',
  description: `quartz crystal SMD3225 ${pf}pF load`,
  category: ['Crystals'],
  package: 'SMD3225-4P',
  status: 'active',
  specs: [
    // Written "16.000MHz", as many records do: no text token of the query's "16MHz" (BM25 ranks the 20 pF
    // crystals before the 16 MHz ones), while the parsed constraint reads the same 16 MHz.
    { name: 'Frequency', value: `${mhz}.000MHz` },
    { name: 'Load Capacitance', value: `${pf}pF` },
  ],
});

describe('constraintWeights', () => {
  it('weighs a constraint by how few candidates meet it', () => {
    const w = constraintWeights([
      [true, true],
      [false, true],
      [false, true],
      [true, false],
    ]);
    // 2 of 4 meet the first, 3 of 4 the second
    expect(w[0]).toBeCloseTo(Math.log(6 / 3));
    expect(w[1]).toBeCloseTo(Math.log(6 / 4));
    expect(weightMet([true, false], w)).toBeGreaterThan(weightMet([false, true], w));
    expect(weightMet([false, false], w)).toBe(0);
  });
});

describe('agentic search: parts meeting some of the constraints', () => {
  let engine: SearchEngine;
  let view: CatalogView;
  beforeAll(async () => {
    // Many crystals share a 20 pF load; few run at 16 MHz.
    // The 20 pF ones first: ids break the remaining ties.
    const parts = [
      ...[8, 12, 24, 25, 27, 32, 40, 48].map((mhz) => crystal(`X${mhz}-20`, mhz, 20)),
      crystal('X25-9', 25, 9),
      crystal('X16-9', 16, 9),
      crystal('X16-12', 16, 12),
      crystal('X16-20', 16, 20),
    ];
    ({ engine, view } = await sqliteCatalog(parts));
  });
  afterAll(async () => engine?.close());

  const search = async (query: string) =>
    (
      await agenticSearch(engine, null, false, {
        query,
        limit: 12,
        offset: 0,
        filters: { status: ['active'] },
        categories: view.categoryMatcher(),
        specNames: view.specNameIndex(),
      })
    ).parts.map((p) => p.mpn);

  it.each(['16MHz crystal 20pF', '20pF 16MHz crystal'])('"%s": the full match, then the 16 MHz crystals, then the 20 pF ones', async (q) => {
    const got = await search(q);
    expect(got[0]).toBe('X16-20');
    expect(got.slice(1, 3).sort()).toEqual(['X16-12', 'X16-9']);
    expect(got.slice(3, 11).every((m) => m.endsWith('-20'))).toBe(true);
    expect(got.slice(11)).toEqual(['X25-9']); // meets neither
  });
});
