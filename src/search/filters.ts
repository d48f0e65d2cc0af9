/**
 * PartFilters: the public hard-constraint object shared by parametric search, facets and (later)
 * discovery, its JSON Schema, and its translation to the engine port's EngineFilters with
 * checks that need the catalogue (unknown spec names, unit mismatches, unknown lists and
 * categories), each a 422 naming the field.
 *
 *   categories / exclude_categories: category path slugs, subtree-inclusive
 *   manufacturers: manufacturer slugs
 *   status: lifecycle values (default: active)
 *   specs: { "<spec display name or attribute>": ["value", ...] | {gte, lte, gt, lt, min, max, unit} }
 *          a key is a spec name the catalogue uses ("Voltage - supply"), or else a canonical attribute
 *          (vocabulary/attributes.json) by id or shortname ("supply_voltage", "supplyvoltage"), which
 *          matches the specs of that attribute whatever their name
 *          a value as written, or the same number in the spec's unit ("0.1uF" accepts "100nF")
 *          numbers are compared in SI units after applying `unit` ("mA", "kΩ", "uF" or "A"):
 *          {"lte": 2, "unit": "A"} matches a part stored as 500 mA; min/max are gte/lte
 *   list_filter: one lst_ id or an array of them (union)
 *   price: {max, currency: "USD", min_quantity?}: the lowest unit price over all offers and breaks is at
 *          most max; with min_quantity, the unit price of an order of that many units (catalog/prices.ts)
 *   in_stock: true
 */
import { MAX_ORDER_QUANTITY } from '../catalog/prices.ts';
import { PART_STATUSES, type PartStatus } from '../catalog/status.ts';
import { parseQuantity, parseWholeQuantity, normaliseUnit, type SiUnit } from '../catalog/units.ts';
import type { CatalogView } from '../catalog/view.ts';
import type { EngineFilters, NumericRange, SpecFilter, SpecKey } from '../engines/port.ts';
import { validationError, type ValidationDetail } from '../errors.ts';
import { attributeByKey } from '../vocabulary/attributes.ts';

/** A numeric condition on one spec (PartFilters.specs). */
export interface SpecRangeInput {
  gte?: number;
  lte?: number;
  gt?: number;
  lt?: number;
  min?: number;
  max?: number;
  unit?: string;
}

export interface PartFiltersInput {
  categories?: string[];
  exclude_categories?: string[];
  manufacturers?: string[];
  status?: PartStatus[];
  specs?: Record<string, string[] | SpecRangeInput>;
  list_filter?: string | string[];
  price?: { max: number; currency?: string; min_quantity?: number };
  in_stock?: boolean;
}

const slugList = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 500 }, maxItems: 100 } as const;

export const partFiltersSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    categories: { ...slugList, description: 'Category path slugs, subtree-inclusive.' },
    exclude_categories: slugList,
    manufacturers: { ...slugList, description: 'Manufacturer slugs.' },
    status: { type: 'array', items: { enum: [...PART_STATUSES] }, minItems: 1, description: 'Lifecycle values; default active.' },
    specs: {
      type: 'object',
      maxProperties: 30,
      description:
        'Keyed by spec display name, or by canonical attribute id or shortname (every spec of the attribute, whatever its name): a list of accepted values, or a numeric range in SI after `unit`.',
      additionalProperties: {
        anyOf: [
          { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 200 },
          {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            properties: {
              gte: { type: 'number' },
              lte: { type: 'number' },
              gt: { type: 'number' },
              lt: { type: 'number' },
              min: { type: 'number' },
              max: { type: 'number' },
              unit: { type: 'string', maxLength: 20 },
            },
          },
        ],
      },
    },
    list_filter: {
      anyOf: [
        { type: 'string', pattern: '^lst_' },
        { type: 'array', items: { type: 'string', pattern: '^lst_' }, minItems: 1, maxItems: 50 },
      ],
    },
    price: {
      type: 'object',
      additionalProperties: false,
      required: ['max'],
      description:
        'Unit price in USD: without min_quantity, the lowest over all offers and price breaks is at most max; with it, the unit price of an order of min_quantity units (the lowest over the offers whose breaks hold that quantity, above any minimum order) is.',
      properties: {
        max: { type: 'number', minimum: 0 },
        currency: { const: 'USD' },
        min_quantity: { type: 'integer', minimum: 1, maximum: MAX_ORDER_QUANTITY, description: 'Order quantity the unit price is taken at.' },
      },
    },
    in_stock: { type: 'boolean' },
  },
} as const;

/** Per spec name: the SI unit its numeric values carry (null when none), from the catalogue. */
export type SpecUnits = ReadonlyMap<string, SiUnit | null>;

