/**
 * The canonical spec attributes: what a stored spec name means, whatever the catalogue called it.
 * Data: vocabulary/attributes.json (schema: vocabulary/schema/attributes.schema.json; how to edit it:
 * vocabulary/README.md). Loaded and checked once, when this module is first imported.
 *
 * An attribute has a stable snake_case `id` ("resistance", "capacitance", "case_package",
 * "voltage_rating", "supply_voltage", "operating_temperature"), a display `name`, a `shortname` written
 * as Octopart/Nexar write theirs ("Voltage Rating (DC)" -> "voltagerating_dc_", "Case/Package" ->
 * "case_package"), a `group` (Technical, Physical, Dimensions, Compliance), the SI unit its values are
 * compared in (`unit`, the symbol, and `unitsName`; null for text attributes and counts) and `valueType`.
 * These are the fields of the Supply schema's SupAttribute {id name shortname group valueType unitsName
 * unitsSymbol}: `toSupAttribute` returns that shape.
 *
 * Assignment (`attributeOf(name, unit)`): a stored spec name is matched against each attribute's `names`
 * ignoring case, spaces and punctuation ("Voltage - supply", "Voltage-Supply" and "VOLTAGE SUPPLY" are one
 * name), and against the attribute's own name and id. The stored unit only matters where the name alone
 * is ambiguous: "Tolerance" in ℃ is a temperature sensor's accuracy (temperature_accuracy), in % or
 * without a unit a tolerance. A name the vocabulary does not know has no canonical attribute (null);
 * `describeSpec` still gives it an attribute of its own (id = its shortname, `catalogued: false`), so that
 * every spec can be presented as SupSpec.attribute.
 *
 * Ingest (catalog/normalise.ts) stores each spec's attribute id beside its name (PartSpec.attribute) in
 * the record both engines keep; a record stored before attributes were assigned is read through
 * `specAttributeId`, which assigns them on the fly. Re-ingest after changing the data file: stored
 * records keep the assignment they were loaded with.
 *
 * For the GraphQL Supply layer: `supAttributes` lists ATTRIBUTES (toSupAttribute each); a part's
 * SupSpec.attribute is `toSupAttribute(presentSpec(spec))`, which reads the id ingest stored and falls
 * back to the spec's own name for names the vocabulary does not know; filters and aggregations keyed by
 * a shortname or an id resolve through `attributeByKey`.
 */
import { normaliseUnit } from '../catalog/units.ts';
import { loadVocabularyFile, VocabularyError } from './load.ts';
import { octopartShortname, specNameKey } from './spec-names.ts';

export type AttributeValueType = 'number' | 'text';

/** One attribute of vocabulary/attributes.json, with its unit's name resolved. */
export interface CanonicalAttribute {
  readonly id: string;
  readonly name: string;
  readonly shortname: string;
  readonly group: string;
  /** SI unit symbol ("Ω", "F", "V", "℃"...); null for text attributes and counts. */
  readonly unit: string | null;
  /** The unit's name ("ohm", "farad"...); null when `unit` is. */
  readonly unitsName: string | null;
  readonly valueType: AttributeValueType;
  /** The spec names catalogues store it under, as the data file lists them. */
  readonly names: readonly string[];
  readonly note?: string;
}

/** The attribute presented for a spec: a canonical one, or one derived from a name the vocabulary does not know. */
export interface SpecAttribute extends Omit<CanonicalAttribute, 'names'> {
  /** False for an attribute derived from the spec's own name (id = its shortname, group "Technical"). */
  readonly catalogued: boolean;
}

/** The Supply schema's SupAttribute (reference/nexar-supply.graphql): unit fields are "" when there is none. */
export interface SupAttributeShape {
  id: string;
  name: string;
  shortname: string;
  group: string;
  valueType: string;
  unitsName: string;
  unitsSymbol: string;
}

interface AttributesFile {
  units: Record<string, string>;
  groups: string[];
  attributes: {
    id: string;
    name: string;
    shortname: string;
    group: string;
    unit: string | null;
    valueType?: AttributeValueType;
    note?: string;
    names: (string | { name: string; unit: string | null })[];
  }[];
}

/** A unit as assignment compares it: the parser's SI symbol where it knows the spelling ("°C" -> "℃"), else as written. */
function unitKey(unit: string | null | undefined): string {
  if (unit === null || unit === undefined || unit.trim() === '') return '';
  return normaliseUnit(unit) ?? unit.trim();
}

