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
 *      ("X7R" or a typed F -> capacitor, H -> inductor, Ω -> resistor, "4u7" -> capacitor, "4k7" -> resistor).
 *   4. resolve each quantity to a role (spec-vocabulary.ts): unit (typed or inferred) + adjacent qualifier
 *      word ("vin", "esr", "ram"...) + family context -> spec names, comparison and window.
 *   5. whatever is left: MPN-like tokens (normaliseMpn) and free-text terms.
 *
 * Traps handled: "0603"/"1206" are packages, never 603 Ω; "1n4148"/"2n7002" are MPNs, not 1.4148 nF (an
 * infix value has at most 3 digits after its prefix); "X7R", "SOT-23", "AEC-Q200" hold no value; lower-case
 * "mhz" is MHz; all-caps "10UF"/"100MA" read as µF/mA; "4R7" next to "inductor" is 4.7 µH (inductor code);
 * "16M crystal" is 16 MHz; a bare "220" is 220 Ω only when the query names a resistor.
 *
 * understandQuery never throws: anything it cannot read becomes a term or is dropped.
 */
import { normaliseMpn } from '../catalog/mpn.ts';
import { normaliseUnit, parseQuantity, type SiUnit } from '../catalog/units.ts';
import {
  CHIP_SIZES, CONTEXT_BARE_UNIT, FAMILY_WORDS, GENERIC_FAMILIES, LETTER_PACKAGES, LONGEST_PHRASE, PACKAGE_FAMILIES,
  QUALIFIERS, UNIT_NOUNS, VALUE_WORDS, type ConstraintKind, type Family, type ValueWord,
} from './spec-vocabulary.ts';
import { CONTEXT_ROLES, DEFAULT_ROLES, MAGNITUDE_ROLES, PAIRED_ROLES, ROLES, type RoleId, type SpecRole } from './spec-roles.ts';

export { specNameKey } from './spec-vocabulary.ts';

export interface SpecConstraint {
  /** Spec display names this constraint applies to, best first (e.g. ["Resistance"]; ["Capacitance"]; ["Voltage Rated", "Voltage - Rated", "Rated Voltage", "Voltage"]). */
  names: string[];
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
}

/** A text spec value: dielectric X7R/X5R/C0G(NP0), tolerance "±1%", channel "N-Channel"... */
export interface ValueConstraint { names: string[]; values: string[]; source: string }

export interface QueryUnderstanding {
  text: string;                 // the original query
  /** Free-text terms left after removing recognised constraint tokens (for BM25), lower-case. */
  terms: string[];
  specs: SpecConstraint[];
  values: ValueConstraint[];
  /** Package / case codes: "0603", "0402", "SOT-23-5", "SOIC-8", "QFN-32", "TO-220"... normalised upper-case as catalogues write them. */
  packages: string[];
  /** Tokens that look like MPNs (letters+digits mixes of 4+ chars that are not units/packages), normalised with normaliseMpn. */
  mpns: string[];
  /** Hints: words that name a part family, mapped to a canonical family ("resistor", "capacitor", "inductor", "ldo", "mosfet", "op amp", "diode", "led", "crystal", "mcu", ...). */
  families: Family[];
}

/** Only the start of a query is read: part searches are short, and this bounds the work on odd input. */
const MAX_CHARS = 512;
const MAX_TOKENS = 64;
const MAX_TOKEN_CHARS = 64;
/** Default relative half-window of an `equals` target. */
const DEFAULT_WINDOW = 0.01;

// ---------------------------------------------------------------- tokens

type TokState = 'free' | 'used' | 'keep';

interface Tok {
  raw: string;
  low: string;
  /** Lower case with hyphens/underscores as spaces, for phrase lookup ("n-channel" -> "n channel"). */
  key: string;
  /** free: a term unless something claims it; used: part of a constraint; keep: recognised but still a term (family words, MPNs). */
  state: TokState;
}

