import { describe, expect, it } from 'vitest';
import { CategoryTree } from '../../src/catalog/categories.ts';
import { IdMap, IdSet } from '../../src/catalog/id-set.ts';
import { opaqueId, stableId53 } from '../../src/catalog/ids.ts';
import { ManufacturerRegistry } from '../../src/catalog/manufacturers.ts';
import { legacySlug, mpnSlug, normaliseMpn, slugify } from '../../src/catalog/mpn.ts';
import { normaliseSpec, PartNormaliser } from '../../src/catalog/normalise.ts';
import { normaliseStatus } from '../../src/catalog/status.ts';
import { editDistance } from '../../src/catalog/edit-distance.ts';

describe('MPN normalisation and slugs', () => {
  it.each([
    ['LM358DR', 'LM358DR'],
    ['lm358dr', 'LM358DR'],
    ['LM358-DR', 'LM358DR'],
    [' lm358 dr ', 'LM358DR'],
    ['MCP6002T-I/SN', 'MCP6002TISN'],
    ['AMS1117-3.3', 'AMS11173'.concat('3')],
    ['ＬＭ３５８', 'LM358'],
  ])('normalises %s to %s', (mpn, key) => expect(normaliseMpn(mpn)).toBe(key));

  it.each([
    ['MCP6002T-I/SN', 'MCP6002T-I_SN'],
    ['AMS1117-3.3', 'AMS1117-3.3'],
    ['ABM8 16.000MHZ', 'ABM8-16.000MHZ'],
    ['C#1+2', 'C_1_2'],
    ['YX-KC9042 16Ω', 'YX-KC9042-16~CE~A9'],
    ['2.54-2*5P简牛', '2.54-2_5P~E7~AE~80~E7~89~9B'],
    ['A~B', 'A_B'],
    ['GH😀', 'GH__'], // not a letter: "_" per UTF-16 unit, as slugs were written before the escapes
    ['ＬＭ３５８', 'LM358'],
  ])('makes the URL segment of %s: %s', (mpn, slug) => expect(mpnSlug(mpn)).toBe(slug));

  it.each([
    ['YX-KC9042 16Ω', 'YX-KC9042-16_'],
    ['2.54-2*5P简牛', '2.54-2_5P__'],
    ['𝟘x', '0x'], // NFKC: a mathematical digit is a plain one
    ['a𠀀b', 'a__b'], // outside the BMP: two UTF-16 units, two underscores, as the old slugs wrote it
  ])('reads the slug of %s as it was before the escapes: %s', (mpn, old) => expect(legacySlug(mpnSlug(mpn))).toBe(old));

  it('gives MPNs that differ only in letters outside ASCII different slugs, each safe in a URL as it is', () => {
    const mpns = ['2.54-2*5P简牛', '2.54-2*5P弯针', '2.54-2*5P', 'π131U60R', 'KC1206R 42Ω', 'KC1206R 42'];
    expect(new Set(mpns.map(mpnSlug)).size).toBe(mpns.length);
    for (const m of mpns) expect(encodeURIComponent(mpnSlug(m))).toBe(mpnSlug(m)); // nothing to escape in a URL
  });

  it.each([
    ['Texas Instruments', 'texas-instruments'],
    ['Würth Elektronik', 'wurth-elektronik'],
    ['Alpha & Omega Semiconductor', 'alpha-and-omega-semiconductor'],
    ['UNI-ROYAL(Uniroyal Elec)', 'uni-royal-uniroyal-elec'],
    ['ADC/DAC/Data Conversion', 'adc-dac-data-conversion'],
    ['贴片电阻', 'x'],
  ])('slugifies %s as %s', (name, slug) => expect(slugify(name)).toBe(slug));
});

describe('manufacturer resolution', () => {
  const reg = ManufacturerRegistry.from([
    { name: 'Texas Instruments', aliases: ['TI', 'TEXAS INSTRUMENTS'] },
    { name: 'onsemi', aliases: ['ON Semiconductor'] },
    { name: 'STMicroelectronics', aliases: ['ST'] },
  ]);
  it.each([
    ['TI', 'texas-instruments'],
    ['TEXAS INSTRUMENTS', 'texas-instruments'],
    ['texas instruments', 'texas-instruments'],
    ['Texas Instruments Inc.', 'texas-instruments'],
    ['Texas-Instruments', 'texas-instruments'],
    ['ON Semiconductor', 'onsemi'],
    ['ON-SEMICONDUCTOR', 'onsemi'],
    ['st', 'stmicroelectronics'],
  ])('resolves %s to %s', (name, slug) => expect(reg.lookup(name)?.slug).toBe(slug));

  it('creates a manufacturer first seen on a part, with a unique slug and a stable id', () => {
    const r = ManufacturerRegistry.from([{ name: 'Acme' }]);
    const a = r.resolve('Nexperia');
    expect(a).toMatchObject({ slug: 'nexperia', name: 'Nexperia' });
    expect(r.resolve('NEXPERIA')).toBe(a);
    const clash = r.add('ACME!', [], null);
    expect(clash.slug).toBe('acme');
    const other = ManufacturerRegistry.from([{ name: 'Acme' }]).resolve('Nexperia');
    expect(other.id).toBe(a.id);
  });
});

