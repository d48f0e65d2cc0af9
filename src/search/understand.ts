/**
 * understand.ts — engine-neutral query understanding for natural-language part search.
 *
 *   understandQuery("10k 0603 1% resistor")
 *     -> specs    [Resistance = 10 kΩ, window ±1%]
 *        values   [Tolerance ±1%]
 *        packages ["0603"], families ["resistor"], terms ["resistor"]
 *
 * Pipeline (all per token, no backtracking over the whole query; < 0.1 ms for typical queries):
 *
 *   1. tokenise: NFKC (full-width and ℃/Ω compatibility forms fold), split on whitespace, brackets, quotes,
 *      ; | and commas that are not inside a number ("1,000", "0,1uF" stay whole); comparison symbols
 *      (>= <= > < ≥ ≤) become tokens of their own.
 *   2. scan left to right: comparison words ("at least", "max", ">="...), chip-size packages ("0603"),
 *      quantities (one token "100nF", "4k7", "3V3", "-40~85℃", or joined: "100 nF", "± 1%",
 *      "-40 to 85C", "between 2.7 and 5.5V"), value and family words ("X7R", "N-channel", "op amp"),
 *      packages ("SOT-23-5", "soic8", "TO220"). The unit grammar is src/catalog/units.ts (parseQuantity,
 *      parseSpecValue, normaliseUnit); this module only decides which tokens form a quantity.
 *   3. context: the families named (most specific first-named), else inferred from the values
 *      ("X7R" or a typed F -> capacitor, H -> inductor, Ω -> resistor, "4u7" -> capacitor, "4k7" -> resistor,
 *      a typed Hz and B together -> microcontroller).
 *   4. resolve each quantity to a role (src/vocabulary/roles.ts): unit (typed or inferred) + adjacent qualifier
 *      word ("vin", "esr", "ram"...) + family context -> canonical attributes, comparison and window.
 *   5. whatever is left: MPN-like tokens (normaliseMpn) and free-text terms.
 *
 * Traps handled: "0603"/"1206" are packages, never 603 Ω; "1n4148"/"2n7002" are MPNs, not 1.4148 nF (an
 * infix value has at most 3 digits after its prefix); "X7R", "SOT-23", "AEC-Q200" hold no value; lower-case
 * "mhz" is MHz; all-caps "10UF"/"100MA" read as µF/mA; "4R7" next to "inductor" is 4.7 µH (inductor code);
 * "16M crystal" is 16 MHz; a bare "220" is 220 Ω only when the query names a resistor.
 *
 * understandQuery never throws: anything it cannot read becomes a term or is dropped.
 * Scanning (tokens, quantities, packages, MPN-like tokens): query-scan.ts, query-quantities.ts; context and
 * the unit of bare values: query-context.ts.
 */
import type { SiUnit } from '../catalog/units.ts';
import { CONTEXT_BARE_UNIT, CONTEXT_ROLES, family, MAGNITUDE_ROLES, PAIRED_ROLES, type Family } from '../vocabulary/families.ts';
import { QUALIFIERS, UNIT_NOUNS } from '../vocabulary/qualifiers.ts';
import { PACKAGE_IMPLIED_WORDS } from '../vocabulary/query-words.ts';
import { DEFAULT_ROLES, role as roleOf, roleId as knownRole, type ConstraintKind, type RoleId, type SpecRole } from '../vocabulary/roles.ts';
import { bareValueUnit, inferContext, pickContext } from './query-context.ts';
import { LETTER_PACKAGE_CODES, OPS, STOPWORDS, mpnOf, scan, use, type Item, type Scan, type Tok } from './query-scan.ts';
import type { Qty } from './query-quantities.ts';

export interface SpecConstraint {
  /**
   * Canonical attribute ids (vocabulary/attributes.json) this constraint applies to, best first (e.g.
   * ["resistance"]; ["voltage_rating", "voltage_rating_dc", "voltage_rating_ac", "voltage"] for a
   * capacitor's voltage): a part's spec counts when its attribute is one of them, whatever its name.
   */
  attributes: string[];
  unit: SiUnit | null;
  /**
   * Target in SI and an acceptance window: a part satisfies the constraint when its spec [min,max] overlaps
   * [lo, hi] (for "rating" kinds like voltage rating: when its value >= target). `at_least` has hi = Infinity,
   * `at_most` has lo = -Infinity.
   */
  value: number;
  lo: number;
  hi: number;
  kind: 'equals' | 'at_least' | 'at_most';
  /** The query text it came from, e.g. "10k", "4u7", "16V". */
  source: string;
  /** Present when the query stated the comparison ("< 10mΩ", "at least 20V") rather than the role implying it. */
  stated?: true;
}

