/**
 * Facet counts of the SQLite adapter over a matched set (the rows of a query over the parts table, `p`),
 * read once into a temporary table (the set's query used to run again for every count): spec-name,
 * attribute and value counts through the specs' (prow, name, value, attr) index, from the set's rows
 * (CROSS JOIN: the set drives); manufacturer and category counts by seeking the set's parts rows when it is small, else
 * by scanning those columns' indexes with the set probed.
 */
import type Database from 'better-sqlite3';
import type { FacetRequest, FacetResult } from '../port.ts';
import type { SqlCondition } from './filters.ts';
import type { VersionTables } from './schema.ts';
import type { MatchedRows } from './text-rank.ts';

/** The `size` most frequent non-null values of `valueOf` over `rows`, by count then value (as the SQL counts order them: the slugs are ASCII). */
function countsOf(rows: readonly number[], valueOf: (r: number) => string | null, size: number): { slug: string; count: number }[] {
  const n = new Map<string, number>();
  for (const r of rows) {
    const v = valueOf(r);
    if (v !== null) n.set(v, (n.get(v) ?? 0) + 1);
  }
  return [...n]
    .map(([slug, count]) => ({ slug, count }))
    .sort((a, b) => b.count - a.count || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .slice(0, size);
}

export const EMPTY_FACETS: FacetResult = { total: 0, specNames: {}, attributes: {}, specValues: {}, attributeValues: {}, manufacturers: [], categories: [] };

/** Manufacturer and category counts seek the set's parts rows while the set is under 1/SEEK_OVER_SCAN of the parts, else scan an index. */
const SEEK_OVER_SCAN = 8;
const ROWS = 'temp.facet_rows';

/** `forced`: the manufacturer/category plan for tests ('auto' chooses by the set's size). */
export function createFacetCounts(db: Database.Database, stmt: (sql: string) => Database.Statement, forced: 'auto' | 'seek' | 'scan') {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS facet_rows (r INTEGER PRIMARY KEY)`);

  /**
   * `set` selects the matched rowids as `r`, or holds them with each one's category and maker (from the
   * text ranking's kept row facts: text-rank.ts matchedRows), whose counts are then taken here; `parts` is
   * about the number of parts in the version.
   */
  return function countFacets(t: VersionTables, set: SqlCondition | MatchedRows, req: FacetRequest, parts: number): FacetResult {
    const size = req.size ?? 20;
    stmt(`DELETE FROM ${ROWS}`).run();
    try {
      const known = 'rows' in set ? set : null;
      const query = set as SqlCondition;
      const total = known
        ? stmt(`INSERT INTO ${ROWS} (r) SELECT value FROM json_each(?)`).run(JSON.stringify(known.rows)).changes
        : stmt(`INSERT INTO ${ROWS} (r) SELECT r FROM (${query.sql})`).run(...query.params).changes;
      /** Parts per spec name, or per attribute: `column` is the specs table's name or attr column. */
      const keyCounts = (column: 'name' | 'attr') => {
        const out: Record<string, number> = {};
        for (const r of stmt(
          `SELECT s.${column} AS k, count(DISTINCT s.prow) AS n FROM ${ROWS} m CROSS JOIN ${t.specs} s ON s.prow = m.r WHERE s.${column} IS NOT NULL GROUP BY s.${column} ORDER BY n DESC, s.${column}`,
        ).all() as { k: string; n: number }[]) {
          out[r.k] = r.n;
        }
        return out;
      };
      /** Value buckets, numeric extent and most common unit of each key asked for. */
      const valueFacets = (column: 'name' | 'attr', keys: readonly string[]) => {
        const out: FacetResult['specValues'] = {};
        for (const key of keys) {
          const values = stmt(
            `SELECT s.value AS value, count(DISTINCT s.prow) AS count FROM ${ROWS} m CROSS JOIN ${t.specs} s ON s.prow = m.r AND s.${column} = ? GROUP BY s.value ORDER BY count DESC, s.value LIMIT ?`,
          ).all(key, size) as { value: string; count: number }[];
          const ext = stmt(
            `SELECT min(s.min) AS min, max(s.max) AS max, (SELECT unit FROM ${t.specs} u WHERE u.${column} = ? AND u.unit IS NOT NULL GROUP BY unit ORDER BY count(*) DESC LIMIT 1) AS unit FROM ${ROWS} m CROSS JOIN ${t.specs} s ON s.prow = m.r AND s.${column} = ?`,
          ).get(key, key) as { min: number | null; max: number | null; unit: string | null };
          out[key] = { values, min: ext.min, max: ext.max, unit: ext.unit };
        }
        return out;
      };
      const specNames = keyCounts('name');
      const specValues = valueFacets('name', req.specValues ?? []);
      // A version loaded before attributes were stored counts none.
      const withAttributes = t.specAttributes !== false;
      const attributes = withAttributes ? keyCounts('attr') : {};
      const attributeValues = withAttributes ? valueFacets('attr', req.attributeValues ?? []) : {};
      const seek = forced === 'auto' ? total * SEEK_OVER_SCAN < parts : forced === 'seek';
      const counts = (col: 'mfr_slug' | 'category') =>
        known
          ? countsOf(known.rows, col === 'mfr_slug' ? known.makerOf : known.categoryOf, size)
          : (stmt(
              seek
                ? `SELECT p.${col} AS slug, count(*) AS count FROM ${ROWS} m CROSS JOIN ${t.parts} p ON p.rowid = m.r WHERE p.${col} IS NOT NULL GROUP BY p.${col} ORDER BY count DESC, slug LIMIT ?`
                : `SELECT p.${col} AS slug, count(*) AS count FROM ${t.parts} p WHERE p.${col} IS NOT NULL AND +p.rowid IN (SELECT r FROM ${ROWS}) GROUP BY p.${col} ORDER BY count DESC, slug LIMIT ?`,
            ).all(size) as { slug: string; count: number }[]);
      return { total, specNames, attributes, specValues, attributeValues, manufacturers: counts('mfr_slug'), categories: counts('category') };
    } finally {
      stmt(`DELETE FROM ${ROWS}`).run();
    }
  };
}
