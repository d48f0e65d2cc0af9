/**
 * Free-text name matching (src/catalog/match) on a small hand-built tree and registry: every
 * feature, deterministic, no shared data.
 */
import { describe, expect, it } from 'vitest';
import { CategoryTree, type CategoryFileNode } from '../../src/catalog/categories.ts';
import { ManufacturerRegistry } from '../../src/catalog/manufacturers.ts';
import { CATEGORY_FLOOR, createCategoryMatcher } from '../../src/catalog/match/categories.ts';
import { nameParts, nameWords } from '../../src/catalog/match/company-names.ts';
import { createManufacturerMatcher, MANUFACTURER_FLOOR } from '../../src/catalog/match/manufacturers.ts';
import { compilePhrases, toSlots } from '../../src/catalog/match/slots.ts';
import { stem, words } from '../../src/catalog/match/text.ts';
import { Vocabulary } from '../../src/catalog/match/vocabulary.ts';

const leaves = (...names: string[]) => names.map((name) => ({ name }));
const TREE: CategoryFileNode[] = [
  {
    name: 'Capacitors',
    children: leaves(
      'Multilayer Ceramic Capacitors MLCC - SMD/SMT',
      'Tantalum Capacitors',
      'Aluminum Electrolytic Capacitors - SMD',
      'Aluminum Electrolytic Capacitors - Leaded',
      'Film Capacitors',
    ),
  },
  { name: 'Resistors', children: leaves('Chip Resistor - Surface Mount', 'Through Hole Resistors', 'Potentiometers, Variable Resistors') },
  { name: 'Transistors', children: leaves('MOSFETs', 'Bipolar Transistors - BJT', 'MOSFET', 'Digital Transistors') },
  { name: 'Triode/MOS Tube/Transistor', children: leaves('MOSFETs') },
  { name: 'Power Management ICs', children: leaves('Linear Voltage Regulators (LDO)', 'DC-DC Converters', 'Voltage References') },
  { name: 'Amplifiers', children: leaves('Operational Amplifiers', 'Comparators', 'Precision OpAmps', 'FET Input Amplifiers') },
  { name: 'Data Converters', children: leaves('RMS-To-DC Converters', 'RMS-to-DC Converters', 'Analog To Digital Converters (ADCs)') },
  { name: 'Crystals, Oscillators, Resonators', children: leaves('Crystals', 'Crystal Oscillators', 'Ceramic Resonators') },
  { name: 'Connectors', children: leaves('USB Connectors', 'Pin Headers') },
  { name: 'Embedded Processors & Controllers', children: leaves('Microcontroller Units (MCUs/MPUs/SOCs)', 'Artery Mcu') },
  { name: 'Diodes', children: leaves('Zener Diodes', 'Schottky Diodes', 'Switching Diodes') },
  { name: 'Fuses', children: leaves('Resettable Fuses', 'Cartridge Fuses') },
  { name: 'Switches', children: leaves('Tactile Switches', 'Switch Accessories / Caps') },
];

/** Parts per leaf path; everything else 1. */
const COUNTS: Record<string, number> = {
  'transistors/mosfets': 400,
  'triode-mos-tube-transistor/mosfets': 300,
  'transistors/mosfet': 9,
  'data-converters/rms-to-dc-converters': 2,
  'data-converters/rms-to-dc-converters-2': 8,
  'capacitors/multilayer-ceramic-capacitors-mlcc-smd-smt': 800,
  'capacitors/aluminum-electrolytic-capacitors-leaded': 300,
  'capacitors/aluminum-electrolytic-capacitors-smd': 200,
  'embedded-processors-and-controllers/microcontroller-units-mcus-mpus-socs': 290,
};

function buildTree(): CategoryTree {
  const tree = CategoryTree.fromFile(TREE);
  const counts = new Map<string, number>();
  for (const c of tree.flatten()) if (c.children.length === 0) counts.set(c.slug, COUNTS[c.slug] ?? 1);
  tree.setCounts(counts);
  return tree;
}

const tree = buildTree();
const categories = createCategoryMatcher(tree.toJSON());
const top = (q: string) => categories.match(q, 10)[0]?.slug;
const slugs = (q: string, n = 10) => categories.match(q, n).map((m) => m.slug);

