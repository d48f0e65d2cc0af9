/**
 * Attributes (SupAttribute) of the catalogue's stored spec names, from the canonical attribute
 * catalogue (src/vocabulary/attributes.ts, vocabulary/attributes.json): the key of the Supply API's
 * filters and aggregations (an attribute's `shortname`, or its id), and how a spec is labelled.
 *
 * A stored spec has the canonical attribute ingest assigned to its name ("Allowable voltage" and
 * "Voltage Rated" are voltage_rating), else one derived from its own name. lifecyclestatus comes from
 * the part's lifecycle status and case_package (canonical) from its package field too, as the Supply
 * API has them.
 *
 * Built once per catalogue snapshot (the view) from its spec names; no part is read.
 */
import type { PartSpec } from '../catalog/part.ts';
import type { PartStatus } from '../catalog/status.ts';
import type { SiUnit } from '../catalog/units.ts';
import type { CatalogView } from '../catalog/view.ts';
import {
  attributeById,
  attributeByKey,
  describeSpec,
  presentSpec,
  toSupAttribute,
  type SpecAttribute,
  type SupAttributeShape,
} from '../vocabulary/attributes.ts';

/** SupAttribute, and the SI unit its numbers are in (null: text, or plain numbers). */
export interface AttributeData extends SupAttributeShape {
  unit: SiUnit | null;
}

export interface AttributeIndex {
  /** The attribute of a stored spec (the one ingest assigned, else derived from its name). */
  ofSpec(spec: Pick<PartSpec, 'name' | 'unit' | 'attribute'>): AttributeData;
  /** The attribute of one of the catalogue's spec names (as its snapshot records it). */
  ofName(specName: string): AttributeData | undefined;
  /** An attribute by shortname or id, with the catalogue's spec names under it. */
  byKey(key: string): { attribute: AttributeData; specNames: string[] } | undefined;
  /** Every attribute of the catalogue, by name. */
  all(): readonly AttributeData[];
}

export const CASE_PACKAGE = 'case_package';
export const LIFECYCLE_STATUS = 'lifecyclestatus';

/** Lifecycle statuses as the Supply API's lifecyclestatus values. */
export const LIFECYCLE_VALUES: Readonly<Record<PartStatus, string>> = {
  active: 'Production',
  engineering_sample: 'Engineering Sample',
  nrnd: 'NRND',
  ltb: 'Last Time Buy',
  obsolete: 'Obsolete',
  unknown: 'Unknown',
};

const data = (a: Omit<SpecAttribute, 'catalogued'>): AttributeData => ({ ...toSupAttribute(a), unit: a.unit as SiUnit | null });

const FIELD_ATTRIBUTES: ReadonlyMap<string, AttributeData> = new Map([
  [CASE_PACKAGE, data(attributeById(CASE_PACKAGE)!)],
  [
    LIFECYCLE_STATUS,
    {
      id: LIFECYCLE_STATUS,
      name: 'Lifecycle Status',
      shortname: LIFECYCLE_STATUS,
      group: 'Compliance',
      valueType: 'text',
      unitsName: '',
      unitsSymbol: '',
      unit: null,
    },
  ],
]);

/** The case_package and lifecyclestatus attributes (from part fields). */
export const fieldAttribute = (key: typeof CASE_PACKAGE | typeof LIFECYCLE_STATUS): AttributeData => FIELD_ATTRIBUTES.get(key)!;

const built = new WeakMap<CatalogView, AttributeIndex>();

/** The attributes of a catalogue snapshot (kept with it). */
export function attributeIndex(view: CatalogView): AttributeIndex {
  let index = built.get(view);
  if (!index) built.set(view, (index = buildIndex(view.specUnits)));
  return index;
}

function buildIndex(specUnits: ReadonlyMap<string, string | null>): AttributeIndex {
  const byId = new Map<string, { attribute: AttributeData; specNames: string[] }>();
  for (const a of FIELD_ATTRIBUTES.values()) byId.set(a.id, { attribute: a, specNames: [] });
  const presented = new Map<string, AttributeData>();
  const ofSpec = (spec: Pick<PartSpec, 'name' | 'unit' | 'attribute'>): AttributeData => {
    const key = `${spec.attribute ?? ''}\0${spec.name}\0${spec.unit ?? ''}`;
    let a = presented.get(key);
    if (!a) presented.set(key, (a = data(presentSpec(spec))));
    return a;
  };
  const byName = new Map<string, AttributeData>();
  for (const [name, unit] of specUnits) {
    const a = data(describeSpec(name, unit));
    byName.set(name, byId.get(a.id)?.attribute ?? a);
    const entry = byId.get(a.id);
    if (entry) entry.specNames.push(name);
    else byId.set(a.id, { attribute: a, specNames: [name] });
  }
  const byShortname = new Map([...byId.values()].map((e) => [e.attribute.shortname, e]));
  const all = [...byId.values()].map((e) => e.attribute).sort((x, y) => x.name.localeCompare(y.name));
  return {
    ofSpec,
    ofName: (name) => byName.get(name),
    byKey: (key) => {
      const k = key.trim();
      return byId.get(k) ?? byShortname.get(k) ?? byId.get(attributeByKey(k)?.id ?? '') ?? byShortname.get(k.toLowerCase());
    },
    all: () => all,
  };
}
