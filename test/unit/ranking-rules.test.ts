/**
 * The ranking rules of agentic search (src/search/agentic/ranking-rules.ts), each on its own: the key it
 * gives a candidate, table by table; then the order of the list as a whole (a rule decides only what
 * every earlier rule ties), and the rank context decided from the first block (rank.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PartRecord } from '../../src/catalog/part.ts';
import { rankContext } from '../../src/search/agentic/rank.ts';
import {
  askedValueRule,
  categoryRule,
  constraintsRule,
  exactCategoryRule,
  exactPackageRule,
  familyRule,
  fusedScoreRule,
  mpnRule,
  orderByRules,
  partIdRule,
  RANKING_RULES,
  rareConstraintsRule,
  valueByUnitRule,
  type Candidate,
  type RankContext,
  type RankingRule,
} from '../../src/search/agentic/ranking-rules.ts';
import type { RecordKeys } from '../../src/search/ranking-keys.ts';
import { understandQuery } from '../../src/search/understand.ts';

const NO_KEYS: RecordKeys = { checks: [], strict: [], cat: 0, fam: 0, c: 1, t: 0, v: 0, pe: 0 };
const ctx0: RankContext = { widen: false, weights: [] };

function cand(o: { id?: number; keys?: Partial<RecordKeys>; mpnRank?: number; fused?: number } = {}): Candidate {
  return { p: { id: o.id ?? 1 } as PartRecord, keys: { ...NO_KEYS, ...o.keys }, mpnRank: o.mpnRank, fused: o.fused ?? 0 };
}

/** [rule, case, candidate, context, expected key] */
const KEYS: [RankingRule, string, Candidate, RankContext, number][] = [
  [mpnRule, 'not an MPN hit: last', cand(), ctx0, -Infinity],
  [mpnRule, 'the first MPN hit', cand({ mpnRank: 0 }), ctx0, -0],
  [mpnRule, 'the third MPN hit, after the first', cand({ mpnRank: 2 }), ctx0, -2],
  [categoryRule, 'outside the named categories', cand(), ctx0, 0],
  [categoryRule, 'in a named category', cand({ keys: { cat: 1 } }), ctx0, 1],
  [categoryRule, 'in the category named exactly: the same tier', cand({ keys: { cat: 2 } }), ctx0, 1],
  [categoryRule, 'of the family, every constraint met, not widened', cand({ keys: { fam: 1, c: 1 } }), ctx0, 0],
  [categoryRule, 'of the family, every constraint met, widened', cand({ keys: { fam: 1, c: 1 } }), { ...ctx0, widen: true }, 1],
  [categoryRule, 'of the family, a constraint missed, widened', cand({ keys: { fam: 1, c: 0.5 } }), { ...ctx0, widen: true }, 0],
  [categoryRule, 'every constraint met, another family, widened', cand({ keys: { fam: 0, c: 1 } }), { ...ctx0, widen: true }, 0],
  [familyRule, 'of the family', cand({ keys: { fam: 1 } }), ctx0, 1],
  [familyRule, 'not of the family (or none named)', cand(), ctx0, 0],
  [constraintsRule, 'two of three met', cand({ keys: { c: 2 / 3 } }), ctx0, 2 / 3],
  [askedValueRule, 'two asked values held', cand({ keys: { t: 2 } }), ctx0, 2],
  [valueByUnitRule, 'one value held under another name of its unit', cand({ keys: { v: 1 } }), ctx0, 1],
  [exactPackageRule, 'the package as named', cand({ keys: { pe: 1 } }), ctx0, 1],
  [exactCategoryRule, 'the category named by its exact name', cand({ keys: { cat: 2 } }), ctx0, 2],
  [exactCategoryRule, 'a category the query only resembles', cand({ keys: { cat: 1 } }), ctx0, 1],
  [rareConstraintsRule, 'no constraint met', cand({ keys: { strict: [false, false] } }), { widen: false, weights: [1.5, 0.25] }, 0],
  [rareConstraintsRule, 'the rare constraint met', cand({ keys: { strict: [true, false] } }), { widen: false, weights: [1.5, 0.25] }, 1.5e9],
  [rareConstraintsRule, 'both met', cand({ keys: { strict: [true, true] } }), { widen: false, weights: [1.5, 0.25] }, 1.75e9],
  [rareConstraintsRule, 'sums equal but for the last bit: equal keys', cand({ keys: { strict: [true, true] } }), { widen: false, weights: [0.1, 0.2] }, 3e8],
  [fusedScoreRule, 'the fused score', cand({ fused: 0.0325 }), ctx0, 0.0325],
  [partIdRule, 'the lower id first', cand({ id: 42 }), ctx0, -42],
];