const SPLIT_RE = /[\s;|()[\]{}"'`\u201c\u201d\u2018\u2019]+|,(?!\d)|(?<!\d),/u;
/** "Rds(on)", "Vgs(th)", "Vce(sat)": one word, not split at the brackets. */
const PAREN_WORD_RE = /\b([A-Za-z]{2,4})\((on|th|sat|max|min|typ|nom)\)/gi;
/** Tokens kept although they hold no letter or digit: range separators, tolerance signs, postfix "+". */
const SYMBOL_TOKENS: ReadonlySet<string> = new Set(['~', '～', '〜', '-', '–', '—', '..', '...', '±', '+/-', '+-', '+', '>', '<', '>=', '<=', '≥', '≤', '=>', '=<']);
const CMP_RE = /(>=|<=|=>|=<|≥|≤|>|<)/g;
/** "10kΩ±1%": the tolerance is a token of its own. */
const TOL_SPLIT_RE = /([^\s±])±/g;
const LEAD_TRIM_RE = /^[^\p{L}\p{N}±+\-−–.~<>≤≥]+/u;
const TRAIL_TRIM_RE = /[^\p{L}\p{N}%℃Ωµμ°+]+$/u;
const DOT_LEAD_RE = /^\.(?!\d)/;

function tokenise(text: string): Tok[] {
  const s = text.slice(0, MAX_CHARS).normalize('NFKC').replace(PAREN_WORD_RE, '$1$2').replace(CMP_RE, ' $1 ').replace(TOL_SPLIT_RE, '$1 ±');
  const out: Tok[] = [];
  for (const piece of s.split(SPLIT_RE)) {
    if (!piece) continue;
    const raw = SYMBOL_TOKENS.has(piece) ? piece : piece.replace(LEAD_TRIM_RE, '').replace(TRAIL_TRIM_RE, '').replace(DOT_LEAD_RE, '');
    if (!raw || raw.length > MAX_TOKEN_CHARS) continue;
    const low = raw.toLowerCase();
    out.push({ raw, low, key: low.replace(/[-_]+/g, ' ').trim(), state: 'free' });
    if (out.length >= MAX_TOKENS) break;
  }
  return out;
}

// ---------------------------------------------------------------- quantities

interface Qty {
  value: number;
  unit: SiUnit | null;
  /** SI prefix letter typed with the value (k, M, u, n, p, m, G, T), canonical case; null when none. */
  prefix: string | null;
  /** R notation ("4R7", "R047"): a resistance, or an inductor code in an inductor context. */
  rNote: boolean;
  /** R notation with no unit after it ("4R7", not "4R7Ω"): may be an inductor code. */
  rBare: boolean;
  tol: boolean;
}

interface Range {
  lo: number;
  hi: number;
  /** First and second value as typed ("5V to 3.3V": 5, 3.3). */
  first: number;
  second: number;
  unit: SiUnit | null;
  prefix: string | null;
}

const PREFIX_LETTERS: ReadonlyMap<string, string> = new Map([
  ['p', 'p'], ['n', 'n'], ['u', 'u'], ['µ', 'u'], ['μ', 'u'], ['m', 'm'], ['k', 'k'], ['K', 'k'], ['M', 'M'], ['G', 'G'], ['T', 'T'],
]);
const PREFIX_FACTOR: ReadonlyMap<string, number> = new Map([
  ['p', 1e-12], ['n', 1e-9], ['u', 1e-6], ['m', 1e-3], ['k', 1e3], ['M', 1e6], ['G', 1e9], ['T', 1e12],
]);

// 1 tol | 2 sign | 3,4 R notation | 5,6,7 infix | 8,9 fraction | 10,11 decimal | 12 dot-decimal | 13 rest
const NUM_RE =
  /^(±|\+\/-|\+-)?([+\-−–])?(?:(\d{0,3})[Rr](\d{1,3})|(\d{1,4})([pnuµμmkKMG])(\d{1,3})|(\d{1,6})\/([1-9]\d{0,3})|(\d{1,3}(?:,\d{3})+|\d+)(\.\d*)?|\.(\d+))(.*)$/u;
const V_INFIX_RE = /^([+-]?)(\d{1,3})[Vv](\d{1,3})$/;           // 3V3, 1V8, 12V0
const DECIMAL_COMMA_RE = /^([±+\-]?\d+),(\d{1,2})(?!\d)/;      // 0,1uF
const TEMP_SUFFIX_RE = /^(?:[°º˚]?[Cc]|℃|degc|deg|degrees?)$/i;
const FAHRENHEIT_RE = /^(?:[°º˚][Ff]|℉)$/;
const PPM_RE = /^ppm(?:\/(?:[°º˚]?c|℃|k))?$/i;
const ALL_CAPS_RE = /^[A-ZΩ]{2,5}$/u;

interface Suffix { unit: SiUnit | null; prefix: string | null; fahrenheit: boolean }

/** A unit word without prefix; a bare "m" is milli (handled by the caller), never metre. */
function unitWord(w: string): SiUnit | null {
  if (w === 'm' || w === 'M') return null;
  return normaliseUnit(w);
}

/**
 * What follows a number: '' | % | temperature | ppm | unit | prefix | prefix+unit. Null when it is not a
 * unit at all ("pcs", "x", "N7002"). `infix`: the number already carries a prefix ("4k7"), so only a bare
 * unit may follow.
 */
function readSuffix(rest: string, infix: boolean): Suffix | null {
  if (rest === '') return { unit: null, prefix: null, fahrenheit: false };
  if (rest === '%') return { unit: '%', prefix: null, fahrenheit: false };
  if (TEMP_SUFFIX_RE.test(rest)) return { unit: '℃', prefix: null, fahrenheit: false };
  if (FAHRENHEIT_RE.test(rest)) return { unit: '℃', prefix: null, fahrenheit: true };
  if (PPM_RE.test(rest)) return { unit: 'ppm', prefix: null, fahrenheit: false };
  const direct = unitWord(rest);
  if (direct !== null) return { unit: direct, prefix: null, fahrenheit: false };
  if (infix) return null;
  const first = rest.charAt(0);
  const tail = rest.slice(1);
  if (ALL_CAPS_RE.test(rest)) return allCapsSuffix(first, tail);
  const p = PREFIX_LETTERS.get(first);
  if (p !== undefined) {
    if (tail === '') return { unit: null, prefix: p, fahrenheit: false };
    if ((first === 'm' || first === 'M') && tail.toLowerCase() === 'hz') return { unit: 'Hz', prefix: 'M', fahrenheit: false };
    const u = unitWord(tail) ?? (tail === 'm' ? 'm' : tail === 'h' ? 'H' : null);
    if (u !== null && !(u === '℃' || u === '%' || u === 'ppm')) return { unit: u, prefix: p, fahrenheit: false };
  }
  if (rest.toLowerCase() === 'meg') return { unit: null, prefix: 'M', fahrenheit: false };
  return null;
}

/**
 * All-caps suffixes as distributors print them: 10UF, 100NF, 16MHZ, 10KOHM, 32KB; an M before A/V/W/H/S
 * is milli ("100MA" = 100 mA, nobody means megaamps), before F it is the old micro ("10MFD" = 10 µF).
 */
function allCapsSuffix(first: string, tail: string): Suffix | null {
  if (first === 'M' && (tail === 'FD' || tail === 'F')) return { unit: 'F', prefix: 'u', fahrenheit: false };
  const u = unitWord(tail) ?? (tail === 'H' ? 'H' : null);
  if (u === null || u === '℃' || u === '%' || u === 'ppm') return null;
  const pc = first === 'U' || first === 'µ' || first === 'μ' ? 'u' : first === 'N' ? 'n' : first === 'P' ? 'p'
    : first === 'K' ? 'k' : first === 'G' ? 'G'
      : first === 'M' ? (u === 'Hz' || u === 'Ω' || u === 'B' || u === 'bit' ? 'M' : 'm') : null;
  return pc === null ? null : { unit: u, prefix: pc, fahrenheit: false };
}

/** One token as a quantity, or null ("100nF", "4k7", "0R", "3V3", "±1%", "-40℃", "1/4W", "10UF"). */
function parseQty(token: string): Qty | null {
  let t = token;
  if (t.length > 24) return null;
  const vm = V_INFIX_RE.exec(t);
  if (vm) {
    const v = Number(`${vm[1]}${vm[2]}.${vm[3]}`);
    return Number.isFinite(v) ? { value: v, unit: 'V', prefix: null, rNote: false, rBare: false, tol: false } : null;
  }
  if (DECIMAL_COMMA_RE.test(t)) t = t.replace(DECIMAL_COMMA_RE, '$1.$2');
  const m = NUM_RE.exec(t);
  if (m === null) return null;
  const rest = m[13] ?? '';
  const rNote = m[4] !== undefined;
  const infix = m[7] !== undefined;
  let suffix: Suffix | null;
  if (rNote) {
    suffix = rest === '' ? { unit: 'Ω', prefix: null, fahrenheit: false } : readSuffix(rest, true);
    if (suffix === null || (suffix.unit !== null && suffix.unit !== 'Ω')) return null;
    suffix = { unit: 'Ω', prefix: null, fahrenheit: false };
  } else {
    suffix = readSuffix(rest, infix);
    if (suffix === null) return null;
    if (m[8] !== undefined && suffix.prefix !== null) return null;       // "1/4k": not a thing
  }
  const core = t.slice(0, t.length - rest.length);
  const parsed = parseQuantity(suffix.prefix !== null ? `${core}${suffix.prefix}` : core);
  if (parsed === null || !Number.isFinite(parsed.value)) return null;
  let value = parsed.value;
  if (suffix.fahrenheit) value = Number((((value - 32) * 5) / 9).toPrecision(12));
  const prefix = infix ? (PREFIX_LETTERS.get(m[6] as string) ?? null) : suffix.prefix;
  return { value, unit: rNote ? 'Ω' : suffix.unit, prefix, rNote, rBare: rNote && rest === '', tol: m[1] !== undefined };
}

/** Two quantities as a range (units must agree; one side must carry a unit or prefix unless `loose`). */
function combine(a: Qty, b: Qty, loose: boolean): Range | null {
  if (a.tol || b.tol) return null;
  if (a.unit !== null && b.unit !== null && a.unit !== b.unit) return null;
  let unit = a.unit ?? b.unit;
  const prefix = b.prefix ?? a.prefix;
  if (unit === null && prefix === null && !a.rNote && !b.rNote) {
    // "-40 to +85": a bare range starting below zero reads as temperatures.
    if (loose && a.value < 0 && b.value > 0 && b.value <= 200 && a.value >= -80) unit = '℃';
    else return null;
  }
  let first = a.value;
  // "1-10MHz", "10-100k": a bare first number takes the second's prefix when that keeps it below.
  if (a.prefix === null && a.unit === null && !a.rNote && b.prefix !== null) {
    const f = PREFIX_FACTOR.get(b.prefix) ?? 1;
    const scaled = Number((a.value * f).toPrecision(12));
    if (scaled <= b.value) first = scaled;
  }
  const second = b.value;
  return { lo: Math.min(first, second), hi: Math.max(first, second), first, second, unit, prefix };
}

const RANGE_SEPS = ['~', '～', '〜', '..', '–', '—', '-', '至'];

/** A one-token range: "2.7-5.5V", "-40~85℃", "1~10MHz". */
function parseRangeToken(t: string): Range | null {
  if (t.length > 32) return null;
  for (let i = 1; i < t.length - 1; i++) {
    const c = t.charAt(i);
    let len = 0;
    if (c === '.' && t.charAt(i + 1) === '.') len = t.charAt(i + 2) === '.' ? 3 : 2;
    else if (RANGE_SEPS.includes(c)) len = 1;
    if (len === 0) continue;
    const a = parseQty(t.slice(0, i));
    if (a === null) continue;
    const b = parseQty(t.slice(i + len));
    if (b === null) continue;
    const r = combine(a, b, true);
    if (r !== null) return r;
  }
  return null;
}

// ---------------------------------------------------------------- comparisons

interface Op { kind: ConstraintKind; upTo: boolean; postfix: boolean; prefixOk: boolean }

const op = (kind: ConstraintKind, where: 'pre' | 'post' | 'both', upTo = false): Op =>
  ({ kind, upTo, postfix: where !== 'pre', prefixOk: where !== 'post' });

/** Comparison words and symbols (phrase keys, lower case). */
const OPS: ReadonlyMap<string, Op> = new Map<string, Op>([
  ['>=', op('at_least', 'pre')], ['=>', op('at_least', 'pre')], ['≥', op('at_least', 'pre')], ['>', op('at_least', 'pre')],
  ['<=', op('at_most', 'pre')], ['=<', op('at_most', 'pre')], ['≤', op('at_most', 'pre')], ['<', op('at_most', 'pre')],
  ['at least', op('at_least', 'pre')], ['atleast', op('at_least', 'pre')], ['more than', op('at_least', 'pre')],
  ['greater than', op('at_least', 'pre')], ['no less than', op('at_least', 'pre')], ['not less than', op('at_least', 'pre')],
  ['over', op('at_least', 'pre')], ['above', op('at_least', 'pre')],
  ['min', op('at_least', 'both')], ['minimum', op('at_least', 'both')],
  ['or more', op('at_least', 'post')], ['or higher', op('at_least', 'post')], ['or greater', op('at_least', 'post')],
  ['or above', op('at_least', 'post')], ['and up', op('at_least', 'post')], ['and above', op('at_least', 'post')],
  ['+', op('at_least', 'post')],
  ['at most', op('at_most', 'pre')], ['atmost', op('at_most', 'pre')], ['less than', op('at_most', 'pre')],
  ['no more than', op('at_most', 'pre')], ['not more than', op('at_most', 'pre')], ['lower than', op('at_most', 'pre')],
  ['under', op('at_most', 'pre')], ['below', op('at_most', 'pre')],
  ['max', op('at_most', 'both')], ['maximum', op('at_most', 'both')],
  ['or less', op('at_most', 'post')], ['or lower', op('at_most', 'post')], ['or below', op('at_most', 'post')],
  ['and below', op('at_most', 'post')],
  ['up to', op('at_most', 'pre', true)], ['upto', op('at_most', 'pre', true)],
]);

const RANGE_WORDS: ReadonlySet<string> = new Set(['to', '~', '-', '–', '—', '..', '...', '至', 'and', 'thru', 'through']);
const TOL_TOKENS: ReadonlySet<string> = new Set(['±', '+/-', '+-']);

/** Words never kept as terms. */
const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'for', 'with', 'and', 'or', 'of', 'in', 'on', 'to', 'at', 'by', 'from', 'between', 'vs', 'w',
  'min', 'max', 'minimum', 'maximum', 'least', 'most', 'than', 'over', 'under', 'above', 'below', 'up', 'upto',
  'is', 'are', 'any', 'some', 'i', 'need', 'want', 'looking', 'find', 'me', 'please', 'rated', 'rating', 'type',
]);