/** "mA" -> multiplier 1e-3 and SI unit A; "A" -> 1, A; "uF" -> 1e-6, F. */
function unitScale(unit: string): { scale: number; si: SiUnit | null } | null {
  const base = normaliseUnit(unit);
  if (base) return { scale: 1, si: base };
  const q = parseQuantity(`1${unit}`);
  return q && q.unit ? { scale: q.value, si: q.unit } : null;
}

const NOT_NUMERIC = (name: string) =>
  `"${name}" has no values a range can compare (text, or numbers in units the catalogue does not read); give a list of accepted values`;

/**
 * The accepted values of a value list that are one number in the spec's unit, read as the ingest reads a
 * part's values (parseWholeQuantity: the whole entry one quantity, the unit as a hint: "10k" on Resistance): a part holding the same number
 * in that unit matches whatever its text ("0.1uF" accepts "100nF" and "100nF@1kHz"). Entries in another
 * unit, lists, ranges, conditions ("250V@DC"), text, and every entry of a text-only spec are matched as
 * written only.
 */
function sameNumbers(values: readonly string[], target: SpecTarget): { nums?: number[]; numUnit?: string | null } {
  const unit = target.stored;
  if (unit === null && !target.unitless) return {};
  const nums: number[] = [];
  for (const v of values) {
    // Only an entry that is one number and its unit, nothing else: not "3.3V, 5V", "250V@DC", "2x10k", "5V max".
    const p = parseWholeQuantity(v, unit);
    if (p && p.unit === unit && !nums.includes(p.value)) nums.push(p.value);
  }
  // A part's number must be in the same unit: a spec name may hold several ("Gain": dB and V/V).
  return nums.length ? { nums, numUnit: unit } : {};
}

/**
 * What a PartFilters.specs key names: the specs it selects (by name, or by canonical attribute), the SI
 * unit of their numeric values (null: none) and whether those are plain numbers.
 */
interface SpecTarget {
  key: SpecKey;
  stored: SiUnit | null;
  unitless: boolean;
}

/**
 * The specs a key names: a spec name the catalogue uses, else a canonical attribute (id or shortname)
 * the catalogue holds, filtered by attribute where the index stores them, else by the catalogue's names
 * of it. Null when it names neither (or when the snapshot lists no spec names: taken as a name).
 */
function specTarget(key: string, specUnits: SpecUnits, view: CatalogView | null): SpecTarget | null {
  const unitless = (n: string) => specUnits.get(n) === null && (view?.unitlessNumericSpecs().has(n) ?? false);
  if (specUnits.size === 0 || specUnits.has(key)) return { key: { name: key }, stored: specUnits.get(key) ?? null, unitless: unitless(key) };
  const attribute = attributeByKey(key);
  const index = view?.specNameIndex();
  const names = attribute ? (index?.names.get(attribute.id) ?? []) : [];
  if (!attribute || !index || names.length === 0) return null;
  // The unit its names store: the attribute's own where one of them does, else the first there is.
  const units = names.map((n) => specUnits.get(n) ?? null);
  const stored = units.find((u) => u !== null && u === attribute.unit) ?? units.find((u) => u !== null) ?? null;
  return { key: index.byAttribute ? { attribute: attribute.id } : { name: names }, stored, unitless: stored === null && names.some(unitless) };
}

/** One numeric spec condition as an engine range filter in the spec's stored unit, or the validation problem with it. */
function rangeFilter(name: string, target: SpecTarget, cond: SpecRangeInput, at: (string | number)[], judgeUnitless: boolean): SpecFilter | ValidationDetail {
  const { stored, unitless } = target;
  let scale = 1;
  /** The range's SI unit as the engines compare it (null: plain numbers; undefined: not judged, as before). */
  let rangeUnit: string | null | undefined = stored ?? (unitless ? null : undefined);
  if (cond.unit !== undefined && stored === null && judgeUnitless) {
    // Values without a unit cannot be compared with a unit's (a "V" range on "Pitch" matched 2.54).
    return unitless
      ? {
          loc: [...at, 'unit'],
          msg: `"${name}" is stored without a unit; give the range without "unit"`,
          type: 'unit_mismatch',
          input: cond.unit,
          ctx: { expected: null },
        }
      : { loc: at, msg: NOT_NUMERIC(name), type: 'not_numeric', input: cond };
  }
  if (cond.unit !== undefined) {
    const u = unitScale(cond.unit);
    if (!u) {
      return { loc: [...at, 'unit'], msg: `Unknown unit "${cond.unit}"`, type: 'unknown_unit', input: cond.unit };
    }
    if (stored !== null && u.si !== stored) {
      return {
        loc: [...at, 'unit'],
        msg: `Unit "${cond.unit}" does not measure "${name}" (stored in ${stored})`,
        type: 'unit_mismatch',
        input: cond.unit,
        ctx: { expected: stored },
      };
    }
    scale = u.scale;
    rangeUnit = u.si;
  } else if (stored === null && !unitless) {
    return { loc: at, msg: NOT_NUMERIC(name), type: 'not_numeric', input: cond };
  }
  const range: NumericRange = {};
  const gte = cond.gte ?? cond.min;
  const lte = cond.lte ?? cond.max;
  if (gte !== undefined) range.gte = gte * scale;
  if (lte !== undefined) range.lte = lte * scale;
  if (cond.gt !== undefined) range.gt = cond.gt * scale;
  if (cond.lt !== undefined) range.lt = cond.lt * scale;
  if (Object.keys(range).length === 0) {
    return { loc: at, msg: 'A range needs at least one of gte, lte, gt, lt, min, max', type: 'range_empty', input: cond };
  }
  const lo = Math.max(range.gte ?? -Infinity, range.gt ?? -Infinity);
  const hi = Math.min(range.lte ?? Infinity, range.lt ?? Infinity);
  if (lo > hi || (lo === hi && (range.gt !== undefined || range.lt !== undefined))) {
    return { loc: at, msg: 'The range is empty: its lower bound is above its upper bound', type: 'range_invalid', input: cond };
  }
  return { ...target.key, range, ...(rangeUnit !== undefined ? { unit: rangeUnit } : {}) };
}

