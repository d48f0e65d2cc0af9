/**
 * Rule-judged count queries from a catalogue with specs (test/relevance/build-real-suites.ts): what
 * an engineer types when the number of channels in a package matters, e.g. "dual operational
 * amplifier", "quad comparators". Deterministic: the same parts give the same queries.
 *
 * How a query is made: leaf categories with at least MIN_CATEGORY_PARTS active parts, of which at
 * least a third have a count (below), largest first. For each such category and each count in
 * COUNT_WORDS held by at least MIN_COUNT_PARTS of its active parts, the query is the count's word and
 * the category's name, lower-cased ("dual mosfets").
 *
 * A part's count (the judge's own reading, not the query parser's): the first spec named one of
 * COUNT_SPEC_NAMES (compared lower-case) whose value starts with an integer ("2", "2 N-Channel") or
 * with a count word ("Dual", "Four channels").
 *
 * How it is judged (COUNT_RULE), over active parts only: a part of the query's leaf category (or of
 * a leaf category of the same name under another root, as in param-suite.ts) gets grade 3 when its
 * count is the asked one, grade 1 otherwise (another count, or none). Parts of other categories are
 * grade 0.
 */
import type { Grade, RelevanceQuery } from './format.ts';
import { activeByCategory, activeQuery, MIN_CATEGORY_PARTS, sameKindParts, type ParamPart } from './param-suite.ts';

export const COUNT_SPEC_NAMES: ReadonlySet<string> = new Set([
  'number of channels',
  'number of circuits',
  'circuits',
  'number',
  'number of elements',
  'number of drivers',
]);
const WORD_COUNTS: ReadonlyMap<string, number> = new Map([
  ['single', 1],
  ['one', 1],
  ['dual', 2],
  ['two', 2],
  ['double', 2],
  ['triple', 3],
  ['three', 3],
  ['quad', 4],
  ['four', 4],
  ['octal', 8],
  ['eight', 8],
]);
/** The counts asked for, and the word a query uses for each. */
const COUNT_WORDS: ReadonlyMap<number, string> = new Map([
  [2, 'dual'],
  [4, 'quad'],
]);
const MIN_COUNT_PARTS = 5;
const MIN_COUNTED_SHARE = 1 / 3;

export const COUNT_RULE =
  "Judged over active parts of the query's leaf category (and same-named leaf categories under other roots): grade 3 = the asked count (the first spec named Number of channels / Number of circuits / Circuits / Number / Number of elements / Number of drivers, read from its leading integer or count word); grade 1 = the category only.";

/** A part's count by the rule above, or null. */
export function partCount(p: Pick<ParamPart, 'specs'>): number | null {
  for (const s of p.specs) {
    if (!COUNT_SPEC_NAMES.has(s.name.toLowerCase())) continue;
    const v = s.value.trim().toLowerCase();
    const n = /^(\d+)(?![\d.])/.exec(v);
    if (n) return Number(n[1]);
    const w = /^[a-z]+/.exec(v);
    const c = w ? WORD_COUNTS.get(w[0]) : undefined;
    if (c !== undefined) return c;
  }
  return null;
}

export function buildCountSuite(parts: readonly ParamPart[], opts: { suite: string }): RelevanceQuery[] {
  const byCategory = activeByCategory(parts);
  const sameKind = sameKindParts(byCategory);
  const categories = [...byCategory.entries()]
    .filter(([, ps]) => ps.length >= MIN_CATEGORY_PARTS)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: RelevanceQuery[] = [];
  const used = new Set<string>();
  for (const [slug, ps] of categories) {
    const counts = ps.map(partCount);
    if (counts.filter((c) => c !== null).length < MIN_COUNTED_SHARE * ps.length) continue;
    const name = ps[0]!.category!.name;
    for (const [n, word] of COUNT_WORDS) {
      if (counts.filter((c) => c === n).length < MIN_COUNT_PARTS) continue;
      const query = `${word} ${name.toLowerCase()}`;
      if (used.has(query)) continue;
      used.add(query);
      const judgments: Record<string, Grade> = {};
      for (const p of sameKind(slug, name)) {
        const grade: Grade = partCount(p) === n ? 3 : 1;
        judgments[p.slug] = Math.max(judgments[p.slug] ?? 0, grade) as Grade;
      }
      out.push(activeQuery(opts.suite, out.length + 1, 'count', query, `category: ${name}; count: ${n}. ${COUNT_RULE}`, judgments));
    }
  }
  return out;
}
