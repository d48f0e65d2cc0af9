import { beforeAll, describe, expect, it } from 'vitest';
import { normaliseSpec } from '../../src/catalog/normalise.ts';
import type { DumpPart, PartSpec } from '../../src/catalog/part.ts';
import type { SiUnit } from '../../src/catalog/units.ts';
import { generateSampleCatalogue } from '../../src/sample/generate.ts';
import { evaluate, holdsValue, meetsTarget, satisfies } from '../../src/search/spec-match.ts';
import { understand, understandQuery, type QueryUnderstanding, type SpecConstraint, type ValueConstraint } from '../../src/search/understand.ts';
import { constraintScore, exactValueHits, packageExact, targetHits, valueHits } from '../../src/search/ranking-keys.ts';
import type { PartRecord } from '../../src/catalog/part.ts';

// ---------------------------------------------------------------- helpers

function near(a: number, b: number): boolean {
  if (!Number.isFinite(b)) return a === b;
  if (b === 0) return Math.abs(a) < 1e-300;
  return Math.abs(a - b) <= 1e-9 * Math.abs(b);
}

interface SpecRow {
  /** attributes[0] */
  attribute: string;
  kind: SpecConstraint['kind'];
  value: number;
  unit?: SiUnit;
  lo?: number;
  hi?: number;
  source?: string;
  /** another attribute the list must contain */
  alsoNamed?: string;
}
interface ValueRow { attribute: string; values: string[]; source?: string }
interface Row {
  q: string;
  specs?: SpecRow[];
  values?: ValueRow[];
  packages?: string[];
  families?: string[];
  mpns?: string[];
  terms?: string[];
}

function checkSpec(u: QueryUnderstanding, got: SpecConstraint | undefined, want: SpecRow): void {
  const label = `${u.text} -> ${want.attribute}`;
  expect(got, label).toBeDefined();
  const c = got as SpecConstraint;
  expect(c.attributes[0], label).toBe(want.attribute);
  expect(c.kind, label).toBe(want.kind);
  expect(near(c.value, want.value), `${label}: value ${c.value} != ${want.value}`).toBe(true);
  if (want.unit !== undefined) expect(c.unit, label).toBe(want.unit);
  if (want.lo !== undefined) expect(near(c.lo, want.lo), `${label}: lo ${c.lo} != ${want.lo}`).toBe(true);
  if (want.hi !== undefined) expect(near(c.hi, want.hi), `${label}: hi ${c.hi} != ${want.hi}`).toBe(true);
  if (want.source !== undefined) expect(c.source, label).toBe(want.source);
  if (want.alsoNamed !== undefined) expect(c.attributes, label).toContain(want.alsoNamed);
  // window consistency for every kind
  if (c.kind === 'at_least') expect([c.lo, c.hi], label).toEqual([c.value, Infinity]);
  if (c.kind === 'at_most') expect([c.lo, c.hi], label).toEqual([-Infinity, c.value]);
  if (c.kind === 'equals') expect(c.lo <= c.value && c.value <= c.hi, label).toBe(true);
}

function checkRow(row: Row): void {
  const u = understandQuery(row.q);
  expect(u.text).toBe(row.q);
  if (row.specs !== undefined) {
    expect(u.specs.map((s) => `${s.attributes[0]} ${s.kind} ${s.value}`), row.q).toHaveLength(row.specs.length);
    row.specs.forEach((want, i) => checkSpec(u, u.specs[i], want));
  }
  if (row.values !== undefined) {
    expect(u.values.map((v) => [v.attributes[0], v.values]), row.q).toEqual(row.values.map((v) => [v.attribute, v.values]));
    row.values.forEach((v, i) => { if (v.source !== undefined) expect(u.values[i]?.source, row.q).toBe(v.source); });
  }
  if (row.packages !== undefined) expect(u.packages, row.q).toEqual(row.packages);
  if (row.families !== undefined) expect(u.families, row.q).toEqual(row.families);
  if (row.mpns !== undefined) expect(u.mpns, row.q).toEqual(row.mpns);
  if (row.terms !== undefined) expect(u.terms, row.q).toEqual(row.terms);
}

const tol = (p: string): ValueRow => ({ attribute: 'tolerance', values: [p] });
const dielectric = (...values: string[]): ValueRow => ({ attribute: 'temperature_coefficient', values });

// ---------------------------------------------------------------- the query table