// ---------------------------------------------------------------- packages

const PKG_RE = new RegExp(
  `^(${[...PACKAGE_FAMILIES].sort((a, b) => b.length - a.length).join('|')})[-_]?(\\d{1,4})([A-Z]{0,3})(?:[-_](\\d{1,3})([A-Z]{0,2}))?([-_]?EP)?$`,
);
const LETTER_PACKAGE_CODES: ReadonlySet<string> = new Set(LETTER_PACKAGES.values());
/** Package families that are also ordinary words: never joined with a following number token ("to 220"). */
const NO_JOIN_FAMILIES: ReadonlySet<string> = new Set(['TO', 'SO', 'SC', 'DO', 'LL', 'HC', 'SIP', 'SON']);
const PKG_NUMBER_RE = /^\d{1,4}(?:[-_]\d{1,3})?$/;

/** "sot23-5" -> "SOT-23-5", "soic8" -> "SOIC-8", "0603" -> "0603", "dpak" -> "DPAK"; null when not a package. */
function packageOf(raw: string): string | null {
  if (CHIP_SIZES.has(raw)) return raw;
  const low = raw.toLowerCase();
  const letter = LETTER_PACKAGES.get(low);
  if (letter !== undefined) return letter;
  const up = raw.toUpperCase();
  const m = PKG_RE.exec(up);
  if (m === null) return null;
  const fam = m[1] as string;
  const num = m[2] as string;
  const head = num.length === 4 ? `${fam}${num}` : `${fam}-${num}`;     // DFN1006: a size code, no hyphen
  const pins = m[4] !== undefined ? `-${m[4]}${m[5] ?? ''}` : '';
  const ep = m[6] !== undefined ? '-EP' : '';
  return `${head}${m[3] ?? ''}${pins}${ep}`;
}

