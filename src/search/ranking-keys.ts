/**
 * The ranking keys of agentic search (agentic.ts): per candidate part, how well it meets the query's
 * parsed constraints (constraintScore), whether it holds the asked values themselves (targetHits,
 * exactValueHits, valueHits) and whether it is in the package the query names (meetsPackage,
 * packageExact). The relevance measure (src/relevance) judges parts by the same functions.
 */
import type { PartRecord } from '../catalog/part.ts';
import { inFamily } from './families.ts';
import { namedCategoryScore } from './named-categories.ts';
import { holdsExactValue, holdsValue, meetsTarget, readings } from './spec-match.ts';
import type { Family } from '../vocabulary/families.ts';
import { packageForms } from '../vocabulary/packages.ts';
import { perObject, perRecord } from './record-memo.ts';
import type { QueryUnderstanding } from './understand.ts';

/** Number of parsed constraints constraintScore checks (spec constraints, value constraints, one for the packages). */
export function constraintCount(u: QueryUnderstanding): number {
  return u.specs.length + u.values.length + (u.packages.length ? 1 : 0);
}

/**
 * Which of the parsed constraints a part satisfies, in constraintCount's order (spec constraints, value
 * constraints, the packages), in both readings at once (each constraint evaluated once): `strict`
 * (satisfies; the relevance measure's), and `loose` (ranking's: also a quantity held under a spec name the
 * vocabulary does not know, satisfiesLoosely).
 */
export function constraintReadings(u: QueryUnderstanding, p: PartRecord): { strict: boolean[]; loose: boolean[] } {
  const strict: boolean[] = [];
  const loose: boolean[] = [];
  for (const c of [...u.specs, ...u.values]) {
    const r = readings(p.specs, c);
    strict.push(r.strict);
    loose.push(r.loose);
  }
  if (u.packages.length) {
    const pkg = meetsPackage(u, p);
    strict.push(pkg);
    loose.push(pkg);
  }
  return { strict, loose };
}

/** Fraction of the parsed constraints a part satisfies (1 when there are none); `loose` as constraintReadings. */
export function constraintScore(u: QueryUnderstanding, p: PartRecord, loose = false): number {
  const r = constraintReadings(u, p);
  return shareMet(loose ? r.loose : r.strict);
}

/** Fraction of checks that hold (1 when there are none). */
export function shareMet(checks: readonly boolean[]): number {
  return checks.length ? checks.filter(Boolean).length / checks.length : 1;
}

/**
 * How much each constraint says, from how few of the candidates meet it: log((n + 2) / (met + 1)) over n
 * candidates' constraint readings. Between two parts meeting as many constraints, the one meeting the rarer
 * ones is the more specific answer ("16MHz crystal 20pF": among crystals many have a 20 pF load, few
 * run at 16 MHz, so a 16 MHz / 9 pF crystal ranks before a 25 MHz / 20 pF one).
 */
export function constraintWeights(checks: readonly (readonly boolean[])[]): number[] {
  const n = checks.length;
  const met = (checks[0] ?? []).map((_, i) => checks.filter((c) => c[i]).length);
  return met.map((m) => Math.log((n + 2) / (m + 1)));
}

/** The sum of the weights (constraintWeights) of the constraints a part meets. */
export function weightMet(checks: readonly boolean[], weights: readonly number[]): number {
  let sum = 0;
  checks.forEach((ok, i) => {
    if (ok) sum += weights[i] ?? 0;
  });
  return sum;
}

/** Whether the part is in one of the packages the query names (packageMatches); the one package check of the ranking. */
export function meetsPackage(u: QueryUnderstanding, p: Pick<PartRecord, 'package' | 'description'>): boolean {
  const { pkg, text } = packageText(p);
  return u.packages.some((code) => packageMatches(code, pkg, text));
}

/** A part's package (upper case, no spaces) and that with its description (upper case), per record. */
const packageText = perRecord((p: Pick<PartRecord, 'package' | 'description'>) => {
  const pkg = (p.package ?? '').toUpperCase().replace(/\s+/g, '');
  return { pkg, text: `${pkg} ${p.description.toUpperCase()}` };
});

/**
 * Whether a part's package (upper case, no spaces; `text` adds its description) is the one a query
 * names: the query's own code also as a variant or in the text, not followed by a digit ("TO-252"
 * accepts "TO-252-2", "SOT-23" accepts "SOT-23(TO-236)"; "TO-5" does not accept "TO-56"), another name of the same package (packageForms) only as the package
 * itself or spelled out before a bracket ("SMA" accepts "DO-214AC" and "SMA(DO-214AC)"): a prefix or
 * substring of another name would change the pin count ("SOT-23" from "SOT-23-3" is a prefix of
 * "SOT-23-5"; "SOP-8" is inside "TSSOP-8"). A body width written after another name still matches
 * ("SOP-16" accepts "SOIC-16-175mil", as "SOIC-16" itself does).
 */
