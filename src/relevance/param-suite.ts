/**
 * Rule-judged parametric queries from a catalogue with specs (test/relevance/build-real-suites.ts):
 * what an engineer types when they know the values, e.g. "100nF 50V 0603 multilayer ceramic
 * capacitors". Deterministic: the same parts and seed give the same queries.
 *
 * How a query is made: leaf categories with at least MIN_CATEGORY_PARTS active parts are taken in
 * turn, largest first. In each, the spec names with a single numeric value and a unit (the dump's
 * `num` and `unit`) held by at least a third of its active parts are its "numeric specs", most
 * common first. A target part is drawn at random among the active parts holding two of them; the
 * query is the display values of its first two numeric specs, its package on every other query (when
 * it has a short one written as a package name), and the category's name, lower-cased.
 *
 * How it is judged (RULE), over active parts only (the queries ask for part_status active), using
 * the records' own numbers, never the query parser: a part of the same leaf category (or of a leaf
 * category of the same name under another root: the catalogue repeats "MOSFETs", "Crystals", "Power
 * Inductors" under several roots; not generic names such as "Others") gets grade 3
 * when it meets every constraint (each spec present with the same number and unit, within 1e-6
 * relative; the same package, compared upper-case without spaces), grade 2 when it meets all but
 * one, grade 1 otherwise. Parts of other categories are grade 0.
 */
import { Rng } from '../sample/rng.ts';
import type { Grade, RelevanceQuery } from './format.ts';

/** What the builder needs of a part. */
export interface ParamPart {
  slug: string;
  active: boolean;
  category: { slug: string; name: string } | null;
  package: string | null;
  specs: readonly { name: string; value: string; num: number | null; unit: string | null }[];
}

export const MIN_CATEGORY_PARTS = 40;
const MIN_SPEC_SHARE = 1 / 3;
const MAX_PACKAGE_LENGTH = 12;
/** Packages as an engineer would type them ("SOT-23-5", "0603", "PDFN(3x3)"), not catalogue notes ("SMD,3x3mm"). */
const PACKAGE = /^[A-Za-z0-9][A-Za-z0-9.()+-]*$/;

export const PARAM_RULE =
  "Judged over active parts of the query's leaf category (and same-named leaf categories under other roots), from the records' numbers: grade 3 = every constraint (each spec with the same number and unit within 1e-6 relative; the package, upper-case without spaces); grade 2 = all but one; grade 1 = the category only.";

/** Category names compared case-insensitively, punctuation and spacing aside. */
const nameKeyOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/** Leaf names that say nothing of the parts ("Others" under every root): never merged across roots. */
const GENERIC_NAMES: ReadonlySet<string> = new Set(['other', 'others', 'accessories', 'accessory', 'misc', 'miscellaneous', 'kits', 'kit', 'parts', 'general']);
const samePackage = (a: string | null, b: string | null) =>
  a !== null && b !== null && a.toUpperCase().replace(/\s+/g, '') === b.toUpperCase().replace(/\s+/g, '');
const sameNumber = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b));
const numeric = (s: ParamPart['specs'][number]) => s.num !== null && Number.isFinite(s.num) && s.unit !== null && s.unit !== '';

/** A rule-judged agentic query over active parts, numbered within its suite ("<suite>-001"). */
export function activeQuery(suite: string, n: number, kind: string, query: string, rule: string, judgments: Record<string, Grade>): RelevanceQuery {
  return { id: `${suite}-${String(n).padStart(3, '0')}`, suite, kind, query, endpoint: 'agentic', params: { part_status: ['active'] }, rule, judgments };
}

/** The active parts of each leaf category, by category slug. */
export function activeByCategory(parts: readonly ParamPart[]): Map<string, ParamPart[]> {
  const byCategory = new Map<string, ParamPart[]>();
  for (const p of parts) {
    if (!p.active || !p.category) continue;
    const list = byCategory.get(p.category.slug);
    if (list) list.push(p);
    else byCategory.set(p.category.slug, [p]);
  }
  return byCategory;
}