describe('text normalisation', () => {
  it('folds case, accents and full-width forms, splits CamelCase and glues electronics spellings', () => {
    expect(words('Würth ＥＬＥＫＴＲＯＮＩＫ')).toEqual(['wurth', 'elektronik']);
    expect(words('Precision OpAmps', true)).toEqual(['precision', 'op', 'amps']);
    expect(words('GaN HEMT / SiC / eMMC', true)).toEqual(['gan', 'hemt', 'sic', 'emmc']);
    expect(words('DC-DC, AC/DC, RS-485, I/O, USB-C')).toEqual(['dcdc', 'acdc', 'rs485', 'io', 'usbc']);
  });

  it('stems plurals and -ing lightly, keeping short abbreviations', () => {
    expect(['capacitors', 'switches', 'batteries', 'mcus', 'ics', 'tvs', 'mos', 'sensing', 'sense'].map(stem)).toEqual([
      'capacitor',
      'switch',
      'battery',
      'mcu',
      'ic',
      'tvs',
      'mos',
      'sens',
      'sens',
    ]);
  });

  it('finds known terms by prefix and by one or two edits on longer words only', () => {
    const v = new Vocabulary();
    for (const t of ['capacitor', 'schottky', 'zener', 'fuse', 'potentiometer']) v.add(t);
    const found = (q: string) => v.lookup(q).map((h) => [v.terms[h.id], Math.round(h.credit * 100) / 100]);
    expect(found('capac')).toEqual([['capacitor', 0.72]]);
    expect(found('shottky')).toEqual([['schottky', 0.85]]);
    expect(found('potentiomtr')).toEqual([['potentiometer', 0.7]]);
    expect(found('fuze')).toEqual([]);
    expect(found('zenr')).toEqual([]);
  });

  it('cuts queries into slots with the synonym alternatives, longest phrase first', () => {
    const slots = toSlots('smd op amp', compilePhrases());
    expect(slots.map((s) => s.typed.join(' '))).toEqual(['smd', 'op amp']);
    expect(slots[1]!.alts.map((a) => a.terms.join(' '))).toEqual(['op amp', 'opamp', 'operational amplifier']);
  });
});

