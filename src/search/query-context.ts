/**
 * Which family a query is about and which unit a value typed without one has (understand.ts steps 3
 * and 4): the family named first (most specific first), else one inferred from the values; the unit of
 * a bare value from a memory word beside it, else from its prefix and the family.
 */
import type { SiUnit } from '../catalog/units.ts';
import type { Item, Scan, Tok } from './query-scan.ts';
import { CONTEXT_BARE_UNIT, family, GENERIC_FAMILIES, type Family } from '../vocabulary/families.ts';
import { QUALIFIERS } from '../vocabulary/qualifiers.ts';

const RESISTOR = family('resistor');
const POTENTIOMETER = family('potentiometer');
const CAPACITOR = family('capacitor');
const INDUCTOR = family('inductor');
const MCU = family('mcu');

const DEFAULT_PREFIX_UNIT: ReadonlyMap<string, SiUnit> = new Map<string, SiUnit>([
  ['p', 'F'],
  ['n', 'F'],
  ['u', 'F'],
  ['k', 'Ω'],
  ['M', 'Ω'],
]);
/** Prefixes that make sense for a unit inferred from a family context. */
const PLAUSIBLE_PREFIXES: Readonly<Partial<Record<SiUnit, string>>> = {
  Ω: 'mkMG',
  F: 'pnum',
  H: 'pnum',
  Hz: 'kMG',
};

/** The unit of a value typed without one, from its prefix and the family, or null (not a quantity in this context). */
export function inferUnit(q: { prefix: string | null; rNote: boolean }, ctx: Family | null, explicit: boolean): SiUnit | null {
  const bare = explicit && ctx !== null ? (CONTEXT_BARE_UNIT[ctx] ?? null) : null;
  if (q.rNote) return bare === 'H' ? 'H' : 'Ω';
  if (q.prefix === null) return explicit && (ctx === RESISTOR || ctx === POTENTIOMETER) ? 'Ω' : null; // "220 resistor"
  if (bare !== null && (PLAUSIBLE_PREFIXES[bare] ?? '').includes(q.prefix)) return bare;
  return DEFAULT_PREFIX_UNIT.get(q.prefix) ?? null;
}

/**
 * The unit of an item typed without one: a size when a memory word stands beside it (no prefix, or
 * k/M/G): bytes for RAM and for a microcontroller's memories ("256K flash, 32K SRAM", "4352 ram"),
 * bits for a memory chip ("eeprom 2K", "spi flash 16M": memory chips are sized in bits); otherwise
 * inferUnit's reading.
 */
export function bareValueUnit(
  toks: readonly Tok[],
  it: Item,
  q: { prefix: string | null; rNote: boolean },
  ctx: Family | null,
  explicit: boolean,
): SiUnit | null {
  if (q.prefix === null || 'kKMG'.includes(q.prefix)) {
    for (const k of [it.end + 1, it.start - 1]) {
      const t = toks[k];
      if (t === undefined || t.state === 'used' || QUALIFIERS.get(t.low)?.B === undefined) continue;
      return ctx === MCU || t.low === 'ram' || t.low === 'sram' ? 'B' : 'bit';
    }
  }
  return inferUnit(q, ctx, explicit);
}

/** The family that decides what the query's values mean: the first specific one named, else the first. */
export function pickContext(families: readonly Family[]): Family | null {
  for (const f of families) if (!GENERIC_FAMILIES.has(f)) return f;
  return families[0] ?? null;
}

/** Context inferred from the values when the query names no family. */
export function inferContext(s: Scan): Family | null {
  for (const v of s.values) if (v.word.implies !== undefined && v.word.requires === undefined) return v.word.implies;
  const typed = new Set<SiUnit>();
  let untyped: SiUnit | null = null;
  for (const it of s.items) {
    const u = it.single?.unit ?? it.range?.unit ?? null;
    if (u !== null) typed.add(u);
    else if (untyped === null) untyped = inferUnit(it.single ?? { prefix: it.range?.prefix ?? null, rNote: false }, null, false);
  }
  if (typed.has('F')) return CAPACITOR;
  if (typed.has('H')) return INDUCTOR;
  if (typed.has('Ω')) return RESISTOR;
  // A clock and a memory size ("80MHz 128KB"): a microcontroller, so the size is its program memory.
  if (typed.has('Hz') && typed.has('B')) return MCU;
  if (untyped === 'F') return CAPACITOR;
  if (untyped === 'Ω') return RESISTOR;
  return null;
}
