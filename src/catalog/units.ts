/**
 * units.ts — engine-neutral, dependency-free parser for the spec strings that
 * component catalogues display ("4k7", "100nF", "±1%", "-40℃~+85℃", ...).
 *
 * Values are returned in SI base units (F, not µF). The display string itself
 * is never modified. Nothing here throws on string input, and all regexes are
 * compiled once at module load, because ingest runs this on ~300k values.
 *
 * Accepted grammar (informal; `ws` = space, tab, NBSP, thin spaces):
 *
 *   spec     := junk* quantity ( sep quantity )? junk*
 *   quantity := tol? ws* sign? number suffix?
 *   tol      := '±' | '+/-' | '+-'                  -> tolerance = true
 *   sign     := '+' | '-' | '−' | '–'               (a leading minus is a sign)
 *   number   := digits? [Rr] digits                 R notation: 4R7 = 4.7 Ω, R047 = 0.047 Ω, 1R0 = 1 Ω
 *             | digits prefix digits               infix: 4k7 = 4700, 4u7 = 4.7e-6, 1p5 = 1.5e-12, 2M2 = 2.2e6
 *             | digits '/' digits                  fraction: 1/4W = 0.25 W
 *             | decimal ( [eE] [+-]? digits )?      12, 0.1, .5, 1,000 (thousands), 1e-6
 *   suffix   := ws* ( '%' | '℃' | '°C' | '℉' | '°F' | prefix? unitWord | prefix | 'C' )
 *   prefix   := p n u µ μ m k K M G T               case-sensitive: m = milli, M = mega
 *   unitWord := Ω Ω ohm(s) R | F farad | H henry | V volt Vdc Vac Vrms Vpp | A amp(s)
 *             | W watt(s) | Hz hertz | s sec | ppm | dB | B byte(s) | b bit(s)
 *             | m metre (only after a prefix: mm, um, nm; a bare `m` is milli)
 *             | h henry (only after a prefix: uh, mh; a bare `h` is hours -> ignored)
 *             unit words are case-insensitive except Ω/R/H/s/B/b/m/h as noted.
 *   sep      := '~' | '～' | '〜' | '—' | '–' | '..' | '...' | 'to' | '至'
 *             | ws+ '-' ws+ | '-' ws*               ("3.3V -5V" is NOT a range)
 *   junk     := anything else; words after the quantity are ignored ("470k HV").
 *
 * A number directly preceded by an ASCII letter or digit is not a quantity
 * ("X7R", "SOT-23", "AEC-Q200" hold no value) except after "DC"/"AC" ("DC12V").
 * A lone `C` suffix only means ℃ in degree context: the hint unit is ℃, or it
 * is a range whose other end is ℃ / also a lone `C` ("-40C~85C").
 * °F is converted to ℃. Non-finite results (1e400) count as "no number".
 */

export type SiUnit = 'Ω' | 'F' | 'H' | 'V' | 'A' | 'W' | 'Hz' | '%' | '℃' | 's' | 'm' | 'ppm' | 'dB' | 'B' | 'bit';

/** Every unit the parser returns. */
export const SI_UNITS: readonly SiUnit[] = ['Ω', 'F', 'H', 'V', 'A', 'W', 'Hz', '%', '℃', 's', 'm', 'ppm', 'dB', 'B', 'bit'];

/** One quantity; `value` is in SI base units. */
export interface ParsedQuantity { value: number; unit: SiUnit | null }

export interface ParsedSpec {
  /** The input exactly as given. */
  display: string;
  /** Single SI number; null for a range. */
  value: number | null;
  /** Range lower bound in SI; equals `value` for a single value. */
  min: number | null;
  /** Range upper bound in SI; equals `value` for a single value. */
  max: number | null;
  unit: SiUnit | null;
  /** True for ±x forms (value is the magnitude x). */
  tolerance: boolean;
}

/** SI prefix multipliers (both micro signs, and K as a common kilo misspelling). */
export const SI_PREFIX: Readonly<Record<string, number>> = Object.freeze({
  p: 1e-12, n: 1e-9, u: 1e-6, 'µ': 1e-6, 'μ': 1e-6, m: 1e-3, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12,
});

/** Prefix -> decimal exponent; values are built as Number(`${mantissa}e${exp}`) to avoid 4.699999e-6. */
const PREFIX_EXP: ReadonlyMap<string, number> = new Map([
  ['p', -12], ['n', -9], ['u', -6], ['µ', -6], ['μ', -6], ['m', -3], ['k', 3], ['K', 3], ['M', 6], ['G', 9], ['T', 12],
]);