/** A text spec value: dielectric X7R/X5R/C0G(NP0), tolerance "±1%", channel "N-Channel"... */
export interface ValueConstraint {
  /** Canonical attribute ids whose values are compared, best first. */
  attributes: string[];
  values: string[];
  source: string;
}

export interface QueryUnderstanding {
  text: string; // the original query
  /** Free-text terms left after removing recognised constraint tokens (for BM25), lower-case. */
  terms: string[];
  /**
   * The terms that are not family words either ("through hole" in "6.8Ω through hole resistors"), and
   * family words that name a narrower kind ("tantalum": SUBTYPE_PHRASES): what the query says beyond its
   * constraints and families. Empty when every word was read.
   */
  unread: string[];
  specs: SpecConstraint[];
  values: ValueConstraint[];
  /** Package / case codes: "0603", "0402", "SOT-23-5", "SOIC-8", "QFN-32", "TO-220"... normalised upper-case as catalogues write them. */
  packages: string[];
  /** Tokens that look like MPNs (letters+digits mixes of 4+ chars that are not units/packages), normalised with normaliseMpn. */
  mpns: string[];
  /** Hints: words that name a part family, mapped to a canonical family ("resistor", "capacitor", "inductor", "ldo", "mosfet", "op amp", "diode", "led", "crystal", "mcu", ...). */
  families: Family[];
}

/** Words that say how a part mounts: implied by any package the query names (vocabulary/query-words.json). */
const MOUNTING_WORDS = PACKAGE_IMPLIED_WORDS;

/** Default relative half-window of an `equals` target. */
const DEFAULT_WINDOW = 0.01;

// ---------------------------------------------------------------- resolution

/** Units whose values have no sign: "-10k" is a dash and 10 kΩ. */
const UNSIGNED_UNITS: ReadonlySet<SiUnit> = new Set<SiUnit>(['Ω', 'F', 'H', 'Hz', 'W', 's', 'm', 'B', 'bit']);
const PASSIVE_ROLES: ReadonlySet<RoleId> = new Set<RoleId>(['resistance', 'capacitance', 'inductance'].map(knownRole));
const TOLERANCE = roleOf('tolerance');
const INPUT_VOLTAGE = roleOf('input_voltage');
const OUTPUT_VOLTAGE = roleOf('output_voltage');
const EFFICIENCY = knownRole('efficiency');
const TEMPERATURE = knownRole('temperature');
const SUPPLY_VOLTAGE = knownRole('supply_voltage');
/** Families whose "12V to 5V" is an input and an output voltage. */
const REGULATORS: ReadonlySet<Family> = new Set(['ldo', 'regulator', 'dc-dc'].map(family));
const DC_DC = family('dc-dc');
const CONNECTOR = family('connector');
/** Units whose meaning an *inferred* context may change (ratings); Ω/F/H/Hz keep their own role. */
const RATING_UNITS: ReadonlySet<SiUnit> = new Set<SiUnit>(['V', 'A', 'W', 'ppm', 'B', 'bit', 's', 'm']);

/** "1%", "±5%", "0.1%": a tolerance; "90%": not (an efficiency). */
function isTolerance(q: Qty): boolean {
  return q.unit === '%' && q.value !== 0 && (q.tol || Math.abs(q.value) <= 50);
}

function fmt(n: number): string {
  return String(Number(n.toPrecision(12)));
}

function window(value: number, w: number): [number, number] {
  const d = Math.abs(value) * w;
  return [Number((value - d).toPrecision(12)), Number((value + d).toPrecision(12))];
}

function constraint(role: SpecRole, kind: ConstraintKind, value: number, lo: number, hi: number, source: string): SpecConstraint {
  return { attributes: [...role.attributes], unit: role.unit, value, lo, hi, kind, source };
}

