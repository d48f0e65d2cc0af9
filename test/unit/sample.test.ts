import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateSampleCatalogue, writeSampleCatalogue, type SampleCatalogue } from '../../src/sample/generate.ts';
import { DUMP_PART_FIELDS } from '../../src/catalog/part.ts';

type Json = Record<string, unknown>;

const STATUSES = new Set(['active', 'engineering_sample', 'nrnd', 'ltb', 'obsolete', 'unknown']);
const DISTRIBUTORS = new Set(['LCSC', 'DigiKey', 'Mouser']);
const LIBRARY_TYPES = new Set(['Basic', 'Preferred', 'Extended']);
const PART_FIELDS: ReadonlySet<string> = new Set(DUMP_PART_FIELDS);

const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isNonEmpty = (x: unknown): x is string => isStr(x) && x.trim().length > 0;
const isInt = (x: unknown, min = 0): x is number => Number.isInteger(x) && (x as number) >= min;
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Structural check of one part against the dump format (FORMAT.md); returns the problems found. */
function validatePart(p: unknown): string[] {
  const errors: string[] = [];
  const err = (msg: string) => errors.push(msg);
  if (!isObj(p)) return ['part is not an object'];
  for (const k of Object.keys(p)) if (!PART_FIELDS.has(k)) err(`unexpected field ${k}`);
  if (!isNonEmpty(p.mpn) || p.mpn !== p.mpn.trim()) err('mpn must be a trimmed non-empty string');
  if (!isNonEmpty(p.manufacturer)) err('manufacturer must be a non-empty string');
  if (!isStr(p.description) || p.description.includes('\n')) err('description must be one line');
  if (p.long_description !== undefined && !isNonEmpty(p.long_description)) err('long_description must be text');
  if (p.status !== undefined && !(isStr(p.status) && STATUSES.has(p.status.toLowerCase()))) err(`bad status ${String(p.status)}`);
  if (p.category !== undefined && !(Array.isArray(p.category) && p.category.length > 0 && p.category.every(isNonEmpty))) err('bad category');
  if (p.series !== undefined && !isNonEmpty(p.series)) err('bad series');
  if (p.package !== undefined && !isNonEmpty(p.package)) err('bad package');
  if (p.specs !== undefined) {
    if (!Array.isArray(p.specs)) err('specs must be an array');
    else
      for (const s of p.specs) {
        if (!isObj(s) || !isNonEmpty(s.name) || !isNonEmpty(s.value)) err(`bad spec ${JSON.stringify(s)}`);
        else {
          if (s.num !== undefined && !isNum(s.num)) err(`spec ${s.name}: num must be finite`);
          if (s.unit !== undefined && !(isNonEmpty(s.unit) && s.num !== undefined)) err(`spec ${s.name}: unit without num`);
          if (/^[-+]?[\d.]+[^~]*~/.test(s.value) && s.num !== undefined) err(`spec ${s.name}: a range carries no num`);
        }
      }
  }
  if (p.images !== undefined) {
    if (!Array.isArray(p.images)) err('images must be an array');
    else
      for (const i of p.images)
        if (!isObj(i) || !isStr(i.url) || !i.url.startsWith('https://') || (i.caption !== undefined && !isStr(i.caption))) err('bad image');
  }
  if (p.documents !== undefined) {
    if (!Array.isArray(p.documents)) err('documents must be an array');
    else
      for (const d of p.documents)
        if (!isObj(d) || !isNonEmpty(d.name) || !isNonEmpty(d.type) || !isStr(d.url) || !d.url.startsWith('https://')) err('bad document');
  }
  if (p.offers !== undefined) {
    if (!Array.isArray(p.offers)) err('offers must be an array');
    else
      for (const o of p.offers) {
        if (!isObj(o) || !isNonEmpty(o.distributor) || !isNonEmpty(o.currency) || !Array.isArray(o.price_breaks)) {
          err('bad offer');
          continue;
        }
        if (o.sku !== undefined && !isNonEmpty(o.sku)) err('bad sku');
        if (o.stock !== undefined && !isInt(o.stock)) err('bad stock');
        if (o.moq !== undefined && !isInt(o.moq, 1)) err('bad moq');
        if (o.packaging !== undefined && !isNonEmpty(o.packaging)) err('bad packaging');
        if (o.lead_time_days !== undefined && !isInt(o.lead_time_days)) err('bad lead time');
        let prev: [number, number] | undefined;
        for (const b of o.price_breaks as unknown[]) {
          if (!Array.isArray(b) || b.length !== 2 || !isInt(b[0], 1) || !isNum(b[1]) || b[1] <= 0) {
            err(`bad price break ${JSON.stringify(b)}`);
            continue;
          }
          if (prev && !(b[0] > prev[0] && b[1] < prev[1])) err('price breaks must have rising quantity and falling price');
          prev = [b[0], b[1]];
        }
      }
  }
  if (p.aliases !== undefined && !(Array.isArray(p.aliases) && p.aliases.every(isNonEmpty) && !p.aliases.includes(p.mpn as string))) err('bad aliases');
  if (p.source_id !== undefined && !isNonEmpty(p.source_id)) err('bad source_id');
  if (p.attributes !== undefined && !isObj(p.attributes)) err('attributes must be an object');
  return errors;
}

