/**
 * The need-style suite (test/relevance/need-rules.json): needs described as a person describes them
 * ("isolate a microcontroller input from mains with light"), judged on a real catalogue by explicit
 * rules: the part's family, by its leaf category's name, and the constraints the query states, read
 * from the part's own specs (never through the query parser). The rules file says how (its `grades`);
 * this module checks the file and applies it. Each query belongs to the tuning half or the test half
 * (`split`): the two become the suites need-tune and need-test, reported apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseQuantity, parseSpecValue } from '../catalog/units.ts';
import type { Grade, RelevanceQuery } from './format.ts';
import { activeQuery, type ParamPart } from './param-suite.ts';
import { PROJECT_ROOT } from '../util/project.ts';

export interface NeedConstraint {
  /** Spec names the constraint reads (a case-insensitive pattern). */
  spec?: string;
  covers?: string;
  equals?: string;
  atLeast?: string;
  atMost?: string;
  /** The spec's text matches (case-insensitive). */
  matches?: string;
  /** Relative tolerance of `equals` (default EQUALS_TOLERANCE). */
  tolerance?: number;
  /** Instead of a spec: the part's description, long description or leaf category name matches. */
  text?: string;
}

export interface NeedRuleQuery {
  id: string;
  split: 'tune' | 'test';
  kind: 'function' | 'spec';
  query: string;
  want: string[];
  also?: string[];
  constraints?: NeedConstraint[];
}

export interface NeedRules {
  suite: string;
  families: Record<string, { leaf: string; notLeaf?: string }>;
  queries: NeedRuleQuery[];
}

/** What the judge reads of a part. */
export interface NeedPart extends ParamPart {
  description: string;
  longDescription: string | null;
}

export const EQUALS_TOLERANCE = 0.02;
export const NEED_RULES_FILE = pathToFileURL(path.join(PROJECT_ROOT, 'test', 'relevance', 'need-rules.json'));
const NUMERIC_TESTS = ['covers', 'equals', 'atLeast', 'atMost'] as const;

export class NeedRulesError extends Error {
  override name = 'NeedRulesError';
}

const regex = (source: string, where: string): RegExp => {
  try {
    return new RegExp(source, 'i');
  } catch (e) {
    throw new NeedRulesError(`${where}: bad pattern ${JSON.stringify(source)} (${(e as Error).message})`);
  }
};

/** A number with its unit as written ("12V", "10mΩ", "16"), in SI. */
function quantityOf(text: string, where: string): { value: number; unit: string | null } {
  const q = parseQuantity(text);
  if (!q || !Number.isFinite(q.value)) throw new NeedRulesError(`${where}: cannot read the quantity ${JSON.stringify(text)}`);
  return { value: q.value, unit: q.unit };
}

/** Checks a rules file's shape and every pattern and quantity in it; throws NeedRulesError naming the place. */
export function validateNeedRules(x: unknown): NeedRules {
  const fail = (why: string): never => {
    throw new NeedRulesError(why);
  };
  const o = x as NeedRules;
  if (typeof o !== 'object' || o === null || typeof o.suite !== 'string' || typeof o.families !== 'object' || !Array.isArray(o.queries))
    fail('needs "suite", "families" and "queries"');
  for (const [id, f] of Object.entries(o.families)) {
    regex(f.leaf, `family ${id} leaf`);
    if (f.notLeaf !== undefined) regex(f.notLeaf, `family ${id} notLeaf`);
  }
  const ids = new Set<string>();
  for (const q of o.queries) {
    const at = `query ${q.id ?? '?'}`;
    if (typeof q.id !== 'string' || ids.has(q.id)) fail(`${at}: a unique "id" is required`);
    ids.add(q.id);
    if (q.split !== 'tune' && q.split !== 'test') fail(`${at}: "split" must be tune or test`);
    if (q.kind !== 'function' && q.kind !== 'spec') fail(`${at}: "kind" must be function or spec`);
    if (typeof q.query !== 'string' || !q.query.trim()) fail(`${at}: "query" must be a non-empty string`);
    for (const f of [...(q.want ?? []), ...(q.also ?? [])]) if (!o.families[f]) fail(`${at}: unknown family "${f}"`);
    if (!q.want?.length) fail(`${at}: "want" needs a family`);
    for (const c of q.constraints ?? []) {
      const tests = [...NUMERIC_TESTS, 'matches'].filter((k) => c[k as keyof NeedConstraint] !== undefined);
      if (c.text !== undefined) {
        regex(c.text, `${at} text`);
        if (c.spec !== undefined || tests.length) fail(`${at}: a "text" constraint takes nothing else`);
        continue;
      }
      if (c.spec === undefined || tests.length !== 1) fail(`${at}: a constraint needs "spec" and one of ${[...NUMERIC_TESTS, 'matches'].join(', ')}`);
      regex(c.spec!, `${at} spec`);
      if (c.matches !== undefined) regex(c.matches, `${at} matches`);
      for (const k of NUMERIC_TESTS) if (c[k] !== undefined) quantityOf(c[k]!, `${at} ${k}`);
    }
  }
  return o;
}

