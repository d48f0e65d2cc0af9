/**
 * Plan choices of the SQLite adapter for filtered reads, made per request from counts through indexes:
 * broad list/spec sets scanned in index order with the sets probed (broadSets), and filter-only pages
 * read category by category (bestStockedInCategories) or from the few parts the narrowing conditions
 * select (filterOnlyPage); `fewSelected` is the count
 * and the read both these and text-rank.ts's ranking of the few use.
 */
import type Database from 'better-sqlite3';
import type { TextHit } from '../port.ts';
import type { FilterSql, SqlCondition } from './filters.ts';
import type { VersionTables } from './schema.ts';

/** A list or spec set holding at least this share of the parts (and BROAD_SET_MIN) is broad: see broadSets. */
const BROAD_SET_SHARE = 1 / 4;
const BROAD_SET_MIN = 1000;

type Stmt = (sql: string) => Database.Statement;

/** Members a set is counted up to when choosing the set a selected read starts from (drivingSet). */
const DRIVER_COUNT_MAX = 512;

/**
 * The set of the narrowing conditions to read the selected parts from (FilterSql.drivenBy): the
 * smallest, each counted through its index up to DRIVER_COUNT_MAX; null when there is none, or none
 * under that count (SQLite's own plan then: every set built, and intersected).
 */
function drivingSet(stmt: Stmt, narrowing: FilterSql, countMax = DRIVER_COUNT_MAX): number | null {
  let best: number | null = null;
  let fewest = countMax;
  narrowing.sets.forEach((c, i) => {
    const n = stmt(`SELECT count(*) FROM (${c.sql} LIMIT ?)`)
      .pluck()
      .get(...c.params, fewest) as number;
    if (n < fewest) {
      fewest = n;
      best = i;
    }
  });
  return best;
}

/** The whole filters' condition written to read the few parts their narrowing conditions select, and its parameters. */
export interface FewSelected {
  where: string;
  params: unknown[];
  /** Whether `where` reads no large set (none, or read from a small one): reading the parts then costs about their number. */
  cheap: boolean;
}

/**
 * When the filters' narrowing conditions (categories, manufacturers, lists, spec values and ranges:
 * FilterSql.narrowing, read through indexes) select fewer than `bound` parts, counted up to the bound
 * (from their smallest set when it is small, drivingSet): the filters' condition written to read
 * those parts and check each (`p.rowid IN` them, or the driving set with the others checked row by
 * row); null otherwise, and when there are none (and, with `cheapOnly`, when the read would not be cheap).
 */
export function fewSelected(stmt: Stmt, t: VersionTables, f: FilterSql, bound: number, opts: { cheapOnly?: boolean } = {}): FewSelected | null {
  const narrowing = f.narrowing;
  if (!narrowing) return null;
  // `cheapOnly`: a read behind large sets is not wanted, so they are not built to be counted either; a
  // set under the bound may drive the read (counted up to it through its index, never built whole):
  // "resistor" within two lists of 1,107 parts at 578k was ranked by FTS5 over its 87k matches (35-44 ms)
  // because the lists held more than DRIVER_COUNT_MAX parts.
  const d = drivingSet(stmt, narrowing, opts.cheapOnly ? Math.max(DRIVER_COUNT_MAX, bound) : DRIVER_COUNT_MAX);
  if (opts.cheapOnly && d === null && narrowing.sets.length > 0) return null;
  // Without the status (SQLite may walk the (status, stock) index and test every active part: 35 ms
  // at 578k), stock, price or excluded categories (no index: a scan of the parts table).
  const n = stmt(`SELECT count(*) FROM (SELECT 1 FROM ${t.parts} p WHERE ${d === null ? narrowing.sql : narrowing.drivenBy(d)} LIMIT ?)`)
    .pluck()
    .get(...narrowing.params, bound) as number;
  if (n >= bound) return null;
  // The narrowing's sets are the first of the filters' (FilterSql.narrowing): the same index serves both.
  return d !== null
    ? { where: f.drivenBy(d), params: f.params, cheap: true }
    : {
        where: `p.rowid IN (SELECT p.rowid FROM ${t.parts} p WHERE ${narrowing.sql}) AND ${f.probeSql}`,
        params: [...narrowing.params, ...f.params],
        cheap: narrowing.sets.length === 0,
      };
}

/** Most (category, status) pairs, and rows in all, a page is read from category by category (bestStockedInCategories). */
const CATEGORY_READS_MAX = 64;
const CATEGORY_ROWS_MAX = 8000;

/**
 * The `n` best-stocked parts (stock descending, then id) of the given statuses within the given category
 * subtrees (with `inStock`, only those in stock), read category by category through the (category, status, stock, id) index: the categories
 * the subtrees hold are found by seeking that index from one to the next, each (category, status) pair
 * gives its own first `n` in order, and those lists are merged. Each read is a short range of the index,
 * where a walk of every part in stock order tests parts of other categories until `n` pass (the 100
 * best-stocked of four crystal categories of the 578k catalogue, 9,316 parts, lie in the first 3.6 ms of
 * that walk; read this way, 1.0 ms), and reading the few selected parts' rows to sort them reads a large
 * row each (4,289 LEDs: 2.5 ms). Null when the subtrees hold more than CATEGORY_READS_MAX pairs or the
 * reads could return more than CATEGORY_ROWS_MAX rows: the other plans then.
 */
