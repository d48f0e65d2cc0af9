/** Translates engine-neutral filters into a SQL condition over `p` (the version's parts table). */
import type { EngineFilters, NumericRange } from '../port.ts';
import { sameNumberBounds } from '../same-number.ts';
import type { VersionTables } from './schema.ts';

/** A spec range bound as SQL over a spec row's [min, max]: the part's whole range lies within it. */
const RANGE_SQL: readonly (readonly ['gte' | 'gt' | 'lte' | 'lt', string])[] = [
  ['gte', 's.min >= ?'],
  ['gt', 's.min > ?'],
  ['lte', 's.max <= ?'],
  ['lt', 's.max < ?'],
];

/** A range's conditions on a spec row's [min, max] (its parameters pushed to `own`). */
function rangeConds(range: NumericRange, own: unknown[]): string[] {
  const conds: string[] = [];
  for (const [bound, sql] of RANGE_SQL) {
    const v = range[bound];
    if (v === undefined) continue;
    conds.push(sql);
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
   * The conditions that select few parts through an index (categories, manufacturers, lists, spec values
   * and ranges; not the status, which most parts share) on their own, null when there are none: whatever passes every condition passes these, so a count under
   * them bounds the filtered set from above without scanning the parts table.
   */
  narrowing: SqlCondition | null;
  /** The statuses asked for when the status is the filters' only condition (knn.ts checks those in memory); null otherwise. */
  statusOnly: readonly string[] | null;
}

export function filterSql(f: EngineFilters, t: VersionTables): FilterSql {
  /**
   * Conditions in order; a row set's text is its `(SELECT prow ...)`, written `rowid IN` or `+rowid IN`
   * by form, unless it has a probe of its own (a correlated check of the row, with the same parameters).
   */
  const parts: { text: string; set?: true; probe?: string }[] = [];
  const params: unknown[] = [];
  const sets: SqlCondition[] = [];
  const cond = (text: string) => parts.push({ text });
  /** A row-set condition: in the WHERE clause (its parameters in order) and on its own. */
  const set = (sql: string, own: unknown[], probe?: string) => {
    parts.push({ text: `(${sql})`, set: true, ...(probe ? { probe } : {}) });
    params.push(...own);
    sets.push({ sql, params: own });
  };
  if (f.status?.length) cond(`p.status IN (${placeholders(f.status, params)})`);
  if (f.categories?.length) cond(`(${f.categories.map((c) => subtree(c, params)).join(' OR ')})`);
  if (f.excludeCategories?.length) cond(`NOT (${f.excludeCategories.map((c) => subtree(c, params)).join(' OR ')})`);
  if (f.manufacturers?.length) cond(`p.mfr_slug IN (${placeholders(f.manufacturers, params)})`);
  if (f.lists?.length) {
    const own: unknown[] = [];
    set(`SELECT m.prow FROM ${t.members} m WHERE m.list_id IN (${placeholders(f.lists, own)})`, own);
  }
  // List and spec conditions are uncorrelated `rowid IN (...)` sets, read once through the members
  // primary key and the specs' (name, value) and (name, min, max) indexes. A correlated EXISTS per
  // part let SQLite walk the (name, min, max) range once per candidate part: seconds for one range
  // filter over 29k parts.
  for (const s of f.specs ?? []) {
    const own: unknown[] = [];
    const names = typeof s.name === 'string' ? [s.name] : s.name;
    const named = `s.name IN (${placeholders(names, own)})`;
    if ('values' in s) {
      // A number the same as an accepted one: its own arm, through the (name, min, max) index.
      const arms = [`SELECT s.prow FROM ${t.specs} s WHERE ${named} AND s.value IN (${placeholders(s.values, own)})`];
      for (const v of s.nums ?? []) {
        const [gte, lte] = sameNumberBounds(v);
        const conds = [`s.name IN (${placeholders(names, own)})`, ...rangeConds({ gte, lte }, own), 's.unit IS ?'];
        own.push(s.numUnit ?? null);
        arms.push(`SELECT s.prow FROM ${t.specs} s WHERE ${conds.join(' AND ')}`);
      }
      set(arms.join(' UNION ALL '), own);
    } else {
      const conds = [named, 's.min IS NOT NULL', ...rangeConds(s.range, own)];
      if (s.unit !== undefined) {
        conds.push('(s.unit IS ? OR s.unit IS NULL)');
        own.push(s.unit);
      }
      set(`SELECT s.prow FROM ${t.specs} s WHERE ${conds.join(' AND ')}`, own);
    }
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
    // Not DISTINCT: SQLite then reads every band through (prow, ...) to drop repeats (1 -> 20 ms at 29k for
    // "1 unit at most 0.001 USD"). Sizing the set (broadSets) counts a part once per offer holding the
    // quantity, so a set may be judged broad a little early: another plan, the same answer.
    set(
      `SELECT b.prow FROM ${t.prices} b WHERE ${band}`,
      [maxUsd, quantity, quantity],
      `EXISTS (SELECT 1 FROM ${t.prices} b WHERE b.prow = p.rowid AND ${band})`,
    );
  }
  const form = (rowIn: string, probe = false) =>
    parts.length ? parts.map((c) => (!c.set ? c.text : probe && c.probe ? c.probe : `${rowIn} ${c.text}`)).join(' AND ') : '1';
  const { categories, manufacturers, lists, specs } = f;
  const indexed = { categories, manufacturers, lists, specs };
  const onlyIndexed = !f.status?.length && !f.excludeCategories?.length && !f.inStock && f.maxPriceUsd === undefined && !f.priceAt;
  const narrowing = !(categories?.length || manufacturers?.length || lists?.length || specs?.length)
    ? null
    : onlyIndexed
      ? { sql: form('p.rowid IN'), params }
      : filterSql(indexed, t);
  const statusOnly = parts.length === 1 && f.status?.length ? f.status : null;
  return { sql: form('p.rowid IN'), probeSql: form('+p.rowid IN', true), params, sets, narrowing, statusOnly };
}
