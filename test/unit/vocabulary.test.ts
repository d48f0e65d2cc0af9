/**
 * The vocabulary data files (vocabulary/): each one against its JSON Schema, and the canonical spec
 * attributes: how stored spec names are assigned, that every name the sample generator writes has one, and
 * how much of the real catalogue's specs the vocabulary covers (when ../shared is present).
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateSampleCatalogue } from '../../src/sample/generate.ts';
import {
  ATTRIBUTES,
  attributeById,
  attributeByKey,
  presentSpec,
  attributeIdOf,
  attributeOf,
  describeSpec,
  specAttributeId,
  toSupAttribute,
} from '../../src/vocabulary/attributes.ts';
import { CONTEXT_ROLES, FAMILIES, family, GENERIC_FAMILIES } from '../../src/vocabulary/families.ts';
import { loadVocabularyFile, VOCABULARY_DIR } from '../../src/vocabulary/load.ts';
import { packageForms } from '../../src/vocabulary/packages.ts';
import { QUALIFIERS } from '../../src/vocabulary/qualifiers.ts';
import { DEFAULT_ROLES, role, ROLES } from '../../src/vocabulary/roles.ts';
import { VALUE_WORDS } from '../../src/vocabulary/value-words.ts';
import { octopartShortname } from '../../src/vocabulary/spec-names.ts';
import { ajv } from '../../src/validation.ts';
import { noteSkip, SHARED_CATALOG, sharedCatalogPresent } from '../support/fixtures.ts';

const dataFiles = fs.readdirSync(VOCABULARY_DIR).filter((f) => f.endsWith('.json'));

describe('vocabulary files', () => {
  it('every data file has a schema and passes it', () => {
    expect(dataFiles.sort()).toEqual([
      'attributes.json',
      'families.json',
      'functions.json',
      'name-matching.json',
      'packages.json',
      'qualifiers.json',
      'query-words.json',
      'roles.json',
      'value-words.json',
    ]);
    for (const f of dataFiles) {
      const name = f.replace(/\.json$/, '');
      expect(fs.existsSync(path.join(VOCABULARY_DIR, 'schema', `${name}.schema.json`)), `schema of ${f}`).toBe(true);
      expect(() => loadVocabularyFile(name)).not.toThrow();
    }
  });

  it('the attributes schema refuses a malformed attribute, naming the field', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(VOCABULARY_DIR, 'schema', 'attributes.schema.json'), 'utf8'));
    const validate = ajv.getSchema(schema.$id) ?? ajv.compile(schema);
    const bad = {
      units: { V: 'volt' },
      groups: ['Technical'],
      attributes: [{ id: 'Supply Voltage', name: 'x', shortname: 'x', group: 'Technical', unit: 'V', names: [] }],
    };
    expect(validate(bad)).toBe(false);
    const paths = (validate.errors ?? []).map((e) => e.instancePath);
    expect(paths).toContain('/attributes/0/id');
    expect(paths).toContain('/attributes/0/names');
  });

  const compiled = (name: string) => {
    const schema = JSON.parse(fs.readFileSync(path.join(VOCABULARY_DIR, 'schema', `${name}.schema.json`), 'utf8'));
    return ajv.getSchema(schema.$id) ?? ajv.compile(schema);
  };

  it('the other schemas refuse what the loaders could not read, naming the field', () => {
    const roles = compiled('roles');
    expect(roles({ defaults: {}, roles: { capVoltage: { attributes: [], unit: 'V', kind: 'minimum' } } })).toBe(false);
    expect((roles.errors ?? []).map((e) => e.instancePath)).toEqual(expect.arrayContaining(['/roles/capVoltage/attributes', '/roles/capVoltage/kind']));
    const families = compiled('families');
    expect(families({ families: [{ id: 'led', words: ['LED'], category: 'led', rolesBySize: { V: [[1, 'x', 2]] } }] })).toBe(false);
    expect((families.errors ?? []).map((e) => e.instancePath)).toEqual(expect.arrayContaining(['/families/0/words/0', '/families/0/rolesBySize/V/0']));
    const packages = compiled('packages');
    expect(
      packages({
        synonyms: [['sma', 'DO-214AC']],
        pinCountForms: [{ pattern: 'x', forms: ['SOIC-8', 'SOP-{n}'] }],
        chipSizes: [],
        namedPackages: {},
        letterPackages: {},
        families: [],
      }),
    ).toBe(false);
    expect((packages.errors ?? []).map((e) => e.instancePath)).toEqual(expect.arrayContaining(['/synonyms/0/0', '/pinCountForms/0/forms/0']));
  });

  it('name only ids the other files define', () => {
    const attributes = new Set(ATTRIBUTES.map((a) => a.id));
    for (const [id, r] of ROLES) for (const a of r.attributes) expect(attributes.has(a), `${id}: ${a}`).toBe(true);
    for (const [w, v] of VALUE_WORDS) for (const a of v.attributes) expect(attributes.has(a), `${w}: ${a}`).toBe(true);
    const roleUnit = (id: string) => ROLES.get(id)?.unit;
    for (const [unit, id] of Object.entries(DEFAULT_ROLES)) expect(roleUnit(id), `default ${unit}`).toBe(unit);
    for (const [f, m] of Object.entries(CONTEXT_ROLES)) for (const [unit, id] of Object.entries(m ?? {})) expect(roleUnit(id!), `${f} ${unit}`).toBe(unit);
    for (const [w, m] of QUALIFIERS) for (const [unit, id] of Object.entries(m)) expect(roleUnit(id!), `${w} ${unit}`).toBe(unit);
    for (const f of GENERIC_FAMILIES) expect(FAMILIES).toContain(f);
    expect(() => family('no such family')).toThrow(/families.json: no family "no such family"/);
    expect(() => role('capVoltage')).toThrow(/roles.json: no role "capVoltage"/);
  });

  it('say which names are the same package, for any pin count', () => {
    expect(packageForms('sma')).toEqual(expect.arrayContaining(['SMA', 'DO-214AC']));
    expect(packageForms('SOIC-8')).toEqual(expect.arrayContaining(['SOP-8', 'SO-8']));
    expect(packageForms('TSOT-25')).toEqual(expect.arrayContaining(['TSOT-23-5', 'TSOP-5']));
    expect(packageForms('QFN-32')).toEqual(['QFN-32']);
  });
});

describe('canonical attributes', () => {
  it('have unique ids and shortnames written as Octopart writes them', () => {
    expect(new Set(ATTRIBUTES.map((a) => a.id)).size).toBe(ATTRIBUTES.length);
    expect(new Set(ATTRIBUTES.map((a) => a.shortname)).size).toBe(ATTRIBUTES.length);
    for (const a of ATTRIBUTES) expect(a.shortname).toBe(octopartShortname(a.name));
    expect(octopartShortname('Voltage Rating (DC)')).toBe('voltagerating_dc_');
    expect(octopartShortname('Case/Package')).toBe('case_package');
  });

  it('carry the SupAttribute fields: name, shortname, group, SI unit name and symbol', () => {
    expect(toSupAttribute(attributeById('resistance')!)).toEqual({
      id: 'resistance',
      name: 'Resistance',
      shortname: 'resistance',
      group: 'Technical',
      valueType: 'number',
      unitsName: 'ohm',
      unitsSymbol: 'Ω',
    });
    expect(toSupAttribute(attributeById('case_package')!)).toEqual({
      id: 'case_package',
      name: 'Case/Package',
      shortname: 'case_package',
      group: 'Physical',
      valueType: 'text',
      unitsName: '',
      unitsSymbol: '',
    });
    for (const id of ['capacitance', 'inductance', 'voltage_rating', 'tolerance', 'power_rating', 'current_rating', 'frequency', 'operating_temperature']) {
      expect(attributeById(id), id).toBeDefined();
    }
    expect(attributeById('operating_temperature')).toMatchObject({ unit: '℃', unitsName: 'degree Celsius' });
  });

  it('assign the spellings of both catalogues to one attribute, ignoring case and punctuation', () => {
    expect(attributeIdOf('Voltage Rated', 'V')).toBe('voltage_rating'); // the sample generator's capacitors
    expect(attributeIdOf('Allowable voltage', 'V')).toBe('voltage_rating'); // the real dump's
    expect(attributeIdOf('Voltage - supply')).toBe('supply_voltage');
    expect(attributeIdOf('VOLTAGE-SUPPLY')).toBe('supply_voltage');
    expect(attributeIdOf('Supply Voltage', 'V')).toBe('supply_voltage');
    expect(attributeIdOf('Power(Watts)', 'W')).toBe('power_rating');
    expect(attributeIdOf('Drain to source voltage', 'V')).toBe('drain_source_voltage');
    expect(attributeIdOf('Drain Source Voltage (Vdss)', 'V')).toBe('drain_source_voltage');
    // an attribute's own name and id name it too
    expect(attributeIdOf('Case/Package')).toBe('case_package');
    expect(attributeIdOf('case_package')).toBe('case_package');
  });

  it('use the stored unit only where the name alone is ambiguous', () => {
    expect(attributeIdOf('Tolerance', '%')).toBe('tolerance');
    expect(attributeIdOf('Tolerance', null)).toBe('tolerance');
    expect(attributeIdOf('Tolerance', '℃')).toBe('temperature_accuracy');
    expect(attributeIdOf('Tolerance', '°C')).toBe('temperature_accuracy');
    expect(attributeIdOf('Accuracy', '℃')).toBe('temperature_accuracy');
    expect(attributeOf('Accuracy', 'dB')).toBeNull();
  });

  it('leave unknown names without a canonical attribute, and describe them from their own name', () => {
    expect(attributeOf('Strike gundam')).toBeNull();
    expect(describeSpec('Contact material')).toMatchObject({ id: 'contact_material', catalogued: true });
    expect(describeSpec('Strike gundam')).toEqual({
      id: 'strikegundam',
      name: 'Strike gundam',
      shortname: 'strikegundam',
      group: 'Technical',
      unit: null,
      unitsName: null,
      valueType: 'text',
      catalogued: false,
    });
    expect(describeSpec('Sensitivity', 'dB')).toMatchObject({ unit: 'dB', unitsName: 'decibel', valueType: 'number', catalogued: false });
  });

  it('present a stored spec by the attribute ingest stored, and find attributes by id or shortname', () => {
    expect(presentSpec({ name: 'Voltage - supply', unit: 'V', attribute: 'supply_voltage' })).toMatchObject({ id: 'supply_voltage', catalogued: true });
    expect(presentSpec({ name: 'Strike gundam', unit: null, attribute: null })).toMatchObject({ id: 'strikegundam', catalogued: false });
    expect(presentSpec({ name: 'Rated current', unit: 'A' })).toMatchObject({ id: 'current_rating', shortname: 'currentrating' });
    expect(attributeByKey('voltage_rating_dc')?.shortname).toBe('voltagerating_dc_');
    expect(attributeByKey('voltagerating_dc_')?.id).toBe('voltage_rating_dc');
    expect(attributeByKey('nope')).toBeUndefined();
  });

  it('keep what ingest stored, and assign records stored before attributes were', () => {
    expect(specAttributeId({ name: 'Voltage - supply', unit: 'V', attribute: 'supply_voltage' })).toBe('supply_voltage');
    expect(specAttributeId({ name: 'Strike gundam', unit: null, attribute: null })).toBeNull();
    expect(specAttributeId({ name: 'Voltage - supply', unit: 'V' })).toBe('supply_voltage');
  });

  it('cover every spec name the sample generator writes', () => {
    const missing = new Set<string>();
    for (const p of generateSampleCatalogue({ parts: 2500 }).parts as { specs?: { name: string; unit?: string }[] }[]) {
      for (const s of p.specs ?? []) if (attributeOf(s.name, s.unit) === null) missing.add(s.name);
    }
    expect([...missing]).toEqual([]);
  });

  it.skipIf(!sharedCatalogPresent)('cover most specs of the real catalogue', async () => {
    const lines = readline.createInterface({ input: fs.createReadStream(path.join(SHARED_CATALOG, 'parts.jsonl.gz')).pipe(zlib.createGunzip()) });
    let specs = 0;
    let assigned = 0;
    for await (const line of lines) {
      for (const s of (JSON.parse(line) as { specs?: { name: string; unit?: string }[] }).specs ?? []) {
        specs++;
        if (attributeOf(s.name, s.unit) !== null) assigned++;
      }
    }
    // 1,508 distinct names; the vocabulary names the frequent ones and every one the query vocabulary reads (85.2%).
    expect(assigned / specs).toBeGreaterThan(0.85);
  });
  if (!sharedCatalogPresent) noteSkip('real catalogue attribute coverage', `no data at ${SHARED_CATALOG}`);
});