/** Case-sensitive unit spellings (checked first). */
const EXACT_UNITS: ReadonlyMap<string, SiUnit> = new Map<string, SiUnit>([
  ['Ω', 'Ω'], ['\u2126', 'Ω'], ['R', 'Ω'], ['r', 'Ω'], ['H', 'H'], ['s', 's'], ['B', 'B'], ['b', 'bit'],
]);

/** Case-insensitive unit words, keyed in lower case. */
const WORD_UNITS: ReadonlyMap<string, SiUnit> = new Map<string, SiUnit>([
  ['ohm', 'Ω'], ['ohms', 'Ω'],
  ['f', 'F'], ['farad', 'F'], ['farads', 'F'],
  ['henry', 'H'], ['henries', 'H'], ['henrys', 'H'],
  ['v', 'V'], ['volt', 'V'], ['volts', 'V'], ['vdc', 'V'], ['vac', 'V'], ['vrms', 'V'], ['vpp', 'V'], ['vp', 'V'], ['vpk', 'V'],
  ['a', 'A'], ['amp', 'A'], ['amps', 'A'], ['ampere', 'A'], ['amperes', 'A'], ['adc', 'A'], ['arms', 'A'],
  ['w', 'W'], ['watt', 'W'], ['watts', 'W'],
  ['hz', 'Hz'], ['hertz', 'Hz'],
  ['sec', 's'], ['secs', 's'], ['second', 's'], ['seconds', 's'],
  ['meter', 'm'], ['meters', 'm'], ['metre', 'm'], ['metres', 'm'],
  ['ppm', 'ppm'], ['db', 'dB'],
  ['byte', 'B'], ['bytes', 'B'], ['bit', 'bit'], ['bits', 'bit'],
  ['degc', '℃'],
]);

/** Units only recognised after a prefix (bare `m` is milli, bare `h` is hours). */
const PREFIXED_ONLY_UNITS: ReadonlyMap<string, SiUnit> = new Map<string, SiUnit>([['m', 'm'], ['h', 'H']]);

/** Units that formatSi never prefixes. */
const UNPREFIXED_UNITS: ReadonlySet<SiUnit | null> = new Set<SiUnit | null>(['%', '℃', 'ppm', 'dB']);

// Groups: 1 tol | 2 sign | 3,4 R notation | 5,6,7 infix | 8,9 fraction | 10 int, 11 frac, 12 dot-frac, 13 exp
const QTY_RE =
  /(±|\+\/-|\+-)?[ \t\u00a0]*([+\-−–])?(?:(\d*)[Rr](\d+)|(\d+)([pnuµμmkKMGT])(\d+)|(\d+)\/([1-9]\d*)|(?:(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+|\.(?![.\d]))?|\.(\d+))(?:[eE]([+-]?\d+))?)/y;
const RUN_RE = /[A-Za-zΩ\u2126µμ]+/y;
const SEP_RE = /[ \t\u00a0]*(?:[~～〜—–至]|\.{2,3}|[Tt][Oo](?![A-Za-z]))[ \t\u00a0]*|[ \t\u00a0]+-[ \t\u00a0]+|-[ \t\u00a0]*/y;
const HAS_DIGIT_RE = /\d/;
const FULLWIDTH_RE = /[\uFF01-\uFF5E]/;
const FULLWIDTH_G_RE = /[\uFF01-\uFF5E]/g;
const COMMA_G_RE = /,/g;
const DEGREE_RE = /^[°º˚]\s?[Cc]$/;

/** Internal token: everything needed to rebuild the value with another prefix. */
interface Token {
  num: string;          // signed decimal mantissa, e.g. "-4.7"
  den: number;          // fraction denominator, 1 otherwise
  exp: number;          // exponent incl. SI prefix
  pexp: number;         // SI prefix exponent alone
  hasPrefix: boolean;
  value: number;
  unit: SiUnit | null;
  bareC: boolean;       // lone `C` suffix: ℃ only in degree context
  tol: boolean;
  end: number;          // index after the recognised quantity
  runEnd: number;       // index after an attached unrecognised word ("0.5LSB"), else == end
}

/** Scratch result of readSuffix (module-level to avoid per-call allocation). */
const SUF = { unit: null as SiUnit | null, pexp: 0, hasPrefix: false, bareC: false, fahrenheit: false, end: 0, runEnd: 0 };

function isDigit(c: number): boolean { return c >= 48 && c <= 57; }
function isAsciiLetter(c: number): boolean { const l = c | 32; return l >= 97 && l <= 122; }
function isWs(c: number): boolean { return c === 32 || c === 9 || c === 0xa0 || c === 0x2009 || c === 0x202f; }