describe('ranking rules, each on its own', () => {
  it.each(KEYS.map(([rule, name, c, ctx, want]) => [`${rule.name}: ${name}`, rule, c, ctx, want] as const))('%s', (_name, rule, c, ctx, want) => {
    expect(rule.key(c, ctx)).toBe(want);
  });
});

describe('the ordered list of ranking rules', () => {
  it('is the documented order', () => {
    expect(RANKING_RULES.map((r) => r.name)).toEqual([
      'mpn',
      'category',
      'family',
      'constraints',
      'asked-value',
      'value-by-unit',
      'exact-package',
      'exact-category',
      'rare-constraints',
      'fused-score',
      'part-id',
    ]);
  });

  // [case, candidates best first as they should come out]: each pair differs first on the rule named.
  const ORDERS: [string, Candidate[]][] = [
    ['an MPN hit before a better-scored part of the named category', [cand({ id: 9, mpnRank: 1 }), cand({ id: 1, keys: { cat: 2 }, fused: 1 })]],
    ['MPN hits in their lookup order', [cand({ id: 9, mpnRank: 0 }), cand({ id: 1, mpnRank: 3 })]],
    ['the named category before the family', [cand({ id: 9, keys: { cat: 1 } }), cand({ id: 1, keys: { fam: 1 } })]],
    ['the family before more constraints met', [cand({ id: 9, keys: { fam: 1, c: 0 } }), cand({ id: 1, keys: { c: 1 } })]],
    ['more constraints before the asked value', [cand({ id: 9, keys: { c: 1 } }), cand({ id: 1, keys: { c: 0.5, t: 3 } })]],
    ['the asked value before the value by unit', [cand({ id: 9, keys: { t: 1 } }), cand({ id: 1, keys: { v: 2 } })]],
    ['the exact package before the exact category', [cand({ id: 9, keys: { cat: 1, pe: 1 } }), cand({ id: 1, keys: { cat: 2 } })]],
    [
      'the rarer constraint before the fused score',
      [cand({ id: 9, keys: { strict: [true, false] } }), cand({ id: 1, keys: { strict: [false, true] }, fused: 1 })],
    ],
    ['the fused score before the id', [cand({ id: 9, fused: 0.02 }), cand({ id: 1, fused: 0.01 })]],
    ['equal on everything: the lower id', [cand({ id: 1 }), cand({ id: 9 })]],
  ];
  const ctx: RankContext = { widen: false, weights: [2, 0.5] };
  it.each(ORDERS)('%s', (_name, best) => {
    expect(orderByRules([...best].reverse(), ctx).map((c) => c.p.id)).toEqual(best.map((c) => c.p.id));
    expect(orderByRules(best, ctx).map((c) => c.p.id)).toEqual(best.map((c) => c.p.id));
  });

  it('ranks by the rules it is given, in their order', () => {
    const a = cand({ id: 1, keys: { fam: 1 } });
    const b = cand({ id: 2, fused: 1 });
    expect(orderByRules([a, b], ctx0, [fusedScoreRule, familyRule]).map((c) => c.p.id)).toEqual([2, 1]);
    expect(orderByRules([a, b], ctx0, [familyRule, fusedScoreRule]).map((c) => c.p.id)).toEqual([1, 2]);
  });
});

describe('the rank context, from the first block', () => {
  const inCat = (c: number) => cand({ keys: { cat: 1, c } });
  // [case, query, first block, widen]
  const WIDEN: [string, string, Candidate[], boolean][] = [
    ['few named-category parts meet every constraint: widened', 'pnp transistor sot-23', [inCat(1), inCat(0.5), inCat(0.5)], true],
    ['five do: not widened', 'pnp transistor sot-23', [1, 1, 1, 1, 1].map(inCat), false],
    ['no parsed constraint: not widened', 'transistors', [inCat(1)], false],
    ['a word left unread: not widened', 'pnp transistor sot-23 small signal', [inCat(1)], false],
  ];
  it.each(WIDEN)('%s', (_name, query, first, widen) => {
    expect(rankContext({ u: understandQuery(query) }, first).widen).toBe(widen);
  });

  it('weighs each constraint by how few of the first block meet it', () => {
    const first = [
      [true, true],
      [false, true],
      [false, true],
    ].map((strict) => cand({ keys: { strict } }));
    const { weights } = rankContext({ u: understandQuery('16MHz crystal 20pF') }, first);
    expect(weights).toEqual([Math.log(5 / 2), Math.log(5 / 4)]);
  });
});