// ---------------------------------------------------------------- MPNs

const MPN_CHARS_RE = /^[A-Za-z0-9][A-Za-z0-9\-_./+#]*$/;
const HAS_LETTER_RE = /[A-Za-z]/;
const HAS_DIGIT_RE = /\d/;
const LETTER_DIGIT_RE = /[A-Za-z]\d/;
const DIMENSION_RE = /^\d+(?:\.\d+)?(?:mm)?[x×*]\d+(?:\.\d+)?(?:[x×*]\d+(?:\.\d+)?)?(?:mm|p)?$/i;
/** Standards, interfaces and generations that look like part numbers but are not. */
const NOT_MPN_RE =
  /^(?:rs-?\d{3}[a-z]?|ip\d{2}|usb-?\d(?:\.\d)?|ddr\d[a-z]?|lpddr\d|cat\d[a-z]?|m\d(?:\.\d)?(?:x\d+)?|ul\d+.*|aec-?q\d{3}|ieee\d+.*|cortex-?[amr]\d+\+?|bt\d(?:\.\d)?|ble\d(?:\.\d)?|wi-?fi\d|802\.11.*|e\d{2,3}|rohs\d?|pcie?\d.*|gen\d|qc\d(?:\.\d)?|class-?\d|awg\d+|\d+awg|iec\d+.*|en\d+.*|iso\d+.*)$/i;

function mpnOf(raw: string): string | null {
  if (raw.length < 4 || !MPN_CHARS_RE.test(raw)) return null;
  if (!HAS_LETTER_RE.test(raw) || !HAS_DIGIT_RE.test(raw)) return null;
  const startsWithLetter = HAS_LETTER_RE.test(raw.charAt(0));
  if (!startsWithLetter && !LETTER_DIGIT_RE.test(raw)) return null;          // "2000mAh", "8pin": a value and a word
  if (DIMENSION_RE.test(raw) || NOT_MPN_RE.test(raw)) return null;
  const key = normaliseMpn(raw);
  return key.length >= 4 ? key : null;
}

// ---------------------------------------------------------------- scan

interface Item {
  start: number;
  end: number;
  single: Qty | null;
  range: Range | null;
  op: ConstraintKind | null;
  upTo: boolean;
  /** Token indexes of the operator words applied to this item (freed if the item is dropped). */
  opToks: number[];
}

interface PendingValue { start: number; end: number; word: ValueWord }

interface PendingPackage { code: string; start: number; end: number }

interface Scan {
  toks: Tok[];
  items: Item[];
  values: PendingValue[];
  families: Family[];
  packages: PendingPackage[];
}

function phraseAt(toks: Tok[], i: number, len: number): string | null {
  if (i + len > toks.length) return null;
  if (len === 1) return (toks[i] as Tok).key;
  let s = (toks[i] as Tok).key;
  for (let j = 1; j < len; j++) s += ` ${(toks[i + j] as Tok).key}`;
  return s;
}

function use(toks: Tok[], from: number, to: number, state: TokState): void {
  for (let j = from; j <= to; j++) (toks[j] as Tok).state = state;
}

/** A quantity (or range) starting at token i: [item fields, last token index], or null. */
function quantityAt(toks: Tok[], i: number): { single: Qty | null; range: Range | null; end: number; atLeast: boolean } | null {
  const t = toks[i] as Tok;
  const next = toks[i + 1];
  // "between 2.7 and 5.5V", "from -40 to 85C"
  if ((t.low === 'between' || t.low === 'from') && next !== undefined) {
    const a = parseQty(next.raw);
    const sep = toks[i + 2];
    const bt = toks[i + 3];
    if (a !== null && sep !== undefined && bt !== undefined && RANGE_WORDS.has(sep.low)) {
      const b = parseQty(bt.raw);
      const r = b === null ? null : combine(a, b, true);
      if (r !== null) return { single: null, range: r, end: i + 3, atLeast: false };
    }
    return null;
  }
  // ± 1%
  if (TOL_TOKENS.has(t.raw) && next !== undefined) {
    const q = parseQty(`±${next.raw}`);
    if (q !== null) return { single: q, range: null, end: i + 1, atLeast: false };
    return null;
  }
  let raw = t.raw;
  let atLeast = false;
  if (raw.length > 1 && raw.endsWith('+') && !raw.endsWith('/+')) { raw = raw.slice(0, -1); atLeast = true; }
  const r1 = atLeast ? null : parseRangeToken(raw);
  if (r1 !== null) return { single: null, range: r1, end: i, atLeast: false };
  let q = parseQty(raw);
  if (q === null) return null;
  let end = i;
  // "100 nF", "10 k", "50 V", "10k ohm", "85 °C", "1 %"
  if (!atLeast && next !== undefined && q.unit === null && !q.rNote) {
    const suf = readSuffix(next.raw, q.prefix !== null);
    if (suf !== null && (suf.unit !== null || suf.prefix !== null) && !FAMILY_WORDS.has(next.key)) {
      const joined = parseQty(`${raw}${next.raw}`);
      if (joined !== null) { q = joined; end = i + 1; }
    }
  }
  // "-40 to 85C", "2.7 ~ 5.5V", "10k - 100k"
  const sep = toks[end + 1];
  const bt = toks[end + 2];
  if (!atLeast && sep !== undefined && bt !== undefined && RANGE_WORDS.has(sep.low) && sep.low !== 'and') {
    let b = parseQty(bt.raw);
    let bEnd = end + 2;
    const after = toks[end + 3];
    if (b !== null && b.unit === null && !b.rNote && after !== undefined) {
      const suf = readSuffix(after.raw, b.prefix !== null);
      if (suf !== null && (suf.unit !== null || suf.prefix !== null)) {
        const joined = parseQty(`${bt.raw}${after.raw}`);
        if (joined !== null) { b = joined; bEnd = end + 3; }
      }
    }
    const r = b === null ? null : combine(q, b, true);
    if (r !== null) return { single: null, range: r, end: bEnd, atLeast: false };
  }
  return { single: q, range: null, end, atLeast };
}

function scan(text: string): Scan {
  const toks = tokenise(text);
  const items: Item[] = [];
  const values: PendingValue[] = [];
  const families: Family[] = [];
  const packages: PendingPackage[] = [];
  let pending: { op: Op; at: number; toks: number[] } | null = null;

  for (let i = 0; i < toks.length;) {
    const t = toks[i] as Tok;

    // comparison words: "at least", ">=", "max", "or more"
    let matchedOp: Op | null = null;
    let opLen = 0;
    for (let len = Math.min(3, toks.length - i); len >= 1 && matchedOp === null; len--) {
      const o = OPS.get(phraseAt(toks, i, len) ?? '');
      if (o !== undefined) { matchedOp = o; opLen = len; }
    }
    if (matchedOp !== null) {
      const last = items[items.length - 1];
      const idx = Array.from({ length: opLen }, (_, k) => i + k);
      if (matchedOp.postfix && last !== undefined && last.end === i - 1 && last.op === null) {
        last.op = matchedOp.kind; last.upTo = matchedOp.upTo; last.opToks.push(...idx);
        use(toks, i, i + opLen - 1, 'used');
      } else if (matchedOp.prefixOk) {
        pending = { op: matchedOp, at: i + opLen, toks: idx };
      }
      i += opLen;
      continue;
    }

    // chip sizes before numbers: "0603" is a package, not 603 Ω
    if (CHIP_SIZES.has(t.raw)) {
      packages.push({ code: t.raw, start: i, end: i });
      t.state = 'used';
      i++;
      continue;
    }

    const q = quantityAt(toks, i);
    if (q !== null) {
      const item: Item = { start: i, end: q.end, single: q.single, range: q.range, op: null, upTo: false, opToks: [] };
      if (q.atLeast) item.op = 'at_least';
      else if (pending !== null && i - pending.at <= 2) {
        item.op = pending.op.kind; item.upTo = pending.op.upTo; item.opToks = pending.toks;
        for (const k of pending.toks) (toks[k] as Tok).state = 'used';
      }
      pending = null;
      items.push(item);
      use(toks, i, q.end, 'used');
      i = q.end + 1;
      continue;
    }

    // value and family words, longest phrase first
    let matched = 0;
    for (let len = Math.min(LONGEST_PHRASE, toks.length - i); len >= 1 && matched === 0; len--) {
      const key = phraseAt(toks, i, len);
      if (key === null) continue;
      const fam = FAMILY_WORDS.get(key);
      const val = VALUE_WORDS.get(key);
      if (fam === undefined && val === undefined) continue;
      matched = len;
      if (fam !== undefined) { families.push(fam); use(toks, i, i + len - 1, 'keep'); }
      if (val !== undefined) values.push({ start: i, end: i + len - 1, word: val });
    }
    if (matched > 0) { i += matched; continue; }

    // packages: "SOT-23-5", "soic8", "SOT 23"
    let pkg = packageOf(t.raw);
    let pkgEnd = i;
    const next = toks[i + 1];
    if (pkg === null && next !== undefined && PKG_NUMBER_RE.test(next.raw)) {
      const fam = t.raw.toUpperCase();
      if (PACKAGE_FAMILIES.includes(fam) && !NO_JOIN_FAMILIES.has(fam)) {
        pkg = packageOf(`${fam}-${next.raw}`);
        pkgEnd = i + 1;
      }
    }
    if (pkg !== null) {
      packages.push({ code: pkg, start: i, end: pkgEnd });
      use(toks, i, pkgEnd, 'used');
      i = pkgEnd + 1;
      continue;
    }
    i++;
  }
  return { toks, items, values, families, packages };
}

// ---------------------------------------------------------------- context

const DEFAULT_PREFIX_UNIT: ReadonlyMap<string, SiUnit> = new Map<string, SiUnit>([
  ['p', 'F'], ['n', 'F'], ['u', 'F'], ['k', 'Ω'], ['M', 'Ω'],
]);
/** Prefixes that make sense for a unit inferred from a family context. */
const PLAUSIBLE_PREFIXES: Readonly<Partial<Record<SiUnit, string>>> = {
  'Ω': 'mkMG', F: 'pnum', H: 'pnum', Hz: 'kMG',
};

/** The unit of a value typed without one, or null (not a quantity in this context). */
function inferUnit(q: { prefix: string | null; rNote: boolean }, ctx: Family | null, explicit: boolean): SiUnit | null {
  const bare = explicit && ctx !== null ? (CONTEXT_BARE_UNIT[ctx] ?? null) : null;
  if (q.rNote) return bare === 'H' ? 'H' : 'Ω';
  if (q.prefix === null) return explicit && (ctx === 'resistor' || ctx === 'potentiometer') ? 'Ω' : null;   // "220 resistor"
  if (bare !== null && (PLAUSIBLE_PREFIXES[bare] ?? '').includes(q.prefix)) return bare;
  return DEFAULT_PREFIX_UNIT.get(q.prefix) ?? null;
}

function pickContext(families: readonly Family[]): Family | null {
  for (const f of families) if (!GENERIC_FAMILIES.has(f)) return f;
  return families[0] ?? null;
}

/** Context inferred from the values when the query names no family. */
function inferContext(s: Scan): Family | null {
  for (const v of s.values) if (v.word.implies !== undefined && v.word.requires === undefined) return v.word.implies;
  const typed = new Set<SiUnit>();
  let untyped: SiUnit | null = null;
  for (const it of s.items) {
    const u = it.single?.unit ?? it.range?.unit ?? null;
    if (u !== null) typed.add(u);
    else if (untyped === null) untyped = inferUnit(it.single ?? { prefix: it.range?.prefix ?? null, rNote: false }, null, false);
  }
  if (typed.has('F')) return 'capacitor';
  if (typed.has('H')) return 'inductor';
  if (typed.has('Ω')) return 'resistor';
  if (untyped === 'F') return 'capacitor';
  if (untyped === 'Ω') return 'resistor';
  return null;
}

// ---------------------------------------------------------------- resolution

/** Units whose values have no sign: "-10k" is a dash and 10 kΩ. */
const UNSIGNED_UNITS: ReadonlySet<SiUnit> = new Set<SiUnit>(['Ω', 'F', 'H', 'Hz', 'W', 's', 'm', 'B', 'bit']);
const PASSIVE_ROLES: ReadonlySet<RoleId> = new Set<RoleId>(['resistance', 'capacitance', 'inductance']);
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
  return { names: [...role.names], unit: role.unit, value, lo, hi, kind, source };
}

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
  if (j - 1 >= 0 && UNIT_NOUNS.has((toks[j] as Tok).low)) before.push(j - 1);   // "output voltage 3.3V"
  for (const k of [...before, it.end + 1]) {
    const t = toks[k];
    if (t === undefined || t.state !== 'free') continue;
    const role = QUALIFIERS.get(t.low)?.[unit];
    if (role !== undefined) {
      t.state = 'used';
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
  s: Scan, it: Item, ctx: Family | null, explicit: boolean, tolWindow: number | null,
  specs: SpecConstraint[], values: ValueConstraint[], byContext: SpecConstraint[],
): boolean {
  const q = it.single;
  const r = it.range;
  let unit = q?.unit ?? r?.unit ?? null;
  let scale = 1;
  if (unit === null) {
    unit = inferUnit(q ?? { prefix: r?.prefix ?? null, rNote: false }, ctx, explicit);
    if (unit === null) return false;
  } else if (q?.rBare && explicit && ctx !== null && CONTEXT_BARE_UNIT[ctx] === 'H') {
    unit = 'H';                                                       // "4R7 inductor": inductor code, µH
    scale = 1e-6;
  }
  const source = sourceOf(s.toks, it);

  const qual = qualifierFor(s.toks, it, unit);
  consumeNouns(s.toks, it, unit);

  let roleId: RoleId = qual ?? DEFAULT_ROLES[unit];
  if (qual === null && ctx !== null && (explicit || RATING_UNITS.has(unit))) {
    roleId = CONTEXT_ROLES[ctx]?.[unit] ?? roleId;
    const bySize = q !== null && r === null ? MAGNITUDE_ROLES[ctx]?.[unit]?.find(([below]) => Math.abs(q.value * scale) < below) : undefined;
    if (bySize) roleId = bySize[1];
  }
  const fromContext = qual === null && it.op === null && unit !== '%' && roleId === (ctx !== null ? (CONTEXT_ROLES[ctx]?.[unit] ?? DEFAULT_ROLES[unit]) : DEFAULT_ROLES[unit]);
  // percentages: a tolerance (a value constraint) unless clearly an efficiency ("90%")
  if (unit === '%' && qual === null) {
    if (q !== null && isTolerance(q)) {
      values.push({ names: [...ROLES.tolerance.names], values: [`±${fmt(Math.abs(q.value))}%`], source });
      return true;
    }
    roleId = 'efficiency';
  }
  const role: SpecRole = ROLES[roleId];

  if (r !== null) {
    // "12V to 5V buck", "5V to 3.3V LDO": input then output
    const reg = ctx === 'ldo' || ctx === 'regulator' || ctx === 'dc-dc';
    if (reg && unit === 'V' && qual === null && it.op === null && (ctx === 'dc-dc' || r.first > r.second)) {
      const vin: SpecRole = ROLES.inputVoltage;
      const vout: SpecRole = ROLES.outputVoltage;
      specs.push(constraint(vin, 'at_least', r.first, r.first, Infinity, source));
      const [lo, hi] = window(r.second, vout.window ?? DEFAULT_WINDOW);
      specs.push(constraint(vout, 'equals', r.second, lo, hi, source));
      return true;
    }
    if (it.op === null && role.covering) {
      specs.push(constraint(role, 'at_most', r.lo, -Infinity, r.lo, source));
      specs.push(constraint(role, 'at_least', r.hi, r.hi, Infinity, source));
      return true;
    }
    const kind = it.op ?? 'equals';
    if (kind === 'at_least') specs.push(constraint(role, kind, r.lo, r.lo, Infinity, source));
    else if (kind === 'at_most') specs.push(constraint(role, kind, r.hi, -Infinity, r.hi, source));
    else specs.push(constraint(role, 'equals', Number(((r.lo + r.hi) / 2).toPrecision(12)), r.lo, r.hi, source));
    return true;
  }
  if (q === null) return false;

  const signed = UNSIGNED_UNITS.has(unit) ? Math.abs(q.value) : q.value;
  const value = scale === 1 ? signed : Number((signed * scale).toPrecision(12));
  let kind: ConstraintKind;
  if (it.op !== null) kind = it.upTo && role.kind === 'at_least' ? 'at_least' : it.op;
  else if (roleId === 'temperature') kind = value < 0 ? 'at_most' : 'at_least';
  else kind = role.kind;
  const w = PASSIVE_ROLES.has(roleId) && tolWindow !== null ? tolWindow : (role.window ?? DEFAULT_WINDOW);
  const c = valueConstraint(role, kind, value, w, source);
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
    for (const [c, roleId] of [[small!, pair[0]], [large!, pair[1]]] as const) {
      const r: SpecRole = ROLES[roleId];
      specs[specs.indexOf(c)] = valueConstraint(r, r.kind, c.value, r.window ?? DEFAULT_WINDOW, c.source);
    }
  }
}