/** Unit word (no prefix) -> SiUnit; `afterPrefix` also allows m (metre) and h (henry). */
function lookupUnit(word: string, afterPrefix: boolean): SiUnit | null {
  return EXACT_UNITS.get(word) ?? WORD_UNITS.get(word.toLowerCase())
    ?? (afterPrefix ? PREFIXED_ONLY_UNITS.get(word) : undefined) ?? null;
}

/** Map a unit word (no SI prefix) to its SiUnit: 'ohms' -> 'Ω', 'volt' -> 'V', '°C' -> '℃'. 'C' alone -> null. */
export function normaliseUnit(u: string): SiUnit | null {
  if (typeof u !== 'string') return null;
  const t = u.trim();
  if (t === '') return null;
  if (t === '%') return '%';
  if (t === '℃' || DEGREE_RE.test(t)) return '℃';
  if (t === 'm') return 'm';
  const slash = t.indexOf('/');                 // 'ppm/℃', 'ppm/°C'
  const word = slash > 0 ? t.slice(0, slash) : t;
  const unit = lookupUnit(word, false);
  return slash > 0 && unit !== 'ppm' ? null : unit;
}

/** True when "DC"/"AC" (as a whole word) ends right before index i: "DC12V". */
function afterDcAc(s: string, i: number): boolean {
  if (i < 2 || (s.charCodeAt(i - 1) | 32) !== 99) return false;
  const a = s.charCodeAt(i - 2) | 32;
  return (a === 100 || a === 97) && (i === 2 || !isAsciiLetter(s.charCodeAt(i - 3)));
}

/** Can a quantity start at index i (char code c)? Rejects mid-word / mid-number starts. */
function canStartAt(s: string, i: number, c: number): boolean {
  const next = s.charCodeAt(i + 1);
  if (c === 0xb1) return true;                                           // ±
  if (c === 82 || c === 114) { if (!isDigit(next)) return false; }         // R047
  else if (c === 46) { if (!isDigit(next)) return false; }                 // .5
  else if (c === 43 || c === 45 || c === 0x2212 || c === 0x2013) {         // sign (or +/-)
    if (!isDigit(next) && next !== 46 && !(c === 43 && (next === 47 || next === 45))) return false;
  } else if (!isDigit(c)) return false;
  if (i === 0) return true;
  const p = s.charCodeAt(i - 1);
  if (isDigit(p) || p === 46) return false;
  if (isAsciiLetter(p)) return afterDcAc(s, i);
  if ((p === 45 || p === 43 || p === 0x2212 || p === 0x2013) && (isDigit(c) || c === 46) && i >= 2) {
    const pp = s.charCodeAt(i - 2);                                        // SOT-23
    if (isDigit(pp) || (isAsciiLetter(pp) && !afterDcAc(s, i - 1))) return false;
  }
  return true;
}

/** Read the unit/prefix after a number at `pos` into SUF. */
function readSuffix(s: string, pos: number, allowPrefix: boolean): void {
  SUF.unit = null; SUF.pexp = 0; SUF.hasPrefix = false; SUF.bareC = false; SUF.fahrenheit = false;
  SUF.end = pos; SUF.runEnd = pos;
  let q = pos;
  while (q < s.length && isWs(s.charCodeAt(q))) q++;
  if (q >= s.length) return;
  const c = s.charCodeAt(q);
  if (c === 0x25) { SUF.unit = '%'; SUF.end = SUF.runEnd = q + 1; return; }
  if (c === 0x2103) { SUF.unit = '℃'; SUF.end = SUF.runEnd = q + 1; return; }
  if (c === 0x2109) { SUF.unit = '℃'; SUF.fahrenheit = true; SUF.end = SUF.runEnd = q + 1; return; }
  if (c === 0xb0 || c === 0xba || c === 0x2da) {                          // ° º ˚ (+ optional space) C/F
    let r = q + 1;
    if (s.charCodeAt(r) === 32) r++;
    const d = s.charCodeAt(r) | 32;
    if (d === 99) { SUF.unit = '℃'; SUF.end = SUF.runEnd = r + 1; }
    else if (d === 102) { SUF.unit = '℃'; SUF.fahrenheit = true; SUF.end = SUF.runEnd = r + 1; }
    return;
  }
  RUN_RE.lastIndex = q;
  const m = RUN_RE.exec(s);
  if (m === null) return;
  const run = m[0];
  const runEnd = q + run.length;
  let unit = lookupUnit(run, false);
  if (unit === null && allowPrefix) {
    const pe = PREFIX_EXP.get(run.charAt(0));
    if (pe !== undefined) {
      if (run.length === 1) { SUF.pexp = pe; SUF.hasPrefix = true; SUF.end = SUF.runEnd = runEnd; return; }
      unit = lookupUnit(run.slice(1), true);
      if (unit !== null) { SUF.pexp = pe; SUF.hasPrefix = true; }
    }
  }
  if (unit !== null) { SUF.unit = unit; SUF.end = SUF.runEnd = runEnd; return; }
  if (run === 'C' || run === 'c') { SUF.bareC = true; SUF.end = SUF.runEnd = runEnd; return; }
  if (q === pos) SUF.runEnd = runEnd;                                     // attached unknown word, e.g. "0.5LSB"
}