/**
 * An absolute-maximum supply range ("-0.3V to 6V", "-0.5V to 7V") starts at ABS_MAX_LOW_V or above and ends
 * at least ABS_MAX_SPAN times as far above zero; others ("-1V to 1V", "-5V to 5V") read as dual supplies.
 */
const ABS_MAX_LOW_V = -1;
const ABS_MAX_SPAN = 4;

/** The constraint of one value: at least / at most it, or within the relative window `w` of it. */
function valueConstraint(role: SpecRole, kind: ConstraintKind, value: number, w: number, source: string): SpecConstraint {
  if (kind === 'at_least') return constraint(role, kind, value, value, Infinity, source);
  if (kind === 'at_most') return constraint(role, kind, value, -Infinity, value, source);
  const [lo, hi] = window(value, w);
  return constraint(role, kind, value, lo, hi, source);
}

/** Qualifier word adjacent to an item (before it, past its operator words, or right after it). */
function qualifierFor(toks: Tok[], it: Item, unit: SiUnit): RoleId | null {
  const before: number[] = [];
  let j = it.start - 1;
  while (j >= 0 && it.opToks.includes(j)) j--;
  if (j >= 0) before.push(j);
  if (j - 1 >= 0 && UNIT_NOUNS.has((toks[j] as Tok).low)) before.push(j - 1); // "output voltage 3.3V"
  for (const k of [...before, it.end + 1]) {
    const t = toks[k];
    // Memory words are also family words ("SRAM", "EEPROM"): beside a size they say which memory, and
    // stay family words (and search terms).
    const memory = t !== undefined && t.state === 'keep' && (unit === 'B' || unit === 'bit');
    if (t === undefined || !(t.state === 'free' || memory)) continue;
    const role = QUALIFIERS.get(t.low)?.[unit];
    if (role !== undefined) {
      if (!memory) t.state = 'used';
      return role;
    }
  }
  return null;
}

/** Drop restating nouns next to an item ("tolerance 1%", "5V voltage", "output voltage 3.3V"). */
function consumeNouns(toks: Tok[], it: Item, unit: SiUnit): void {
  for (const k of [it.start - 1, it.start - 2, it.end + 1, it.end + 2]) {
    const t = toks[k];
    if (t !== undefined && t.state === 'free' && UNIT_NOUNS.get(t.low) === unit) t.state = 'used';
  }
}

function sourceOf(toks: Tok[], it: Item): string {
  let s = '';
  for (let k = it.start; k <= it.end; k++) s += (k > it.start ? ' ' : '') + (toks[k] as Tok).raw;
  return s;
}

/**
 * One item into constraints. `byContext` collects the constraints of single values whose role only
 * the family context or the unit gave (no qualifier word, no operator, not decided by size): the
 * ones pairByMagnitude may reassign.
 */