describe('category matching', () => {
  it('scores an exact full name 100, up to case, spacing and punctuation', () => {
    expect(categories.match('Tantalum Capacitors', 1)).toEqual([{ slug: 'capacitors/tantalum-capacitors', confidence: 100, exact: true }]);
    expect(categories.match('  tantalum-CAPACITORS! ', 1)).toEqual([{ slug: 'capacitors/tantalum-capacitors', confidence: 100, exact: true }]);
    expect(categories.match('tantalum capacitor', 1)[0]).toMatchObject({ slug: 'capacitors/tantalum-capacitors', exact: false });
  });

  it('handles plural/singular, word order and partial names', () => {
    expect(top('tantalum capacitor')).toBe('capacitors/tantalum-capacitors');
    expect(top('capacitors tantalum')).toBe('capacitors/tantalum-capacitors');
    expect(top('tantalum')).toBe('capacitors/tantalum-capacitors');
    expect(top('zener')).toBe('diodes/zener-diodes');
    expect(categories.match('capacitors tantalum', 1)[0]!.confidence).toBeGreaterThanOrEqual(90);
  });

  it('understands the abbreviations and shop talk of the synonym table', () => {
    const cases: [string, string][] = [
      ['mlcc', 'capacitors/multilayer-ceramic-capacitors-mlcc-smd-smt'],
      ['ldo', 'power-management-ics/linear-voltage-regulators-ldo'],
      ['low dropout regulator', 'power-management-ics/linear-voltage-regulators-ldo'],
      ['op amp', 'amplifiers/operational-amplifiers'],
      ['opamp', 'amplifiers/operational-amplifiers'],
      ['xtal', 'crystals-oscillators-resonators/crystals'],
      ['crystal oscillator', 'crystals-oscillators-resonators/crystal-oscillators'],
      ['mcu', 'embedded-processors-and-controllers/microcontroller-units-mcus-mpus-socs'],
      ['bjt', 'transistors/bipolar-transistors-bjt'],
      ['pot', 'resistors/potentiometers-variable-resistors'],
      ['dc-dc', 'power-management-ics/dc-dc-converters'],
      ['buck converter', 'power-management-ics/dc-dc-converters'],
      ['usb c connector', 'connectors/usb-connectors'],
      ['smd resistor', 'resistors/chip-resistor-surface-mount'],
      ['adc', 'data-converters/analog-to-digital-converters-adcs'],
      ['tact switch', 'switches/tactile-switches'],
      ['schottky', 'diodes/schottky-diodes'],
    ];
    for (const [q, slug] of cases) expect([q, top(q)]).toEqual([q, slug]);
    expect(categories.match('mlcc', 1)[0]!.confidence).toBeGreaterThanOrEqual(80);
  });

  it('sends "fet" to MOSFETs, not to the FET input amplifiers', () => {
    expect(top('fet')).toBe('transistors/mosfets');
  });

  it('prefers the aluminium electrolytics for "electrolytic cap"', () => {
    expect(slugs('electrolytic cap', 2).sort()).toEqual([
      'capacitors/aluminum-electrolytic-capacitors-leaded',
      'capacitors/aluminum-electrolytic-capacitors-smd',
    ]);
  });

  it('tolerates one typo on words of 5+ letters and two on 8+, not on short words', () => {
    expect(top('mosfett')).toBe('transistors/mosfets');
    expect(top('shottky diode')).toBe('diodes/schottky-diodes');
    expect(top('zenner')).toBe('diodes/zener-diodes');
    expect(top('potentiomter')).toBe('resistors/potentiometers-variable-resistors');
    expect(top('tantalun capacitor')).toBe('capacitors/tantalum-capacitors');
    expect(slugs('fuze')).toEqual([]);
    const typo = categories.match('shottky diode', 1)[0]!.confidence;
    expect(typo).toBeGreaterThanOrEqual(75);
    expect(typo).toBeLessThan(categories.match('schottky diode', 1)[0]!.confidence);
  });

  it('ranks a matching leaf above its root unless the query names the root', () => {
    expect(slugs('tantalum capacitor').indexOf('capacitors/tantalum-capacitors')).toBeLessThan(slugs('tantalum capacitor').indexOf('capacitors'));
    expect(top('capacitors')).toBe('capacitors');
    expect(categories.match('capacitors', 1)[0]!.confidence).toBe(100);
    expect(top('fuses')).toBe('fuses');
    expect(top('resettable fuse')).toBe('fuses/resettable-fuses');
  });

  it('uses the parent as context: "transistor mosfet" is a MOSFET leaf', () => {
    expect(slugs('transistor mosfet', 3).sort()).toEqual(['transistors/mosfet', 'transistors/mosfets', 'triode-mos-tube-transistor/mosfets']);
  });

  it('returns near-duplicates together, by part count, with one confidence; exact marks the own name', () => {
    const m = categories.match('mosfet', 10);
    expect(m.slice(0, 3)).toEqual([
      { slug: 'transistors/mosfets', confidence: 100, exact: false },
      { slug: 'triode-mos-tube-transistor/mosfets', confidence: 100, exact: false },
      { slug: 'transistors/mosfet', confidence: 100, exact: true },
    ]);
    const rms = categories.match('rms to dc converter', 2);
    expect(rms.map((r) => r.slug)).toEqual(['data-converters/rms-to-dc-converters-2', 'data-converters/rms-to-dc-converters']);
    expect(rms[0]!.confidence).toBe(rms[1]!.confidence);
    expect(categories.match('RMS-To-DC Converters', 2).map((r) => r.confidence)).toEqual([100, 100]);
  });

  it('calibrates confidence: exact 100, rewordings 90+, abbreviations 80+, partial middling, weak low', () => {
    const conf = (q: string) => categories.match(q, 1)[0]?.confidence ?? 0;
    expect(conf('Chip Resistor - Surface Mount')).toBe(100);
    expect(conf('surface mount chip resistors')).toBeGreaterThanOrEqual(90);
    expect(conf('ldo')).toBeGreaterThanOrEqual(80);
    expect(conf('aluminum')).toBeGreaterThanOrEqual(40);
    expect(conf('aluminum')).toBeLessThan(80);
    expect(conf('pizza resistor')).toBeLessThan(conf('resistor'));
    for (const r of categories.match('digital', 50)) expect(r.confidence).toBeGreaterThanOrEqual(CATEGORY_FLOOR);
  });

  it('confidences never increase down the list and the limit holds', () => {
    for (const q of ['capacitor', 'mosfet', 'diode', 'converter', 'switch']) {
      const m = categories.match(q, 5);
      expect(m.length).toBeLessThanOrEqual(5);
      for (let i = 1; i < m.length; i++) expect(m[i]!.confidence).toBeLessThanOrEqual(m[i - 1]!.confidence);
    }
    expect(categories.match('mosfet', 0)).toEqual([]);
  });

  it('returns nothing for nonsense and never throws', () => {
    for (const q of ['asdfgh', 'pizza', '', '   ', '!!!', 'qwertyuiop', '🙂', 'x'.repeat(5000), 'the and of']) {
      expect([q.slice(0, 10), categories.match(q, 10)]).toEqual([q.slice(0, 10), []]);
    }
    expect(categories.match(undefined as unknown as string, 5)).toEqual([]);
    expect(categories.match('mosfet', Number.NaN)).toEqual([]);
  });

  it('works on an empty tree', () => {
    expect(createCategoryMatcher([]).match('mosfet', 5)).toEqual([]);
  });
});