function dedupe<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => { const k = key(x); if (seen.has(k)) return false; seen.add(k); return true; });
}

function understand(text: string): QueryUnderstanding {
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
    if (inContext.has('connector') && LETTER_PACKAGE_CODES.has(p.code)) use(toks, p.start, p.end, 'free');
    else packages.push(p.code);
  }

  // value words
  const values: ValueConstraint[] = [];
  for (const v of s.values) {
    if (v.word.requires !== undefined && !v.word.requires.some((f) => inContext.has(f))) continue;
    values.push({ names: [...v.word.names], values: [...v.word.values], source: sourceOf(toks, { start: v.start, end: v.end } as Item) });
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
  for (const t of toks) {
    if (t.state === 'used') continue;
    if (t.state === 'free') {
      const mpn = mpnOf(t.raw);
      if (mpn !== null) mpns.push(mpn);
    }
    if (STOPWORDS.has(t.low) || OPS.has(t.low) || !/[\p{L}\p{N}]/u.test(t.low)) continue;
    terms.push(t.low);
  }

  return {
    text,
    terms: [...new Set(terms)],
    specs: dedupe(specs, (c) => `${c.names[0]}|${c.kind}|${c.lo}|${c.hi}`),
    values: dedupe(values, (v) => `${v.names[0]}|${v.values.join(',')}`),
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
    return { text: t, terms: [], specs: [], values: [], packages: [], mpns: [], families: [] };
  }
}
