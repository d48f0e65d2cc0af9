/** Relevance tooling: metrics (pure), fixture format, runner (lexical, small fixture), compare, and the sample suites' reproducibility. */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine } from '../../src/engines/port.ts';
import { compareReports, formatComparison } from '../../src/relevance/compare.ts';
import { FixtureError, formatSuite, parseSuite, type RelevanceQuery } from '../../src/relevance/format.ts';
import { dcgAt, meanMetrics, metricsOf, ndcgAt, precisionAt, recallAt, reciprocalRank } from '../../src/relevance/metrics.ts';
import { oneEditAway } from '../../src/relevance/mpn-suite.ts';
import { runSuite, type RelevanceReport, type SuiteResult } from '../../src/relevance/runner.ts';
import { buildSampleSuites, SAMPLE_MPN_FILE, SAMPLE_NL_FILE } from '../relevance/build-sample-suites.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';

describe('metrics', () => {
  const j = { a: 3, b: 2, c: 1, z: 0 };

  it('DCG uses gains 2^g - 1 and log2(rank + 1) discounts', () => {
    expect(dcgAt([3, 2, 1], 10)).toBeCloseTo(7 + 3 / Math.log2(3) + 1 / 2, 12);
    expect(dcgAt([3, 2, 1], 1)).toBe(7);
    expect(dcgAt([], 10)).toBe(0);
  });

  it('nDCG@10 is 1 for the ideal order, less otherwise, 0 with nothing relevant returned', () => {
    expect(ndcgAt(['a', 'b', 'c'], j)).toBe(1);
    expect(ndcgAt(['c', 'b', 'a'], j)).toBeCloseTo((1 + 3 / Math.log2(3) + 7 / 2) / (7 + 3 / Math.log2(3) + 1 / 2), 12);
    expect(ndcgAt(['x', 'z'], j)).toBe(0);
    expect(ndcgAt([], j)).toBe(0);
    // Only the top 10 count; the ideal is also cut at 10.
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, 1]));
    expect(
      ndcgAt(
        Array.from({ length: 10 }, (_, i) => `p${i}`),
        many,
      ),
    ).toBe(1);
    expect(ndcgAt([...Array.from({ length: 10 }, (_, i) => `q${i}`), 'p0'], many)).toBe(0);
  });

  it('nDCG counts a part returned twice once', () => {
    expect(ndcgAt(['a', 'a', 'b', 'c'], j)).toBe(1);
  });

  it('nothing judged relevant: every metric is 0', () => {
    expect(metricsOf(['a'], { a: 0 })).toEqual({ ndcg10: 0, mrr: 0, p1: 0, p5: 0, r10: 0 });
  });

  it('MRR is 1 / rank of the first result with grade >= 1', () => {
    expect(reciprocalRank(['z', 'x', 'c'], j)).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank(['a'], j)).toBe(1);
    expect(reciprocalRank(['z'], j)).toBe(0);
  });

  it('P@k divides by k, also for short lists', () => {
    expect(precisionAt(['a', 'z', 'c'], j, 1)).toBe(1);
    expect(precisionAt(['a', 'z', 'c'], j, 5)).toBeCloseTo(2 / 5, 12);
    expect(precisionAt(['z'], j, 1)).toBe(0);
  });

  it('R@10 is capped at min(10, relevant); uncapped on request', () => {
    expect(recallAt(['a', 'x'], j, 10)).toBeCloseTo(1 / 3, 12);
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, 1]));
    const top10 = Array.from({ length: 10 }, (_, i) => `p${i}`);
    expect(recallAt(top10, many, 10)).toBe(1);
    expect(recallAt(top10, many, 10, { capped: false })).toBe(0.25);
  });

  it('means average per metric', () => {
    const m = meanMetrics([metricsOf(['a', 'b', 'c'], j), metricsOf(['z'], j)]);
    expect(m).toEqual({ ndcg10: 0.5, mrr: 0.5, p1: 0.5, p5: 0.3, r10: 0.5 });
    expect(meanMetrics([])).toEqual({ ndcg10: 0, mrr: 0, p1: 0, p5: 0, r10: 0 });
  });
});

describe('fixture format', () => {
  const line = (o: object) => JSON.stringify({ id: 'q1', suite: 's', query: 'lm358', endpoint: 'mpn', judgments: { 'texas-instruments/LM358DR': 3 }, ...o });

  it('parses and round-trips', () => {
    const qs = parseSuite(`${line({})}\n\n${line({ id: 'q2', endpoint: 'agentic', params: { part_status: ['active'], retrieval: 'lexical' } })}\n`);
    expect(qs.map((q) => q.id)).toEqual(['q1', 'q2']);
    expect(parseSuite(formatSuite(qs))).toEqual(qs.map((q) => ({ ...q, params: q.params })));
  });

  it.each([
    [{ endpoint: 'parts' }, /"endpoint"/],
    [{ judgments: { 'Texas Instruments/LM358': 3 } }, /not a part slug/],
    [{ judgments: { 'ti/LM358': 4 } }, /grade/],
    [{ judgments: { 'ti/LM358': 0 } }, /at least one judgment/],
    [{ endpoint: 'agentic', params: { retrieval: 'bm25' } }, /retrieval/],
    [{ endpoint: 'agentic', params: { part_status: ['gone'] } }, /part_status/],
    [{ params: { retrieval: 'lexical' } }, /mpn endpoint takes no params/],
    [{ query: '' }, /"query"/],
  ])('rejects %j', (o, re) => {
    expect(() => parseSuite(line(o), 'x.jsonl')).toThrow(FixtureError);
    expect(() => parseSuite(line(o), 'x.jsonl')).toThrow(re);
  });

  it('rejects duplicate ids and names the line', () => {
    expect(() => parseSuite(`${line({})}\n${line({})}`, 'x.jsonl')).toThrow(/x\.jsonl:2: duplicate id/);
    expect(() => parseSuite('{', 'x.jsonl')).toThrow(/x\.jsonl:1: invalid JSON/);
  });
});

