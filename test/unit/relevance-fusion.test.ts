/** Agentic fusion (RRF and normalised scores) and the relevance runner's top-5 constraint-satisfaction measure. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine } from '../../src/engines/port.ts';
import type { RelevanceQuery } from '../../src/relevance/format.ts';
import { runSuite, topSatisfied } from '../../src/relevance/runner.ts';
import { constraintCount } from '../../src/search/ranking-keys.ts';
import {
  COVERED_SHARE,
  DEFAULT_FUSION,
  lexicalCoverage,
  minMax,
  NORMALIZED_LEXICAL_WEIGHT,
  normalizedFusion,
  rrf,
  RRF_K,
  TRUSTED_KNN_WEIGHT,
} from '../../src/search/fusion.ts';
import type { PartRecord } from '../../src/catalog/part.ts';
import { understandQuery } from '../../src/search/understand.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';

const ids = (m: Map<number, number>) => [...m.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);

describe('fusion', () => {
  it('RRF sums 1 / (k + rank) over the lists', () => {
    const f = rrf([
      [
        { id: 1, score: 9 },
        { id: 2, score: 5 },
      ],
      [
        { id: 2, score: 0.9 },
        { id: 3, score: 0.8 },
      ],
    ]);
    expect(f.get(1)).toBeCloseTo(1 / (RRF_K + 1));
    expect(f.get(2)).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1));
    expect(ids(f)).toEqual([2, 1, 3]);
  });

  it('RRF weighs each list by its weight: a light kNN list breaks ties but does not reorder the first 40 of BM25', () => {
    const lexical = Array.from({ length: 41 }, (_, i) => ({ id: i + 1, score: 100 - i }));
    const knn = [...lexical].reverse(); // the opposite order
    const weighed = rrf([lexical, knn], [1, TRUSTED_KNN_WEIGHT]);
    expect(ids(weighed).slice(0, 40)).toEqual(lexical.slice(0, 40).map((h) => h.id));
    expect(rrf([lexical, knn], [1, 0]).get(41)).toBeCloseTo(1 / (RRF_K + 41));
    // tied in BM25 (two lists that rank them alike): the kNN list decides
    const tie = rrf(
      [
        [
          { id: 1, score: 1 },
          { id: 2, score: 1 },
        ],
        [
          { id: 2, score: 1 },
          { id: 1, score: 1 },
        ],
        [
          { id: 2, score: 0.9 },
          { id: 1, score: 0.8 },
        ],
      ],
      [1, 1, TRUSTED_KNN_WEIGHT],
    );
    expect(ids(tie)).toEqual([2, 1]);
  });

  it("lexical coverage: the share of the query's words that the best-covering part holds", () => {
    const part = {
      mpn: 'LM358DR',
      mpn_norm: 'LM358DR',
      aliases: ['LM358-N'],
      manufacturer: { name: 'Texas Instruments' },
      description: 'Dual operational amplifier, SOIC-8',
      category: { path: [{ name: 'Amplifiers' }, { name: 'Op Amps' }] },
      package: 'SOIC-8',
      specs: [{ name: 'Supply voltage', value: '3V ~ 32V' }],
      long_description: null,
    } as unknown as PartRecord;
    expect(lexicalCoverage('Dual operational amplifier texas', [part])).toBe(1);
    expect(lexicalCoverage('dual op amp', [part])).toBeCloseTo(2 / 3); // "amp" is not a word of it ("amps", "amplifier")
    expect(lexicalCoverage('dual operational amplifier low noise', [part])).toBe(0.6);
    // as the text index holds it: aliases, accents folded; function words are not asked for
    expect(lexicalCoverage('LM358-N', [part])).toBe(1);
    expect(lexicalCoverage('Texas Instrumènts amplifier for the dual', [part])).toBe(1);
    expect(lexicalCoverage('light emitting diode indicator', [part, undefined])).toBe(0);
    expect(lexicalCoverage('dual op amp', [])).toBe(0);
    expect(lexicalCoverage('  ', [part])).toBe(0);
    expect(COVERED_SHARE).toBeGreaterThan(2 / 3); // neither of those two: the kNN list keeps its full weight
  });

  it('min-max maps a list to [0, 1], best 1 and worst 0; equal scores all 1', () => {
    expect([
      ...minMax([
        { id: 1, score: 12 },
        { id: 2, score: 7 },
        { id: 3, score: 2 },
      ]).values(),
    ]).toEqual([1, 0.5, 0]);
    expect([
      ...minMax([
        { id: 1, score: 3 },
        { id: 2, score: 3 },
      ]).values(),
    ]).toEqual([1, 1]);
    expect(minMax([]).size).toBe(0);
  });

  it('normalised fusion weights BM25 and cosine, uses scores not ranks, and scores a missing part 0 in that list', () => {
    const lex = [
      { id: 1, score: 20 },
      { id: 2, score: 19 },
      { id: 3, score: 2 },
    ];
    const vec = [
      { id: 3, score: 0.62 },
      { id: 2, score: 0.6 },
      { id: 4, score: 0.3 },
    ];
    const f = normalizedFusion(lex, vec);
    const w = NORMALIZED_LEXICAL_WEIGHT;
    expect(f.get(1)).toBeCloseTo(w * 1);
    expect(f.get(2)).toBeCloseTo(w * (17 / 18) + (1 - w) * (0.3 / 0.32));
    expect(f.get(3)).toBeCloseTo((1 - w) * 1);
    expect(f.get(4)).toBeCloseTo(0);
    // Part 2 is second in both lists and close to the top of both by score: first here, unlike RRF's tie-break.
    expect(ids(f)[0]).toBe(2);
    // A lexical-only or vector-only run keeps that list's order.
    expect(ids(normalizedFusion(lex, []))).toEqual([1, 2, 3]);
    expect(ids(normalizedFusion([], vec))).toEqual([3, 2, 4]);
  });

  it('the default fusion is RRF (the measured tie, bench/results/relevance.md)', () => {
    expect(DEFAULT_FUSION).toBe('rrf');
  });
});

describe('constraint satisfaction of the top 5', () => {
  it('checks the top min(5, satisfying parts) places; a missing place is a miss; nothing to check is null', () => {
    expect(topSatisfied(5, [true, true, true, true, true])).toBe(true);
    expect(topSatisfied(5, [true, true, true, true, false])).toBe(false);
    expect(topSatisfied(2, [true, true, false, false, false])).toBe(true);
    expect(topSatisfied(2, [true, false, true])).toBe(false);
    expect(topSatisfied(3, [true, true])).toBe(false);
    expect(topSatisfied(0, [])).toBeNull();
  });

  it('counts spec, value and package constraints (families are hints)', () => {
    expect(constraintCount(understandQuery('10k 0603 1% resistor'))).toBe(3);
    expect(constraintCount(understandQuery('op amp'))).toBe(0);
    expect(constraintCount(understandQuery('dual op amp'))).toBe(1); // the number of channels
  });

  describe('runner on the small fixture (SQLite, lexical)', () => {
    let engine: SearchEngine;
    beforeAll(async () => {
      engine = await smallSqliteEngine();
    });
    afterAll(async () => engine?.close());

    const q = (id: string, query: string, kind: string, slug: string): RelevanceQuery => ({
      id,
      suite: 'small',
      kind,
      query,
      endpoint: 'agentic',
      judgments: { [slug]: 3 },
    });
    const queries: RelevanceQuery[] = [
      q('a1', '10k 0603 1% resistor', 'parametric', 'yageo/RC0603FR-0710KL'),
      q('a2', '3.3V LDO SOT-23-5', 'parametric', 'texas-instruments/TLV70033DDCR'),
      q('a3', '1k resistor 0402', 'parametric', 'yageo/RC0603FR-0710KL'),
      q('a4', 'low noise audio amplifier', 'nl', 'texas-instruments/LM358DR'),
      q('a5', 'dual op amp', 'nl', 'texas-instruments/LM358DR'),
      { id: 'm1', suite: 'small', query: 'LM358DR', endpoint: 'mpn', judgments: { 'texas-instruments/LM358DR': 3 } },
    ];

    it('reports per query and per suite, leaving out unconstrained and unsatisfiable queries', async () => {
      const r = await runSuite(queries, { engine, embedder: null });
      const by = Object.fromEntries(r.results.map((x) => [x.id, x]));
      // Two parts of the fixture are 10 kΩ 0603 1% resistors: both must lead. The category the query
      // names ("resistor" -> Resistors; "LDO" -> Linear Voltage Regulators) is one more constraint.
      expect(by.a1!.constraints).toMatchObject({ parsed: 4, checked: 2, satisfied: true });
      expect(by.a1!.constraints!.top.slice(0, 2)).toEqual([true, true]);
      expect(by.a2!.constraints).toMatchObject({ parsed: 3, checked: 1, satisfied: true });
      // No 1 kΩ 0402 resistor in the fixture: cannot pass or fail.
      expect(by.a3!.constraints).toMatchObject({ parsed: 3, checked: 0, satisfied: null });
      expect(by.a4!.constraints).toMatchObject({ parsed: 0, checked: 0, satisfied: null });
      // "dual": the number of channels, which the fixture's dual op amps hold; "op amp" names their category.
      expect(by.a5!.constraints).toMatchObject({ parsed: 2, satisfied: true });
      expect(by.m1!.constraints).toBeNull();
      expect(by.a1!.fusion).toBe(DEFAULT_FUSION);
      expect(r.constraints).toMatchObject({ queries: 3, satisfied: 3, share: 1, unconstrained: 1, unsatisfiable: 1 });
      expect(r.constraints!.byKind.parametric).toMatchObject({ queries: 2, satisfied: 2, unsatisfiable: 1 });
      expect(r.constraints!.byKind.nl).toMatchObject({ queries: 1, satisfied: 1, share: 1, unconstrained: 1 });
    });

    it('runs the requested fusion', async () => {
      const r = await runSuite(queries.slice(0, 1), { engine, embedder: null, fusion: 'normalized' });
      expect(r.results[0]!.fusion).toBe('normalized');
    });
  });
});
