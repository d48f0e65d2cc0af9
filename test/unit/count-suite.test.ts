import { describe, expect, it } from 'vitest';
import { buildCountSuite, partCount } from '../../src/relevance/count-suite.ts';
import { MIN_CATEGORY_PARTS, type ParamPart } from '../../src/relevance/param-suite.ts';

const spec = (name: string, value: string) => ({ name, value, num: null, unit: null });

/** Op amps with 1, 2 or 4 channels (written as catalogues write them), one without a count. */
function opamps(root: string, n: number): ParamPart[] {
  const values = ['1', '2', 'Dual', '4', 'Four channels'];
  return Array.from({ length: n }, (_, i) => ({
    slug: `${root}/A${i}`,
    active: i !== 1,
    category: { slug: `${root}/opamps`, name: 'Operational Amplifiers' },
    package: 'SOIC-8',
    specs: i === 0 ? [spec('Slew rate', '1V/us')] : [spec('Number of channels', values[i % values.length]!)],
  }));
}

describe('count suite builder (count-suite.ts)', () => {
  it('reads a count from the leading integer or count word of the first count spec', () => {
    expect(partCount({ specs: [spec('Number of channels', '2')] })).toBe(2);
    expect(partCount({ specs: [spec('Number', '2 N-Channel')] })).toBe(2);
    expect(partCount({ specs: [spec('Number of circuits', 'Dual')] })).toBe(2);
    expect(partCount({ specs: [spec('Number of channels', 'Four channels')] })).toBe(4);
    expect(partCount({ specs: [spec('Number of channels', '2.5')] })).toBeNull(); // not a count
    expect(partCount({ specs: [spec('Number of pins', '8')] })).toBeNull(); // not a count name
    expect(partCount({ specs: [] })).toBeNull();
  });

  it('asks "dual"/"quad" per category and grades the asked count 3, the category 1, other categories 0', () => {
    const parts = [
      ...opamps('a', MIN_CATEGORY_PARTS + 10),
      ...opamps('b', 10),
      { slug: 'x/C1', active: true, category: { slug: 'caps', name: 'Capacitors' }, package: null, specs: [spec('Number of channels', '2')] },
    ];
    const qs = buildCountSuite(parts, { suite: 't' });
    expect(qs.map((q) => q.query)).toEqual(['dual operational amplifiers', 'quad operational amplifiers']);
    const [dual, quad] = qs;
    expect(dual).toMatchObject({ id: 't-001', kind: 'count', endpoint: 'agentic', params: { part_status: ['active'] } });
    for (const p of parts.filter((x) => x.active && x.category?.name === 'Operational Amplifiers')) {
      const c = partCount(p);
      // Same-named categories under another root ("b") are judged as the query's category.
      expect(dual!.judgments[p.slug], p.slug).toBe(c === 2 ? 3 : 1);
      expect(quad!.judgments[p.slug], p.slug).toBe(c === 4 ? 3 : 1);
    }
    expect(dual!.judgments['a/A1']).toBeUndefined(); // not active
    expect(dual!.judgments['x/C1']).toBeUndefined(); // another category
  });

  it('skips categories where under a third of the parts have a count', () => {
    const parts = opamps('a', MIN_CATEGORY_PARTS + 10).map((p, i) => (i % 4 === 0 ? p : { ...p, specs: [] }));
    expect(buildCountSuite(parts, { suite: 't' })).toEqual([]);
  });
});