interface Node {
  name: string;
  description?: string;
  children?: Node[];
}

/** Root-to-node paths; leaves are those without children. */
function categoryPaths(tree: Node[]): { all: Set<string>; leaves: Set<string> } {
  const all = new Set<string>();
  const leaves = new Set<string>();
  const walk = (nodes: Node[], prefix: string[]) => {
    for (const n of nodes) {
      const p = [...prefix, n.name];
      all.add(p.join(' > '));
      if (n.children?.length) walk(n.children, p);
      else leaves.add(p.join(' > '));
    }
  };
  walk(tree, []);
  return { all, leaves };
}

/** Manufacturer name or alias (case-insensitive) -> canonical name. */
function aliasMap(catalogue: SampleCatalogue): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of catalogue.manufacturers) for (const n of [m.name, ...m.aliases]) map.set(n.toLowerCase(), m.name);
  return map;
}

const partsOf = (c: SampleCatalogue) => c.parts as Json[];

describe('sample catalogue generator', () => {
  let catalogue: SampleCatalogue;
  let parts: Json[];
  let canonical: Map<string, string>;
  const identity = (manufacturer: string, mpn: string) => `${canonical.get(manufacturer.toLowerCase()) ?? `?${manufacturer}`}\u0000${mpn}`;

  beforeAll(() => {
    catalogue = generateSampleCatalogue();
    parts = partsOf(catalogue);
    canonical = aliasMap(catalogue);
  });

  describe('determinism', () => {
    const dirs: string[] = [];
    afterAll(async () => {
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    });

    it('writes byte-identical files on two runs with the same seed', async () => {
      const a = await mkdtemp(path.join(tmpdir(), 'sample-a-'));
      const b = await mkdtemp(path.join(tmpdir(), 'sample-b-'));
      dirs.push(a, b);
      const ra = await writeSampleCatalogue(a);
      const rb = await writeSampleCatalogue(b);
      expect(ra.parts).toBe(2500);
      expect(rb.parts).toBe(ra.parts);
      expect((await readdir(a)).sort()).toEqual(['categories.json', 'lists.json', 'manufacturers.json', 'parts.jsonl']);
      for (const key of ['partsFile', 'manufacturersFile', 'categoriesFile', 'listsFile'] as const) {
        expect(path.dirname(ra[key])).toBe(a);
        const [x, y] = await Promise.all([readFile(ra[key]), readFile(rb[key])]);
        expect(x.length).toBeGreaterThan(0);
        expect(x.equals(y), `${key} differs between runs`).toBe(true);
      }
    });

    it('writes parseable JSON Lines matching the in-memory catalogue', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'sample-c-'));
      dirs.push(dir);
      const r = await writeSampleCatalogue(dir, { parts: 300, seed: 7 });
      const text = await readFile(r.partsFile, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      expect(lines).toHaveLength(300);
      expect(lines.map((l) => JSON.parse(l))).toEqual(generateSampleCatalogue({ parts: 300, seed: 7 }).parts);
      expect(JSON.parse(await readFile(r.listsFile, 'utf8'))).toEqual(generateSampleCatalogue({ parts: 300, seed: 7 }).lists);
    });

    it('is a pure function of seed and size, and never uses Math.random', () => {
      const spy = vi.spyOn(Math, 'random').mockImplementation(() => {
        throw new Error('Math.random used');
      });
      try {
        const again = generateSampleCatalogue({ seed: 42, parts: 2500 });
        expect(JSON.stringify(again)).toBe(JSON.stringify(catalogue));
      } finally {
        spy.mockRestore();
      }
      const other = generateSampleCatalogue({ seed: 43 });
      expect(other.parts).toHaveLength(2500);
      expect(JSON.stringify(other.parts)).not.toBe(JSON.stringify(catalogue.parts));
    });

    it('does not depend on the shared data folder', async () => {
      const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/sample');
      const files = (await readdir(srcDir, { recursive: true })).filter((f) => f.endsWith('.ts'));
      expect(files.length).toBeGreaterThan(3);
      for (const f of files) {
        const src = await readFile(path.join(srcDir, f), 'utf8');
        expect(src, f).not.toMatch(/shared\/data|Math\.random\(|readFile/);
      }
    });
  });

  describe('counts', () => {
    it('has about 2,500 parts by default and honours the parts option', () => {
      expect(parts).toHaveLength(2500);
      expect(generateSampleCatalogue({ parts: 400 }).parts).toHaveLength(400);
      expect(generateSampleCatalogue({ parts: 0 }).parts).toHaveLength(0);
    });

    it('spreads parts over every leaf category, passives the majority', () => {
      const { leaves } = categoryPaths(catalogue.categories as Node[]);
      const byLeaf = new Map<string, number>();
      for (const p of parts) {
        const key = (p.category as string[]).join(' > ');
        byLeaf.set(key, (byLeaf.get(key) ?? 0) + 1);
      }
      const used = [...leaves].filter((l) => (byLeaf.get(l) ?? 0) > 0);
      expect(used.length).toBeGreaterThanOrEqual(25);
      const passiveRoots = new Set(['Resistors', 'Capacitors', 'Inductors/Coils/Transformers']);
      const passives = parts.filter((p) => passiveRoots.has((p.category as string[])[0]!)).length;
      expect(passives / parts.length).toBeGreaterThan(0.5);
      expect(passives / parts.length).toBeLessThan(0.85);
      for (const leaf of [
        'Resistors > Chip Resistor - Surface Mount',
        'Capacitors > Multilayer Ceramic Capacitors MLCC - SMD/SMT',
        'Power Management ICs > Voltage Regulators > Linear Voltage Regulators (LDO)',
        'Amplifiers > Operational Amplifiers',
        'Transistors > MOSFETs',
        'Triode/MOS Tube/Transistor > MOSFETs',
        'Embedded Processors & Controllers > Microcontrollers (MCU/MPU/SOC)',
        'RF and Wireless > WiFi/Bluetooth Modules',
      ]) {
        expect(byLeaf.get(leaf) ?? 0, leaf).toBeGreaterThan(0);
      }
    });

    it('has about 25 manufacturers with unambiguous aliases', () => {
      expect(catalogue.manufacturers.length).toBeGreaterThanOrEqual(22);
      expect(catalogue.manufacturers.length).toBeLessThanOrEqual(30);
      const seen = new Map<string, string>();
      for (const m of catalogue.manufacturers) {
        expect(isNonEmpty(m.name)).toBe(true);
        expect(Array.isArray(m.aliases)).toBe(true);
        if (m.logo !== undefined) expect(m.logo).toMatch(/^https:\/\/[^/]+\.example\//);
        for (const n of [m.name, ...m.aliases]) {
          const prev = seen.get(n.toLowerCase());
          expect(prev === undefined || prev === m.name, `${n} names both ${prev} and ${m.name}`).toBe(true);
          seen.set(n.toLowerCase(), m.name);
        }
      }
      expect(canonical.get('ti')).toBe('Texas Instruments');
      expect(canonical.get('on semiconductor')).toBe('onsemi');
      expect(canonical.get('wurth')).toBe('Würth Elektronik');
    });

    it('has the three lists with their expected sizes', () => {
      const [basic, preferred, user] = catalogue.lists;
      expect(catalogue.lists).toHaveLength(3);
      expect(basic).toMatchObject({ name: 'Sample Basic parts', kind: 'curated', slug: 'sample-basic' });
      expect(preferred).toMatchObject({ name: 'Sample Preferred parts', kind: 'curated', slug: 'sample-preferred' });
      expect(user).toMatchObject({ name: 'My approved parts', kind: 'user', account: 'local' });
      expect(basic!.members).toHaveLength(100);
      expect(preferred!.members).toHaveLength(150);
      expect(user!.members).toHaveLength(32);
    });
  });

  describe('format', () => {
    it('every part validates against the dump format', () => {
      const problems = parts.flatMap((p, i) => validatePart(p).map((e) => `#${i} ${String(p.mpn)}: ${e}`));
      expect(problems.slice(0, 20)).toEqual([]);
    });

    it('fills the fields the sample promises', () => {
      parts.forEach((p, i) => {
        expect(p.source_id).toBe(`sample:${i + 1}`);
        expect((p.specs as unknown[]).length).toBeGreaterThan(2);
        const offers = p.offers as Json[];
        expect(offers.length).toBeGreaterThanOrEqual(1);
        expect(offers.length).toBeLessThanOrEqual(3);
        for (const o of offers) {
          expect(DISTRIBUTORS.has(o.distributor as string)).toBe(true);
          expect(o.currency).toBe('USD');
          expect((o.price_breaks as number[][]).map((b) => b[0])).toEqual([1, 10, 100, 1000]);
        }
        expect(new Set(offers.map((o) => o.distributor)).size).toBe(offers.length);
        const attrs = p.attributes as Json;
        expect(LIBRARY_TYPES.has(attrs.library_type as string)).toBe(true);
        expect(attrs.rohs === null || typeof attrs.rohs === 'boolean').toBe(true);
        expect(isInt(attrs.pins, 1)).toBe(true);
        for (const img of (p.images as Json[] | undefined) ?? []) expect(img.url).toMatch(/^https:\/\/img\.partsearch\.example\//);
      });
      const withLong = parts.filter((p) => p.long_description).length / parts.length;
      expect(withLong).toBeGreaterThan(0.2);
      expect(withLong).toBeLessThan(0.4);
      expect(parts.filter((p) => p.aliases).length).toBeGreaterThan(30);
      expect(parts.some((p) => (p.offers as Json[]).some((o) => o.stock === 0))).toBe(true);
    });

    it('has mostly active parts and every lifecycle status, including mixed case', () => {
      const statuses = parts.map((p) => p.status as string | undefined);
      expect(statuses.filter((s) => s?.toLowerCase() === 'active').length / parts.length).toBeGreaterThan(0.75);
      for (const s of STATUSES)
        expect(
          statuses.some((x) => x?.toLowerCase() === s),
          s,
        ).toBe(true);
      expect(statuses).toContain('Active');
    });

    it('writes specs the way catalogues display them', () => {
      const find = (mpn: string, manufacturer?: string) => {
        const p = parts.find((x) => x.mpn === mpn && (!manufacturer || canonical.get((x.manufacturer as string).toLowerCase()) === manufacturer));
        expect(p, mpn).toBeDefined();
        return p!;
      };
      const spec = (p: Json, name: string) => (p.specs as Json[]).find((s) => s.name === name);
      const r = find('RC0603FR-0710KL');
      expect(spec(r, 'Resistance')).toEqual({ name: 'Resistance', value: '10kΩ', num: 10000, unit: 'Ω' });
      expect(spec(r, 'Tolerance')).toMatchObject({ value: '±1%', num: 1, unit: '%' });
      expect(spec(r, 'Power(Watts)')).toMatchObject({ value: '100mW', num: 0.1, unit: 'W' });
      expect(spec(r, 'Operating Temperature')).toEqual({ name: 'Operating Temperature', value: '-55℃~+155℃' });
      expect(r.description).toMatch(/^10kΩ ±1% 100mW 0603 Thick Film Resistor/);
      const c = find('GRM188R71H104KA93D');
      expect(spec(c, 'Capacitance')).toMatchObject({ value: '100nF', unit: 'F' });
      expect(spec(c, 'Capacitance')!.num).toBeCloseTo(1e-7, 15);
      expect(spec(c, 'Voltage Rated')).toMatchObject({ value: '50V', num: 50 });
      expect(spec(c, 'Temperature Coefficient')).toMatchObject({ value: 'X7R' });
      expect(spec(find('TLV70033DDCR'), 'Output Voltage')).toMatchObject({ value: '3.3V', num: 3.3, unit: 'V' });
      expect(spec(find('AO3400A'), 'Continuous Drain Current (Id)')).toMatchObject({ value: '5.8A', num: 5.8 });
      expect(spec(find('ABM8-16.000MHZ-B2-T'), 'Frequency')).toMatchObject({ value: '16MHz', num: 16e6, unit: 'Hz' });
    });
  });

  describe('identities and references', () => {
    it('includes the well-known parts the docs refer to', () => {
      const mpns = new Set(parts.map((p) => p.mpn));
      for (const mpn of [
        'RC0603FR-0710KL',
        '0603WAF1002T5E',
        'GRM188R71H104KA93D',
        'CL10B104KB8NNNC',
        'LM358DR',
        'LM358D',
        'LM358DGKR',
        'TLV70033DDCR',
        'LD1117S33TR',
        'AMS1117-3.3',
        'AO3400A',
        '2N7002LT1G',
        'MMBT3904LT1G',
        'BAT54',
        '1N4148W',
        'BZT52C5V1',
        'ABM8-16.000MHZ-B2-T',
        'STM32F103C8T6',
        'STM32G031K8T6',
        'ESP32-WROOM-32E-N4',
        'NE555DR',
        'SN74LVC1G00DBVR',
      ]) {
        expect(mpns.has(mpn), mpn).toBe(true);
      }
    });

    it('has unique (manufacturer, mpn) identities after alias resolution', () => {
      const ids = new Set<string>();
      for (const p of parts) {
        const m = p.manufacturer as string;
        expect(canonical.has(m.toLowerCase()), `unknown manufacturer ${m}`).toBe(true);
        const id = identity(m, p.mpn as string);
        expect(ids.has(id), `duplicate ${id}`).toBe(false);
        ids.add(id);
      }
      // Some parts name their manufacturer by an alias, as real dumps do.
      expect(parts.some((p) => canonical.get((p.manufacturer as string).toLowerCase()) !== p.manufacturer)).toBe(true);
    });

    it('has second sources: the same MPN from two manufacturers', () => {
      const makers = new Map<string, Set<string>>();
      for (const p of parts) {
        const set = makers.get(p.mpn as string) ?? new Set<string>();
        set.add(canonical.get((p.manufacturer as string).toLowerCase())!);
        makers.set(p.mpn as string, set);
      }
      const shared = [...makers].filter(([, s]) => s.size > 1);
      expect(shared.length).toBeGreaterThanOrEqual(5);
      expect([...(makers.get('LM358D') ?? [])].sort()).toEqual(['STMicroelectronics', 'Texas Instruments']);
    });

    it('files every part under a leaf of the generated category tree', () => {
      const { all, leaves } = categoryPaths(catalogue.categories as Node[]);
      expect(all.has('Power Management ICs > Voltage Regulators > Linear Voltage Regulators (LDO)')).toBe(true);
      for (const p of parts) {
        const key = (p.category as string[]).join(' > ');
        expect(leaves.has(key), key).toBe(true);
      }
      const roots = catalogue.categories as Node[];
      expect(roots.every((r) => isNonEmpty(r.description))).toBe(true);
      expect(new Set(roots.map((r) => r.name)).size).toBe(roots.length);
    });

    it('lists refer to generated parts, except the two deliberately unmatched members', () => {
      const byId = new Map(parts.map((p) => [identity(p.manufacturer as string, p.mpn as string), p]));
      const unmatched: string[] = [];
      for (const list of catalogue.lists) {
        const ids = new Set<string>();
        for (const m of list.members) {
          const id = identity(m.manufacturer, m.mpn);
          expect(ids.has(id), `${list.name}: duplicate member ${id}`).toBe(false);
          ids.add(id);
          const part = byId.get(id);
          if (!part) {
            unmatched.push(`${list.name}: ${m.manufacturer} ${m.mpn}`);
            continue;
          }
          const type = (part.attributes as Json).library_type;
          if (list.slug === 'sample-basic') expect(type).toBe('Basic');
          if (list.slug === 'sample-preferred') expect(type).toBe('Preferred');
        }
      }
      expect(unmatched).toHaveLength(2);
      expect(unmatched.every((u) => u.startsWith('My approved parts:'))).toBe(true);
      const basicCount = parts.filter((p) => (p.attributes as Json).library_type === 'Basic').length;
      expect(basicCount).toBe(100);
    });

    it('keeps lists consistent for small catalogues too', () => {
      const small = generateSampleCatalogue({ parts: 200, seed: 3 });
      const map = aliasMap(small);
      const ids = new Set(partsOf(small).map((p) => `${map.get((p.manufacturer as string).toLowerCase())}\u0000${String(p.mpn)}`));
      const members = small.lists.flatMap((l) => l.members);
      const missing = members.filter((m) => !ids.has(`${map.get(m.manufacturer.toLowerCase())}\u0000${m.mpn}`));
      expect(missing).toHaveLength(2);
      expect(small.lists[0]!.members.length).toBeGreaterThan(0);
    });
  });
});
