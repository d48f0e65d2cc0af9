/**
 * Builds the sample relevance suites from the project's deterministic sample catalogue
 * (generateSampleCatalogue, seed 42, 2,500 parts). Deterministic: run it again and the files are identical.
 *
 *   npx tsx test/relevance/build-sample-suites.ts [--check]
 *
 * Writes test/relevance/sample-mpn.jsonl (rule-judged MPN queries, src/relevance/mpn-suite.ts) and
 * test/relevance/sample-nl.jsonl (hand-written natural-language / parametric queries whose judgments are
 * computed by the predicates below). --check exits 1 when the committed files differ from a fresh build.
 *
 * NL judging rule (every query): only parts the endpoint can return are judged (status active, the
 * agentic default). grade 3 = in the right category AND satisfies every stated spec; grade 2 = right
 * category and all specs but one (queries with 2+ specs); grade 1 = right category; else 0 (not listed).
 * Specs compare the catalogue's SI numbers exactly (10k = 10,000 Ω), voltage ratings are "at least",
 * packages compare the part's package code (upper case, "SOT-23" does not match "SOT-23-5").
 */
import fs from 'node:fs';
import path from 'node:path';
import { CategoryTree } from '../../src/catalog/categories.ts';
import { ManufacturerRegistry } from '../../src/catalog/manufacturers.ts';
import { PartNormaliser } from '../../src/catalog/normalise.ts';
import type { DumpPart, PartRecord } from '../../src/catalog/part.ts';
import { formatSuite, type Grade, type RelevanceQuery } from '../../src/relevance/format.ts';
import { buildMpnSuite, type MpnPart } from '../../src/relevance/mpn-suite.ts';
import { DEFAULT_PARTS, DEFAULT_SEED, generateSampleCatalogue } from '../../src/sample/generate.ts';

const HERE = import.meta.dirname;
export const SAMPLE_MPN_FILE = path.join(HERE, 'sample-mpn.jsonl');
export const SAMPLE_NL_FILE = path.join(HERE, 'sample-nl.jsonl');

/** The sample catalogue as the ingest normalises it (same slugs, categories and SI specs as the index). */
export function sampleRecords(): PartRecord[] {
  const c = generateSampleCatalogue({ seed: DEFAULT_SEED, parts: DEFAULT_PARTS });
  const normaliser = new PartNormaliser(ManufacturerRegistry.from(c.manufacturers), CategoryTree.fromFile(c.categories as never));
  const byId = new Map<number, PartRecord>();
  for (const d of c.parts) {
    const r = normaliser.normalise(d as DumpPart);
    byId.set(r.id, r); // a later duplicate replaces the earlier one, as in the ingest
  }
  return [...byId.values()];
}

// ---------------------------------------------------------------------------------------------------
// Predicates