function resolveItem(
  s: Scan,
  it: Item,
  ctx: Family | null,
  explicit: boolean,
  tolWindow: number | null,
  specs: SpecConstraint[],
  values: ValueConstraint[],
  byContext: SpecConstraint[],
): boolean {
  const q = it.single;
  const r = it.range;
  let unit = q?.unit ?? r?.unit ?? null;
  let scale = 1;
  if (unit === null) {
    unit = bareValueUnit(s.toks, it, q ?? { prefix: r?.prefix ?? null, rNote: false }, ctx, explicit);
    if (unit === null) return false;
  } else if (q?.rBare && explicit && ctx !== null && CONTEXT_BARE_UNIT[ctx] === 'H') {
    unit = 'H'; // "4R7 inductor": inductor code, µH
    scale = 1e-6;
  }
  const source = sourceOf(s.toks, it);

  const qual = qualifierFor(s.toks, it, unit);
  consumeNouns(s.toks, it, unit);

  let roleId: RoleId = qual ?? DEFAULT_ROLES[unit];
  let sized = false;
  if (qual === null && ctx !== null && (explicit || RATING_UNITS.has(unit))) {
    roleId = CONTEXT_ROLES[ctx]?.[unit] ?? roleId;
    const bySize = q !== null && r === null ? MAGNITUDE_ROLES[ctx]?.[unit]?.find(([below]) => Math.abs(q.value * scale) < below) : undefined;
    if (bySize) {
      roleId = bySize[1];
      sized = true;
    }
  }
  // A value read by its size still came from the context: two of them pair by magnitude (pairByMagnitude).
  const fromContext =
    qual === null &&
    it.op === null &&
    !roleOf(roleId).unpaired &&
    unit !== '%' &&
    (sized || roleId === (ctx !== null ? (CONTEXT_ROLES[ctx]?.[unit] ?? DEFAULT_ROLES[unit]) : DEFAULT_ROLES[unit]));
  // percentages: a tolerance (a value constraint) unless clearly an efficiency ("90%")
  if (unit === '%' && qual === null) {
    if (q !== null && isTolerance(q)) {
      values.push({ attributes: [...TOLERANCE.attributes], values: [`±${fmt(Math.abs(q.value))}%`], source });
      return true;
    }
    roleId = EFFICIENCY;
  }
  const role: SpecRole = roleOf(roleId);

  if (r !== null) {
    // "12V to 5V buck", "5V to 3.3V LDO": input then output
    const reg = ctx !== null && REGULATORS.has(ctx);
    if (reg && unit === 'V' && qual === null && it.op === null && (ctx === DC_DC || r.first > r.second)) {
      const vin: SpecRole = INPUT_VOLTAGE;
      const vout: SpecRole = OUTPUT_VOLTAGE;
      specs.push(constraint(vin, 'at_least', r.first, r.first, Infinity, source));
      const [lo, hi] = window(r.second, vout.window ?? DEFAULT_WINDOW);
      specs.push(constraint(vout, 'equals', r.second, lo, hi, source));
      return true;
    }
    // "-0.5V to 7V VCC": a supply range from just below zero to well above it is an absolute maximum rating,
    // not a range the part must operate across (a dual supply is written "±5V" or "-5V to 5V"): the part's
    // range need only overlap it. Input ranges ("-0.1V to 5.1V" common mode) keep the covering reading.
    if (it.op === null && roleId === SUPPLY_VOLTAGE && r.lo < 0 && r.lo >= ABS_MAX_LOW_V && r.hi >= -ABS_MAX_SPAN * r.lo) {
      specs.push(constraint(role, 'equals', Number(((r.lo + r.hi) / 2).toPrecision(12)), r.lo, r.hi, source));
      return true;
    }
    if (it.op === null && role.covering) {
      specs.push(constraint(role, 'at_most', r.lo, -Infinity, r.lo, source));
      specs.push(constraint(role, 'at_least', r.hi, r.hi, Infinity, source));
      return true;
    }
    const kind = it.op ?? 'equals';
    let c: SpecConstraint;
    if (kind === 'at_least') c = constraint(role, kind, r.lo, r.lo, Infinity, source);
    else if (kind === 'at_most') c = constraint(role, kind, r.hi, -Infinity, r.hi, source);
    else c = constraint(role, 'equals', Number(((r.lo + r.hi) / 2).toPrecision(12)), r.lo, r.hi, source);
    if (it.op !== null) c.stated = true;
    specs.push(c);
    return true;
  }
  if (q === null) return false;

  const signed = UNSIGNED_UNITS.has(unit) ? Math.abs(q.value) : q.value;
  const value = scale === 1 ? signed : Number((signed * scale).toPrecision(12));
  let kind: ConstraintKind;
  if (it.op !== null) kind = it.upTo && role.kind === 'at_least' ? 'at_least' : it.op;
  else if (roleId === TEMPERATURE) kind = value < 0 ? 'at_most' : 'at_least';
  else kind = role.kind;
  const w = PASSIVE_ROLES.has(roleId) && tolWindow !== null ? tolWindow : (role.window ?? DEFAULT_WINDOW);
  const c = valueConstraint(role, kind, value, w, source);
  // "up to 30V" on a rating reads as the bare rating does; any other comparison word states the bound.
  if (it.op !== null && !(it.upTo && role.kind === 'at_least')) c.stated = true;
  specs.push(c);
  if (fromContext) byContext.push(c);
  return true;
}

/**
 * Two single values of one unit whose role only the context gave (resolveItem's `byContext`) take
 * the family's pair of roles by magnitude instead (PAIRED_ROLES), in place in `specs`.
 */