/**
 * The parts judged as of a query's category: leaf categories of the same name under different roots
 * ("MOSFETs" three times, "Crystals") hold the same kind of part, so a part of any of them counts;
 * generic names ("Others") stay with their own category.
 */
export function sameKindParts(byCategory: ReadonlyMap<string, ParamPart[]>): (slug: string, name: string) => ParamPart[] {
  const byName = new Map<string, ParamPart[]>();
  const keyOf = (slug: string, name: string) => (GENERIC_NAMES.has(nameKeyOf(name)) ? `slug:${slug}` : nameKeyOf(name));
  for (const [slug, ps] of byCategory) {
    const key = keyOf(slug, ps[0]!.category!.name);
    const list = byName.get(key);
    if (list) list.push(...ps);
    else byName.set(key, [...ps]);
  }
  return (slug, name) => byName.get(keyOf(slug, name)) ?? byCategory.get(slug) ?? [];
}

export function buildParamSuite(parts: readonly ParamPart[], opts: { suite: string; queries: number; seed: number }): RelevanceQuery[] {
  const byCategory = activeByCategory(parts);
  const sameKind = sameKindParts(byCategory);
  const categories = [...byCategory.entries()]
    .filter(([, ps]) => ps.length >= MIN_CATEGORY_PARTS)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([slug, ps]) => {
      const counts = new Map<string, number>();
      for (const p of ps) for (const name of new Set(p.specs.filter(numeric).map((s) => s.name))) counts.set(name, (counts.get(name) ?? 0) + 1);
      const specNames = [...counts.entries()]
        .filter(([, n]) => n >= MIN_SPEC_SHARE * ps.length)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([name]) => name);
      const eligible = ps.filter((p) => specNames.filter((n) => p.specs.some((s) => s.name === n && numeric(s))).length >= 2);
      return { slug, name: ps[0]!.category!.name, parts: ps, specNames, eligible };
    })
    .filter((c) => c.eligible.length > 0);

  const rng = new Rng(opts.seed).fork(opts.suite);
  const out: RelevanceQuery[] = [];
  const used = new Set<string>();
  for (let round = 0; out.length < opts.queries && round < 20; round++) {
    for (const c of categories) {
      if (out.length >= opts.queries) break;
      const target = c.eligible[rng.int(0, c.eligible.length - 1)]!;
      const chosen = c.specNames
        .map((n) => target.specs.find((s) => s.name === n && numeric(s)))
        .filter((s) => s !== undefined)
        .slice(0, 2);
      const pkg = out.length % 2 === 1 && target.package && target.package.length <= MAX_PACKAGE_LENGTH && PACKAGE.test(target.package) ? target.package : null;
      const query = [...chosen.map((s) => s.value), ...(pkg ? [pkg] : []), c.name.toLowerCase()].join(' ');
      if (used.has(query)) continue;
      used.add(query);
      const constraints = chosen.length + (pkg ? 1 : 0);
      const judgments: Record<string, Grade> = {};
      for (const p of sameKind(c.slug, c.name)) {
        let met = chosen.filter((want) =>
          p.specs.some((s) => s.name === want.name && numeric(s) && s.unit === want.unit && sameNumber(s.num!, want.num!)),
        ).length;
        if (pkg && samePackage(p.package, pkg)) met++;
        const grade: Grade = met === constraints ? 3 : met === constraints - 1 ? 2 : 1;
        judgments[p.slug] = Math.max(judgments[p.slug] ?? 0, grade) as Grade;
      }
      const rule = `category: ${c.name}; specs: ${chosen.map((s) => `${s.name} ${s.value}`).join(', ')}${pkg ? `; package ${pkg}` : ''}. ${PARAM_RULE}`;
      out.push(activeQuery(opts.suite, out.length + 1, 'parametric', query, rule, judgments));
    }
  }
  return out;
}
