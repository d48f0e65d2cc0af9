/**
 * Quantities in query text (query-scan.ts): numbers with SI prefixes and units ("4u7", "3V3", "100nF",
 * "0,1uF", "-40°C") and ranges of them ("2.7-5.5V", "3.3V~5V").
 */
import { normaliseUnit, parseQuantity, type SiUnit } from '../catalog/units.ts';

// ---------------------------------------------------------------- quantities

export interface Qty {
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

export interface Range {
  lo: number;
  hi: number;
  /** First and second value as typed ("5V to 3.3V": 5, 3.3). */
  first: number;
  second: number;
  unit: SiUnit | null;
  prefix: string | null;
}

const PREFIX_LETTERS: ReadonlyMap<string, string> = new Map([
  ['p', 'p'],
  ['n', 'n'],
  ['u', 'u'],
  ['µ', 'u'],
  ['μ', 'u'],
  ['m', 'm'],
  ['k', 'k'],
  ['K', 'k'],
  ['M', 'M'],
  ['G', 'G'],
  ['T', 'T'],
]);
const PREFIX_FACTOR: ReadonlyMap<string, number> = new Map([
  ['p', 1e-12],
  ['n', 1e-9],
  ['u', 1e-6],
  ['m', 1e-3],
  ['k', 1e3],
  ['M', 1e6],
  ['G', 1e9],
  ['T', 1e12],
]);

// 1 tol | 2 sign | 3,4 R notation | 5,6,7 infix | 8,9 fraction | 10,11 decimal | 12 dot-decimal | 13 rest
const NUM_RE =
  /^(±|\+\/-|\+-)?([+\-−–])?(?:(\d{0,3})[Rr](\d{1,3})|(\d{1,4})([pnuµμmkKMG])(\d{1,3})|(\d{1,6})\/([1-9]\d{0,3})|(\d{1,3}(?:,\d{3})+|\d+)(\.\d*)?|\.(\d+))(.*)$/u;
const V_INFIX_RE = /^([+-]?)(\d{1,3})[Vv](\d{1,3})$/; // 3V3, 1V8, 12V0
const DECIMAL_COMMA_RE = /^([±+-]?\d+),(\d{1,2})(?!\d)/; // 0,1uF
const TEMP_SUFFIX_RE = /^(?:[°º˚]?[Cc]|℃|degc|deg|degrees?)$/i;
const FAHRENHEIT_RE = /^(?:[°º˚][Ff]|℉)$/;
const PPM_RE = /^ppm(?:\/(?:[°º˚]?c|℃|k))?$/i;
const ALL_CAPS_RE = /^[A-ZΩ]{2,5}$/u;

interface Suffix {
  unit: SiUnit | null;
  prefix: string | null;
  fahrenheit: boolean;
}

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
export function readSuffix(rest: string, infix: boolean): Suffix | null {
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
  const pc =
    first === 'U' || first === 'µ' || first === 'μ'
      ? 'u'
      : first === 'N'
        ? 'n'
        : first === 'P'
          ? 'p'
          : first === 'K'
            ? 'k'
            : first === 'G'
              ? 'G'
              : first === 'M'
                ? u === 'Hz' || u === 'Ω' || u === 'B' || u === 'bit'
                  ? 'M'
                  : 'm'
                : null;
  return pc === null ? null : { unit: u, prefix: pc, fahrenheit: false };
}

/** One token as a quantity, or null ("100nF", "4k7", "0R", "3V3", "±1%", "-40℃", "1/4W", "10UF"). */
export function parseQty(token: string): Qty | null {
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
    if (m[8] !== undefined && suffix.prefix !== null) return null; // "1/4k": not a thing
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
export function combine(a: Qty, b: Qty, loose: boolean): Range | null {
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
export function parseRangeToken(t: string): Range | null {
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