export function bestStockedInCategories(
  stmt: Stmt,
  t: VersionTables,
  statuses: readonly string[],
  categories: readonly string[],
  n: number,
  inStock = false,
): { id: number; category: string }[] | null {
  const pairsMax = Math.min(CATEGORY_READS_MAX, Math.floor(CATEGORY_ROWS_MAX / Math.max(1, n)));
  const leavesMax = Math.floor(pairsMax / new Set(statuses).size);
  const leaves = leavesMax < 1 ? null : categoriesWithin(stmt, t, categories, leavesMax);
  if (!leaves) return null;
  const top = stmt(
    `SELECT id, category, stock FROM ${t.parts} INDEXED BY ${t.parts}_cat_stock WHERE category = ? AND status = ?${inStock ? ' AND stock > 0' : ''} ORDER BY stock DESC, id LIMIT ?`,
  ).raw();
  const rows: [number, string, number][] = [];
  for (const c of leaves) for (const s of new Set(statuses)) for (const r of top.all(c, s, n) as [number, string, number][]) rows.push(r);
  rows.sort((a, b) => b[2] - a[2] || a[0] - b[0]);
  return rows.slice(0, n).map(([id, category]) => ({ id, category }));
}

/** Most categories a count by category (countInCategories) adds up; the real taxonomy has 1,293 leaves. */
const CATEGORY_COUNTS_MAX = 4096;

/**
 * The categories the subtrees hold that have parts: each named one and those under it, found by seeking
 * the category index from one to the next (no part read); null when there are more than `max`.
 */
function categoriesWithin(stmt: Stmt, t: VersionTables, categories: readonly string[], max: number): Set<string> | null {
  const next = stmt(`SELECT category FROM ${t.parts} WHERE category > ? AND category < ? ORDER BY category LIMIT 1`).pluck();
  const leaves = new Set<string>();
  for (const c of categories) {
    leaves.add(c);
    // The subtree's other categories sort between `c/` and `c0` ('0' follows '/').
    for (let at = next.get(`${c}/`, `${c}0`) as string | undefined; at !== undefined; at = next.get(at, `${c}0`) as string | undefined) {
      leaves.add(at);
      if (leaves.size > max) return null;
    }
    if (leaves.size > max) return null;
  }
  return leaves;
}

/**
 * How many parts of the given statuses (only those in stock, with `inStock`) the category subtrees hold:
 * the sum of each (category, status) range's count in the (category, status, stock, id) index. SQLite's
 * own plan for the same count walked the (status, stock) index over every part of the status and tested
 * each one's category: 156 ms for four crystal categories of the 578k catalogue, 41 ms for one. Null
 * when the subtrees hold more than CATEGORY_COUNTS_MAX categories.
 */
export function countInCategories(stmt: Stmt, t: VersionTables, statuses: readonly string[], categories: readonly string[], inStock = false): number | null {
  const leaves = categoriesWithin(stmt, t, categories, CATEGORY_COUNTS_MAX);
  if (!leaves) return null;
  const count = stmt(
    `SELECT count(*) FROM ${t.parts} INDEXED BY ${t.parts}_cat_stock WHERE category = ? AND status = ?${inStock ? ' AND stock > 0' : ''}`,
  ).pluck();
  let n = 0;
  for (const c of leaves) for (const s of new Set(statuses)) n += count.get(c, s) as number;
  return n;
}

export interface FilterPlanOptions {
  /** Forced for tests (default 'auto'). */
  broadSets?: 'auto' | 'always' | 'never';
  filterOnly?: 'auto' | 'stock-order';
  /** Whether the live version has the (status, stock) index (versions loaded before it keep the set-driven plans). */
  hasStatusIndex(): boolean;
  /** Whether it has the (category, status, stock) index (bestStockedInCategories). */
  hasCategoryStockIndex(): boolean;
}

