import { describe, expect, it } from 'vitest';
import { buildParamSuite, MIN_CATEGORY_PARTS, type ParamPart } from '../../src/relevance/param-suite.ts';

const spec = (name: string, value: string, num: number | null, unit: string | null) => ({ name, value, num, unit });

/** A category of resistors: resistance and power numeric on every part, a text spec, packages. */
function resistors(): ParamPart[] {
  const out: ParamPart[] = [];
  for (let i = 0; i < MIN_CATEGORY_PARTS + 10; i++) {
    const ohms = [1000, 2000, 10_000][i % 3]!;
    const watts = [0.0625, 0.1][i % 2]!;
    out.push({
      slug: `acme/R${i}`,
      active: i !== 0,
      category: { slug: 'resistors/chip', name: 'Chip Resistors' },
      package: i % 4 === 0 ? '0402' : '0603',
      specs: [spec('Resistance', `${ohms / 1000}kΩ`, ohms, 'Ω'), spec('Power', `${watts * 1000}mW`, watts, 'W'), spec('Type', 'Thick Film', null, null)],
    });
  }
  return out;
}

describe('parametric suite builder (param-suite.ts)', () => {
  it('asks for two numeric specs (and a package every other query) of a category, judged from the records', () => {
    const parts = [
      ...resistors(),
      { slug: 'other/C1', active: true, category: { slug: 'caps', name: 'Capacitors' }, package: '0603', specs: [spec('Resistance', '1kΩ', 1000, 'Ω')] },
    ];
    const qs = buildParamSuite(parts, { suite: 't', queries: 6, seed: 1 });
    expect(qs.length).toBeGreaterThan(1);
    for (const q of qs) {
      expect(q).toMatchObject({ suite: 't', endpoint: 'agentic', kind: 'parametric', params: { part_status: ['active'] } });
      expect(q.query.endsWith(' chip resistors')).toBe(true);
      expect(q.judgments['other/C1']).toBeUndefined(); // another category: grade 0
      expect(q.judgments['acme/R0']).toBeUndefined(); // not active
      const words = q.query.split(' ');
      const pkg = /\b(0402|0603)\b/.exec(q.query)?.[1] ?? null;
      for (const p of resistors().filter((x) => x.active)) {
        const met = [words.includes(p.specs[0]!.value), words.includes(p.specs[1]!.value), ...(pkg ? [p.package === pkg] : [])].filter(Boolean).length;
        const n = pkg ? 3 : 2;
        expect(q.judgments[p.slug], `${q.query} / ${p.slug}`).toBe(met === n ? 3 : met === n - 1 ? 2 : 1);
      }
    }
    expect(qs.some((q) => /\b0(402|603)\b/.test(q.query))).toBe(true);
    expect(new Set(qs.map((q) => q.query)).size).toBe(qs.length);
  });

  it("judges parts of a same-named leaf category under another root as of the query's category", () => {
    const twin: ParamPart = {
      slug: 'twin/R1',
      active: true,
      category: { slug: 'passives/chip', name: 'Chip resistors' },
      package: '0603',
      specs: resistors()[1]!.specs,
    };
    const qs = buildParamSuite([...resistors(), twin], { suite: 't', queries: 4, seed: 3 });
    expect(qs.length).toBeGreaterThan(0);
    for (const q of qs) expect(q.judgments['twin/R1'], q.query).toBe(q.judgments['acme/R1']);
    // a generic leaf name ("Others") is not merged across roots
    const others = (root: string): ParamPart[] =>
      resistors().map((p) => ({ ...p, slug: `${root}/${p.slug}`, category: { slug: `${root}/others`, name: 'Others' } }));
    const oq = buildParamSuite([...others('a'), ...others('b')], { suite: 't', queries: 2, seed: 3 });
    expect(oq.length).toBeGreaterThan(0);
    for (const q of oq) {
      const roots = new Set(Object.keys(q.judgments).map((slug) => slug.split('/')[0]));
      expect(roots.size, q.query).toBe(1);
    }
  });

  it('is deterministic and skips categories too small or without two numeric specs', () => {
    const parts = resistors();
    expect(buildParamSuite(parts, { suite: 't', queries: 4, seed: 7 })).toEqual(buildParamSuite(parts, { suite: 't', queries: 4, seed: 7 }));
    expect(buildParamSuite(parts.slice(0, MIN_CATEGORY_PARTS - 5), { suite: 't', queries: 4, seed: 7 })).toEqual([]);
    const oneSpec = parts.map((p) => ({ ...p, specs: p.specs.slice(0, 1) }));
    expect(buildParamSuite(oneSpec, { suite: 't', queries: 4, seed: 7 })).toEqual([]);
  });
});