const ROWS: Row[] = [
  {
    q: '10k 0603 1% resistor',
    specs: [{ attribute: 'resistance', kind: 'equals', value: 10_000, unit: 'Ω', lo: 9_900, hi: 10_100, source: '10k' }],
    values: [{ ...tol('±1%'), source: '1%' }], packages: ['0603'], families: ['resistor'], mpns: [], terms: ['resistor'],
  },
  {
    q: '100nF 50V X7R',
    specs: [
      { attribute: 'capacitance', kind: 'equals', value: 1e-7, unit: 'F', lo: 9.9e-8, hi: 1.01e-7, source: '100nF' },
      { attribute: 'voltage_rating', kind: 'at_least', value: 50, unit: 'V', source: '50V' },
    ],
    values: [{ ...dielectric('X7R'), source: 'X7R' }], packages: [], families: [], mpns: [], terms: [],
  },
  {
    q: '3.3V LDO SOT-23-5',
    specs: [{ attribute: 'output_voltage', kind: 'equals', value: 3.3, unit: 'V', lo: 3.267, hi: 3.333, source: '3.3V' }],
    values: [], packages: ['SOT-23-5'], families: ['ldo'], mpns: [], terms: ['ldo'],
  },
  {
    q: '4u7 16V',
    specs: [
      { attribute: 'capacitance', kind: 'equals', value: 4.7e-6, unit: 'F', source: '4u7' },
      { attribute: 'voltage_rating', kind: 'at_least', value: 16, unit: 'V', source: '16V' },
    ],
    packages: [], families: [], mpns: [], terms: [],
  },
  { q: '4k7', specs: [{ attribute: 'resistance', kind: 'equals', value: 4_700, unit: 'Ω' }], mpns: [], terms: [] },
  { q: '0R 0402', specs: [{ attribute: 'resistance', kind: 'equals', value: 0, unit: 'Ω', lo: 0, hi: 0 }], packages: ['0402'] },
  {
    q: '2.2uH inductor 1A',
    specs: [
      { attribute: 'inductance', kind: 'equals', value: 2.2e-6, unit: 'H' },
      { attribute: 'current_rating', kind: 'at_least', value: 1, unit: 'A' },
    ],
    families: ['inductor'], terms: ['inductor'],
  },
  {
    q: '16MHz crystal',
    specs: [{ attribute: 'frequency', kind: 'equals', value: 16e6, unit: 'Hz', lo: 15.84e6, hi: 16.16e6 }],
    families: ['crystal'], terms: ['crystal'],
  },
  {
    q: '30V 5A N-channel MOSFET SOT-23',
    specs: [
      { attribute: 'drain_source_voltage', kind: 'at_least', value: 30, unit: 'V' },
      { attribute: 'drain_current', kind: 'at_least', value: 5, unit: 'A' },
    ],
    values: [{ attribute: 'type', values: ['N-Channel'], source: 'N-channel' }],
    packages: ['SOT-23'], families: ['mosfet'], mpns: [], terms: ['mosfet'],
  },
  { q: '470k HV', specs: [{ attribute: 'resistance', kind: 'equals', value: 470_000 }], terms: ['hv'], mpns: [] },
  { q: '16k', specs: [{ attribute: 'resistance', kind: 'equals', value: 16_000 }] },
  { q: '0603', specs: [], packages: ['0603'], mpns: [], terms: [] },
  {
    q: '1206 resistor 220',
    specs: [{ attribute: 'resistance', kind: 'equals', value: 220, unit: 'Ω', source: '220' }],
    packages: ['1206'], families: ['resistor'], terms: ['resistor'],
  },
  {
    q: '-40 to 85C',
    specs: [
      { attribute: 'operating_temperature', kind: 'at_most', value: -40, unit: '℃', source: '-40 to 85C' },
      { attribute: 'operating_temperature', kind: 'at_least', value: 85, unit: '℃', source: '-40 to 85C' },
    ],
    terms: [],
  },
  { q: 'LM358', specs: [], mpns: ['LM358'], terms: ['lm358'], packages: [] },
  { q: 'STM32F103C8T6', mpns: ['STM32F103C8T6'], specs: [], packages: [] },
  { q: 'GRM188R71H104KA93D', mpns: ['GRM188R71H104KA93D'], specs: [], values: [] },
  { q: '1n4148 diode', mpns: ['1N4148'], specs: [], families: ['diode'] },
  { q: '2N7002 SOT23', mpns: ['2N7002'], packages: ['SOT-23'], specs: [] },
  { q: 'AMS1117-3.3 LDO', mpns: ['AMS111733'], families: ['ldo'], specs: [] },
  {
    q: '>= 25V 10uF 0805 X5R',
    specs: [
      { attribute: 'voltage_rating', kind: 'at_least', value: 25, source: '25V' },
      { attribute: 'capacitance', kind: 'equals', value: 1e-5 },
    ],
    values: [dielectric('X5R')], packages: ['0805'],
  },
  {
    q: '10uF 25V max',
    specs: [{ attribute: 'capacitance', kind: 'equals', value: 1e-5 }, { attribute: 'voltage_rating', kind: 'at_most', value: 25 }],
    terms: [],
  },
  {
    q: 'LDO 5V to 3.3V 500mA',
    specs: [
      { attribute: 'max_input_voltage', kind: 'at_least', value: 5, source: '5V to 3.3V' },
      { attribute: 'output_voltage', kind: 'equals', value: 3.3, source: '5V to 3.3V' },
      { attribute: 'output_current', kind: 'at_least', value: 0.5, source: '500mA' },
    ],
    families: ['ldo'],
  },
  {
    q: '12V to 5V buck converter 2A',
    specs: [
      { attribute: 'max_input_voltage', kind: 'at_least', value: 12 },
      { attribute: 'output_voltage', kind: 'equals', value: 5 },
      { attribute: 'output_current', kind: 'at_least', value: 2 },
    ],
    values: [{ attribute: 'topology', values: ['Buck', 'Step-down'] }], families: ['dc-dc'], terms: ['converter'],
  },
  {
    q: 'mcu 2.7-5.5V 64KB flash 72MHz',
    specs: [
      { attribute: 'supply_voltage', kind: 'at_most', value: 2.7 },
      { attribute: 'supply_voltage', kind: 'at_least', value: 5.5 },
      { attribute: 'program_memory_size', kind: 'at_least', value: 64_000, unit: 'B' },
      { attribute: 'cpu_speed', kind: 'at_least', value: 72e6, unit: 'Hz' },
    ],
    families: ['mcu'], terms: ['mcu'],
  },
  {
    q: '100R 1/4W',
    specs: [
      { attribute: 'resistance', kind: 'equals', value: 100, source: '100R' },
      { attribute: 'power_rating', kind: 'at_least', value: 0.25, unit: 'W', alsoNamed: 'power' },
    ],
  },
  {
    q: '32.768k crystal 12.5pF ±20ppm',
    specs: [
      { attribute: 'frequency', kind: 'equals', value: 32_768, unit: 'Hz' },
      { attribute: 'load_capacitance', kind: 'equals', value: 12.5e-12, unit: 'F' },
      { attribute: 'frequency_tolerance', kind: 'at_most', value: 20, unit: 'ppm' },
    ],
    values: [],
  },
  { q: '4R7 inductor', specs: [{ attribute: 'inductance', kind: 'equals', value: 4.7e-6, unit: 'H', source: '4R7' }] },
  {
    q: 'zener 5.1V 500mW SOD-123',
    specs: [
      { attribute: 'zener_voltage', kind: 'equals', value: 5.1 },
      { attribute: 'power_dissipation', kind: 'at_least', value: 0.5 },
    ],
    packages: ['SOD-123'], families: ['zener'],
  },
  {
    q: 'red LED 0603 20mA',
    specs: [{ attribute: 'forward_current', kind: 'at_least', value: 0.02 }],
    values: [{ attribute: 'emitted_color', values: ['Red'] }], packages: ['0603'], families: ['led'], terms: ['led'],
  },
  {
    q: 'schottky diode 40V 3A SMA',
    specs: [
      { attribute: 'reverse_voltage', kind: 'at_least', value: 40, alsoNamed: 'max_reverse_voltage' },
      { attribute: 'rectified_current', kind: 'at_least', value: 3 },
    ],
    packages: ['SMA'], families: ['schottky', 'diode'],
  },
  {
    q: 'C0G(NP0) 10pF 0402',
    specs: [{ attribute: 'capacitance', kind: 'equals', value: 1e-11 }],
    values: [dielectric('C0G', 'NP0')], packages: ['0402'], terms: [],
  },
  { q: 'cog 22pf', specs: [{ attribute: 'capacitance', kind: 'equals', value: 22e-12 }], values: [dielectric('C0G', 'NP0')] },
  {
    q: '600R ferrite bead 0603',
    specs: [{ attribute: 'impedance', kind: 'equals', value: 600, unit: 'Ω' }],
    families: ['ferrite bead'], packages: ['0603'],
  },
  {
    q: 'Rds(on) < 10mΩ mosfet',
    specs: [{ attribute: 'rds_on', kind: 'at_most', value: 0.01 }],
    terms: ['mosfet'],
  },
  {
    q: 'esr 10mΩ 100uF',
    specs: [{ attribute: 'esr', kind: 'at_most', value: 0.01 }, { attribute: 'capacitance', kind: 'equals', value: 1e-4 }],
    terms: [],
  },
  {
    q: '10kΩ±1% 0402',
    specs: [{ attribute: 'resistance', kind: 'equals', value: 10_000, source: '10kΩ' }],
    values: [{ ...tol('±1%'), source: '±1%' }], packages: ['0402'],
  },
  {
    q: '± 5% 10 k',
    specs: [{ attribute: 'resistance', kind: 'equals', value: 10_000, lo: 9_500, hi: 10_500, source: '10 k' }],
    values: [{ ...tol('±5%'), source: '± 5%' }],
  },
  { q: '1M 0.1% 1206', specs: [{ attribute: 'resistance', kind: 'equals', value: 1e6, lo: 999_000, hi: 1_001_000 }], values: [tol('±0.1%')] },
  {
    q: '100 nF 50 V',
    specs: [{ attribute: 'capacitance', kind: 'equals', value: 1e-7, source: '100 nF' }, { attribute: 'voltage_rating', kind: 'at_least', value: 50, source: '50 V' }],
  },
  {
    q: '１００ｎＦ　５０Ｖ',
    specs: [{ attribute: 'capacitance', kind: 'equals', value: 1e-7 }, { attribute: 'voltage_rating', kind: 'at_least', value: 50 }],
  },
  { q: '0,1uF', specs: [{ attribute: 'capacitance', kind: 'equals', value: 1e-7 }] },
  { q: '1,000uF 35V electrolytic', specs: [{ attribute: 'capacitance', kind: 'equals', value: 1e-3 }, { attribute: 'voltage_rating', kind: 'at_least', value: 35 }], families: ['capacitor'] },
  { q: '3V3 LDO', specs: [{ attribute: 'output_voltage', kind: 'equals', value: 3.3 }] },
  { q: '100MA LDO', specs: [{ attribute: 'output_current', kind: 'at_least', value: 0.1 }] },
  { q: '10UF 25V', specs: [{ attribute: 'capacitance', kind: 'equals', value: 1e-5 }, { attribute: 'voltage_rating', kind: 'at_least', value: 25 }] },
  { q: '16mhz', specs: [{ attribute: 'frequency', kind: 'equals', value: 16e6 }] },
  {
    q: 'npn transistor 40V 200mA SOT-23',
    specs: [
      { attribute: 'collector_emitter_voltage', kind: 'at_least', value: 40 },
      { attribute: 'collector_current', kind: 'at_least', value: 0.2 },
    ],
    values: [{ attribute: 'type', values: ['NPN'] }], families: ['bjt', 'transistor'], packages: ['SOT-23'], terms: ['transistor'],
  },
  { q: '5V relay', specs: [{ attribute: 'coil_voltage', kind: 'equals', value: 5 }], families: ['relay'] },
  {
    q: '90% efficiency buck 3A',
    specs: [{ attribute: 'efficiency', kind: 'at_least', value: 90, unit: '%' }, { attribute: 'output_current', kind: 'at_least', value: 3 }],
    terms: [],
  },
  { q: '2.54mm header', specs: [{ attribute: 'pitch', kind: 'equals', value: 0.00254, unit: 'm' }], families: ['connector'] },
  { q: '12bit adc', specs: [{ attribute: 'resolution', kind: 'at_least', value: 12, unit: 'bit' }], families: ['adc'] },
  {
    q: '-40°C ~ +125°C',
    specs: [{ attribute: 'operating_temperature', kind: 'at_most', value: -40 }, { attribute: 'operating_temperature', kind: 'at_least', value: 125 }],
  },
  {
    q: '125C electrolytic 100uF',
    specs: [{ attribute: 'operating_temperature', kind: 'at_least', value: 125 }, { attribute: 'capacitance', kind: 'equals', value: 1e-4 }],
  },
  {
    q: '470k 200V 1206',
    specs: [{ attribute: 'resistance', kind: 'equals', value: 470_000 }, { attribute: 'voltage_rating', kind: 'at_least', value: 200, alsoNamed: 'overload_voltage' }],
    packages: ['1206'],
  },
  {
    q: 'mcu 3.3V 8KB RAM',
    specs: [{ attribute: 'supply_voltage', kind: 'equals', value: 3.3 }, { attribute: 'ram_size', kind: 'at_least', value: 8_000 }],
    terms: ['mcu'],
  },
  {
    q: 'lm317 adjustable regulator TO-220',
    specs: [], values: [{ attribute: 'output_type', values: ['Adjustable'] }], packages: ['TO-220'], mpns: ['LM317'],
    families: ['regulator'], terms: ['lm317', 'regulator'],
  },
  { q: 'qfn32 soic8 sot-23-6 to220ab do214ac', packages: ['QFN-32', 'SOIC-8', 'SOT-23-6', 'TO-220AB', 'DO-214AC'], mpns: [], specs: [] },
  { q: 'at least 100uF', specs: [{ attribute: 'capacitance', kind: 'at_least', value: 1e-4, source: '100uF' }], terms: [] },
];

