import { describe, expect, it } from 'vitest';
import { metricDrops } from '../support/relevance-gate.ts';

const m = (ndcg10: number, constraint_share: number | null = null) => ({ ndcg10, mrr: 1, p1: 1, p5: 0.5, r10: 1, constraint_share });

describe('relevance gate: metricDrops', () => {
  it('names every metric below baseline - tolerance, a missing baseline, and a lower constraint share', () => {
    expect(metricDrops({ a: m(0.9, 0.6) }, { a: m(0.91, 0.61) }, 0.02)).toEqual([]);
    expect(metricDrops({ a: m(0.88) }, { a: m(0.91) }, 0.02, 'lexical')).toEqual(['a lexical ndcg10 0.8800 < baseline 0.9100 - 0.02']);
    expect(metricDrops({ a: m(0.9, 0.5) }, { a: m(0.9, 0.6) }, 0.02)).toEqual(['a top-5 constraint share 0.5 < baseline 0.6 - 0.02']);
    expect(metricDrops({ b: m(1) }, { a: m(1) }, 0.02)).toEqual(['b: no baseline']);
  });
});