export function packageMatches(code: string, pkg: string, text: string): boolean {
  const own = code.toUpperCase();
  if (pkg === own || pkg.startsWith(`${own}(`) || pkg.startsWith(`${own}-`) || holdsCode(text, own)) return true;
  return packageForms(code).some((k) => k !== own && (pkg === k || pkg.startsWith(`${k}(`) || bodyWidthOf(pkg, k)));
}

/**
 * Whether `text` holds `code` not followed by another digit ("TO-5" is not in "TO-56", nor "SOT-23-5" in
 * "SOT-23-50"). Letters before it are allowed: "QFN-24" accepts "VQFN-24" and "WQFN-24", thinner bodies
 * on the same footprint.
 */
function holdsCode(text: string, code: string): boolean {
  for (let at = text.indexOf(code); at >= 0; at = text.indexOf(code, at + 1)) {
    if (!/\d/.test(text[at + code.length] ?? '')) return true;
  }
  return false;
}

/** Whether `pkg` is the package `k` with its body width appended ("SOIC-16-175MIL" for "SOIC-16"), not another pin count. */
function bodyWidthOf(pkg: string, k: string): boolean {
  return pkg.startsWith(`${k}-`) && /^\d+MIL(?![A-Z0-9])/.test(pkg.slice(k.length + 1));
}

/**
 * Number of quantity constraints a part meets at the asked value itself (meetsTarget), not only as a
 * rating. Values typed bare only ("20V mosfet", "1.6mV op amp": a part's figure, read by its role): a
 * stated comparison ("Rds(on) < 10mΩ", "at least 20V") asks for anything within it, and nearer the
 * bound is not better.
 */
export function targetHits(u: QueryUnderstanding, p: PartRecord): number {
  let n = 0;
  for (const c of u.specs) if (!c.stated && meetsTarget(p.specs, c)) n++;
  return n;
}

/** Number of value constraints the part meets with the asked value itself: its tolerance is the asked one, not a tighter one (holdsExactValue). */
export function exactValueHits(u: QueryUnderstanding, p: PartRecord): number {
  let n = 0;
  for (const c of u.values) if (holdsExactValue(p.specs, c)) n++;
  return n;
}

/** Number of bare quantity constraints whose asked value the part holds under any spec of that unit (holdsValue). */
export function valueHits(u: QueryUnderstanding, p: PartRecord): number {
  let n = 0;
  for (const c of u.specs) if (!c.stated && holdsValue(p.specs, c)) n++;
  return n;
}

/** Whether the part's package is one the query names exactly ("TO-252" before a "TO-252-2" that the package check also accepts). */
export function packageExact(u: QueryUnderstanding, p: PartRecord): number {
  if (!u.packages.length || !p.package) return 0;
  const pkg = p.package.toUpperCase().replace(/\s+/g, '');
  // Another name of the package counts as exact; a variant of the query's own code ("TO-252-2" for "TO-252") does not.
  return u.packages.some((code) => packageForms(code).some((k) => k === pkg && !k.startsWith(`${code.toUpperCase()}-`))) ? 1 : 0;
}

/** A candidate's ranking keys that follow from the query and its record alone (not from the lists or the fusion). */
export interface RecordKeys {
  /** Each constraint met in the loose reading, and in the strict one (constraintReadings). */
  checks: boolean[];
  strict: boolean[];
  /** How closely its category is named (namedCategoryScore), whether it is of the query's family, the share of constraints met. */
  cat: number;
  fam: number;
  c: number;
  /** Target and exact-value hits, value hits, the exact package. */
  t: number;
  v: number;
  pe: number;
}

/**
 * The ranking keys of one query's candidates, each record's computed once (agentic search computes
 * some while the query's embedding is computed, the ranking the rest). For one request: the memo is
 * by record object and holds the query's keys.
 */
export function recordKeysFor(u: QueryUnderstanding, namedSlugs: ReadonlyMap<string, boolean>, families: readonly Family[]): (p: PartRecord) => RecordKeys {
  return perObject((p: PartRecord): RecordKeys => {
    const { loose, strict } = constraintReadings(u, p);
    return {
      checks: loose,
      strict,
      cat: namedCategoryScore(namedSlugs, p.category),
      fam: inFamily(families, p) ? 1 : 0,
      c: shareMet(loose),
      t: targetHits(u, p) + exactValueHits(u, p),
      v: valueHits(u, p),
      pe: packageExact(u, p),
    };
  });
}