describe('understandQuery: realistic queries', () => {
  it('has a table of at least 30 queries', () => expect(ROWS.length).toBeGreaterThanOrEqual(30));
  it.each(ROWS.map((r) => [r.q, r] as const))('%s', (_q, row) => checkRow(row));
});

describe('understandQuery: engineering-notation traps', () => {
  const specOf = (q: string) => understandQuery(q).specs;

  it('reads chip sizes as packages, never as values', () => {
    for (const size of ['0201', '0402', '0603', '0805', '1206', '1210', '2512']) {
      const u = understandQuery(`${size} 10k`);
      expect(u.packages).toEqual([size]);
      expect(u.specs.map((s) => s.value)).toEqual([10_000]);
      expect(u.mpns).toEqual([]);
    }
  });

  it('infers the unit of a bare prefixed value: u/n/p -> F, k/R/M -> Ω', () => {
    expect(specOf('4u7')[0]).toMatchObject({ attributes: ['capacitance'], unit: 'F', value: 4.7e-6 });
    expect(specOf('100n')[0]).toMatchObject({ unit: 'F', value: 1e-7 });
    expect(specOf('22p')[0]).toMatchObject({ unit: 'F', value: 22e-12 });
    expect(specOf('4k7')[0]).toMatchObject({ unit: 'Ω', value: 4700 });
    expect(specOf('2M2')[0]).toMatchObject({ unit: 'Ω', value: 2.2e6 });
    expect(specOf('R047')[0]).toMatchObject({ unit: 'Ω', value: 0.047 });
    expect(specOf('0R')[0]).toMatchObject({ unit: 'Ω', value: 0 });
  });

  it('lets a named family decide the unit of a bare value', () => {
    expect(specOf('10u inductor')[0]).toMatchObject({ attributes: ['inductance'], value: 1e-5 });
    expect(specOf('16M crystal')[0]).toMatchObject({ attributes: ['frequency'], value: 16e6 });
    expect(specOf('10m shunt resistor')[0]).toMatchObject({ attributes: ['resistance'], value: 0.01 });
    expect(specOf('220 capacitor')).toEqual([]);                       // a bare number is only a resistance
    expect(understandQuery('220 capacitor').terms).toEqual(['220', 'capacitor']);
    expect(specOf('1m')).toEqual([]);                                   // milli-what?
    expect(understandQuery('ntc 10k 3950').terms).toEqual(['ntc', '3950']); // a B-value, not 3950 Ω
    expect(specOf('10k 220').map((c) => c.value)).toEqual([10_000]);   // an inferred context never types a bare number
  });

  it('keeps letter-only package codes as words in a connector context', () => {
    expect(understandQuery('SMA connector')).toMatchObject({ packages: [], terms: ['sma', 'connector'] });
    expect(understandQuery('SMA diode 40V')).toMatchObject({ packages: ['SMA'], terms: ['diode'] });
  });

  it('tells two quantities of one unit apart by magnitude where the family has two such specs', () => {
    const roles = (q: string) => understandQuery(q).specs.map((c) => `${c.attributes[0]} ${c.kind} ${c.value}`);
    expect(roles('35V 12V TO-252 ldo')).toEqual(['max_input_voltage at_least 35', 'output_voltage equals 12']);
    expect(roles('11.2V 6.5V tvs')).toEqual(['clamping_voltage at_most 11.2', 'standoff_voltage equals 6.5']);
    expect(roles('100mA 300mA 0603 resettable fuse')).toEqual(['hold_current equals 0.1', 'trip_current equals 0.3']);
    expect(roles('3.75kV 1.25V optocoupler')).toEqual(['isolation_voltage at_least 3750', 'forward_voltage equals 1.25']);
    // A qualifier, a range or a single value keeps its own reading.
    expect(roles('input 12V 5V ldo')).toEqual(['max_input_voltage at_least 12', 'output_voltage equals 5']);
    expect(roles('output 12V 5V ldo')).toEqual(['output_voltage equals 12', 'output_voltage equals 5']); // the qualifier stands
    expect(roles('hold 300mA 100mA fuse')).toEqual(['hold_current equals 0.3', 'hold_current equals 0.1']);
    expect(roles('12V 5V 1A ldo')).toEqual(['max_input_voltage at_least 12', 'output_voltage equals 5', 'output_current at_least 1']);
    expect(roles('5V to 3.3V LDO')).toEqual(['max_input_voltage at_least 5', 'output_voltage equals 3.3']);
    expect(roles('3.3V LDO')).toEqual(['output_voltage equals 3.3']);
  });

  it('reads an op amp quantity by its size: offset voltage, input bias or quiescent current', () => {
    const roles = (q: string) => understandQuery(q).specs.map((c) => `${c.attributes[0]} ${c.kind} ${c.value}`);
    expect(roles('10pA 5uV op amp')).toEqual(['input_bias_current at_most 1e-11', 'input_offset_voltage at_most 0.000005']);
    expect(roles('1uA 1.6mV operational amplifier')).toEqual(['quiescent_current at_most 0.000001', 'input_offset_voltage at_most 0.0016']);
    expect(roles('op amp 20mA 5V')).toEqual(['output_current at_least 0.02', 'supply_voltage equals 5']);
  });

  it('reads a diode current under 1 mA as its reverse leakage, and a value with test conditions as the value', () => {
    const roles = (q: string) => understandQuery(q).specs.map((c) => `${c.attributes[0]} ${c.kind} ${c.value}`);
    expect(roles('500mW 100nA@16V SOD-80 zener diodes')).toEqual(['power_dissipation at_least 0.5', 'reverse_leakage_current at_most 1e-7']);
    expect(roles('1A 10uA@200V DFM bridge rectifiers')).toEqual(['rectified_current at_least 1', 'reverse_leakage_current at_most 0.00001']);
    expect(roles('500nA 3.3V esd')).toEqual(['reverse_leakage_current at_most 5e-7', 'standoff_voltage equals 3.3']);
    expect(roles('2A schottky')).toEqual(['rectified_current at_least 2']);
    // "3.8ns@5V,50pF": a propagation delay measured at 5 V into 50 pF, not a 50 pF constraint
    expect(roles('32mA 3.8ns@5V,50pF gates')).toEqual(['output_current_low at_least 0.032', 'propagation_delay at_most 3.8e-9']);
    expect(understandQuery('2V@(500mA) ldo').specs.map((c) => c.value)).toEqual([2]);
    // spaced conditions; a condition ends at a comma not followed by a digit, ";" or a space
    expect(roles('100nA @ 16V zener')).toEqual(['reverse_leakage_current at_most 1e-7']);
    expect(roles('100nA @16V zener')).toEqual(['reverse_leakage_current at_most 1e-7']);
    expect(understandQuery('100nA@16V,SOD-323 zener').packages).toEqual(['SOD-323']);
    expect(understandQuery('1uA@5V;SOD-123 zener').packages).toEqual(['SOD-123']);
    expect(understandQuery('10uF@25V,0805 capacitor').packages).toEqual(['0805']);      // a chip size is not a condition
    expect(understandQuery('1A @ SOT-23 diode').packages).toEqual(['SOT-23']);          // nor a package after a spaced "@"
    expect(roles('2V@(500 mA) ldo')).toEqual(['output_voltage equals 2']);
    // "logic" is a generic family: a named family decides the reading
    expect(roles('10mA logic output optocoupler')).toEqual(['forward_current at_least 0.01']);
    expect(roles('2.5V 10mA voltage references')).toEqual(['output_voltage equals 2.5', 'output_current at_least 0.01']);
  });

  it('reads more package spellings: body widths, crystal outlines, letter codes', () => {
    const pk = (q: string) => understandQuery(q).packages;
    expect(pk('3.75kV SOP-16-4.4mm optocoupler')).toEqual(['SOP-16-4.4MM']);
    expect(pk('20MHz 20pF SMD3225-4P crystals')).toEqual(['SMD3225-4P']);
    expect(pk('1A DFM bridge rectifier')).toEqual(['DFM']);
    expect(pk('2.2uH 0806 inductor')).toEqual(['0806']);
    expect(pk('smd 0805 resistor')).toEqual(['0805']);                // "smd" is not joined with a chip size
    expect(pk('smd0805 10k')).toEqual(['0805']);                      // nor kept in front of one
  });

  it('decides what a voltage means from the family', () => {
    const first = (q: string) => specOf(q).find((s) => s.unit === 'V');
    expect(first('3.3V LDO')).toMatchObject({ kind: 'equals', attributes: expect.arrayContaining(['output_voltage']) });
    expect(first('16V capacitor')).toMatchObject({ kind: 'at_least', attributes: expect.arrayContaining(['voltage_rating', 'voltage']) });
    expect(first('30V mosfet')?.attributes[0]).toBe('drain_source_voltage');
    expect(first('40V schottky')?.attributes[0]).toBe('reverse_voltage');
    expect(first('3.3V mcu')?.attributes[0]).toBe('supply_voltage');
    expect(first('vin 12V')?.attributes[0]).toBe('max_input_voltage');    // qualifier word beats context
    expect(first('12V input LDO')?.attributes[0]).toBe('max_input_voltage');
  });

  it('keeps MPNs apart from values, packages and dielectrics', () => {
    const u = understandQuery('LM358 STM32F103C8T6 GRM188R71H104KA93D 0603 X7R SOT-23 10k 100nF 50V AEC-Q200 2000mAh 4x4mm');
    expect(u.mpns).toEqual(['LM358', 'STM32F103C8T6', 'GRM188R71H104KA93D']);
    expect(u.packages).toEqual(['0603', 'SOT-23']);
    for (const q of ['0603', 'X7R', 'SOT-23', '10k', '100nF', '50V', 'x7r', 'C0G', 'USB2.0', 'RS485', 'IP67', 'E24']) {
      expect(understandQuery(q).mpns, q).toEqual([]);
    }
    for (const [q, key] of [['lm358', 'LM358'], ['1N4148', '1N4148'], ['2n7002', '2N7002'], ['74HC595', '74HC595'], ['MCP6002T-I/SN', 'MCP6002TISN']]) {
      expect(understandQuery(q as string).mpns, q).toEqual([key]);
      expect(understandQuery(q as string).specs, q).toEqual([]);
    }
  });

  it('reads "dual"/"quad" as the number of channels of a counted family, and matches it as catalogues write it', () => {
    const countOf = (q: string) => understandQuery(q).values.find((v) => v.attributes.includes('number_of_channels'));
    const dual = countOf('dual op amp')!;
    expect(dual.values).toContain('2');
    expect(countOf('quad comparator')!.values).toContain('4');
    expect(countOf('dual n-channel mosfet')).toBeDefined();
    expect(countOf('quad analog switch')).toBeDefined();
    expect(understandQuery('dual n-channel mosfet').values.map((v) => v.values[0])).toEqual(['2', 'N-Channel']);
    expect(countOf('single nand gate')!.values).toContain('1');
    // "single" is one of a kind: a diode pair ("1 Pair Common Cathode") is not a single diode.
    expect(evaluate([spec('Diode configuration', '1 Pair Common Cathode')], countOf('single schottky diode')!)).toBe(null);
    expect(evaluate([spec('Diode configuration', '1 Pair Common Cathode')], countOf('dual schottky diode')!)).toBe(true);
    // Not a count: without a counted family, or in a phrase that means something else.
    for (const q of ['dual', 'dual core mcu', 'dual supply op amp', 'single supply op amp', 'single ended adc', 'single phase bridge rectifier diode']) {
      expect(countOf(q), q).toBeUndefined();
    }
    // What a query says beyond its constraints and families.
    expect(understandQuery('pnp transistor sot-23').unread).toEqual([]);
    expect(understandQuery('6.8Ω ±5% through hole resistors').unread).toEqual(['through', 'hole']);
    expect(understandQuery('0603 10uF tantalum capacitors').unread).toEqual(['tantalum']);
    expect(understandQuery('3A buck converter').unread).toEqual([]); // "buck" is a value here
    // A bare LDO voltage above 5 V may be the output or the maximum input; two still pair as input and output.
    expect(understandQuery('500mA 10V ldo').specs[1]!.attributes).toEqual(expect.arrayContaining(['output_voltage', 'max_input_voltage']));
    expect(understandQuery('3.3V ldo').specs[0]!.attributes).not.toContain('max_input_voltage');
    expect(understandQuery('35V 12V ldo').specs.map((c) => [c.attributes[0], c.kind, c.value])).toEqual([['max_input_voltage', 'at_least', 35], ['output_voltage', 'equals', 12]]);
    // A mounting word is read when the query names a package (which implies it).
    expect([understandQuery('smd fuse 2A 1206').unread, understandQuery('smd fuse 2A').unread]).toEqual([[], ['smd']]);
    // Synonyms of a family are read; words of a narrower kind are not.
    for (const q of ['gate driver 2A sot-23', 'bridge rectifier 1A', 'low dropout regulator 3.3V']) expect(understandQuery(q).unread, q).toEqual([]);
    expect(understandQuery('NOR flash 16Mbit').families).toEqual(['memory']);
    expect(understandQuery('quad spi nor flash 128Mbit').values).toEqual([]); // memory is not a counted family
    // "rail to rail" is the amplifier's swing, and does not hide the count before it.
    expect(understandQuery('dual rail-to-rail op amp').values.map((v) => v.values[0])).toEqual(['2', 'Rail-to-Rail']);
    expect(evaluate([spec('Rail to rail', 'Rail-to-rail output')], understandQuery('rail to rail op amp').values[0]!)).toBe(true);
    expect(evaluate([spec('Rail to rail', 'Rail-to-Rail Input')], understandQuery('rrio op amp').values[0]!)).toBe(false);
    // Contact forms of relays and switches, in the catalogue's spellings.
    const spdt = understandQuery('5V relay spdt').values[0]!;
    expect(evaluate([spec('Contact form', 'One set changeover: 1C (SPDT - changeover)')], spdt)).toBe(true);
    expect(evaluate([spec('Contact form', '1 Set Normally Open: 1A (SPST NO)')], spdt)).toBe(false);
    expect(evaluate([spec('Circuit', 'SPST-NO')], understandQuery('spst-no tactile switch').values[0]!)).toBe(true);
    expect(understandQuery('spdt').values).toEqual([]); // no relay or switch named
    // A qualifier glued to the unit ("11Vrwm"), TVS words and polarity.
    const tvs = understandQuery('200W unidirectional Transil Transient Voltage Suppressor, 11Vrwm, SMF');
    expect(tvs.families).toEqual(['tvs']);
    expect(tvs.specs.map((c) => [c.attributes[0], c.value])).toEqual([['peak_pulse_power', 200], ['standoff_voltage', 11]]);
    expect(tvs.values.map((v) => v.values[0])).toEqual(['Unidirectional']);
    expect(understandQuery('40Vds mosfet').specs[0]!.attributes[0]).toBe('drain_source_voltage');
    // Only a voltage qualifier splits off: "12Vdc" is 12 V (coil), "4.4Wx1" stays one word.
    expect(understandQuery('12Vdc relay').specs.map((c) => [c.attributes[0], c.value])).toEqual([['coil_voltage', 12]]);
    expect(understandQuery('4.4Wx1').terms).toEqual(['4.4wx1']);
    expect(understandQuery('5Vin 3.3Vout ldo').specs.map((c) => c.attributes[0])).toEqual(['max_input_voltage', 'output_voltage']);
    // Isolation ratings and memory sizes written the way KiCad describes parts.
    expect(understandQuery('Quad-Channel Digital Isolator, 150Mbps, 1.0kV isolation').specs.map((c) => [c.attributes[0], c.value])).toContainEqual(['isolation_voltage', 1000]);
    expect(understandQuery('isolated 5V dc-dc converter').specs.map((c) => c.attributes[0])).toEqual(['output_voltage']); // "isolated" is not a rating
    // A TVS / ESD diode voltage of 1 kV or more is its ESD rating (at least), and it does not pair with the stand-off.
    expect(understandQuery('ESD protection diode ±30kV SOT-23').specs.map((c) => [c.attributes[0], c.kind, c.value])).toEqual([
      ['esd_voltage', 'at_least', 30000],
    ]);
    expect(understandQuery('TVS diode 5V 30kV ESD').specs.map((c) => [c.attributes[0], c.value])).toEqual([
      ['standoff_voltage', 5],
      ['esd_voltage', 30000],
    ]);
    expect(understandQuery('6.5V 11.2V TVS').specs.map((c) => c.attributes[0])).toEqual(['standoff_voltage', 'clamping_voltage']);
    expect(understandQuery('tvs 600V').specs.map((c) => c.attributes[0])).toEqual(['standoff_voltage']);
    expect(evaluate([spec('Contact discharge vesd', '±30kV')], understandQuery('esd diode 15kV').specs[0]!)).toBe(true);
    // A memory chip's size is in bits; a microcontroller's memories and RAM are in bytes.
    expect(understandQuery('24C02 eeprom 2K').specs.map((c) => [c.attributes[0], c.unit, c.value])).toEqual([['memory_size', 'bit', 2000]]);
    expect(understandQuery('24C02 eeprom 2K').terms).toContain('eeprom');
    expect(understandQuery('Flash MCU, 48Mhz, 256K Flash, 32K SRAM').specs.map((c) => [c.attributes[0], c.value])).toEqual([
      ['cpu_speed', 48e6], ['program_memory_size', 256000], ['ram_size', 32000],
    ]);
    expect(understandQuery('4352 ram').specs.map((c) => c.attributes[0])).toEqual(['ram_size']);
    expect(understandQuery('10k resistor').specs.map((c) => c.attributes[0])).toEqual(['resistance']);
    // An audio amplifier's class.
    const classD = understandQuery('audio amplifier class d').values[0]!;
    expect(evaluate([spec('Class', 'Class AB, Class D')], classD)).toBe(true);
    expect(evaluate([spec('Class', 'Class AB')], classD)).toBe(false);
    expect(understandQuery('dual supply op amp').terms).toContain('supply');
    const s = (name: string, value: string) => [spec(name, value)];
    expect(evaluate(s('Number of channels', '2'), dual)).toBe(true);
    expect(evaluate(s('Number', '2 N-Channel'), dual)).toBe(true);
    expect(evaluate(s('Number of circuits', 'Dual'), dual)).toBe(true);
    expect(evaluate(s('Number of channels', '1'), dual)).toBe(false);
    expect(evaluate(s('Number of channels', '12'), dual)).toBe(false);
    expect(evaluate(s('Number of channels', 'Four channels'), countOf('quad op amp')!)).toBe(true);
  });

  it('does not read "10k 5%" with a 1% window: the stated tolerance widens the window', () => {
    const [c] = specOf('10k 5%');
    expect([c?.lo, c?.hi]).toEqual([9_500, 10_500]);
    const [d] = specOf('10k');
    expect([d?.lo, d?.hi]).toEqual([9_900, 10_100]);
  });

  it('honours comparison words and symbols', () => {
    expect(specOf('>16V cap')[0]?.kind).toBe('at_least');
    expect(specOf('16V+ cap')[0]).toMatchObject({ kind: 'at_least', value: 16 });
    expect(specOf('less than 10mΩ mosfet')[0]).toMatchObject({ kind: 'at_most', value: 0.01 });
    expect(specOf('100nF min')[0]).toMatchObject({ kind: 'at_least', value: 1e-7 });
    expect(specOf('up to 125C')[0]).toMatchObject({ kind: 'at_least', value: 125 });   // a rating: "up to" is what it can take
    expect(specOf('up to 100nF')[0]).toMatchObject({ kind: 'at_most', value: 1e-7 });
    expect(specOf('between 2.7 and 5.5V mcu')).toHaveLength(2);
  });

  it('keeps the source text of every constraint', () => {
    const u = understandQuery('4u7 16V 0805 ±10%');
    expect(u.specs.map((s) => s.source)).toEqual(['4u7', '16V']);
    expect(u.values.map((v) => v.source)).toEqual(['±10%']);
  });
});