function build(file: AttributesFile) {
  const problems: string[] = [];
  const byId = new Map<string, CanonicalAttribute>();
  /** specNameKey -> attribute (plain names, the attribute's own name and id). */
  const byName = new Map<string, CanonicalAttribute>();
  /** specNameKey + "\0" + unit -> attribute (names qualified by a stored unit). */
  const byNameUnit = new Map<string, CanonicalAttribute>();
  const shortnames = new Map<string, string>();
  const claim = (map: Map<string, CanonicalAttribute>, key: string, a: CanonicalAttribute, what: string) => {
    const other = map.get(key);
    if (other && other !== a) problems.push(`${what} belongs to both "${other.id}" and "${a.id}"`);
    else map.set(key, a);
  };
  file.attributes.forEach((raw, i) => {
    const at = `attributes[${i}] (${raw.id})`;
    if (!file.groups.includes(raw.group)) problems.push(`${at}.group: "${raw.group}" is not one of groups`);
    if (raw.unit !== null && !(raw.unit in file.units)) problems.push(`${at}.unit: "${raw.unit}" is not one of units`);
    if (raw.shortname !== octopartShortname(raw.name))
      problems.push(`${at}.shortname: "${raw.shortname}" should be "${octopartShortname(raw.name)}" (its name, written as shortnames are)`);
    if (byId.has(raw.id)) problems.push(`${at}.id: "${raw.id}" is used twice`);
    const seen = shortnames.get(raw.shortname);
    if (seen !== undefined && seen !== raw.id) problems.push(`${at}.shortname: "${raw.shortname}" is also "${seen}"'s`);
    shortnames.set(raw.shortname, raw.id);
    const a: CanonicalAttribute = Object.freeze({
      id: raw.id,
      name: raw.name,
      shortname: raw.shortname,
      group: raw.group,
      unit: raw.unit,
      unitsName: raw.unit === null ? null : (file.units[raw.unit] ?? null),
      valueType: raw.valueType ?? (raw.unit === null ? 'text' : 'number'),
      names: Object.freeze(raw.names.map((n) => (typeof n === 'string' ? n : n.name))),
      ...(raw.note !== undefined ? { note: raw.note } : {}),
    });
    byId.set(a.id, a);
    for (const n of raw.names) {
      if (typeof n === 'string') claim(byName, specNameKey(n), a, `name "${n}"`);
      else claim(byNameUnit, `${specNameKey(n.name)}\0${unitKey(n.unit)}`, a, `name "${n.name}" in unit ${n.unit ?? '(none)'}`);
    }
  });
  // An attribute's own name and id name it too ("Supply Voltage", "supply_voltage"), unless listed elsewhere.
  for (const a of byId.values()) {
    for (const n of [a.name, a.id]) {
      const key = specNameKey(n);
      const other = byName.get(key);
      if (other === undefined) byName.set(key, a);
      else if (other !== a && n === a.name) problems.push(`the name of "${a.id}", "${a.name}", is listed under "${other.id}"`);
    }
  }
  if (problems.length) throw new VocabularyError('attributes.json', problems);
  return { byId, byName, byNameUnit };
}

const FILE = loadVocabularyFile<AttributesFile>('attributes');
const { byId, byName, byNameUnit } = build(FILE);
const byShortname = new Map([...byId.values()].map((a) => [a.shortname, a]));

/** Every canonical attribute, in the data file's order. */
export const ATTRIBUTES: readonly CanonicalAttribute[] = Object.freeze([...byId.values()]);

/** Attribute groups in display order. */
export const ATTRIBUTE_GROUPS: readonly string[] = Object.freeze([...FILE.groups]);

export function attributeById(id: string): CanonicalAttribute | undefined {
  return byId.get(id);
}

/** Assignments already made, by name and unit: ingest asks for the same few hundred names over and over. */
const assigned = new Map<string, CanonicalAttribute | null>();

/**
 * The canonical attribute a stored spec name means, given the unit it is stored in (the dump's or the
 * parsed SI unit; null or absent: none). Null when the vocabulary does not know the name.
 */
