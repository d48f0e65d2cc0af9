/**
 * What the text ranking's plans need of a part row, by rowid, kept per version: id, category, status,
 * maker and whether in stock (a version's parts never change these while it is live: only their records
 * are rewritten, engine.ts setListMembership). Read for the rows not seen yet, from their parts rows
 * (about 3 µs a row). Filters on the rows' own columns (status, in stock, excluded categories:
 * FilterSql.rowConditions) are then checked here instead of joined in SQL: a status-only window of
 * 200 rows over the 29k catalogue in 0.01-0.04 ms against 0.5-0.7 ms, the matches of a set or a whole
 * query for ranking and facets (text-rank.ts). Arrays indexed by rowid, allocated for every row on first
 * use (19 bytes a row: 11 MB for a 578k catalogue), with each category, status and maker kept once.
 */
import type Database from 'better-sqlite3';
import type { FilterSql } from './filters.ts';
import type { VersionTables } from './schema.ts';

export type RowConditions = NonNullable<FilterSql['rowConditions']>;

export interface RowFactTable {
  parts: string;
  id: Float64Array;
  /** Index into `categories` (0: null). */
  category: Int32Array;
  /** Index into `statuses` (0: not read yet; a version has a handful of statuses). */
  status: Uint16Array;
  /** Index into `makers` (0: null). */
  maker: Int32Array;
  /** 1 when the part is in stock (stock > 0). */
  inStock: Uint8Array;
  categories: (string | null)[];
  statuses: string[];
  makers: (string | null)[];
  /** Positions in `categories`, `statuses` and `makers` by value. */
  categoryAt: Map<string, number>;
  statusAt: Map<string, number>;
  makerAt: Map<string, number>;
}

/** The position of `v` in `list` (added once); position 0 is null (categories, makers) or "not read" (statuses). */
function intern(list: (string | null)[], at: Map<string, number>, v: string | null): number {
  if (v === null) return 0;
  let i = at.get(v);
  if (i === undefined) at.set(v, (i = list.push(v) - 1));
  return i;
}

/**
 * Whether a read row passes the row conditions: its status code ([]: any; code 0, no part, never), stock
 * and category (not under an excluded subtree, and not null when any is excluded, as `NOT (...)` over a
 * null category is in SQL).
 */
function rowPasses(facts: RowFactTable, c: RowConditions): (r: number) => boolean {
  const allowed = c.statuses.length ? new Set(c.statuses) : null;
  const passes = facts.statuses.map((x, i) => i > 0 && (!allowed || allowed.has(x)));
  const { status, inStock, category } = facts;
  const byStatus = (r: number) => r < status.length && passes[status[r]!]!;
  const byStock = c.inStock ? (r: number) => byStatus(r) && inStock[r] === 1 : byStatus;
  if (!c.excludeCategories.length) return byStock;
  const out = facts.categories.map((x) => x === null || c.excludeCategories.some((e) => x === e || x.startsWith(`${e}/`)));
  return (r) => byStock(r) && !out[category[r]!];
}

export function createRowFacts(stmt: (sql: string) => Database.Statement) {
  let facts: RowFactTable | null = null;

  /**
   * The version's table with `rows` read into it (a row of no part keeps status 0), reading at most
   * `budget` rows not seen yet: null when more are unseen (those read stay), so that callers with a plan
   * in SQL to fall back to spread a common word's first reads (130k rows, 0.38 s at 578k) over several
   * queries instead of one.
   */
  function read(t: VersionTables, rows: readonly number[], budget: number): RowFactTable | null {
    if (facts?.parts !== t.parts) {
      const size = ((stmt(`SELECT max(rowid) FROM ${t.parts}`).pluck().get() as number | null) ?? 0) + 1;
      facts = {
        parts: t.parts,
        id: new Float64Array(size),
        category: new Int32Array(size),
        status: new Uint16Array(size),
        maker: new Int32Array(size),
        inStock: new Uint8Array(size),
        categories: [null],
        statuses: [''],
        makers: [null],
        categoryAt: new Map(),
        statusAt: new Map(),
        makerAt: new Map(),
      };
    }
    const f = facts;
    // status 0: not read yet (every stored status is a string, so a read row's code is at least 1)
    const all = rows.filter((r) => r < f.status.length && f.status[r] === 0);
    const unseen = all.length > budget ? all.slice(0, budget) : all;
    if (unseen.length)
      for (const x of stmt(
        `SELECT p.rowid AS r, p.id AS id, p.category AS category, p.status AS status, p.mfr_slug AS maker, p.stock > 0 AS inStock FROM json_each(?) j CROSS JOIN ${t.parts} p ON p.rowid = j.value`,
      ).all(JSON.stringify(unseen)) as { r: number; id: number; category: string | null; status: string; maker: string | null; inStock: number | null }[]) {
        f.id[x.r] = x.id;
        f.category[x.r] = intern(f.categories, f.categoryAt, x.category);
        f.status[x.r] = intern(f.statuses, f.statusAt, x.status);
        f.maker[x.r] = intern(f.makers, f.makerAt, x.maker);
        f.inStock[x.r] = x.inStock === 1 ? 1 : 0;
      }
    return unseen.length < all.length ? null : f;
  }

  return {
    /** The facts of the part rows among `rows`, all read (in their order; rows of no part left out). */
    of(t: VersionTables, rows: readonly number[]): { r: number; id: number; category: string | null; status: string }[] {
      const f = read(t, rows, Infinity)!;
      const out: { r: number; id: number; category: string | null; status: string }[] = [];
      for (const r of rows)
        if (r < f.status.length && f.status[r] !== 0) out.push({ r, id: f.id[r]!, category: f.categories[f.category[r]!]!, status: f.statuses[f.status[r]!]! });
      return out;
    },
    /** The positions in `rows` of those passing the row conditions, and the table; null when `budget` did not read them all. */
    passing(t: VersionTables, rows: readonly number[], c: RowConditions, budget: number): { at: number[]; facts: RowFactTable } | null {
      const f = read(t, rows, budget);
      if (!f) return null;
      const passes = rowPasses(f, c);
      const at: number[] = [];
      for (let i = 0; i < rows.length; i++) if (passes(rows[i]!)) at.push(i);
      return { at, facts: f };
    },
  };
}