describe('understandQuery: odd input', () => {
  const ODD = [
    '', ' ', '🔥', '🔥🔥 10k 🔥', '1'.repeat(1000), '9'.repeat(400) + 'k', "'; DROP TABLE parts; --", '"100nF" OR 1=1',
    '±±', '~~', '...', '---', '+-+-', '<<>>', '>=', '1e400', '1e-400V', 'NaN', 'Infinity V', '\u0000\u0001', '\ud800',
    '%%%', '°C', 'k', 'R', '0', '-0', '00000', '.5', '5.', '1/0W', '1/4', '3..5V', '10k-', '-10k', '(((', ')))',
    'µ', 'μF', 'x '.repeat(600), '0603'.repeat(200), '1,2,3,4,5', 'between', 'between 1 and', 'at least', 'up to',
    '±', 'SOT-', 'TO-', 'null', '4u7u7', 'ⅷ', '٣٣ k', '𝟏𝟎k', '\t\n\r', 'a\u200bb', 'Ω'.repeat(50), '-'.repeat(300),
  ];

  function wellFormed(u: QueryUnderstanding, q: string): void {
    expect(u.text).toBe(q);
    for (const arr of [u.terms, u.packages, u.mpns, u.families]) {
      expect(Array.isArray(arr)).toBe(true);
      for (const s of arr) expect(typeof s).toBe('string');
    }
    for (const t of u.terms) expect(t).toBe(t.toLowerCase());
    for (const c of u.specs) {
      expect(c.attributes.length).toBeGreaterThan(0);
      expect(Number.isFinite(c.value)).toBe(true);
      expect(Number.isNaN(c.lo) || Number.isNaN(c.hi)).toBe(false);
      expect(c.lo <= c.value && c.value <= c.hi).toBe(true);
    }
    for (const v of u.values) expect(v.values.length).toBeGreaterThan(0);
  }

  it.each(ODD.map((q) => [q.length > 30 ? `${q.slice(0, 30)}… (${q.length} chars)` : JSON.stringify(q), q]))('never throws: %s', (_label, q) => {
    // understand, not understandQuery: the latter's safety net would hide a crash.
    wellFormed(understand(q), q);
  });

  it('returns an empty understanding for non-strings', () => {
    for (const x of [null, undefined, 42, {}, []]) {
      const u = understandQuery(x as unknown as string);
      expect(u).toEqual({ text: '', terms: [], unread: [], specs: [], values: [], packages: [], mpns: [], families: [] });
    }
  });

  it('survives random strings built from the characters queries use', () => {
    const pool = ['1', '0', '6', '3', '.', ',', 'k', 'K', 'M', 'm', 'u', 'µ', 'n', 'p', 'R', 'F', 'H', 'V', 'A', 'W', 'Hz', 'Ω', '%', '±', '~', '-', '+',
      '/', '°', 'C', ' ', ' ', ' ', 'to', 'SOT', 'X7R', 'LDO', '>', '<', '=', '(', ')', '"', "'", '🔥', '\u0301', 'e', 'x'];
    let seed = 12345;
    const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
    for (let n = 0; n < 3000; n++) {
      let q = '';
      const len = Math.floor(rnd() * 24);
      for (let i = 0; i < len; i++) q += pool[Math.floor(rnd() * pool.length)];
      wellFormed(understand(q), q);
    }
  });

  it('reads what it can of a long query and stays fast', () => {
    const long = `${'resistor '.repeat(200)}10k`;
    const t0 = performance.now();
    const u = understandQuery(long);
    // A guard against pathological (exponential) behaviour, not a speed target: bench/understand.ts measures speed.
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(u.families).toEqual(['resistor']);
  });

});