export function attributeOf(name: string, unit?: string | null): CanonicalAttribute | null {
  const memo = `${name}\0${unit ?? ''}`;
  let a = assigned.get(memo);
  if (a === undefined) {
    const key = specNameKey(name);
    a = byNameUnit.get(`${key}\0${unitKey(unit)}`) ?? byName.get(key) ?? null;
    if (assigned.size >= 20_000) assigned.clear();
    assigned.set(memo, a);
  }
  return a;
}

/** The canonical attribute id of a stored spec name (null when it has none). */
export function attributeIdOf(name: string, unit?: string | null): string | null {
  return attributeOf(name, unit)?.id ?? null;
}

/**
 * The attribute id of a stored spec: the one ingest stored with it, or, for a record stored before
 * attributes were assigned (no `attribute` field), the one the vocabulary assigns now.
 */
export function specAttributeId(s: { name: string; unit?: string | null; attribute?: string | null }): string | null {
  return s.attribute !== undefined ? s.attribute : attributeIdOf(s.name, s.unit);
}

/** The attribute to present for a spec: its canonical one, or one derived from its name (`catalogued: false`). */
export function describeSpec(name: string, unit?: string | null): SpecAttribute {
  const a = attributeOf(name, unit);
  if (a) {
    const { names: _names, ...rest } = a;
    return { ...rest, catalogued: true };
  }
  const symbol = unit === null || unit === undefined || unit === '' ? null : unitKey(unit);
  const shortname = octopartShortname(name);
  return {
    id: shortname,
    name: name.trim(),
    shortname,
    group: 'Technical',
    unit: symbol,
    unitsName: symbol === null ? null : (FILE.units[symbol] ?? null),
    valueType: symbol === null ? 'text' : 'number',
    catalogued: false,
  };
}

/** The attribute to present for a stored spec: the one ingest assigned (or would assign), else one derived from its name. */
export function presentSpec(s: { name: string; unit?: string | null; attribute?: string | null }): SpecAttribute {
  const id = specAttributeId(s);
  const a = id === null ? undefined : byId.get(id);
  if (a === undefined) return describeSpec(s.name, s.unit);
  const { names: _names, ...rest } = a;
  return { ...rest, catalogued: true };
}

/** A canonical attribute by its id or its shortname ("voltage_rating_dc" or "voltagerating_dc_"), as clients key filters. */
export function attributeByKey(key: string): CanonicalAttribute | undefined {
  return byId.get(key) ?? byShortname.get(key);
}

/** Attribute id -> the spec names a catalogue stores it under (a catalogue's own spellings of each attribute). */
export type NamesByAttribute = ReadonlyMap<string, readonly string[]>;

/**
 * A catalogue's spec names by canonical attribute, for engines that filter by name (index versions
 * built before attributes were stored with each spec). `unitOf` gives a name's stored unit, for names
 * the unit disambiguates; names without an attribute are left out.
 */
export function namesByAttribute(names: Iterable<string>, unitOf: (name: string) => string | null | undefined = () => null): NamesByAttribute {
  const out = new Map<string, string[]>();
  for (const name of names) {
    const id = attributeIdOf(name, unitOf(name));
    if (id === null) continue;
    const list = out.get(id);
    if (!list) out.set(id, [name]);
    else if (!list.includes(name)) list.push(name);
  }
  return out;
}

/** A catalogue's spec attributes, and the names it stores each under (agentic search's candidates by spec value). */
export interface SpecNameIndex {
  /** Attribute id -> the catalogue's spec names under it. */
  readonly names: NamesByAttribute;
  /** The index version stores each spec's attribute (CatalogMeta.features 'spec_attributes'): filter by attribute. */
  readonly byAttribute: boolean;
}

/** The index of a catalogue's spec names (`unitOf`: a name's stored unit, for names it disambiguates). */
export function specNameIndex(names: Iterable<string>, unitOf?: (name: string) => string | null | undefined, byAttribute = false): SpecNameIndex {
  return { names: namesByAttribute(names, unitOf), byAttribute };
}

/** An attribute in the Supply schema's SupAttribute shape (reference/nexar-supply.graphql). */
export function toSupAttribute(a: Omit<CanonicalAttribute, 'names'>): SupAttributeShape {
  return {
    id: a.id,
    name: a.name,
    shortname: a.shortname,
    group: a.group,
    valueType: a.valueType,
    unitsName: a.unitsName ?? '',
    unitsSymbol: a.unit ?? '',
  };
}
