/**
 * The Supply API's `filters` (a Map) as engine filters. Keys and values as its clients write them:
 *
 *   <attribute shortname>: ["0603", "1000", "(1000__10000)", "(__0.1)", "(4.7e-6__)"]
 *       values as written, or numbers in the attribute's SI unit; "(min__max)" a range in SI units, either
 *       bound may be left out; several values: any of them (several ranges: the span they cover, said)
 *   case_package: ["0603", "SOT-23-5"]          the part's package as written (case and spaces aside)
 *   lifecyclestatus: ["Production", "NRND"]     lifecycle statuses (Obsolete, Last Time Buy...)
 *   manufacturer_id: ["123"], category_id: ["456"]  Supply ids (supManufacturers, supCategories)
 *
 * A value may be a single string or number instead of a list. An unknown key is ignored and said in a
 * warning (the request is read otherwise than written), as is distributor_id, which this catalogue
 * cannot filter on; unknown ids match nothing. Every lifecycle status is searched unless lifecyclestatus
 * says otherwise. Malformed values are a validation error naming `filters.<key>`.
 */
import type { PartStatus } from '../catalog/status.ts';
import { readStatus } from '../catalog/status.ts';
import { parseWholeQuantity } from '../catalog/units.ts';
import type { CatalogView } from '../catalog/view.ts';
import type { EngineFilters, SpecFilter, SpecKey } from '../engines/port.ts';
import { attributeById } from '../vocabulary/attributes.ts';
import { validationError } from '../errors.ts';
import { attributeIndex, CASE_PACKAGE, LIFECYCLE_STATUS, type AttributeData } from './attributes.ts';
import { findCategory, snapshotIndex } from './types/catalog.ts';

export interface AppliedFilter {
  shortname: string;
  name: string;
  values: string[];
  displayValues: string[];
}

export interface SupFilters {
  filters: EngineFilters;
  applied: AppliedFilter[];
  warnings: string[];
  /** The category filtered on, when exactly one. */
  categorySlug: string | null;
}

/** Matches no part: the value of a filter whose ids name nothing. */
const NOTHING = '\u0000none';
const RANGE = /^\(\s*([^_()]*?)\s*__\s*([^_()]*?)\s*\)$/;

const bad = (key: string, msg: string, input: unknown) => validationError([{ loc: ['filters', key], msg, type: 'value_error', input }]);

/** A filter's values as strings: a list of strings or numbers, or one of them. */
function valuesOf(key: string, raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : [raw];
  if (!list.length || list.length > 200) throw bad(key, 'must hold 1 to 200 values', raw);
  return list.map((v) => {
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'string' && v.trim() !== '' && v.length <= 200) return v.trim();
    throw bad(key, 'values must be non-empty strings or numbers', raw);
  });
}