// ---------------------------------------------------------------- satisfies

/** A stored spec as ingest normalises it. */
function spec(name: string, value: string, num?: number, unit?: string): PartSpec {
  return normaliseSpec({ name, value, ...(num !== undefined ? { num } : {}), ...(unit !== undefined ? { unit } : {}) });
}
const specsOf = (q: string): SpecConstraint[] => understandQuery(q).specs;
const valuesOf = (q: string): ValueConstraint[] => understandQuery(q).values;
const one = <T>(xs: T[]): T => { expect(xs).toHaveLength(1); return xs[0] as T; };

describe('satisfies', () => {
  it('matches a 10k constraint to a 10kΩ part, not to a 4.7kΩ one', () => {
    const c = one(specsOf('10k'));
    expect(satisfies([spec('Resistance', '10kΩ', 10_000, 'Ω')], c)).toBe(true);
    expect(satisfies([spec('Resistance', '4.7kΩ', 4_700, 'Ω')], c)).toBe(false);
    expect(satisfies([spec('Resistance', '10.2kΩ', 10_200, 'Ω')], c)).toBe(false);
    // display string only (no num stored), and a raw object with nulls
    expect(satisfies([spec('Resistance', '10kΩ')], c)).toBe(true);
    expect(satisfies([{ name: 'Resistance', value: '10k', num: null, min: null, max: null, unit: null }], c)).toBe(true);
  });

  it('checks ratings as "at least"', () => {
    const c = one(specsOf('4u7 16V').filter((s) => s.unit === 'V'));
    expect(satisfies([spec('Voltage Rated', '50V', 50, 'V')], c)).toBe(true);
    expect(satisfies([spec('Allowable voltage', '16V', 16, 'V')], c)).toBe(true);     // real-dump name, boundary
    expect(satisfies([spec('Voltage Rated', '10V', 10, 'V')], c)).toBe(false);
  });

  it('tells a part holding the asked rating itself from one that only exceeds it (meetsTarget)', () => {
    const c = one(specsOf('20V mosfet'));
    const v20 = [spec('Drain Source Voltage (Vdss)', '20V', 20, 'V')];
    const v100 = [spec('Drain Source Voltage (Vdss)', '100V', 100, 'V')];
    expect([satisfies(v20, c), satisfies(v100, c)]).toEqual([true, true]);
    expect([meetsTarget(v20, c), meetsTarget(v100, c)]).toEqual([true, false]);
    expect(meetsTarget([spec('Drain Source Voltage (Vdss)', '12V', 12, 'V')], c)).toBe(false);
    // an `equals` constraint: the same as satisfying it
    const r = one(specsOf('10k'));
    expect(meetsTarget([spec('Resistance', '10kΩ', 10_000, 'Ω')], r)).toBe(true);
    expect(meetsTarget([spec('Resistance', '4.7kΩ', 4_700, 'Ω')], r)).toBe(false);
  });

  it('prefers the asked value itself for bare values, not for a stated comparison (targetHits)', () => {
    const part = (specs: ReturnType<typeof spec>[]) => ({ specs }) as unknown as PartRecord;
    const rating = understandQuery('20V mosfet');
    expect(targetHits(rating, part([spec('Drain Source Voltage (Vdss)', '20V', 20, 'V')]))).toBe(1);
    expect(targetHits(rating, part([spec('Drain Source Voltage (Vdss)', '100V', 100, 'V')]))).toBe(0);
    const limit = understandQuery('rds(on) < 10mΩ mosfet');
    expect(limit.specs[0]!.kind).toBe('at_most');
    expect(limit.specs[0]!.stated).toBe(true);
    expect(targetHits(limit, part([spec('Rds(on)', '10mΩ', 0.01, 'Ω')]))).toBe(0);   // 10 mΩ is not better than 2 mΩ
    expect(valueHits(limit, part([spec('Rds(on)', '10mΩ', 0.01, 'Ω')]))).toBe(0);
    expect(targetHits(understandQuery('at least 20V mosfet'), part([spec('Drain Source Voltage (Vdss)', '20V', 20, 'V')]))).toBe(0);
    // "up to 30V" on a rating reads as the bare rating: not a stated bound
    expect(understandQuery('up to 30V mosfet').specs[0]!.stated).toBeUndefined();
    expect(understandQuery('>= 10-20V capacitor').specs[0]!.stated).toBe(true);
    // a bare figure of an upper-limit role is a part's figure: the part holding it is nearer
    const bare = understandQuery('1.6mV op amp');
    expect([bare.specs[0]!.kind, bare.specs[0]!.stated]).toEqual(['at_most', undefined]);
    expect(targetHits(bare, part([spec('Input Offset Voltage (Vos)', '1.6mV', 0.0016, 'V')]))).toBe(1);
  });

  it('reads a memory size beside a clock as a microcontroller\'s program memory', () => {
    const flash = understandQuery('80MHz 128KB st microelectronics').specs.find((c) => c.unit === 'B')!;
    expect(flash.attributes).toContain('program_memory_size');
    expect(flash.attributes).not.toContain('ram_size');
    expect(understandQuery('80MHz 128KB st microelectronics').families).toEqual([]); // a reading, not a family tier
    // a named memory keeps its own reading; a size alone stays any memory
    expect(understandQuery('16MHz 32KB EEPROM').specs.find((c) => c.unit === 'B')!.attributes).toContain('eeprom_size');
    expect(understandQuery('128KB').specs[0]!.attributes).toContain('ram_size');
  });

  it('tells the package the query names exactly from a variant the package check also accepts (packageExact)', () => {
    const u = understandQuery('35V 12V TO-252 linear voltage regulators');
    expect(u.packages).toEqual(['TO-252']);
    const part = (pkg: string | null) => ({ specs: [], package: pkg, description: '' }) as unknown as PartRecord;
    // both satisfy the package constraint (a TO-252-2 is a TO-252 variant) ...
    expect([constraintScore(understandQuery('TO-252'), part('TO-252')), constraintScore(understandQuery('TO-252'), part('TO-252-2'))]).toEqual([1, 1]);
    // ... the exact one ranks first
    expect([packageExact(u, part('TO-252')), packageExact(u, part('to-252 ')), packageExact(u, part('TO-252-2')), packageExact(u, part(null))]).toEqual([1, 1, 0, 0]);
    expect(packageExact(understandQuery('12V regulator'), part('TO-252'))).toBe(0);
  });

  it('accepts another name of the same package (MiniMELF = LL-34, SMA = DO-214AC, DPAK = TO-252), in any case', () => {
    const part = (pkg: string) => ({ specs: [], package: pkg, description: '' }) as unknown as PartRecord;
    const score = (q: string, pkg: string) => constraintScore(understandQuery(q), part(pkg));
    expect(understandQuery('zener MiniMELF').packages).toEqual(['MiniMELF']);
    expect([score('zener MiniMELF', 'LL-34'), score('zener MiniMELF', 'MiniMELF'), score('zener MiniMELF', 'SOD-123')]).toEqual([1, 1, 0]);
    expect([score('schottky DO-214AC', 'SMA'), score('mosfet dpak', 'TO-252-2'), score('sot-23-5 ldo', 'SOT-25')]).toEqual([1, 1, 1]);
    expect(packageExact(understandQuery('zener MiniMELF'), part('LL-34'))).toBe(1);
    // Spellings of one outline for any pin count.
    expect([score('timer PDIP-14', 'DIP-14'), score('optocoupler SOP16', 'SOIC-16'), score('regulator TSOT-23-5', 'TSOT-25'), score('timer PDIP-14', 'DIP-16')]).toEqual([1, 1, 1, 0]);
    // Another name is matched whole, never as a prefix or inside a longer code (the pin count would change).
    expect([score('regulator sot-23-3', 'SOT-23-5'), score('op amp SOIC-8', 'TSSOP-8'), score('ldo SOT-26', 'SC-74A'), score('ldo SOT-23-3', 'SOT-23')]).toEqual([0, 0, 0, 1]);
    expect(score('schottky SMA', 'SMA(DO-214AC)')).toBe(1);
    // MicroMELF = LS-31, TO-5 = TO-39, Multiwatt-n = TO-220-n (11 and 15 leads only).
    expect([score('switching diode MicroMELF', 'LS-31'), score('photodiode TO-5', 'TO-39'), score('amplifier TO-220-11', 'Multiwatt-11')]).toEqual([1, 1, 1]);
    expect([score('amplifier Multiwatt-15', 'TO-220-15'), score('amplifier Multiwatt-15', 'TO-220-11'), score('regulator TO-220', 'Multiwatt-11')]).toEqual([1, 0, 0]);
    // A body width after another name is the same package; another number there is another pin count.
    expect([score('optocoupler SOP16', 'SOIC-16-175mil'), score('op amp SOP-8', 'SOIC-8-150mil'), score('op amp SOIC-8', 'SOP-8-208mil')]).toEqual([1, 1, 1]);
    expect([score('regulator SOT-25', 'SOT-23-5-1'), score('op amp SOP-8', 'SOIC-8-1'), score('op amp SOP-8', 'SOIC-8-150milx')]).toEqual([0, 0, 0]);
    // Wide-body SOIC = its 300 mil width; TSOP-5 / TSOP-6 = TSOT-23-5 / -6.
    expect([score('isolator SOIC-16W', 'SOIC-16-300mil'), score('isolator SOIC-16W', 'SOIC-16'), score('isolator SOIC-16', 'SOP-16-300mil')]).toEqual([1, 0, 1]);
    expect([score('ldo TSOT-23-5', 'TSOP-5'), score('ldo TSOT-25', 'TSOP-5'), score('switch TSOT-23-6', 'TSOP-6'), score('ldo TSOT-23-5', 'TSOP-6')]).toEqual([1, 1, 1, 0]);
    // The query's own code is found in the text only when no digit follows it.
    expect([score('photodiode TO-5', 'TO-56'), score('ldo SOT-23', 'SOT-23(TO-236)'), score('ldo SOT-23', 'SOT-23-5'), score('expander QFN-24', 'VQFN-24')]).toEqual([0, 1, 1, 1]);
    // LS is a package family only as LS-31: "LS7366R" stays a part number.
    expect([understandQuery('diode ls31').packages, understandQuery('LS7366R counter').packages, understandQuery('LS7366R counter').mpns]).toEqual([['LS-31'], [], ['LS7366R']]);
  });

  it('finds the asked value under any spec of its unit, whatever the name (holdsValue)', () => {
    const c = one(specsOf('3.3V ldo'));                                  // read as the output voltage
    expect(c.attributes).toEqual(['output_voltage']);
    const part = [spec('Output Voltage', '1.8V', 1.8, 'V'), spec('Voltage - supply', '3.3V', 3.3, 'V')];
    expect(satisfies(part, c)).toBe(false);
    expect(holdsValue(part, c)).toBe(true);
    expect(holdsValue([spec('Output Voltage', '1.8V', 1.8, 'V'), spec('Output current', '3.3A', 3.3, 'A')], c)).toBe(false);
    expect(holdsValue([{ name: 'x', value: 'n/a', num: null, min: null, max: null, unit: 'V' }], c)).toBe(false);
  });

  it('ranks the asked tolerance itself before a tighter one that also meets it (exactValueHits)', () => {
    const u = understandQuery('10k 1% 0603 resistor');
    const part = (tol: string) => ({ specs: [spec('Resistance', '10kΩ'), spec('Tolerance', tol)], package: '0603', description: '' }) as unknown as PartRecord;
    // both satisfy "1%" ...
    expect([constraintScore(u, part('±1%')), constraintScore(u, part('±0.1%')), constraintScore(u, part('±5%'))]).toEqual([1, 1, 2 / 3]);
    // ... the 1% part holds it exactly
    expect([exactValueHits(u, part('±1%')), exactValueHits(u, part('±0.1%')), exactValueHits(u, part('±5%'))]).toEqual([1, 0, 0]);
    // other value constraints never count here
    expect(exactValueHits(understandQuery('X7R capacitor'), { specs: [spec('Temperature Coefficient', 'X7R')] } as unknown as PartRecord)).toBe(0);
  });

  it('accepts a supply range that contains the wanted voltage', () => {
    const c = one(specsOf('mcu 3.3V'));
    expect(satisfies([spec('Voltage - supply', '2.7V~5.5V')], c)).toBe(true);
    expect(satisfies([spec('Supply Voltage', '1.8V~3.6V')], c)).toBe(true);
    expect(satisfies([spec('Voltage - supply', '4.5V~5.5V')], c)).toBe(false);
  });

  it('reads a voltage range from just below zero as an absolute maximum: the part need only fall within it', () => {
    const all = (specs: PartSpec[], cs: SpecConstraint[]) => cs.every((c) => satisfies(specs, c));
    const absMax = specsOf('optocoupler -0.5V to 7V VCC');
    expect(absMax.map((c) => [c.kind, c.lo, c.hi])).toEqual([['equals', -0.5, 7]]);
    expect(all([spec('Voltage - supply', '4.5V~5.5V')], absMax)).toBe(true);
    expect(all([spec('Voltage - supply', '10V~30V')], absMax)).toBe(false);
    // A dual supply still has to be covered, as does a symmetric one near zero, and an input range.
    const dual = specsOf('op amp -5V to 5V');
    expect(dual.map((c) => c.kind)).toEqual(['at_most', 'at_least']);
    expect(all([spec('Supply Voltage', '2.5V~5V')], dual)).toBe(false);
    expect(specsOf('op amp -1V to 1V').map((c) => c.kind)).toEqual(['at_most', 'at_least']);
    expect(specsOf('ldo input -0.3V to 6V').map((c) => c.kind)).toEqual(['at_most', 'at_least']);
  });

  it('binds a comparison word after a comma to the value after it, not to the number before the comma', () => {
    const c = one(specsOf('optocoupler VCM 10, max 7V VCC'));
    expect([c.kind, c.value, c.stated]).toEqual(['at_most', 7, true]);
    // without the comma the word still closes the value before it ("7V max"), and so it does after the
    // comma when no value follows it
    expect(one(specsOf('optocoupler 7V max VCC')).kind).toBe('at_most');
    expect([one(specsOf('resistor 1W, max')).kind, one(specsOf('capacitor 25V, or more')).kind]).toEqual(['at_most', 'at_least']);
    expect(understandQuery('capacitor 25V, or more').unread).toEqual([]);
  });

  it('requires a typed supply or temperature range to be covered', () => {
    const supply = specsOf('mcu 2.7-5.5V');
    const all = (specs: PartSpec[], cs: SpecConstraint[]) => cs.every((c) => satisfies(specs, c));
    expect(all([spec('Voltage - supply', '1.8V~5.5V')], supply)).toBe(true);
    expect(all([spec('Voltage - supply', '3V~5.5V')], supply)).toBe(false);
    const temp = specsOf('-40 to 85C');
    expect(all([spec('Operating temperature', '-40℃~+85℃')], temp)).toBe(true);
    expect(all([spec('Operating Temperature', '-55℃~+125℃')], temp)).toBe(true);
    expect(all([spec('Operating temperature', '-20℃~+70℃')], temp)).toBe(false);
  });

  it('accepts an adjustable output range that reaches the wanted output', () => {
    const c = one(specsOf('3.3V LDO'));
    expect(satisfies([spec('Output Voltage', '1.25V~15V')], c)).toBe(true);
    expect(satisfies([spec('Output voltage', '3.3V', 3.3, 'V')], c)).toBe(true);
    expect(satisfies([spec('Output Voltage', '5V', 5, 'V')], c)).toBe(false);
  });

  it('treats "at most" constraints on the low end of the part', () => {
    const c = one(specsOf('rds(on) < 30mΩ mosfet'));
    expect(satisfies([spec('Rds(on)', '28mΩ@10V')], c)).toBe(true);
    expect(satisfies([spec('Drain Source On Resistance (RDS(on)@Vgs,Id)', '52mΩ@4.5V', 0.052, 'Ω')], c)).toBe(false);
    const ppm = one(specsOf('crystal 20ppm'));
    expect(satisfies([spec('Frequency Tolerance', '±20ppm', 20, 'ppm')], ppm)).toBe(true);
    expect(satisfies([spec('Normal temperature frequency tolerance', '±10ppm', 10, 'ppm')], ppm)).toBe(true);
    expect(satisfies([spec('Frequency Stability', '±30ppm', 30, 'ppm')], ppm)).toBe(false);
  });

  it('compares names case- and punctuation-insensitively', () => {
    const c = one(specsOf('30V mosfet'));
    expect(satisfies([spec('drain source voltage (vdss)', '30V', 30, 'V')], c)).toBe(true);
    expect(satisfies([spec('DRAIN TO SOURCE VOLTAGE', '60V', 60, 'V')], c)).toBe(true);
  });

  it('ignores specs under other names, and reports "unknown" through evaluate', () => {
    const c = one(specsOf('10k'));
    expect(satisfies([spec('Capacitance', '10kF', 10_000, 'F')], c)).toBe(false);
    expect(evaluate([spec('Capacitance', '10kF', 10_000, 'F')], c)).toBeNull();
    expect(evaluate([], c)).toBeNull();
    expect(evaluate([spec('Resistance', '1kΩ', 1_000, 'Ω')], c)).toBe(false);
    expect(evaluate([spec('Resistance', 'n/a')], c)).toBeNull();
  });

  it('converts units where the stored one does not line up (pitch in mm)', () => {
    const c = one(specsOf('2.54mm header'));
    expect(satisfies([spec('Pitch', '2.54mm', 2.54, 'mm')], c)).toBe(true);
    expect(satisfies([spec('Pitch', '2mm', 2, 'mm')], c)).toBe(false);
  });

  it('matches dielectric, channel and colour values as words', () => {
    const x7r = one(valuesOf('100nF X7R'));
    expect(satisfies([spec('Temperature coefficient', 'X7R')], x7r)).toBe(true);
    expect(satisfies([spec('Temperature Coefficient', 'X5R')], x7r)).toBe(false);
    const c0g = one(valuesOf('cog 10pF'));
    for (const v of ['C0G', 'NP0', 'C0G (NP0)', 'NPO']) expect(satisfies([spec('Temperature Coefficient', v)], c0g), v).toBe(true);
    const nch = one(valuesOf('n-channel mosfet'));
    expect(satisfies([spec('Number', '1 N-channel')], nch)).toBe(true);
    expect(satisfies([spec('Type', 'N-Channel')], nch)).toBe(true);
    expect(satisfies([spec('Type', 'P-Channel')], nch)).toBe(false);
    const shielded = one(valuesOf('shielded inductor'));
    expect(satisfies([spec('Shielding', 'Shielded')], shielded)).toBe(true);
    expect(satisfies([spec('Shielding', 'Unshielded')], shielded)).toBe(false);
  });

  it('accepts a tolerance as tight as or tighter than asked', () => {
    const c = one(valuesOf('10k 1%'));
    expect(c).toEqual({ attributes: ['tolerance'], values: ['±1%'], source: '1%' });
    expect(satisfies([spec('Tolerance', '±1%', 1, '%')], c)).toBe(true);
    expect(satisfies([spec('Tolerance', '0.1%', 0.1, '%')], c)).toBe(true);
    expect(satisfies([spec('Tolerance', '±5%', 5, '%')], c)).toBe(false);
    expect(satisfies([spec('Tolerance', '-20%~+80%')], c)).toBe(false);
  });

  it('never throws on malformed specs', () => {
    const c = one(specsOf('10k'));
    const junk = [null, 42, {}, { name: 7 }, { attribute: 'resistance' }, { attribute: 'resistance', value: null, num: NaN, min: null, max: null, unit: 'zz' }] as unknown as PartSpec[];
    expect(satisfies(junk, c)).toBe(false);
    expect(satisfies(junk, one(valuesOf('X7R 100nF')))).toBe(false);
  });
});