/** mantissa × 10^exp ÷ den, built from the decimal string so 4.7e-6 stays 4.7e-6. */
function build(num: string, exp: number, den: number): number {
  const v = Number(`${num}e${exp}`);
  return den === 1 ? v : v / den;
}

function cleanFloat(x: number): number { return Number(x.toPrecision(12)); }

/** Parse one quantity starting exactly at index i, or null. */
function parseAt(s: string, i: number): Token | null {
  QTY_RE.lastIndex = i;
  const m = QTY_RE.exec(s);
  if (m === null) return null;
  const neg = m[2] !== undefined && m[2] !== '+';
  let num: string;
  let exp = 0;
  let den = 1;
  let unit: SiUnit | null = null;
  let hasPrefix = false;
  let pexp = 0;
  let bareC = false;
  let fahrenheit = false;
  const numEnd = QTY_RE.lastIndex;
  let end = numEnd;
  let runEnd = numEnd;

  if (m[4] !== undefined) {                                   // R notation: always ohms
    num = `${m[3] || '0'}.${m[4]}`;
    unit = 'Ω';
    readSuffix(s, numEnd, false);
    if (SUF.unit === 'Ω') end = runEnd = SUF.end;
  } else {
    if (m[7] !== undefined) {                                 // infix prefix: 4k7
      num = `${m[5]}.${m[7]}`;
      pexp = exp = PREFIX_EXP.get(m[6] as string) ?? 0;
      hasPrefix = true;
      readSuffix(s, numEnd, false);
    } else if (m[9] !== undefined) {                          // fraction: 1/4
      num = m[8] as string;
      den = Number(m[9]);
      readSuffix(s, numEnd, true);
    } else {                                                  // plain decimal
      const int = m[10];
      num = int === undefined ? `0.${m[12]}` : (int.length > 3 ? int.replace(COMMA_G_RE, '') : int) + (m[11] ?? '');
      if (m[13] !== undefined) exp = parseInt(m[13], 10);
      readSuffix(s, numEnd, true);
    }
    if (SUF.hasPrefix) { hasPrefix = true; pexp = SUF.pexp; exp += SUF.pexp; }
    unit = SUF.unit; bareC = SUF.bareC; fahrenheit = SUF.fahrenheit;
    end = SUF.end; runEnd = SUF.runEnd;
  }
  if (neg) num = `-${num}`;
  const tol = m[1] !== undefined;
  let value = build(num, exp, den);
  if (!Number.isFinite(value)) return null;
  if (fahrenheit) value = cleanFloat(tol ? value * 5 / 9 : (value - 32) * 5 / 9);
  if (value === 0) value = 0;                                 // no -0
  return { num, den, exp, pexp, hasPrefix, value, unit, bareC, tol, end, runEnd };
}

/** Fold full-width ASCII (１２Ｖ, ～) to ASCII; returns the input unchanged when there is none. */
function foldWidth(s: string): string {
  return FULLWIDTH_RE.test(s)
    ? s.replace(FULLWIDTH_G_RE, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xfee0))
    : s;
}

/** First quantity in s, or null. */
function firstToken(s: string): Token | null {
  if (!HAS_DIGIT_RE.test(s)) return null;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!canStartAt(s, i, c)) continue;
    const t = parseAt(s, i);
    if (t !== null) return t;
    if (isDigit(c)) return null;        // a number we cannot represent (1e400): nothing sensible follows
  }
  return null;
}

/** Index after a range separator at pos, or -1. */
function matchSep(s: string, pos: number): number {
  SEP_RE.lastIndex = pos;
  return SEP_RE.test(s) ? SEP_RE.lastIndex : -1;
}