describe('category tree', () => {
  const tree = CategoryTree.fromFile([
    { name: 'Capacitors', children: [{ name: 'Tantalum Capacitors' }, { name: 'Aluminum Electrolytic Capacitors - SMD' }] },
    { name: 'ADC/DAC/Data Conversion', children: [{ name: 'RMS-To-DC Converters' }, { name: 'RMS-to-DC Converters' }] },
  ]);
  it('derives full path slugs and de-duplicates siblings that slug alike, in file order', () => {
    expect(tree.flatten().map((c) => c.slug)).toEqual([
      'capacitors',
      'capacitors/tantalum-capacitors',
      'capacitors/aluminum-electrolytic-capacitors-smd',
      'adc-dac-data-conversion',
      'adc-dac-data-conversion/rms-to-dc-converters',
      'adc-dac-data-conversion/rms-to-dc-converters-2',
    ]);
    expect(tree.resolvePath(['ADC/DAC/Data Conversion', 'RMS-to-DC Converters'])).toBe('adc-dac-data-conversion/rms-to-dc-converters-2');
  });
  it('resolves name paths loosely and adds paths it lacks', () => {
    const t = CategoryTree.fromData(tree.toJSON());
    expect(t.resolvePath(['capacitors', 'tantalum capacitors'])).toBe('capacitors/tantalum-capacitors');
    expect(t.resolvePath(['Capacitors', 'Film Capacitors'])).toBe('capacitors/film-capacitors');
    expect(t.children('capacitors').map((c) => c.name)).toContain('Film Capacitors');
    expect(t.ref('capacitors/film-capacitors')).toEqual({
      slug: 'capacitors/film-capacitors',
      name: 'Film Capacitors',
      path: [
        { slug: 'capacitors', name: 'Capacitors' },
        { slug: 'capacitors/film-capacitors', name: 'Film Capacitors' },
      ],
    });
  });
  it('sums part counts up the tree', () => {
    const t = CategoryTree.fromData(tree.toJSON());
    t.setCounts(
      new Map([
        ['capacitors/tantalum-capacitors', 3],
        ['capacitors', 1],
        ['adc-dac-data-conversion/rms-to-dc-converters-2', 2],
      ]),
    );
    expect(t.get('capacitors')).toMatchObject({ own_count: 1, part_count: 4 });
    expect(t.get('adc-dac-data-conversion')?.part_count).toBe(2);
    expect(t.get('capacitors/aluminum-electrolytic-capacitors-smd')?.part_count).toBe(0);
  });
});

describe('part normalisation', () => {
  it('keeps display strings, adds SI numbers, rolls up offers and resolves status', () => {
    const n = new PartNormaliser(ManufacturerRegistry.from([{ name: 'YAGEO', aliases: ['Yageo'] }]), new CategoryTree());
    const p = n.normalise({
      mpn: 'RC0603FR-0710KL',
      manufacturer: 'Yageo',
      description: '10kΩ ±1% 0603',
      status: 'Not Recommended for New Designs',
      category: ['Resistors', 'Chip Resistor - Surface Mount'],
      specs: [
        { name: 'Resistance', value: '10kΩ' },
        { name: 'Operating temperature', value: '-55℃~+155℃' },
      ],
      offers: [
        {
          distributor: 'LCSC',
          stock: 10,
          currency: 'USD',
          price_breaks: [
            [1, 0.01],
            [100, 0.002],
          ],
        },
        { distributor: 'X', stock: 5, currency: 'EUR', price_breaks: [[1, 0.0001]] },
      ],
      aliases: ['RC0603FR-0710KL', 'RC0603FR0710KL-ALT'],
    });
    expect(p).toMatchObject({
      mpn_norm: 'RC0603FR0710KL',
      slug: 'yageo/RC0603FR-0710KL',
      manufacturer: { name: 'YAGEO', slug: 'yageo' },
      status: 'nrnd',
      category: { slug: 'resistors/chip-resistor-surface-mount' },
      stock: 15,
      min_price_usd: 0.002,
      aliases: ['RC0603FR0710KL-ALT'],
      aliases_norm: ['RC0603FR0710KLALT'],
    });
    expect(p.specs[0]).toEqual({ name: 'Resistance', value: '10kΩ', num: 10000, min: 10000, max: 10000, unit: 'Ω', attribute: 'resistance' });
    expect(p.specs[1]).toMatchObject({ value: '-55℃~+155℃', num: null, min: -55, max: 155, unit: '℃', attribute: 'operating_temperature' });
  });
  it('trusts num and unit given by the dump', () => {
    expect(normaliseSpec({ name: 'Capacitance', value: '100nF', num: 1e-7, unit: 'F' })).toEqual({
      name: 'Capacitance',
      value: '100nF',
      num: 1e-7,
      min: 1e-7,
      max: 1e-7,
      unit: 'F',
      attribute: 'capacitance',
    });
  });
  it('assigns each spec its canonical attribute, by the unit where the name alone is ambiguous', () => {
    expect(normaliseSpec({ name: 'Voltage - supply', value: '2.7V~3.6V' }).attribute).toBe('supply_voltage');
    expect(normaliseSpec({ name: 'Tolerance', value: '±1%' }).attribute).toBe('tolerance');
    expect(normaliseSpec({ name: 'Tolerance', value: '±0.5℃' }).attribute).toBe('temperature_accuracy');
    expect(normaliseSpec({ name: 'Strike gundam', value: 'Yes' }).attribute).toBeNull();
  });
  it.each([
    ['Active', 'active'],
    ['NRND', 'nrnd'],
    ['Last Time Buy', 'ltb'],
    ['Discontinued', 'obsolete'],
    ['engineering sample', 'engineering_sample'],
    ['whatever', 'unknown'],
    [null, 'unknown'],
  ])('normalises status %s to %s', (raw, status) => expect(normaliseStatus(raw)).toBe(status));
});