// ---------------------------------------------------------------- end to end over the sample catalogue

describe('understand + satisfies over the sample catalogue', () => {
  let parts: { mpn: string; pkg: string | null | undefined; specs: PartSpec[] }[];
  beforeAll(() => {
    parts = (generateSampleCatalogue().parts as DumpPart[])
      .map((p) => ({ mpn: p.mpn, pkg: p.package, specs: (p.specs ?? []).map(normaliseSpec) }));
  });

  function search(q: string): string[] {
    const u = understandQuery(q);
    const cs = [...u.specs, ...u.values];
    return parts
      .filter((p) => cs.every((c) => satisfies(p.specs, c)) && (u.packages.length === 0 || u.packages.includes(p.pkg ?? '')))
      .map((p) => p.mpn);
  }

  it.each([
    ['10k 0603 1% resistor', 'RC0603FR-0710KL'],
    ['100nF 50V X7R 0603', 'GRM188R71H104KA93D'],
    ['3.3V LDO SOT-23-5', 'TLV70033DBVR'],
    ['30V 5A N-channel MOSFET SOT-23', 'AO3400A'],
    ['2.2uH inductor 1A', 'VLS3015ET-2R2M'],
    ['zener 5.1V', 'BZT52C5V1'],
    ['schottky 40V 1A', 'SS14'],
    ['C0G 10pF 0402', 'GRM1555C1H100JA01D'],
  ])('%s finds %s', (q, mpn) => {
    const hits = search(q);
    expect(hits).toContain(mpn);
    expect(hits.length).toBeLessThan(60);
  });

  it('every hit of "10k 0603 1%" really is 10 kΩ, 0603 and at most 1%', () => {
    const hits = new Set(search('10k 0603 1%'));
    expect(hits.size).toBeGreaterThan(0);
    for (const p of parts.filter((x) => hits.has(x.mpn))) {
      expect(p.pkg).toBe('0603');
      expect(p.specs.find((s) => s.name === 'Resistance')?.num).toBe(10_000);
      expect(p.specs.find((s) => s.name === 'Tolerance')?.num).toBeLessThanOrEqual(1);
    }
  });
});