export function createFilterPlans(stmt: Stmt, opts: FilterPlanOptions) {
  /** About the number of parts in the live version (its largest rowid: one B-tree descent), the scale of a broad set. */
  function partsIn(t: VersionTables): number {
    return (stmt(`SELECT max(rowid) AS n FROM ${t.parts}`).get() as { n: number | null }).n ?? 0;
  }

  /**
   * Whether the filters have list or spec sets and every one holds at least BROAD_SET_SHARE of the
   * parts (counted up to that bound, so a small set costs little to size). Such filters are answered
   * by scanning the parts in an index's order and testing each against the sets (filterSql's probe
   * form) instead of seeking the parts row of every set member, which costs a random read of a large
   * row each (the lower half of Operating temperature, 17.5k of 29k parts: a page 50 -> 14 ms).
   */
  function broadSets(t: VersionTables, f: FilterSql): boolean {
    if (f.sets.length === 0) return false;
    const forced = opts.broadSets;
    if (forced && forced !== 'auto') return forced === 'always';
    if (!opts.hasStatusIndex()) return false;
    const bound = Math.max(BROAD_SET_MIN, Math.ceil(partsIn(t) * BROAD_SET_SHARE));
    return f.sets.every((c) => (stmt(`SELECT count(*) AS n FROM (${c.sql} LIMIT ?)`).get(...c.params, bound) as { n: number }).n >= bound);
  }

  /** The filters' condition in the form that suits their sets (broadSets). */
  const whereOf = (t: VersionTables, f: FilterSql) => (broadSets(t, f) ? f.probeSql : f.sql);

  /**
   * A filter-only page, best stocked first, and how to count every part passing the filters. Read from
   * the parts the narrowing conditions select (through their indexes, each then checked, the lot
   * sorted) when they select fewer than sqrt(page end * parts), where the walk's expected length (page
   * end * parts / selected, if their stock is spread like everyone's) and the selected set's size meet;
   * otherwise by walking every part in stock order and testing each. The 100 best-stocked of the 2,538
   * Schottky diodes of the 578k catalogue: a walk of about 23,000 rows (20-90 ms) against 2-6 ms. Larger
   * sets are walked (5,000-30,000 ceramic capacitors in stock: 0.2 ms walked, 11-19 ms selected and sorted).
   */
  /** The filters' status, categories and in_stock when they are all the filters ask and the version has the (category, status, stock, id) index; else null. */
  const byCategoryIndex = (f: FilterSql) =>
    f.statusInCategories && opts.filterOnly !== 'stock-order' && opts.hasCategoryStockIndex() ? f.statusInCategories : null;

  function filterOnlyPage(t: VersionTables, f: FilterSql, limit: number, offset: number): { rows: TextHit[]; count(): number } {
    const cols = `p.id AS id, 0.0 AS score, p.category AS category FROM ${t.parts} p`;
    const inCategories = byCategoryIndex(f);
    /** The count of the filters' parts: by category when it can be, else `other`. */
    const counted = (other: () => number) => () =>
      (inCategories && countInCategories(stmt, t, inCategories.statuses, inCategories.categories, inCategories.inStock)) ?? other();
    const byCategory = inCategories
      ? bestStockedInCategories(stmt, t, inCategories.statuses, inCategories.categories, offset + limit, inCategories.inStock)
      : null;
    if (byCategory) {
      const count = counted(() => (stmt(`SELECT count(*) AS n FROM ${t.parts} p WHERE ${f.sql}`).get(...f.params) as { n: number }).n);
      return { rows: byCategory.slice(offset).map((r) => ({ id: r.id, score: 0, category: r.category })), count };
    }
    const few = opts.filterOnly !== 'stock-order' ? fewSelected(stmt, t, f, Math.ceil(Math.sqrt(Math.max(1, offset + limit) * Math.max(1, partsIn(t))))) : null;
    if (few) {
      const rows = stmt(`SELECT ${cols} WHERE ${few.where} ORDER BY +p.stock DESC, p.id LIMIT ? OFFSET ?`).all(...few.params, limit, offset) as TextHit[];
      return { rows, count: counted(() => (stmt(`SELECT count(*) AS n FROM ${t.parts} p WHERE ${few.where}`).get(...few.params) as { n: number }).n) };
    }
    const where = whereOf(t, f);
    const rows = stmt(`SELECT ${cols} WHERE ${where} ORDER BY p.stock DESC, p.id LIMIT ? OFFSET ?`).all(...f.params, limit, offset) as TextHit[];
    const count = counted(() => (stmt(`SELECT count(*) AS n FROM ${t.parts} p WHERE ${where}`).get(...f.params) as { n: number }).n);
    return { rows, count };
  }

  /**
   * The rowids of the filters' parts (as `r`) read through the (category, status, stock, id) index when
   * status, categories and in_stock are their only conditions: an index seek per (category, status)
   * pair, where SQLite's own plan walked every part of the status and tested its category (facets of
   * four crystal categories at 578k: 161 -> 8.9 ms). Null otherwise (the caller's own set then).
   */
  function categoryRows(t: VersionTables, f: FilterSql): SqlCondition | null {
    const c = byCategoryIndex(f);
    const leaves = c && categoriesWithin(stmt, t, c.categories, CATEGORY_COUNTS_MAX);
    if (!c || !leaves) return null;
    const list = (xs: readonly string[]) => xs.map(() => '?').join(', ');
    const statuses = [...new Set(c.statuses)];
    return {
      sql: `SELECT p.rowid AS r FROM ${t.parts} p INDEXED BY ${t.parts}_cat_stock WHERE p.category IN (${list([...leaves])}) AND p.status IN (${list(statuses)})${c.inStock ? ' AND p.stock > 0' : ''}`,
      params: [...leaves, ...statuses],
    };
  }

  return { partsIn, whereOf, filterOnlyPage, categoryRows };
}