/** Second quantity of a range after `a`, or null. */
function secondToken(s: string, a: Token): Token | null {
  let p = matchSep(s, a.end);
  if (p < 0 && a.runEnd !== a.end) p = matchSep(s, a.runEnd);
  if (p < 0) return null;
  const b = parseAt(s, p);
  return b === null || b.tol ? null : b;
}

function unitOf(t: Token, hint: SiUnit | null | undefined): SiUnit | null {
  if (t.unit !== null) return t.unit;
  if (t.bareC && hint === '℃') return '℃';
  return hint ?? null;
}

function single(display: string, t: Token, hint: SiUnit | null | undefined): ParsedSpec {
  return { display, value: t.value, min: t.value, max: t.value, unit: unitOf(t, hint), tolerance: t.tol };
}

/**
 * Parse a spec display string into SI numbers. Returns null when no number can be read.
 * `hintUnit` is used when the string itself carries no unit ("10k" with 'Ω').
 */
export function parseSpecValue(display: string, hintUnit?: SiUnit | null): ParsedSpec | null {
  if (typeof display !== 'string' || display === '') return null;
  const s = foldWidth(display);
  const a = firstToken(s);
  if (a === null) return null;
  if (a.tol) return single(display, a, hintUnit);
  const b = secondToken(s, a);
  if (b === null) return single(display, a, hintUnit);

  let ua = a.unit;
  let ub = b.unit;
  if (a.bareC && (b.bareC || ub === '℃' || hintUnit === '℃')) ua = '℃';
  if (b.bareC && (a.bareC || ua === '℃' || hintUnit === '℃')) ub = '℃';
  if (ua !== null && ub !== null && ua !== ub) return single(display, a, hintUnit);  // "100nF-50V": not a range

  let lo = a.value;
  // "1~10MHz": a bare first number takes the second's prefix, if that keeps lo <= hi.
  if (!a.hasPrefix && a.unit === null && !a.bareC && b.hasPrefix) {
    const scaled = build(a.num, a.exp + b.pexp, a.den);
    if (Number.isFinite(scaled) && scaled <= b.value) lo = scaled;
  }
  let hi = b.value;
  if (lo > hi) { const t = lo; lo = hi; hi = t; }
  return { display, value: null, min: lo, max: hi, unit: ua ?? ub ?? hintUnit ?? null, tolerance: false };
}

/**
 * The quantity a whole string is, with nothing before or after it ("0.1uF", "4k7", "±1%", "1/4W");
 * null for anything else ("3.3V, 5V", "5V max", "250V@DC", "2x10k").
 */
export function parseWholeQuantity(text: string, hintUnit?: SiUnit | null): ParsedQuantity | null {
  const s = foldWidth(text.trim());
  if (s === '' || !canStartAt(s, 0, s.charCodeAt(0))) return null;
  const t = parseAt(s, 0);
  return t !== null && t.end === s.length && t.runEnd === s.length ? { value: t.value, unit: unitOf(t, hintUnit) } : null;
}

/** Parse one token like '4k7', '100nF', '16V' (the first quantity in the string). */
export function parseQuantity(token: string, hintUnit?: SiUnit | null): ParsedQuantity | null {
  if (typeof token !== 'string' || token === '') return null;
  const t = firstToken(foldWidth(token));
  return t === null ? null : { value: t.value, unit: unitOf(t, hintUnit) };
}

const FORMAT_PREFIX: ReadonlyMap<number, string> = new Map([
  [-12, 'p'], [-9, 'n'], [-6, 'µ'], [-3, 'm'], [0, ''], [3, 'k'], [6, 'M'], [9, 'G'], [12, 'T'],
]);

/** Format an SI value with an engineering prefix: (1e-7,'F') -> '100nF', (4700,'Ω') -> '4.7kΩ'. */
export function formatSi(value: number, unit: SiUnit | null): string {
  const u = unit ?? '';
  if (!Number.isFinite(value) || value === 0 || UNPREFIXED_UNITS.has(unit)) {
    return `${Number.isFinite(value) ? cleanFloat(value) : value}${u}`;
  }
  const abs = Math.abs(value);
  let e = Math.min(12, Math.max(-12, Math.floor(Math.log10(abs) / 3) * 3));
  let mant = cleanFloat(value / 10 ** e);
  // log10 rounding can land one step off either way.
  if (Math.abs(mant) >= 1000 && e < 12) { e += 3; mant = cleanFloat(value / 10 ** e); }
  else if (Math.abs(mant) < 1 && e > -12) { e -= 3; mant = cleanFloat(value / 10 ** e); }
  return `${mant}${FORMAT_PREFIX.get(e) ?? ''}${u}`;
}