describe('typo neighbourhood', () => {
  it('lists deletions, substitutions, insertions and transpositions', () => {
    const n = oneEditAway('AB1');
    for (const k of ['B1', 'A1', 'AB', 'BA1', 'A1B', 'XB1', 'AB12', 'AAB1']) expect(n).toContain(k);
    expect(n).not.toContain('AB1');
  });
});

describe('runner on the small fixture (SQLite, lexical)', () => {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await smallSqliteEngine();
  });
  afterAll(async () => engine?.close());

  const queries: RelevanceQuery[] = [
    {
      id: 'm1',
      suite: 'small',
      kind: 'lower',
      query: 'lm358dr',
      endpoint: 'mpn',
      judgments: { 'texas-instruments/LM358DR': 3, 'texas-instruments/LM358DR2G': 1 },
    },
    {
      id: 'a1',
      suite: 'small',
      kind: 'nl',
      query: '3.3V LDO SOT-23-5',
      endpoint: 'agentic',
      params: { retrieval: 'hybrid' },
      judgments: { 'texas-instruments/TLV70033DDCR': 3 },
    },
  ];

  it('runs mpn and agentic queries as the routes do; hybrid falls back to lexical without vectors', async () => {
    const r = await runSuite(queries, { engine, embedder: null });
    expect(r.queries).toBe(2);
    const [m, a] = r.results;
    expect(m!.results[0]).toEqual({ slug: 'texas-instruments/LM358DR', grade: 3 });
    expect(m!.metrics.p1).toBe(1);
    expect(m!.retrieval).toBeNull();
    expect(a!.results[0]!.slug).toBe('texas-instruments/TLV70033DDCR');
    expect(a!.retrieval).toBe('lexical');
    expect(r.retrieval).toEqual({ lexical: 1 });
    expect(Object.keys(r.byKind).sort()).toEqual(['lower', 'nl']);
    expect(r.mean.mrr).toBe(1);
  });
});

describe('compare', () => {
  const suite = (scores: Record<string, number>): SuiteResult => ({
    suite: 's',
    file: null,
    queries: Object.keys(scores).length,
    mean: meanMetrics(Object.values(scores).map((x) => ({ ndcg10: x, mrr: x, p1: x, p5: x, r10: x }))),
    byKind: {},
    retrieval: {},
    results: Object.entries(scores).map(([id, x]) => ({
      id,
      kind: null,
      query: id,
      endpoint: 'mpn',
      retrieval: null,
      metrics: { ndcg10: x, mrr: x, p1: x, p5: x, r10: x },
      results: [],
      relevant: 1,
      ms: 0,
    })),
  });
  const report = (scores: Record<string, number>): RelevanceReport => ({
    created_at: '',
    engine: 'sqlite',
    retrieval: null,
    embeddings: { model: null, vectors: false },
    index: 'sample',
    parts: 0,
    suites: [suite(scores)],
  });

  it('counts wins, losses and ties and lists unmatched queries', () => {
    const [c] = compareReports(report({ q1: 0.5, q2: 1, q3: 0.7, q4: 1 }), report({ q1: 0.9, q2: 0.6, q3: 0.7, q5: 1 }));
    expect(c).toMatchObject({ queries: 3, wins: 1, losses: 1, ties: 1, onlyInA: ['q4'], onlyInB: ['q5'] });
    expect(c!.deltas[0]!.id).toBe('q2'); // losses first
    const text = formatComparison([c!]);
    expect(text).toMatch(/wins 1, losses 1, ties 1/);
    expect(text).toMatch(/q2 .* -0\.400/);
  });
});

describe('sample suites', () => {
  it('are reproducible: the committed files equal a fresh build from the sample catalogue', () => {
    const { mpn, nl } = buildSampleSuites();
    expect(fs.readFileSync(SAMPLE_MPN_FILE, 'utf8')).toBe(formatSuite(mpn));
    expect(fs.readFileSync(SAMPLE_NL_FILE, 'utf8')).toBe(formatSuite(nl));
    expect(mpn.length).toBeGreaterThanOrEqual(140);
    expect(nl.length).toBeGreaterThanOrEqual(40);
    for (const q of nl) expect(q.rule).toMatch(/category: .*specs: /);
  });
});
