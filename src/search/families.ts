/**
 * Whether a part belongs to a part family named in a query ("1.6A 20V mosfets"), judged from its
 * category path (names of every level), or from its description when it has no category. Used by
 * agentic ranking: a query that names a family wants parts of that family first.
 */
import type { PartRecord } from '../catalog/part.ts';
import { GENERIC_FAMILIES, type Family } from './spec-vocabulary.ts';

/** Words of category names (either catalogue's wording) that mark each family. */
const FAMILY_CATEGORY: Record<Family, RegExp> = {
  resistor: /resistor/i,
  potentiometer: /potentiometer|trimmer|variable resistor/i,
  thermistor: /thermistor|\bntc\b|\bptc\b/i,
  varistor: /varistor/i,
  capacitor: /capacitor|mlcc/i,
  inductor: /inductor|choke/i,
  'ferrite bead': /ferrite/i,
  ldo: /\bldo\b|low drop/i,
  regulator: /regulator/i,
  'dc-dc': /dc-dc|dc\/dc|switching regulator|converter/i,
  'voltage reference': /voltage reference/i,
  mosfet: /mosfet/i,
  bjt: /\bbjt\b|bipolar/i,
  transistor: /transistor|mosfet|\bbjt\b|igbt/i,
  igbt: /igbt/i,
  'op amp': /operational amplifier|op amp|opamp/i,
  comparator: /comparator/i,
  amplifier: /amplifier/i,
  diode: /diode|rectifier/i,
  schottky: /schottky/i,
  zener: /zener/i,
  tvs: /\btvs\b|\besd\b|transient|surge/i,
  'bridge rectifier': /bridge/i,
  led: /\bleds?\b|light emitting/i,
  crystal: /crystal|resonator/i,
  oscillator: /oscillator/i,
  mcu: /\bmcus?\b|microcontroller/i,
  memory: /memory|eeprom|flash|sram|dram/i,
  adc: /\badcs?\b|analog to digital|a\/d/i,
  dac: /\bdacs?\b|digital to analog|d\/a/i,
  sensor: /sensor/i,
  optocoupler: /optocoupler|photocoupler|opto/i,
  'gate driver': /gate driv/i,
  fuse: /fuse/i,
  relay: /relay/i,
  connector: /connector|header|terminal|socket/i,
  switch: /switch/i,
  buzzer: /buzzer/i,
  transformer: /transformer/i,
};

/**
 * The families a match is judged on: the specific ones named ("zener diode" -> zener). A generic
 * family alone ("diode", "transistor", "amplifier", "regulator") orders nothing: an LED is a diode
 * too, and the words already score through BM25.
 */
export function familiesToMatch(families: readonly Family[]): Family[] {
  return [...new Set(families.filter((f) => !GENERIC_FAMILIES.has(f)))];
}

/** True when the part is of any of the families (familiesToMatch's result); null when none is named. */
export function inFamily(families: readonly Family[], p: Pick<PartRecord, 'category' | 'description'>): boolean | null {
  if (families.length === 0) return null;
  const text = p.category ? p.category.path.map((c) => c.name).join(' / ') : p.description;
  return families.some((f) => FAMILY_CATEGORY[f].test(text));
}
