/**
 * Whether a part's stored specs meet the constraints understand.ts read from a query: spec constraints
 * (a quantity with an acceptance window, compared in SI units) and value constraints (text values such
 * as X7R or a tolerance). A stored spec counts for a constraint when its canonical attribute (assigned at
 * ingest, src/vocabulary/attributes.ts) is one of the constraint's, whatever the catalogue named it.
 * `satisfies` is the strict reading (the relevance measure), `satisfiesLoosely` the ranking's (a quantity
 * under a spec name the vocabulary does not know counts by its unit).
 */
import { normaliseUnit, parseSpecValue, type SiUnit } from '../catalog/units.ts';
import { specAttributeId } from '../vocabulary/attributes.ts';
import { VALUE_ALIASES } from '../vocabulary/value-words.ts';
import type { SpecConstraint, ValueConstraint } from './understand.ts';
import { SAME_NUMBER } from '../engines/same-number.ts';

export interface StoredSpec {
  name: string;
  value: string;
  num: number | null;
  min: number | null;
  max: number | null;
  unit: string | null;
  /** Canonical attribute id stored at ingest; absent on records stored before (assigned from the name). */
  attribute?: string | null;
}

/** A constraint's attributes as a set, built once per constraint (evaluate runs per part of the pool). */
const attributeSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function attributeSet(attributes: readonly string[]): ReadonlySet<string> {
  let out = attributeSets.get(attributes);
  if (!out) attributeSets.set(attributes, (out = new Set(attributes)));
  return out;
}

/** Whether a stored spec is under one of the attributes (a malformed spec is under none). */
function under(s: StoredSpec, attributes: ReadonlySet<string>): boolean {
  if (s === null || typeof s !== 'object' || typeof s.name !== 'string') return false;
  const a = specAttributeId(s);
  return a !== null && attributes.has(a);
}

/** Float noise of unit conversions: the tolerance the engines' value filters use too. */
const EPS = SAME_NUMBER;
function ge(a: number, b: number): boolean {
  if (b === -Infinity || a === Infinity) return true;
  if (b === Infinity) return a === Infinity;
  return a >= b - EPS * Math.abs(b);
}
function le(a: number, b: number): boolean {
  if (b === Infinity || a === -Infinity) return true;
  if (b === -Infinity) return a === -Infinity;
  return a <= b + EPS * Math.abs(b);
}

function asUnit(u: string | null): SiUnit | null {
  if (u === null || u === '') return null;
  return normaliseUnit(u) ?? (u === 'mm' ? 'm' : null);
}

/** [min, max] of a stored spec in the constraint's unit, or null when it has no comparable number. */
function bounds(s: StoredSpec, unit: SiUnit | null): [number, number] | null {
  const stored = asUnit(s.unit);
  const min = s.min ?? s.num;
  const max = s.max ?? s.num;
  if (min !== null && max !== null && Number.isFinite(min + max) && (stored === unit || (stored === null && unit !== 'm'))) {
    return [Math.min(min, max), Math.max(min, max)];
  }
  // no stored number, or a unit that does not line up (Pitch stored in mm): read the display string
  const p = typeof s.value === 'string' ? parseSpecValue(s.value, unit) : null;
  if (p === null || p.min === null || p.max === null) return null;
  if (unit !== null && p.unit !== null && p.unit !== unit) return null;
  return [p.min, p.max];
}

const SPLIT_VALUE_RE = /[^\p{L}\p{N}]+/u;
const PERCENT_VALUE_RE = /^±?(\d+(?:\.\d+)?)%$/;

function valueParts(v: string): string[] {
  return v
    .toLowerCase()
    .split(SPLIT_VALUE_RE)
    .filter(Boolean)
    .map((p) => VALUE_ALIASES.get(p) ?? p);
}

