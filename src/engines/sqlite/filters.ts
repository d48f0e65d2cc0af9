/** Translates engine-neutral filters into a SQL condition over `p` (the version's parts table). */
import type { EngineFilters, NumericRange, SpecKey } from '../port.ts';
import { sameNumberBounds } from '../same-number.ts';
import type { VersionTables } from './schema.ts';
import { packageText } from './text.ts';

/** A spec range bound over a spec row's [min, max] (columns read through `col`): the part's whole range lies within it. */
const RANGE_SQL: readonly (readonly ['gte' | 'gt' | 'lte' | 'lt', 'min' | 'max', string])[] = [
  ['gte', 'min', '>='],
  ['gt', 'min', '>'],
  ['lte', 'max', '<='],
  ['lt', 'max', '<'],
];

/** A range's conditions on a spec row's [min, max] (its parameters pushed to `own`). */
function rangeConds(range: NumericRange, own: unknown[], col: (c: string) => string): string[] {
  const conds: string[] = [];
  for (const [bound, column, op] of RANGE_SQL) {
    const v = range[bound];
    if (v === undefined) continue;
    conds.push(`${col(column)} ${op} ?`);
    own.push(v);
  }
  return conds;
}

export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** '/' + 1 in code-point order: every slug under `a/` sorts in [`a/`, `a0`). */
function subtree(slug: string, params: unknown[]): string {
  params.push(slug, `${slug}/`, `${slug}0`);
  return '(p.category = ? OR (p.category >= ? AND p.category < ?))';
}

function placeholders(values: readonly unknown[], params: unknown[]): string {
  params.push(...values);
  return values.map(() => '?').join(', ');
}

export interface FilterSql extends SqlCondition {
  /**
   * The same condition, with the same parameters, written to check given rows (a window of candidate
   * ids joined to the parts table, or a scan of the parts in index order) rather than select them: the
   * set conditions become `+p.rowid IN (...)`, so that SQLite tests each row against the set, built
   * once, instead of seeking every (row, set member) pair through an index (27 ms against 0.2 ms for 200
   * candidates and a 755-part list), or, for a broad set, seeking every member's parts row (broadSets in
   * engine.ts). The price bands are checked through the row's own bands instead (see priceAt below).
   */
  probeSql: string;
  /** The list, spec and price-band conditions' row sets (`SELECT prow ...`), each with its own parameters. */
  sets: SqlCondition[];
  /**
   * The same condition, with the same parameters, read from set `i` (`p.rowid IN (...)`, through its
   * index) with every other set checked row by row through the part's own entries (a correlated
   * EXISTS over the specs' or members' part index; the price bands' probe): for filters whose sets
   * meet in few parts, where building a large set costs more than checking its few candidates
   * ("4u7 16V": 69 parts of 4.7 µF, 3,657 rated at 16 V or more; their 51 in common 1.6 -> 0.2 ms at 29k parts).
   */
  drivenBy(i: number): string;
  /**
   * The conditions that select few parts through an index (categories, manufacturers, lists, spec values
   * and ranges, the lowest unit price; not the status, which most parts share) on their own, null when there are none: whatever passes every condition passes these, so a count under
   * them bounds the filtered set from above without scanning the parts table. Its sets are the first of `sets`, in order.
   */
  narrowing: FilterSql | null;
  /** The statuses asked for when the status is the filters' only condition (knn.ts checks those in memory); null otherwise. */
  statusOnly: readonly string[] | null;
  /**
   * What the filters ask beyond their narrowing conditions (all of it when there are none) when that is
   * at most the status, `in_stock` and excluded categories, conditions on the part's own row: the
   * statuses ([] for any), whether in stock, the excluded category subtrees ([] for none; with any, an
   * uncategorised part fails too, as `NOT (...)` over its null category does in SQL). Null when they ask
   * more (a price at a quantity, a package).
   */
  rowConditions: { statuses: readonly string[]; inStock: boolean; excludeCategories: readonly string[] } | null;
  /**
   * The statuses and category subtrees asked for when they are the filters' only conditions (both
   * present) besides `in_stock`; null otherwise. Such a filter-only page is read category by category
   * (filter-plans.ts bestStockedInCategories).
   */
  statusInCategories: { statuses: readonly string[]; categories: readonly string[]; inStock: boolean } | null;
}