/** Validates PartFilters against the catalogue and translates them; throws 422 naming each bad field. */
export function toEngineFilters(
  f: PartFiltersInput | undefined,
  view: CatalogView | null,
  specUnits: SpecUnits,
  loc: (string | number)[] = ['body', 'filters'],
  visibleListIds?: ReadonlySet<string>,
): EngineFilters {
  const detail: ValidationDetail[] = [];
  const out: EngineFilters = { status: f?.status?.length ? f.status : ['active'] };
  if (!f) return out;
  for (const key of ['categories', 'exclude_categories'] as const) {
    const slugs = f[key];
    if (!slugs?.length) continue;
    slugs.forEach((s, i) => {
      if (view && !view.tree.get(s)) detail.push({ loc: [...loc, key, i], msg: `Unknown category "${s}"`, type: 'unknown_category', input: s });
    });
    if (key === 'categories') out.categories = slugs;
    else out.excludeCategories = slugs;
  }
  if (f.manufacturers?.length) {
    f.manufacturers.forEach((m, i) => {
      if (view && !view.manufacturers.get(m))
        detail.push({ loc: [...loc, 'manufacturers', i], msg: `Unknown manufacturer "${m}"`, type: 'unknown_manufacturer', input: m });
    });
    out.manufacturers = f.manufacturers;
  }
  if (f.list_filter !== undefined) {
    const ids = Array.isArray(f.list_filter) ? f.list_filter : [f.list_filter];
    ids.forEach((id, i) => {
      if (visibleListIds && !visibleListIds.has(id)) {
        detail.push({
          loc: [...loc, 'list_filter', ...(Array.isArray(f.list_filter) ? [i] : [])],
          msg: `Unknown list "${id}" (GET /v1/lists shows the lists you can use)`,
          type: 'unknown_list',
          input: id,
        });
      }
    });
    out.lists = ids;
  }
  const specs: SpecFilter[] = [];
  // A snapshot without a spec vocabulary, or one ingested before unitless specs were recorded, keeps
  // the earlier reading: a unit is taken as given, a range without one refused.
  const judgeUnitless = specUnits.size > 0 && (view?.knowsUnitless() ?? false);
  for (const [name, cond] of Object.entries(f.specs ?? {})) {
    const at = [...loc, 'specs', name];
    const target = specTarget(name, specUnits, view);
    if (!target) {
      detail.push({ loc: at, msg: `Unknown spec name or attribute "${name}"`, type: 'unknown_spec', input: name });
      continue;
    }
    if (Array.isArray(cond)) {
      specs.push({ ...target.key, values: cond, ...sameNumbers(cond, target) });
      continue;
    }
    const r = rangeFilter(name, target, cond, at, judgeUnitless);
    if ('loc' in r) detail.push(r);
    else specs.push(r);
  }
  if (specs.length) out.specs = specs;
  if (f.in_stock) out.inStock = true;
  if (f.price?.min_quantity !== undefined) {
    // The unit price of an order of min_quantity units (catalog/prices.ts), from the price bands the
    // index holds; a version ingested before they were indexed cannot answer it, and ignoring the field
    // would answer a different question.
    if (view && !(view.meta.features ?? []).includes('price_bands')) {
      detail.push({
        loc: [...loc, 'price', 'min_quantity'],
        msg: 'This index was built before prices by order quantity were indexed: re-ingest the catalogue to filter by the price at a quantity',
        type: 'not_supported',
        input: f.price.min_quantity,
      });
    } else out.priceAt = { quantity: f.price.min_quantity, maxUsd: f.price.max };
  } else if (f.price) out.maxPriceUsd = f.price.max;
  if (detail.length) throw validationError(detail);
  return out;
}