const REGISTRY = ManufacturerRegistry.from([
  { name: 'Texas Instruments', aliases: [], part_count: 100 },
  { name: 'texas', aliases: [], part_count: 1 },
  { name: 'Texas Instruements', aliases: [], part_count: 1 },
  { name: 'STMicroelectronics', aliases: ['ST Microelectronics'], part_count: 80 },
  { name: 'Analog Devices', aliases: ['AnalogDevices'], part_count: 60 },
  { name: 'onsemi', aliases: [], part_count: 45 },
  { name: 'ON Semiconductor', aliases: [], part_count: 2 },
  { name: 'Samsung Electro-Mechanics', aliases: [], part_count: 40 },
  { name: 'Samsung', aliases: [], part_count: 5 },
  { name: 'Murata Electronics', aliases: [], part_count: 50 },
  { name: 'muRata', aliases: [], part_count: 3 },
  { name: 'Infineon Technologies', aliases: [], part_count: 30 },
  { name: 'Littelfuse', aliases: ['LITTELFUSE INC'], part_count: 20 },
  { name: 'Littlefuse', aliases: [], part_count: 1 },
  { name: 'UMW(Youtai Semiconductor Co., Ltd.)', aliases: [], part_count: 25 },
  { name: 'Würth Elektronik', aliases: [], part_count: 10 },
  { name: 'Nordic Semicon', aliases: [], part_count: 8 },
  { name: 'Diodes Incorporated', aliases: [], part_count: 15 },
  { name: 'Alpha & Omega Semiconductor', aliases: [], part_count: 7 },
  { name: 'AOS', aliases: [], part_count: 1 },
  { name: 'XKB Connectivity', aliases: [], part_count: 12 },
  { name: 'XKB Connection', aliases: [], part_count: 6 },
  { name: 'Vishay Intertech', aliases: [], part_count: 20 },
  { name: 'Shenzhen Kinghelm Elec', aliases: [], part_count: 9 },
]);
const manufacturers = createManufacturerMatcher(REGISTRY.all());
const mtop = (q: string) => manufacturers.match(q, 5)[0]?.slug;

describe('manufacturer names', () => {
  it('splits parenthesised and slashed names and strips legal and generic words for the core', () => {
    expect(nameParts('UMW(Youtai Semiconductor Co., Ltd.)')).toEqual(['UMW', 'Youtai Semiconductor Co., Ltd.']);
    expect(nameParts('ADI(亚德诺)/MAXIM(美信)')).toEqual(['ADI(亚德诺)', 'MAXIM(美信)', 'ADI', '亚德诺', 'MAXIM', '美信']);
    expect(nameWords('Nordic Semiconductor ASA').core).toEqual(['nordic']);
    expect(nameWords('Semiconductor Inc').core).toEqual(['semiconductor']);
  });
});