interface Check {
  text: string;
  test: (p: PartRecord) => boolean;
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.abs(b);
const specOf = (p: PartRecord, name: string) => p.specs.find((s) => s.name === name);
const pkgOf = (p: PartRecord) => (p.package ?? '').toUpperCase().replace(/\s+/g, '');

/** Spec `name` has the single SI value `v`. */
const eq = (name: string, v: number, text: string): Check => ({ text, test: (p) => specOf(p, name)?.num != null && near(specOf(p, name)!.num!, v) });
/** Spec `name` is at least `v` (ratings). */
const atLeast = (name: string, v: number, text: string): Check => ({ text, test: (p) => specOf(p, name)?.num != null && specOf(p, name)!.num! >= v - 1e-12 });
/** Spec `name`'s display value matches. */
const like = (name: string, re: RegExp, text: string): Check => ({ text, test: (p) => re.test(specOf(p, name)?.value ?? '') });
/** Package code equals one of `codes` (or is it followed by a bracketed detail: "TO-252-2(DPAK)"). */
const pkg = (...codes: string[]): Check => ({
  text: `package ${codes.join(' or ')}`,
  test: (p) => codes.some((c) => pkgOf(p) === c.toUpperCase() || pkgOf(p).startsWith(`${c.toUpperCase()}(`)),
});

/** In a category whose name (anywhere on its path) is one of `names`. */
function inCategory(p: PartRecord, names: readonly string[]): boolean {
  if (!p.category) return false;
  const onPath = new Set([p.category.name, ...p.category.path.map((x) => x.name)]);
  return names.some((n) => onPath.has(n));
}

interface NlCase {
  id: string;
  kind: 'parametric' | 'nl' | 'semantic';
  query: string;
  category: string[];
  specs: Check[];
}

const R = ['Resistors'];
const MLCC = ['Multilayer Ceramic Capacitors MLCC - SMD/SMT'];
const CAPS = ['Capacitors'];
const LDO = ['Linear Voltage Regulators (LDO)'];
const OPAMP = ['Operational Amplifiers'];
const MOSFET = ['MOSFETs'];
const LED = ['LED Indication - Discrete'];

export const NL_CASES: NlCase[] = [
  { id: 'nl-001', kind: 'parametric', query: '10k 0603 1% resistor', category: R, specs: [eq('Resistance', 10e3, 'Resistance 10 kΩ'), pkg('0603'), like('Tolerance', /^±1%$/, 'Tolerance ±1%')] },
  { id: 'nl-002', kind: 'parametric', query: '100nF 50V X7R 0603', category: MLCC, specs: [eq('Capacitance', 100e-9, 'Capacitance 100 nF'), atLeast('Voltage Rated', 50, 'rated >= 50 V'), like('Temperature Coefficient', /^X7R$/, 'X7R'), pkg('0603')] },
  { id: 'nl-003', kind: 'parametric', query: '3.3V LDO SOT-23-5', category: LDO, specs: [eq('Output Voltage', 3.3, 'Output 3.3 V'), pkg('SOT-23-5')] },
  { id: 'nl-004', kind: 'nl', query: 'dual op amp', category: OPAMP, specs: [like('Number of Channels', /^2$/, '2 channels')] },
  { id: 'nl-005', kind: 'parametric', query: 'n-channel mosfet sot-23', category: MOSFET, specs: [like('Type', /^N-Channel$/, 'N-Channel'), pkg('SOT-23')] },
  { id: 'nl-006', kind: 'parametric', query: '16MHz crystal', category: ['Crystals'], specs: [eq('Frequency', 16e6, 'Frequency 16 MHz')] },
  { id: 'nl-007', kind: 'parametric', query: 'red LED 0603', category: LED, specs: [like('Emitted Color', /^Red$/, 'Red'), pkg('0603')] },
  { id: 'nl-008', kind: 'nl', query: 'schottky diode', category: ['Schottky Diodes'], specs: [] },
  { id: 'nl-009', kind: 'nl', query: 'USB to UART bridge', category: ['USB ICs'], specs: [like('Function', /USB to UART/i, 'Function USB to UART')] },
  { id: 'nl-010', kind: 'parametric', query: '4.7uF 10V 0805 capacitor', category: CAPS, specs: [eq('Capacitance', 4.7e-6, 'Capacitance 4.7 µF'), atLeast('Voltage Rated', 10, 'rated >= 10 V'), pkg('0805')] },
  { id: 'nl-011', kind: 'parametric', query: '1uF 25V X5R 0402', category: MLCC, specs: [eq('Capacitance', 1e-6, 'Capacitance 1 µF'), atLeast('Voltage Rated', 25, 'rated >= 25 V'), like('Temperature Coefficient', /^X5R$/, 'X5R'), pkg('0402')] },
  { id: 'nl-012', kind: 'parametric', query: '10uH power inductor', category: ['Power Inductors'], specs: [eq('Inductance', 10e-6, 'Inductance 10 µH')] },
  { id: 'nl-013', kind: 'parametric', query: 'ferrite bead 600 ohm 0603', category: ['Ferrite Beads'], specs: [like('Impedance @ Frequency', /^600Ω@/, 'Impedance 600 Ω'), pkg('0603')] },
  { id: 'nl-014', kind: 'parametric', query: '5.1V zener diode', category: ['Zener Diodes'], specs: [eq('Zener Voltage (Nom)', 5.1, 'Vz 5.1 V')] },
  { id: 'nl-015', kind: 'parametric', query: 'NPN transistor SOT-23', category: ['Bipolar Transistors - BJT'], specs: [like('Type', /^NPN$/, 'NPN'), pkg('SOT-23')] },
  { id: 'nl-016', kind: 'nl', query: 'P-channel MOSFET', category: MOSFET, specs: [like('Type', /^P-Channel$/, 'P-Channel')] },
  { id: 'nl-017', kind: 'nl', query: 'quad comparator', category: ['Comparators'], specs: [like('Number of Channels', /^4$/, '4 channels')] },
  { id: 'nl-018', kind: 'parametric', query: '5V 1A LDO regulator', category: LDO, specs: [eq('Output Voltage', 5, 'Output 5 V'), atLeast('Output Current', 1, 'Output current >= 1 A')] },
  { id: 'nl-019', kind: 'nl', query: 'buck converter', category: ['DC-DC Converters'], specs: [like('Topology', /^Buck$/, 'Topology Buck')] },
  { id: 'nl-020', kind: 'nl', query: 'boost converter', category: ['DC-DC Converters'], specs: [like('Topology', /^Boost$/, 'Topology Boost')] },
  { id: 'nl-021', kind: 'nl', query: 'I2C temperature sensor', category: ['Temperature Sensors'], specs: [like('Interface', /I2C/, 'Interface I2C')] },
  { id: 'nl-022', kind: 'nl', query: 'ARM Cortex-M4 microcontroller', category: ['Microcontrollers (MCU/MPU/SOC)'], specs: [like('CPU Core', /Cortex-M4/, 'Core Cortex-M4 (M4F too)')] },
  { id: 'nl-023', kind: 'nl', query: 'WiFi Bluetooth module', category: ['WiFi/Bluetooth Modules'], specs: [like('Wireless Standard', /WiFi.*Bluetooth|Bluetooth.*WiFi/, 'WiFi and Bluetooth')] },
  { id: 'nl-024', kind: 'parametric', query: '32.768kHz crystal', category: ['Crystals'], specs: [eq('Frequency', 32768, 'Frequency 32.768 kHz')] },
  { id: 'nl-025', kind: 'parametric', query: '25MHz oscillator', category: ['Crystal Oscillators'], specs: [eq('Frequency', 25e6, 'Frequency 25 MHz')] },
  { id: 'nl-026', kind: 'nl', query: 'NAND gate', category: ['Gates'], specs: [like('Logic Type', /^NAND Gate$/, 'NAND')] },
  { id: 'nl-027', kind: 'nl', query: 'schmitt trigger inverter', category: ['Gates'], specs: [like('Logic Type', /^Schmitt Trigger Inverter$/, 'Schmitt trigger inverter')] },
  { id: 'nl-028', kind: 'nl', query: '555 timer', category: ['555 Timers'], specs: [] },
  { id: 'nl-029', kind: 'parametric', query: '22uF tantalum capacitor', category: ['Tantalum Capacitors'], specs: [eq('Capacitance', 22e-6, 'Capacitance 22 µF')] },
  { id: 'nl-030', kind: 'parametric', query: '100uF 25V electrolytic capacitor', category: ['Aluminum Electrolytic Capacitors - SMD'], specs: [eq('Capacitance', 100e-6, 'Capacitance 100 µF'), atLeast('Voltage Rated', 25, 'rated >= 25 V')] },
  { id: 'nl-031', kind: 'nl', query: 'green LED', category: LED, specs: [like('Emitted Color', /^Green$/, 'Green')] },
  { id: 'nl-032', kind: 'parametric', query: '1k resistor 0402', category: R, specs: [eq('Resistance', 1e3, 'Resistance 1 kΩ'), pkg('0402')] },
  { id: 'nl-033', kind: 'parametric', query: '10pF C0G 0402 capacitor', category: MLCC, specs: [eq('Capacitance', 10e-12, 'Capacitance 10 pF'), like('Temperature Coefficient', /^C0G$/, 'C0G'), pkg('0402')] },
  { id: 'nl-034', kind: 'parametric', query: '40V schottky diode SMA', category: ['Schottky Diodes'], specs: [atLeast('Reverse Voltage (Vr)', 40, 'Vr >= 40 V'), pkg('SMA')] },
  { id: 'nl-035', kind: 'nl', query: 'small signal switching diode', category: ['Switching Diodes'], specs: [] },
  { id: 'nl-036', kind: 'parametric', query: 'rail-to-rail op amp SOT-23-5', category: OPAMP, specs: [like('Input/Output Type', /Rail-to-Rail/i, 'rail-to-rail'), pkg('SOT-23-5')] },
  { id: 'nl-037', kind: 'parametric', query: '4.7k pull-up resistor', category: R, specs: [eq('Resistance', 4.7e3, 'Resistance 4.7 kΩ')] },
  { id: 'nl-038', kind: 'parametric', query: '100 ohm 1% 0805', category: R, specs: [eq('Resistance', 100, 'Resistance 100 Ω'), like('Tolerance', /^±1%$/, 'Tolerance ±1%'), pkg('0805')] },
  { id: 'nl-039', kind: 'parametric', query: '1.8V LDO', category: LDO, specs: [eq('Output Voltage', 1.8, 'Output 1.8 V')] },
  { id: 'nl-040', kind: 'nl', query: 'USB-C power delivery controller', category: ['USB ICs'], specs: [like('Function', /Power Delivery|\bPD\b/, 'Function USB PD')] },
  { id: 'nl-041', kind: 'parametric', query: '2.2uH inductor 3A', category: ['Power Inductors'], specs: [eq('Inductance', 2.2e-6, 'Inductance 2.2 µH'), atLeast('Current Rating', 3, 'Current rating >= 3 A')] },
  { id: 'nl-042', kind: 'parametric', query: 'X7R 1uF 16V', category: MLCC, specs: [eq('Capacitance', 1e-6, 'Capacitance 1 µF'), atLeast('Voltage Rated', 16, 'rated >= 16 V'), like('Temperature Coefficient', /^X7R$/, 'X7R')] },
  // Semantic: few or no words shared with the catalogue text; what the vector side is for.
  { id: 'nl-043', kind: 'semantic', query: 'light emitting diode indicator', category: LED, specs: [] },
  { id: 'nl-044', kind: 'semantic', query: 'step-down switching regulator', category: ['DC-DC Converters'], specs: [like('Topology', /^Buck$/, 'Topology Buck')] },
  { id: 'nl-045', kind: 'semantic', query: 'bluetooth low energy module', category: ['WiFi/Bluetooth Modules'], specs: [like('Wireless Standard', /Bluetooth/, 'Bluetooth')] },
  { id: 'nl-046', kind: 'semantic', query: 'chip to measure temperature over a digital bus', category: ['Temperature Sensors'], specs: [like('Interface', /I2C|SPI|SMBus|1-Wire/i, 'digital interface')] },
  { id: 'nl-047', kind: 'semantic', query: 'voltage regulator for battery powered 3.3 volt circuit', category: [...LDO, 'DC-DC Converters'], specs: [eq('Output Voltage', 3.3, 'Output 3.3 V')] },
];

export function nlRule(c: NlCase): string {
  const specs = c.specs.length ? c.specs.map((s) => s.text).join('; ') : '(no specs)';
  return (
    `category: ${c.category.join(' or ')}; specs: ${specs}. Judged over active parts. ` +
    (c.specs.length >= 2 ? 'grade 3 = category and every spec; grade 2 = category and all specs but one; grade 1 = category.' : c.specs.length === 1 ? 'grade 3 = category and the spec; grade 1 = category.' : 'grade 3 = category.')
  );
}

export function judgeNl(c: NlCase, parts: readonly PartRecord[]): Record<string, Grade> {
  const j: Record<string, Grade> = {};
  for (const p of parts) {
    if (p.status !== 'active' || !inCategory(p, c.category)) continue;
    const met = c.specs.filter((s) => s.test(p)).length;
    const n = c.specs.length;
    j[p.slug] = met === n ? 3 : n >= 2 && met === n - 1 ? 2 : 1;
  }
  return j;
}

export function buildSampleSuites(): { mpn: RelevanceQuery[]; nl: RelevanceQuery[] } {
  const records = sampleRecords();
  const mpnParts: MpnPart[] = records.map((r) => ({ slug: r.slug, mpn: r.mpn, key: r.mpn_norm, aliasKeys: r.aliases_norm, group: r.category?.slug ?? '-' }));
  const mpn = buildMpnSuite(mpnParts, { suite: 'sample-mpn', seed: DEFAULT_SEED, counts: { exact: 30, lower: 25, punct: 25, variant: 25, prefix: 20, typo: 25, 'short-typo': 0 } });
  const nl = NL_CASES.map((c): RelevanceQuery => {
    const judgments = judgeNl(c, records);
    if (!Object.values(judgments).some((g) => g >= 1)) throw new Error(`${c.id} "${c.query}": no part is relevant; fix the rule`);
    if (c.specs.length && !Object.values(judgments).some((g) => g === 3)) throw new Error(`${c.id} "${c.query}": no part satisfies every spec; fix the rule`);
    return { id: c.id, suite: 'sample-nl', kind: c.kind, query: c.query, endpoint: 'agentic', params: { part_status: ['active'] }, rule: nlRule(c), judgments };
  });
  return { mpn, nl };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { mpn, nl } = buildSampleSuites();
  const files: [string, string][] = [
    [SAMPLE_MPN_FILE, formatSuite(mpn)],
    [SAMPLE_NL_FILE, formatSuite(nl)],
  ];
  if (process.argv.includes('--check')) {
    const stale = files.filter(([f, text]) => !fs.existsSync(f) || fs.readFileSync(f, 'utf8') !== text).map(([f]) => f);
    if (stale.length) {
      console.error(`stale: ${stale.join(', ')} (run npx tsx test/relevance/build-sample-suites.ts)`);
      process.exit(1);
    }
    console.log('sample suites are up to date');
  } else {
    for (const [f, text] of files) fs.writeFileSync(f, text);
    const kinds = (qs: RelevanceQuery[]) => Object.entries(qs.reduce<Record<string, number>>((a, q) => ({ ...a, [q.kind ?? '-']: (a[q.kind ?? '-'] ?? 0) + 1 }), {}));
    console.log(`${SAMPLE_MPN_FILE}: ${mpn.length} queries ${JSON.stringify(Object.fromEntries(kinds(mpn)))}`);
    console.log(`${SAMPLE_NL_FILE}: ${nl.length} queries ${JSON.stringify(Object.fromEntries(kinds(nl)))}`);
  }
}