function containsRun(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** A tolerance spec's magnitude in percent ("±1%" -> 1, "-5%~+10%" -> 10), or null. */
function toleranceOf(s: StoredSpec): number | null {
  const p = parseSpecValue(s.value ?? '', '%');
  return p !== null && p.min !== null && p.max !== null ? Math.max(Math.abs(p.min), Math.abs(p.max)) : (s.num ?? null);
}

function valueMatches(s: StoredSpec, c: ValueConstraint): boolean | null {
  const hay = valueParts(s.value ?? '');
  for (const target of c.values) {
    const pct = PERCENT_VALUE_RE.exec(target);
    if (pct !== null) {
      // tolerance: as tight or tighter
      const mag = toleranceOf(s);
      if (mag === null) return null;
      if (le(mag, Number(pct[1]))) return true;
      continue;
    }
    if (containsRun(hay, valueParts(target))) return true;
  }
  return false;
}

/**
 * Whether a part's spec satisfies a constraint: true (a spec under one of its attributes matches), false
 * (specs under its attributes exist but none matches) or null (the part has no spec under any of its
 * attributes, or none with a comparable value).
 *
 * SpecConstraint: the spec's [min,max] (a single value: [v,v]; read from the display string when no
 * number is stored) overlaps [lo,hi]; so `at_least` means max >= value and `at_most` means min <= value.
 * ValueConstraint: a value word equals one of the spec's words, a phrase ("N-Channel") appears in order
 * ("1 N-channel"); a tolerance "±1%" is met by any tolerance of at most 1%.
 */
export function evaluate(specs: readonly StoredSpec[], c: SpecConstraint | ValueConstraint): boolean | null {
  const attributes = attributeSet(c.attributes);
  let seen = false;
  for (const s of specs) {
    if (!under(s, attributes)) continue;
    if ('values' in c) {
      const m = valueMatches(s, c);
      if (m === true) return true;
      if (m === false) seen = true;
      continue;
    }
    const b = bounds(s, c.unit);
    if (b === null) continue;
    seen = true;
    if (ge(b[1], c.lo) && le(b[0], c.hi)) return true;
  }
  return seen ? false : null;
}

/**
 * For ranking: `satisfies`, or, when the part has no spec of the constraint's attributes, any spec
 * stored with the constraint's SI unit whose number meets it. Catalogues name the same quantity many ways
 * ("Current rating - power (max)", "Rated current"); a part holding the asked value under a name the
 * vocabulary does not know still counts. Quantities only (text values stay by name).
 */
export function satisfiesLoosely(specs: readonly StoredSpec[], c: SpecConstraint | ValueConstraint): boolean {
  return readings(specs, c).loose;
}

/** Both readings at once, `satisfies` (strict) and `satisfiesLoosely` (loose): one evaluation by name. */
export function readings(specs: readonly StoredSpec[], c: SpecConstraint | ValueConstraint): { strict: boolean; loose: boolean } {
  try {
    const named = evaluate(specs, c);
    const strict = named === true;
    if (named !== null || 'values' in c || c.unit === null) return { strict, loose: strict };
    for (const s of specs) {
      if (s === null || typeof s !== 'object' || asUnit(s.unit) !== c.unit) continue;
      const b = bounds(s, c.unit);
      if (b !== null && ge(b[1], c.lo) && le(b[0], c.hi)) return { strict, loose: true };
    }
    return { strict, loose: false };
  } catch {
    return { strict: false, loose: false };
  }
}

/** A constraint's target as an `equals` window (TARGET_WINDOW relative), built once per constraint. */
const TARGET_WINDOW = 0.01;
const targets = new WeakMap<SpecConstraint, SpecConstraint>();
function targetOf(c: SpecConstraint): SpecConstraint {
  let t = targets.get(c);
  if (!t) {
    const a = c.value * (1 - TARGET_WINDOW);
    const b = c.value * (1 + TARGET_WINDOW);
    t = { ...c, kind: 'equals', lo: Math.min(a, b), hi: Math.max(a, b) };
    targets.set(c, t);
  }
  return t;
}

/**
 * For ranking among parts that satisfy a rating ("20V" read as at least 20 V): whether the part holds the
 * asked value itself (within 1%), by the same reading as `satisfiesLoosely`. A 20 V MOSFET answers
 * "20V mosfet" more closely than a 100 V one. `equals` constraints: the same as satisfiesLoosely.
 */
export function meetsTarget(specs: readonly StoredSpec[], c: SpecConstraint): boolean {
  if (c.kind === 'equals' || !Number.isFinite(c.value)) return satisfiesLoosely(specs, c);
  return satisfiesLoosely(specs, targetOf(c));
}

/**
 * Whether the part holds the asked value itself (within 1%) under any spec of the constraint's unit,
 * whatever its name: "5.5V" in "5.5V 150mA ldo" read as the output voltage still finds the part whose
 * supply voltage is 5.5 V. A tie-break after the named readings, for when the query's role was a guess.
 */
export function holdsValue(specs: readonly StoredSpec[], c: SpecConstraint): boolean {
  if (c.unit === null || !Number.isFinite(c.value)) return false;
  const t = targetOf(c);
  try {
    for (const s of specs) {
      if (s === null || typeof s !== 'object' || asUnit(s.unit) !== c.unit) continue;
      const b = bounds(s, c.unit);
      if (b !== null && ge(b[1], t.lo) && le(b[0], t.hi)) return true;
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * For ranking among parts that satisfy a tolerance ("1%" accepts any tolerance of at most 1%): whether
 * the part's tolerance is the asked one itself. A ±1% resistor answers "10k 1% 0603" more closely than a
 * ±0.1% one, which meets it but is another (dearer) part. False for other value constraints, which
 * are met exactly or not at all.
 */
export function holdsExactValue(specs: readonly StoredSpec[], c: ValueConstraint): boolean {
  // Only tolerances ("±1%") have a tighter value that also meets them; the ranking asks for every candidate.
  if (!c.values.some((v) => PERCENT_VALUE_RE.test(v))) return false;
  const attributes = attributeSet(c.attributes);
  try {
    for (const s of specs) {
      if (!under(s, attributes)) continue;
      for (const target of c.values) {
        const pct = PERCENT_VALUE_RE.exec(target);
        if (pct === null) continue;
        const mag = toleranceOf(s);
        if (mag !== null && ge(mag, Number(pct[1])) && le(mag, Number(pct[1]))) return true;
      }
    }
  } catch {
    return false;
  }
  return false;
}

/** Whether a part's specs satisfy a constraint (specs as stored: {name, value, num, min, max, unit, attribute}). */
export function satisfies(specs: readonly StoredSpec[], c: SpecConstraint | ValueConstraint): boolean {
  try {
    return evaluate(specs, c) === true;
  } catch {
    return false;
  }
}