describe('manufacturer matching', () => {
  it('resolves full names, case and punctuation, legal suffixes and generic words at 100', () => {
    expect(manufacturers.match('Texas Instruments', 1)).toEqual([{ slug: 'texas-instruments', confidence: 100 }]);
    expect(manufacturers.match('TEXAS-INSTRUMENTS, INC.', 1)).toEqual([{ slug: 'texas-instruments', confidence: 100 }]);
    expect(manufacturers.match('Diodes Inc', 1)).toEqual([{ slug: 'diodes-incorporated', confidence: 100 }]);
    expect(manufacturers.match('Nordic Semiconductor', 1)).toEqual([{ slug: 'nordic-semicon', confidence: 100 }]);
    expect(mtop('littelfuse inc.')).toBe('littelfuse');
  });

  it('resolves aliases and the industry abbreviations of the table', () => {
    expect(mtop('ST Microelectronics')).toBe('stmicroelectronics');
    expect(mtop('analogdevices')).toBe('analog-devices');
    expect(manufacturers.match('TI', 1)).toEqual([{ slug: 'texas-instruments', confidence: 100 }]);
    expect(mtop('ST')).toBe('stmicroelectronics');
    expect(mtop('ADI')).toBe('analog-devices');
    expect(mtop('AOS')).toBe('alpha-and-omega-semiconductor');
    expect(mtop('ON Semiconductor')).toBe('onsemi');
    expect(mtop('onsemi')).toBe('onsemi');
  });

  it('attaches an abbreviation only to a manufacturer the data holds', () => {
    const small = createManufacturerMatcher(ManufacturerRegistry.from([{ name: 'Tiger Electronic', aliases: [] }]).all());
    expect(small.match('TI', 5)).toEqual([]);
  });

  it('matches brand words, prefixes and the parts of parenthesised names', () => {
    expect(mtop('texas')).toBe('texas-instruments');
    expect(mtop('infineon')).toBe('infineon-technologies');
    expect(mtop('tex')).toBe('texas-instruments');
    expect(mtop('stmicro')).toBe('stmicroelectronics');
    expect(mtop('Youtai')).toBe('umw-youtai-semiconductor-co-ltd');
    expect(mtop('UMW')).toBe('umw-youtai-semiconductor-co-ltd');
    expect(mtop('Kinghelm')).toBe('shenzhen-kinghelm-elec');
    expect(mtop('alpha & omega')).toBe('alpha-and-omega-semiconductor');
    expect(manufacturers.match('texas', 1)[0]!.confidence).toBeGreaterThanOrEqual(90);
    expect(manufacturers.match('tex', 1)[0]!.confidence).toBeLessThan(90);
  });

  it('handles umlauts either way', () => {
    expect(mtop('Würth')).toBe('wurth-elektronik');
    expect(mtop('wurth')).toBe('wurth-elektronik');
    expect(mtop('Wuerth Elektronik')).toBe('wurth-elektronik');
  });

  it('tolerates typos and word order', () => {
    expect(mtop('Infinion')).toBe('infineon-technologies');
    expect(mtop('Texas Instrumnets')).toBe('texas-instruments');
    expect(mtop('Instruments Texas')).toBe('texas-instruments');
    expect(mtop('Vishay Intertechnology')).toBe('vishay-intertech');
  });

  it('prefers the bigger manufacturer over its truncated or misspelt records', () => {
    // "Samsung", "muRata", "texas" and "Littlefuse" exist as records of their own, with few parts
    expect(manufacturers.match('Samsung', 2)).toEqual([
      { slug: 'samsung-electro-mechanics', confidence: 100 },
      { slug: 'samsung', confidence: 100 },
    ]);
    expect(mtop('Murata')).toBe('murata-electronics');
    expect(mtop('Littlefuse')).toBe('littelfuse');
    expect(manufacturers.match('Texas Instruements', 2).map((m) => m.slug)).toEqual(['texas-instruments', 'texas-instruements']);
  });

  it('breaks ties by part count', () => {
    expect(manufacturers.match('XKB', 2)).toEqual([
      { slug: 'xkb-connectivity', confidence: 92 },
      { slug: 'xkb-connection', confidence: 92 },
    ]);
  });

  it('returns nothing for nonsense, generic words alone and bad input; never throws', () => {
    for (const q of ['asdfgh', 'pizza', '', '  ', 'Semiconductor', 'Inc.', '!!!', 'x'.repeat(5000)]) {
      expect([q.slice(0, 10), manufacturers.match(q, 5)]).toEqual([q.slice(0, 10), []]);
    }
    expect(manufacturers.match(null as unknown as string, 5)).toEqual([]);
    for (const r of manufacturers.match('te', 50)) expect(r.confidence).toBeGreaterThanOrEqual(MANUFACTURER_FLOOR);
    expect(createManufacturerMatcher([]).match('TI', 5)).toEqual([]);
  });
});