/** The spec rows a condition is on: by name, or by canonical attribute (the `attr` column). */
function specKeys(s: SpecKey): { column: 'name' | 'attr'; values: readonly string[] } {
  if (s.attribute !== undefined) return { column: 'attr', values: typeof s.attribute === 'string' ? [s.attribute] : s.attribute };
  return { column: 'name', values: typeof s.name === 'string' ? [s.name] : s.name };
}

/** A column of the spec row `s`, selected through its indexes, or (correlated: `+`) only tested. */
const specCol = (correlated: boolean) => (c: string) => `${correlated ? '+' : ''}s.${c}`;

export function filterSql(f: EngineFilters, t: VersionTables): FilterSql {
  /**
   * Conditions in order; a row set's text is its `(SELECT prow ...)`, written `rowid IN` or `+rowid IN`
   * by form, unless it has a probe of its own (a correlated check of the row, with the same parameters);
   * `corr` is its correlated check through the part's own rows (drivenBy).
   */
  const parts: { text: string; set?: number; probe?: string; corr?: string }[] = [];
  const params: unknown[] = [];
  const sets: SqlCondition[] = [];
  const cond = (text: string) => parts.push({ text });
  /** A row-set condition: in the WHERE clause (its parameters in order) and on its own. */
  const set = (sql: string, own: unknown[], corr: string, probe?: string) => {
    parts.push({ text: `(${sql})`, set: sets.length, corr, ...(probe ? { probe } : {}) });
    params.push(...own);
    sets.push({ sql, params: own });
  };
  if (f.status?.length) cond(`p.status IN (${placeholders(f.status, params)})`);
  if (f.categories?.length) cond(`(${f.categories.map((c) => subtree(c, params)).join(' OR ')})`);
  if (f.excludeCategories?.length) cond(`NOT (${f.excludeCategories.map((c) => subtree(c, params)).join(' OR ')})`);
  if (f.manufacturers?.length) cond(`p.mfr_slug IN (${placeholders(f.manufacturers, params)})`);
  // The package column holds the part's package as written (text.ts: lone dots aside); no index: a row condition.
  if (f.packages?.length) cond(`p.t_package COLLATE NOCASE IN (${placeholders(f.packages.map(packageText), params)})`);
  if (f.lists?.length) {
    const own: unknown[] = [];
    const ids = placeholders(f.lists, own);
    set(
      `SELECT m.prow FROM ${t.members} m WHERE m.list_id IN (${ids})`,
      own,
      `EXISTS (SELECT 1 FROM ${t.members} m WHERE m.prow = p.rowid AND +m.list_id IN (${ids}))`,
    );
  }
  // List and spec conditions are uncorrelated `rowid IN (...)` sets, read once through the members
  // primary key and the specs' (name, value), (name, min, max) and (attr, min, max) indexes. A correlated EXISTS per
  // part let SQLite walk the (name, min, max) range once per candidate part: seconds for one range
  // filter over 29k parts. The correlated checks of drivenBy test the spec columns with `+`, so that
  // they go through the part's own rows (the (prow, name, value) index) and nothing else.
  for (const s of f.specs ?? []) {
    const own: unknown[] = [];
    /** The set's arms (their conditions on `s`), written through `col`; parameters pushed once, in order. */
    const arms = (col: (c: string) => string, out: unknown[]): string[] => {
      // The specs of a name, or of an attribute (none on a version without the attribute column).
      const keys = specKeys(s);
      const named = () => (keys.column === 'attr' && t.specAttributes === false ? '0' : `${col(keys.column)} IN (${placeholders(keys.values, out)})`);
      if ('values' in s) {
        // A number the same as an accepted one: its own arm, through the (name, min, max) index.
        const list = [`${named()} AND ${col('value')} IN (${placeholders(s.values, out)})`];
        for (const v of s.nums ?? []) {
          const [gte, lte] = sameNumberBounds(v);
          list.push([named(), ...rangeConds({ gte, lte }, out, col), 's.unit IS ?'].join(' AND '));
          out.push(s.numUnit ?? null);
        }
        return list;
      }
      const conds = [named(), `${col('min')} IS NOT NULL`, ...rangeConds(s.range, out, col)];
      if (s.unit !== undefined) {
        conds.push('(s.unit IS ? OR s.unit IS NULL)');
        out.push(s.unit);
      }
      return [conds.join(' AND ')];
    };
    const selected = arms(specCol(false), own);
    const checked = arms(specCol(true), []);
    set(
      selected.map((a) => `SELECT s.prow FROM ${t.specs} s WHERE ${a}`).join(' UNION ALL '),
      own,
      `EXISTS (SELECT 1 FROM ${t.specs} s WHERE s.prow = p.rowid AND (${checked.map((a) => `(${a})`).join(' OR ')}))`,
    );
  }
  if (f.inStock) cond('p.stock > 0');
  if (f.maxPriceUsd !== undefined) {
    cond('p.min_price <= ?');
    params.push(f.maxPriceUsd);
  }
  // The parts with a price band holding the quantity at no more than the price (catalog/prices.ts).
  // Selected, the bands under the price come through the (price, ...) covering index; checked row by
  // row (a window of ranked candidates, a scan in stock order), each part's bands through (prow, ...):
  // a few index entries, where building the set of a broad condition ("1000 units at most 0.50 USD",
  // most of the catalogue) reads most of the bands first (45 ms at 29k parts).
  if (f.priceAt) {
    const { quantity, maxUsd } = f.priceAt;
    const band = 'b.price <= ? AND b.qty_from <= ? AND (b.qty_to IS NULL OR b.qty_to > ?)';
    const probe = `EXISTS (SELECT 1 FROM ${t.prices} b WHERE b.prow = p.rowid AND ${band})`;
    // Not DISTINCT: SQLite then reads every band through (prow, ...) to drop repeats (1 -> 20 ms at 29k for
    // "1 unit at most 0.001 USD"). Sizing the set (broadSets) counts a part once per offer holding the
    // quantity, so a set may be judged broad a little early: another plan, the same answer.
    set(`SELECT b.prow FROM ${t.prices} b WHERE ${band}`, [maxUsd, quantity, quantity], probe, probe);
  }
  const form = (rowIn: string, probe = false, driver = -1) =>
    parts.length
      ? parts
          .map((c) =>
            c.set === undefined ? c.text : c.set === driver ? `p.rowid IN ${c.text}` : driver >= 0 ? c.corr : probe && c.probe ? c.probe : `${rowIn} ${c.text}`,
          )
          .join(' AND ')
      : '1';
  const { categories, manufacturers, lists, specs, maxPriceUsd } = f;
  const onlyIndexed = !f.status?.length && !f.excludeCategories?.length && !f.inStock && !f.priceAt && !f.packages?.length;
  const statusOnly = parts.length === 1 && f.status?.length ? f.status : null;
  const statusInCategories =
    parts.length === (f.inStock ? 3 : 2) && f.status?.length && categories?.length ? { statuses: f.status, categories, inStock: f.inStock === true } : null;
  const narrowed = Boolean(categories?.length || manufacturers?.length || lists?.length || specs?.length || maxPriceUsd !== undefined);
  const rowConditions =
    !f.priceAt && !f.packages?.length ? { statuses: f.status ?? [], inStock: f.inStock === true, excludeCategories: f.excludeCategories ?? [] } : null;
  const out: FilterSql = {
    sql: form('p.rowid IN'),
    probeSql: form('+p.rowid IN', true),
    params,
    sets,
    drivenBy: (i) => {
      if (!Number.isInteger(i) || i < 0 || i >= sets.length) throw new RangeError(`filters: no set ${i} to read from (${sets.length} sets)`);
      return form('', false, i);
    },
    narrowing: null,
    statusOnly,
    rowConditions,
    statusInCategories,
  };
  if (narrowed) out.narrowing = onlyIndexed ? out : filterSql({ categories, manufacturers, lists, specs, maxPriceUsd }, t);
  return out;
}