export function readNeedRules(file: string | URL = NEED_RULES_FILE): NeedRules {
  return validateNeedRules(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/** A spec's value as a range in SI ([v, v] for one value); null when it holds no number in the unit. */
function rangeOf(value: string, unit: string | null): { min: number; max: number } | null {
  const p = parseSpecValue(value);
  if (!p || (p.unit ?? null) !== unit) return null;
  const min = p.value ?? p.min;
  const max = p.value ?? p.max;
  return min !== null && max !== null && Number.isFinite(min) && Number.isFinite(max) ? { min, max } : null;
}

/** Whether one spec value meets a numeric or text test of a constraint. */
export function valueMeets(c: NeedConstraint, value: string): boolean {
  if (c.matches !== undefined) return new RegExp(c.matches, 'i').test(value);
  const k = NUMERIC_TESTS.find((t) => c[t] !== undefined);
  if (!k) return false;
  const want = quantityOf(c[k]!, k);
  const r = rangeOf(value, want.unit);
  if (!r) return false;
  const slack = Math.abs(want.value) * 1e-6;
  switch (k) {
    case 'covers':
      return r.min - slack <= want.value && want.value <= r.max + slack;
    case 'equals': {
      const tol = Math.abs(want.value) * (c.tolerance ?? EQUALS_TOLERANCE) + slack;
      return r.min === r.max ? Math.abs(r.min - want.value) <= tol : r.min - tol <= want.value && want.value <= r.max + tol;
    }
    case 'atLeast':
      return r.max >= want.value - slack;
    case 'atMost':
      return r.max <= want.value + slack;
  }
}

/** Whether a part meets a constraint: one of its specs of a matching name meets it, or (text) its texts match. */
export function partMeets(c: NeedConstraint, p: NeedPart): boolean {
  if (c.text !== undefined) {
    const re = new RegExp(c.text, 'i');
    return re.test(p.description) || re.test(p.longDescription ?? '') || re.test(p.category?.name ?? '');
  }
  const name = new RegExp(c.spec!, 'i');
  return p.specs.some((s) => name.test(s.name) && valueMeets(c, s.value));
}

/** The family of a leaf category name under the rules: the first whose leaf pattern matches (and notLeaf does not). */
export function familyOf(rules: Pick<NeedRules, 'families'>, leaf: string): string | null {
  for (const [id, f] of Object.entries(rules.families))
    if (new RegExp(f.leaf, 'i').test(leaf) && !(f.notLeaf && new RegExp(f.notLeaf, 'i').test(leaf))) return id;
  return null;
}

/** The grade of a part for a query (the rules file's `grades`). */
export function needGrade(q: NeedRuleQuery, family: string | null, p: NeedPart): Grade {
  if (family === null) return 0;
  const want = q.want.includes(family);
  if (!want && !(q.also ?? []).includes(family)) return 0;
  if (!(q.constraints ?? []).every((c) => partMeets(c, p))) return 1;
  return want ? 3 : 2;
}

export const NEED_RULE =
  "Judged by test/relevance/need-rules.json over active parts: grade 3 = a 'want' family (by leaf category name) meeting every stated constraint, 2 = an 'also' family meeting them, 1 = either family missing one, 0 = other parts.";

/** The rules applied to a catalogue's parts: the suites `<suite>-tune` and `<suite>-test` (queries without a grade-1 part are left out). */
export function buildNeedSuite(rules: NeedRules, parts: readonly NeedPart[]): { tune: RelevanceQuery[]; test: RelevanceQuery[] } {
  const families = new Map<string, string | null>();
  const familyOfPart = (p: NeedPart) => {
    const leaf = p.category?.name ?? '';
    if (!families.has(leaf)) families.set(leaf, familyOf(rules, leaf));
    return families.get(leaf)!;
  };
  const out = { tune: [] as RelevanceQuery[], test: [] as RelevanceQuery[] };
  for (const q of rules.queries) {
    const judgments: Record<string, Grade> = {};
    for (const p of parts) {
      if (!p.active) continue;
      const g = needGrade(q, familyOfPart(p), p);
      if (g > 0) judgments[p.slug] = g;
    }
    if (Object.keys(judgments).length === 0) continue;
    const suite = `${rules.suite}-${q.split}`;
    out[q.split].push({ ...activeQuery(suite, 0, q.kind, q.query, NEED_RULE, judgments), id: q.id });
  }
  return out;
}
