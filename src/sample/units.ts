/**
 * Value formatting in catalogue style ("10kΩ", "100nF", "2.2uH", "±1%", "-40℃~+85℃")
 * and the part-number value codes manufacturers use ("104", "4R7", "10K0").
 */

export interface Spec {
  name: string;
  value: string;
  num?: number;
  unit?: string;
}

export const E6 = [1.0, 1.5, 2.2, 3.3, 4.7, 6.8] as const;
export const E12 = [1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2] as const;
export const E24 = [1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1] as const;

/** Removes binary floating-point noise: 4.7 * 1e-6 -> 0.0000047. */
export function clean(n: number): number {
  return parseFloat(n.toPrecision(12));
}

/** mantissa x 10^exp without floating-point noise. */
export function scaled(mantissa: number, exp: number): number {
  return clean(parseFloat(`${mantissa}e${exp}`));
}

/** Values of a series over decades: series(E12, 0, 2) -> 1, 1.2, ... 820. */
export function series(base: readonly number[], fromExp: number, toExp: number): number[] {
  const out: number[] = [];
  for (let e = fromExp; e <= toExp; e++) for (const m of base) out.push(scaled(m, e));
  return out;
}

const PREFIXES: readonly (readonly [number, string])[] = [
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
  [1, ''],
  [1e-3, 'm'],
  [1e-6, 'u'],
  [1e-9, 'n'],
  [1e-12, 'p'],
];

function trimNumber(n: number): string {
  return String(parseFloat(n.toPrecision(6)));
}

/** Engineering notation the way catalogues display it: si(10000, 'Ω') -> "10kΩ", si(1e-7, 'F') -> "100nF". */
export function si(num: number, unit: string): string {
  if (num === 0) return `0${unit}`;
  const abs = Math.abs(num);
  for (const [factor, prefix] of PREFIXES) {
    if (abs >= factor * 0.999999) return `${trimNumber(num / factor)}${prefix}${unit}`;
  }
  return `${trimNumber(num / 1e-12)}p${unit}`;
}

/** A measured spec: display string plus the SI number and unit. */
export function q(name: string, num: number, unit: string, display?: string): Spec {
  return { name, value: display ?? si(num, unit), num: clean(num), unit };
}

/** A text-only spec (no number). */
export function t(name: string, value: string): Spec {
  return { name, value };
}

/** "±1%" with num 1, unit "%". */
export function pct(name: string, p: number): Spec {
  return { name, value: `±${p}%`, num: p, unit: '%' };
}

function degrees(c: number): string {
  return c > 0 ? `+${c}℃` : `${c}℃`;
}

/** "-40℃~+85℃" (ranges carry no num). */
export function tempRange(lo: number, hi: number): string {
  return `${degrees(lo)}~${degrees(hi)}`;
}

export function opTemp(lo: number, hi: number, name = 'Operating Temperature'): Spec {
  return t(name, tempRange(lo, hi));
}

/** "2.7V~3.6V" (ranges carry no num). */
export function vRange(lo: number, hi: number): string {
  return `${si(lo, 'V')}~${si(hi, 'V')}`;
}

/** Two significant digits plus a multiplier digit, for a value in base units: code3(100000) -> "104". */
export function code3(value: number): string {
  const exp = Math.floor(Math.log10(value) + 1e-9) - 1;
  const sig = Math.round(value / 10 ** exp);
  return `${sig}${exp}`;
}

/** Values below 10 with "R" as the decimal point: 4.7 -> "4R7", 1 -> "1R0". */
function rNotation(v: number): string {
  const s = trimNumber(v);
  return s.includes('.') ? s.replace('.', 'R') : `${s}R0`;
}

/** EIA capacitance code from farads: 1e-7 -> "104", 4.7e-12 -> "4R7". */
export function capCode(farads: number): string {
  const pf = clean(farads * 1e12);
  return pf < 10 ? rNotation(pf) : code3(pf);
}

/** Inductance code in uH: 2.2e-6 -> "2R2", 1e-5 -> "100", 4.7e-7 -> "R47". */
export function inductorCode(henries: number): string {
  const uh = clean(henries * 1e6);
  if (uh < 1) return `R${String(Math.round(uh * 100)).padStart(2, '0')}`;
  return uh < 10 ? rNotation(uh) : code3(uh);
}

/** R/K/M decimal-marker code: 4700 -> "4K7", 10000 -> "10K", 100 -> "100R", 4.7 -> "4R7". */
export function rkmCode(ohms: number, digits?: number): string {
  const [div, mark] = ohms >= 1e6 ? [1e6, 'M'] : ohms >= 1e3 ? [1e3, 'K'] : [1, 'R'];
  let s = trimNumber(ohms / div);
  if (digits !== undefined) {
    const [intPart, frac = ''] = s.split('.');
    const need = Math.max(0, digits - intPart!.length);
    s = need > 0 ? `${intPart}.${frac.padEnd(need, '0')}` : intPart!;
  }
  return s.includes('.') ? s.replace('.', mark) : `${s}${mark}`;
}

export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const FIXED_PINS: Record<string, number> = {
  'SOT-23': 3,
  'SOT-323': 3,
  'SOT-523': 3,
  'SC-70': 3,
  'TO-92': 3,
  'TO-220AB': 3,
  'SOT-223': 4,
  'SOT-89': 3,
  'TO-252-2(DPAK)': 3,
  'TO-263-2(D2PAK)': 3,
  'SOT-563': 6,
  'SOD-123': 2,
  'SOD-323': 2,
  'SOD-523': 2,
  'SOD-123F': 2,
};

/** Pin count from a package name: "SOIC-8" -> 8, "0603" -> 2, "SOT-23-5" -> 5. */
export function pinsOf(pkg: string): number {
  const fixed = FIXED_PINS[pkg];
  if (fixed !== undefined) return fixed;
  if (/^\d{4}$/.test(pkg) || /^(SMA|SMB|SMC|DO-|LL-|CASE-|SMD,)/.test(pkg)) return 2;
  const m = /-(\d+)(?:\([^)]*\))?$/.exec(pkg) ?? /(\d+)P$/.exec(pkg);
  return m ? Number(m[1]) : 2;
}