function number(key: string, text: string): number | undefined {
  if (text === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw bad(key, `"${text}" is not a number (ranges are "(min__max)" in SI units)`, text);
  return n;
}

/**
 * A spec condition of an attribute's values: by the canonical attribute ingest stored with each spec when
 * the index holds them (a part's spec counts whatever it was named), else by the catalogue's spec names
 * under the attribute.
 */
function specCondition(key: string, a: AttributeData, specNames: string[], values: string[], warnings: string[], byAttribute: boolean): SpecFilter {
  const on: SpecKey = byAttribute && attributeById(a.id) ? { attribute: a.id } : { name: specNames };
  const ranges = values.flatMap((v) => {
    const m = RANGE.exec(v);
    return m ? [{ gte: number(key, m[1]!), lte: number(key, m[2]!) }] : [];
  });
  if (ranges.length) {
    if (ranges.length < values.length) throw bad(key, 'mixes ranges and values: send one or the other', values);
    const lows = ranges.map((r) => r.gte);
    const highs = ranges.map((r) => r.lte);
    const gte = lows.includes(undefined) ? undefined : Math.min(...(lows as number[]));
    const lte = highs.includes(undefined) ? undefined : Math.max(...(highs as number[]));
    if (ranges.length > 1) warnings.push(`filters.${key}: ${ranges.length} ranges were read as the one range they span.`);
    return { ...on, range: { ...(gte !== undefined ? { gte } : {}), ...(lte !== undefined ? { lte } : {}) }, unit: a.unit };
  }
  const nums = values.flatMap((v) => {
    const q = parseWholeQuantity(v, a.unit);
    return q && (q.unit === a.unit || q.unit === null) ? [q.value] : [];
  });
  return { ...on, values, ...(nums.length ? { nums, numUnit: a.unit } : {}) };
}

export function supFilters(view: CatalogView, raw: unknown, opts: { inStockOnly?: boolean | null } = {}): SupFilters {
  const filters: EngineFilters = {};
  const applied: AppliedFilter[] = [];
  const warnings: string[] = [];
  let categorySlug: string | null = null;
  if (opts.inStockOnly) filters.inStock = true;
  if (raw === null || raw === undefined) return { filters, applied, warnings, categorySlug };
  if (typeof raw !== 'object' || Array.isArray(raw)) throw validationError([{ loc: ['filters'], msg: 'must be an object', type: 'type_error', input: raw }]);
  const index = attributeIndex(view);
  const ids = snapshotIndex(view);
  const byAttribute = view.meta.features?.includes('spec_attributes') ?? false;
  for (const [rawKey, rawValues] of Object.entries(raw as Record<string, unknown>)) {
    const key = rawKey.trim();
    const values = valuesOf(key, rawValues);
    const lower = key.toLowerCase();
    if (lower === 'manufacturer_id') {
      const found = values.map((id) => ids.manufacturerById.get(id));
      if (found.includes(undefined)) warnings.push(`filters.manufacturer_id: no manufacturer has id ${values.filter((_, i) => !found[i]).join(', ')}.`);
      filters.manufacturers = [...found.flatMap((m) => (m ? [m.slug] : [])), NOTHING];
      applied.push({ shortname: key, name: 'Manufacturer', values, displayValues: found.map((m, i) => m?.name ?? values[i]!) });
    } else if (lower === 'category_id') {
      const found = values.map((id) => findCategory(view, id, 'id'));
      if (found.includes(null)) warnings.push(`filters.category_id: no category has id ${values.filter((_, i) => !found[i]).join(', ')}.`);
      filters.categories = [...found.flatMap((c) => (c ? [c.path] : [])), NOTHING];
      categorySlug = found.length === 1 && found[0] ? found[0].path : null;
      applied.push({ shortname: key, name: 'Category', values, displayValues: found.map((c, i) => c?.name ?? values[i]!) });
    } else if (lower === LIFECYCLE_STATUS) {
      const statuses = values.map((v) => readStatus(v));
      if (statuses.includes(null))
        throw bad(key, 'values are lifecycle statuses: Production, NRND, Last Time Buy, Obsolete, Engineering Sample, Unknown', values);
      filters.status = [...new Set(statuses as PartStatus[])];
      applied.push({ shortname: key, name: 'Lifecycle Status', values, displayValues: values });
    } else {
      const attr = index.byKey(key);
      if (!attr) {
        warnings.push(
          lower === 'distributor_id'
            ? 'filters.distributor_id was ignored: this catalogue does not filter parts by seller.'
            : `filters.${key} was ignored: no attribute has that shortname (supAttributes lists them), and it is not manufacturer_id, category_id or lifecyclestatus.`,
        );
        continue;
      }
      if (attr.attribute.id === CASE_PACKAGE) filters.packages = [...(filters.packages ?? []), ...values];
      else (filters.specs ??= []).push(specCondition(key, attr.attribute, attr.specNames, values, warnings, byAttribute));
      applied.push({ shortname: attr.attribute.shortname, name: attr.attribute.name, values, displayValues: values });
    }
  }
  return { filters, applied, warnings, categorySlug };
}