function pairByMagnitude(specs: SpecConstraint[], byContext: readonly SpecConstraint[], ctx: Family | null): void {
  const pairs = ctx === null ? undefined : PAIRED_ROLES[ctx];
  if (!pairs) return;
  for (const [unit, pair] of Object.entries(pairs) as [SiUnit, readonly [RoleId, RoleId]][]) {
    const two = byContext.filter((c) => c.unit === unit);
    if (two.length !== 2) continue;
    const [small, large] = Math.abs(two[0]!.value) <= Math.abs(two[1]!.value) ? two : [two[1]!, two[0]!];
    for (const [c, roleId] of [
      [small!, pair[0]],
      [large!, pair[1]],
    ] as const) {
      const r: SpecRole = roleOf(roleId);
      specs[specs.indexOf(c)] = valueConstraint(r, r.kind, c.value, r.window ?? DEFAULT_WINDOW, c.source);
    }
  }
}

function dedupe<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Reads a query; a defect of the reading throws. The search calls understandQuery, which turns such a
 * throw into an empty reading; tests call this, so that a crash fails them instead of passing unseen.
 */
export function understand(text: string): QueryUnderstanding {
  const s = scan(text);
  const { toks } = s;

  // context
  let ctx = pickContext(s.families);
  const explicit = ctx !== null;
  if (ctx === null) ctx = inferContext(s);
  const inContext = new Set<Family>(s.families);
  if (ctx !== null) inContext.add(ctx);

  // "SMA connector": a connector type, not the diode package
  const packages: string[] = [];
  for (const p of s.packages) {
    if (inContext.has(CONNECTOR) && LETTER_PACKAGE_CODES.has(p.code)) use(toks, p.start, p.end, 'free');
    else packages.push(p.code);
  }

  // value words
  const values: ValueConstraint[] = [];
  for (const v of s.values) {
    if (v.word.requires !== undefined && !v.word.requires.some((f) => inContext.has(f))) continue;
    values.push({ attributes: [...v.word.attributes], values: [...v.word.values], source: sourceOf(toks, { start: v.start, end: v.end } as Item) });
    use(toks, v.start, v.end, 'used');
  }

  // the stated tolerance widens the window of the passive value ("10k 5%" -> ±5%)
  let tolWindow: number | null = null;
  for (const it of s.items) {
    const q = it.single;
    if (q !== null && isTolerance(q)) {
      tolWindow = Math.abs(q.value) / 100;
      break;
    }
  }

  const specs: SpecConstraint[] = [];
  const byContext: SpecConstraint[] = [];
  for (const it of s.items) {
    if (!resolveItem(s, it, ctx, explicit, tolWindow, specs, values, byContext)) {
      use(toks, it.start, it.end, 'free');
      for (const k of it.opToks) (toks[k] as Tok).state = 'free';
    }
  }

  pairByMagnitude(specs, byContext, ctx);

  // MPNs and terms from what is left
  const mpns: string[] = [];
  const terms: string[] = [];
  const unread: string[] = [];
  for (const t of toks) {
    if (t.state === 'used') continue;
    if (t.state === 'free') {
      const mpn = mpnOf(t.raw);
      if (mpn !== null) mpns.push(mpn);
    }
    if (STOPWORDS.has(t.low) || OPS.has(t.low) || !/[\p{L}\p{N}]/u.test(t.low)) continue;
    terms.push(t.low);
    if (t.state === 'free' || (t.state === 'keep' && t.subtype)) unread.push(t.low);
  }

  return {
    text,
    terms: [...new Set(terms)],
    // A mounting word says nothing a named package does not ("smd fuse 2A 1206").
    unread: [...new Set(packages.length ? unread.filter((w) => !MOUNTING_WORDS.has(w)) : unread)],
    specs: dedupe(specs, (c) => `${c.attributes[0]}|${c.kind}|${c.lo}|${c.hi}`),
    values: dedupe(values, (v) => `${v.attributes[0]}|${v.values.join(',')}`),
    packages: [...new Set(packages)],
    mpns: [...new Set(mpns)],
    families: [...new Set(s.families)],
  };
}

/** Read a natural-language part query. Never throws; unreadable parts become terms or are dropped. */
export function understandQuery(text: string): QueryUnderstanding {
  const t = typeof text === 'string' ? text : '';
  try {
    return understand(t);
  } catch {
    return { text: t, terms: [], unread: [], specs: [], values: [], packages: [], mpns: [], families: [] };
  }
}