describe('ids and small structures', () => {
  it('derives stable ids below 2^53 and opaque handles', () => {
    const id = stableId53('part:texas-instruments|LM358DR');
    expect(id).toBe(stableId53('part:texas-instruments|LM358DR'));
    expect(Number.isSafeInteger(id) && id > 0).toBe(true);
    expect(stableId53('part:texas-instruments|LM358D')).not.toBe(id);
    expect(opaqueId('lst_', 'curated:jlcpcb-basic')).toMatch(/^lst_[a-z2-7]{20}$/);
  });
  it('IdMap and IdSet behave like Map and Set across growth', () => {
    const m = new IdMap(4);
    const s = new IdSet();
    for (let i = 1; i <= 5000; i++) {
      m.set(stableId53(String(i)), i);
      s.add(stableId53(String(i)));
    }
    expect(m.size).toBe(5000);
    expect(m.get(stableId53('4321'))).toBe(4321);
    m.set(stableId53('4321'), 7);
    expect(m.get(stableId53('4321'))).toBe(7);
    expect(m.size).toBe(5000);
    expect(s.has(stableId53('5000'))).toBe(true);
    expect(s.has(stableId53('5001'))).toBe(false);
  });
  it('counts edits with adjacent swaps, capped', () => {
    expect(editDistance('LM358DR', 'LM358DR')).toBe(0);
    expect(editDistance('LM358DR', 'LM358D')).toBe(1);
    expect(editDistance('LM358DR', 'LM385DR')).toBe(1);
    expect(editDistance('AO3400A', 'AO3401B')).toBe(2);
    expect(editDistance('AO3400A', 'XYZ')).toBe(3);
  });
  it('agrees with the full optimal-string-alignment table on random pairs, short and long, ASCII or not', () => {
    // The textbook table, uncapped: the reference for the banded, buffer-reusing implementation.
    const osa = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      return d[a.length]![b.length]!;
    };
    let h = 99;
    const rnd = () => ((h = (Math.imul(h, 1103515245) + 12345) >>> 0), h / 2 ** 32);
    const alphabet = 'abcab12-Ωé😀';
    const word = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    const edit = (s: string) => {
      const i = Math.floor(rnd() * (s.length + 1));
      const op = Math.floor(rnd() * 3);
      return op === 0
        ? s.slice(0, i) + word(1) + s.slice(i)
        : op === 1
          ? s.slice(0, i) + s.slice(i + 1)
          : s.slice(0, i) + s.charAt(i + 1) + s.charAt(i) + s.slice(i + 2);
    };
    for (let k = 0; k < 3000; k++) {
      const a = word(Math.floor(rnd() * (k % 100 === 0 ? 150 : 12)));
      let b = rnd() < 0.3 ? word(Math.floor(rnd() * 12)) : a;
      for (let e = Math.floor(rnd() * 4); e > 0; e--) b = edit(b);
      const max = Math.floor(rnd() * 4);
      expect(editDistance(a, b, max), `${a} / ${b} / ${max}`).toBe(Math.min(osa(a, b), max + 1));
    }
  });
});
