/**
 * SQLite adapter of the search-engine port (the embedded default): one database file holding parts
 * with their full records, FTS5 (BM25 with field weights), a trigram index over MPN keys, a specs
 * table with SI numbers, list memberships, and sqlite-vec vectors. See schema.ts for the layout.
 *
 * Readers notice a swap made by another process (an ingest) through PRAGMA data_version and
 * re-read the live version before the next query.
 */
import { openSqliteDb, statementCache } from './db.ts';
import type { CatalogMeta } from '../../catalog/meta.ts';
import type { PartRecord } from '../../catalog/part.ts';
import type { EngineFilters, EngineInfo, FacetRequest, FacetResult, ScoredId, SearchEngine, TextSearchRequest, TextSearchResult } from '../port.ts';
import { DEFAULT_RECORD_CACHE } from '../port.ts';
import { filterSql, type SqlCondition } from './filters.ts';
import { createFilterPlans } from './filter-plans.ts';
import { versionTables, type VersionTables } from './schema.ts';
import { createTextRanking, type CommonWordBounds, type MatchedRows, type TextRankPlan } from './text-rank.ts';
import { createKnn } from './knn.ts';
import { createMpnLookup } from './mpn-lookup.ts';
import { createFacetCounts, EMPTY_FACETS } from './facets.ts';
import { parsedRecords, RecordCache, recordJson, recordTexts, withLazyRecords, withRecordsOnDemand } from './records.ts';
import { createSqliteLoader } from './loader.ts';
import { createSqliteBackfill } from './backfill.ts';
import { tieredMpnSearch } from '../mpn-tiers.ts';
import { oncePerTurn } from '../../util/turn.ts';

/** An empty prices table, for versions without one (see tables()). */
const NO_PRICES = '(SELECT 0 AS prow, 0 AS qty_from, NULL AS qty_to, 0.0 AS price WHERE 0)';

export interface SqliteEngineOptions {
  /** Database file; ':memory:' for tests. */
  file: string;
  /** When a query word counts as common (text-rank.ts). */
  commonWord?: CommonWordBounds;
  /** Most rows whose facts one query reads (row-facts.ts, its budget; tests lower it). */
  factsReadMax?: number;
  /** Exact kNN over the vectors in memory (vector-scan.ts) when usearch loads; false: vec0's KNN only. Default true. */
  memoryVectors?: boolean;
  /** Versions with at least this many vectors get an HNSW graph at ingest (vector-index.ts; default ANN_MIN_VECTORS; tests lower it). */
  vectorIndexMin?: number;
  /**
   * Plan choices forced for tests (default 'auto'): broad list/spec sets (broadSets), facet counts
   * (facets), ranked text under filters (text-rank.ts: ranked windows, or the plain join), BM25 from the
   * postings read from the FTS index or by FTS5's bm25() (postings.ts), filter-only pages from the
   * parts the narrowing conditions select or by walking all parts in stock order (fewSelected).
   */
  plans?: {
    broadSets?: 'auto' | 'always' | 'never';
    facetCounts?: 'auto' | 'seek' | 'scan';
    textRank?: TextRankPlan;
    bm25?: 'postings' | 'fts5';
    filterOnly?: 'auto' | 'stock-order';
  };
  /** Parsed records kept for reuse (records.ts RecordCache; default DEFAULT_RECORD_CACHE, 0 keeps none). */
  recordCacheSize?: number;
}

export function createSqliteEngine(opts: SqliteEngineOptions): SearchEngine {
  const db = openSqliteDb(opts.file);
  let dataVersion = -1;
  let live: string | null = null;
  let previous: string | null = null;
  /** The live version's catalogue snapshot as parsed, and its text (re-read after another process's commit: a list edit). */
  let metaCache: CatalogMeta | null = null;
  let metaText: string | null = null;
  let metaStale = false;
  let hasVectors = false;
  let hasStatusIndex = false;
  let hasCategoryStockIndex = false;
  let hasPrices = true;
  let hasSpecAttributes = true;
  const stmt = statementCache(db);
  const records = new RecordCache(opts.recordCacheSize ?? DEFAULT_RECORD_CACHE);

  const getPointer = db.prepare<[string], { value: string }>('SELECT value FROM engine_meta WHERE key = ?');
  const readDataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const schemaObject = db.prepare<[string], unknown>('SELECT 1 FROM sqlite_master WHERE name = ?');
  // Another process's commit (an ingest swapping versions) is looked for once per event-loop turn.
  const firstThisTurn = oncePerTurn();

  /** Commits on this connection do not move data_version: forget what we read. */
  function invalidate(): void {
    dataVersion = -1;
    live = null;
  }

  function refresh(): void {
    if (!firstThisTurn() && dataVersion !== -1) return;
    const dv = readDataVersion.get() as number;
    if (dv === dataVersion) return;
    dataVersion = dv;
    metaStale = true;
    records.clear(); // a commit (an ingest, a list edit) may have changed stored records
    const l = getPointer.get('live')?.value ?? null;
    previous = getPointer.get('previous')?.value ?? null;
    if (l !== live) {
      live = l;
      stmt.clear();
      metaCache = null;
      metaText = null;
      const t = live === null ? null : versionTables(live);
      const exists = (name: string) => schemaObject.get(name) !== undefined;
      hasVectors = t !== null && exists(`vec_${live}`);
      // Versions loaded before the (status, stock) index existed keep the set-driven plans (broadSets).
      hasStatusIndex = t !== null && exists(`${t.parts}_status_stock`);
      hasCategoryStockIndex = t !== null && exists(`${t.parts}_cat_stock`);
      hasPrices = t !== null && exists(t.prices);
      // Versions loaded before attributes were stored with each spec have no attr column (nor its indexes).
      hasSpecAttributes = t !== null && exists(`${t.specs}_attr_num`);
    }
  }

  /**
   * Live tables, or null when nothing is loaded. A version loaded before price bands were indexed has no
   * prices table: an empty set stands in for it, so that a price-at-quantity filter matches nothing
   * there instead of failing (the catalogue view refuses such requests with a 422, but a rollback takes
   * up to a second to reach it). A version loaded before spec attributes were stored says so
   * (`specAttributes`): attribute filters match nothing there and attribute facets count nothing.
   */
  function tables(): VersionTables | null {
    refresh();
    if (!live) return null;
    const t = versionTables(live);
    return { ...t, ...(hasPrices ? {} : { prices: NO_PRICES }), specAttributes: hasSpecAttributes };
  }

  const { textMatch, rankedText, matchedRows, postingsReady } = createTextRanking(
    db,
    stmt,
    opts.commonWord,
    opts.plans?.textRank,
    opts.plans?.bm25 !== 'fts5',
    opts.factsReadMax,
  );
  const nearest = createKnn(db, stmt, opts.memoryVectors !== false, opts.file);
  const facetPlan = opts.plans?.facetCounts ?? 'auto';
  const countFacets = createFacetCounts(db, stmt, facetPlan);

  const mpnLookup = createMpnLookup(stmt, tables);
  const { partsIn, whereOf, filterOnlyPage, categoryRows } = createFilterPlans(stmt, {
    broadSets: opts.plans?.broadSets,
    filterOnly: opts.plans?.filterOnly,
    hasStatusIndex: () => hasStatusIndex,
    hasCategoryStockIndex: () => hasCategoryStockIndex,
  });

  /**
   * A search's total: `count` (a second pass over every match) when an exact total is asked for;
   * otherwise offset + the page's hits, a lower bound, unless the page lies past the end (no hits at an
   * offset), where only counting tells the real total.
   */
  function totalOf(req: TextSearchRequest, offset: number, hits: number, count: () => number): number {
    return req.exactTotal === false && (hits > 0 || offset === 0) ? offset + hits : count();
  }

  function textSearch(req: TextSearchRequest): TextSearchResult {
    const t = tables();
    if (!t) return { total: 0, hits: [] };
    const f = filterSql(req.filters, t);
    const match = req.text ? textMatch(t, req.text) : null;
    if (req.text && !match) return { total: 0, hits: [] };
    const offset = Math.max(0, req.offset);
    const limit = Math.max(0, req.limit);
    if (match) {
      const ranked = limit > 0 ? rankedText(t, match, f, offset + limit, req.exactTotal !== false) : { hits: [], total: null };
      const hits = withRecords(req.records, ranked.hits.slice(offset));
      const total = totalOf(
        req,
        offset,
        hits.length,
        () =>
          ranked.total ??
          (
            stmt(`SELECT count(*) AS n FROM ${t.fts} JOIN ${t.parts} p ON p.rowid = ${t.fts}.rowid WHERE ${t.fts} MATCH ? AND ${f.sql}`).get(
              match.expr,
              ...f.params,
            ) as { n: number }
          ).n,
      );
      return { total, hits };
    }
    const { rows, count } = filterOnlyPage(t, f, limit, offset);
    const total = totalOf(req, offset, rows.length, count);
    return { total, hits: withRecords(req.records, rows) };
  }

  /** The hits with their records when the request asks for them (records.ts: parsed on first read). */
  function withRecords<T extends { id: number; record?: PartRecord }>(want: boolean | undefined, hits: T[]): T[] {
    const t = want && hits.length ? tables() : null;
    return t
      ? withLazyRecords(
          hits,
          recordTexts(
            stmt,
            t,
            hits.map((h) => h.id),
            records,
          ),
          records,
        )
      : hits;
  }

  /** Whether the live version's vectors are searchable: it has them, and none is still to be filled (vector-backfill.ts). */
  function vectorsReady(): boolean {
    refresh();
    return hasVectors && !meta()?.embedding.pending;
  }

  function knn(vector: Float32Array, k: number, filters: EngineFilters): ScoredId[] {
    const t = tables();
    return t && vectorsReady() ? nearest(t, vector, k, filters) : [];
  }

  function matchedSet(t: VersionTables, text: string | null, filters: EngineFilters): SqlCondition | MatchedRows | null {
    const f = filterSql(filters, t);
    if (!text) return categoryRows(t, f) ?? { sql: `SELECT p.rowid AS r FROM ${t.parts} p WHERE ${whereOf(t, f)}`, params: f.params };
    const match = textMatch(t, text);
    if (!match) return null;
    // From the postings and the rows' kept facts when the filters allow (the facet plan left to choose).
    const rows = facetPlan === 'auto' ? matchedRows(t, match, f) : null;
    if (rows) return rows;
    return {
      sql: `SELECT p.rowid AS r FROM ${t.fts} JOIN ${t.parts} p ON p.rowid = ${t.fts}.rowid WHERE ${t.fts} MATCH ? AND ${f.sql}`,
      params: [match.expr, ...f.params],
    };
  }

  function facets(req: FacetRequest): FacetResult {
    const t = tables();
    const set = t && matchedSet(t, req.text, req.filters);
    return t && set ? countFacets(t, set, req, partsIn(t)) : EMPTY_FACETS;
  }

  function getParts(ids: readonly number[]): PartRecord[] {
    const t = tables();
    return t ? parsedRecords(recordTexts(stmt, t, ids, records), ids, records) : [];
  }

  function getPartBySlug(mfr: string, mpnSlug: string): { part: PartRecord; exact: boolean } | null {
    const t = tables();
    if (!t) return null;
    const read = (row: { id: number; record: string }) => records.get(row.id) ?? records.parse(row.id, row.record);
    const exact = stmt(`SELECT id, record FROM ${t.parts} WHERE mfr_slug = ? AND mpn_slug = ? ORDER BY id LIMIT 1`).get(mfr, mpnSlug) as
      { id: number; record: string } | undefined;
    if (exact) return { part: read(exact), exact: true };
    const loose = stmt(`SELECT id, record FROM ${t.parts} WHERE mfr_slug = ? AND mpn_slug = ? COLLATE NOCASE ORDER BY id LIMIT 1`).get(
      mfr.toLowerCase(),
      mpnSlug,
    ) as { id: number; record: string } | undefined;
    return loose ? { part: read(loose), exact: false } : null;
  }

  function meta(): CatalogMeta | null {
    refresh();
    if (!live) return null;
    if (!metaCache || metaStale) {
      // Parsed again only when its text changed: another process's commit is usually not to it (an ingest
      // writing a new version), but may be (`partsearch lists add` while the API runs).
      metaStale = false;
      const text = (db.prepare('SELECT meta FROM catalog_meta WHERE version = ?').pluck().get(live) as string | undefined) ?? null;
      if (text !== metaText || !metaCache) {
        metaText = text;
        metaCache = text === null ? null : (JSON.parse(text) as CatalogMeta);
      }
    }
    return metaCache;
  }

  const engine: SearchEngine = {
    kind: 'sqlite',
    async init() {},
    async warmUp() {
      const t = tables();
      if (t) await postingsReady(t);
    },
    async info(): Promise<EngineInfo> {
      const t = tables();
      const parts = t ? (stmt(`SELECT count(*) AS n FROM ${t.parts}`).get() as { n: number }).n : 0;
      return { kind: 'sqlite', version: live, previous, parts, vectors: vectorsReady() };
    },
    async meta() {
      return meta();
    },
    async saveMeta(m) {
      refresh();
      if (!live) throw new Error('no live index version to attach the catalogue snapshot to');
      db.prepare('INSERT OR REPLACE INTO catalog_meta (version, meta) VALUES (?, ?)').run(live, JSON.stringify({ ...m, version: live }));
      invalidate();
    },
    async mpnLookup(req) {
      return mpnLookup(req);
    },
    async mpnSearch(req) {
      return tieredMpnSearch(async (r) => mpnLookup(r), req);
    },
    async textSearch(req) {
      return textSearch(req);
    },
    async knn(vector, k, filters, opts) {
      const hits = knn(vector, k, filters);
      // Each hit's record read when first asked for (withRecordsOnDemand): agentic search reads about half.
      const t = opts?.records && hits.length ? tables() : null;
      return t ? withRecordsOnDemand(stmt, t, hits, records) : hits;
    },
    async facets(req) {
      return facets(req);
    },
    async getParts(ids) {
      return getParts(ids);
    },
    async getPartBySlug(mfr, mpn) {
      return getPartBySlug(mfr, mpn);
    },
    async escapedSlugs(mfr, prefix, limit) {
      const t = tables();
      if (!t) return [];
      // Through the (maker, slug NOCASE) index, whose entries hold the slugs: LIKE is case-insensitive, so
      // the prefix narrows the index range. With the 578k index's statistics the planner chose the maker
      // index and read every part row of the maker (30-50 ms for 27k parts, 2 ms so).
      const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%~%`;
      return stmt(`SELECT id, mpn_slug FROM ${t.parts} INDEXED BY ${t.parts}_slug WHERE mfr_slug = ? AND mpn_slug LIKE ? ESCAPE '\\' ORDER BY id LIMIT ?`).all(
        mfr,
        pattern,
        limit,
      ) as {
        id: number;
        mpn_slug: string;
      }[];
    },
    async beginLoad(o) {
      return createSqliteLoader(db, opts.file, o.embeddingDims, invalidate, opts.vectorIndexMin);
    },
    backfill: createSqliteBackfill(db, opts.file, { vectorIndexMin: opts.vectorIndexMin, onChange: invalidate }),
    async rollback() {
      refresh();
      if (!live || !previous) throw new Error('there is no previous index version to roll back to');
      const from = live;
      const to = previous;
      db.transaction(() => {
        db.prepare("UPDATE engine_meta SET value = ? WHERE key = 'live'").run(to);
        db.prepare("UPDATE engine_meta SET value = ? WHERE key = 'previous'").run(from);
      })();
      invalidate();
      return { from, to };
    },
    async setListMembership(listId, partIds) {
      const t = tables();
      if (!t) throw new Error('no live index version');
      db.transaction(() => {
        const before = db.prepare(`SELECT p.id AS id FROM ${t.members} m JOIN ${t.parts} p ON p.rowid = m.prow WHERE m.list_id = ?`).all(listId) as {
          id: number;
        }[];
        db.prepare(`DELETE FROM ${t.members} WHERE list_id = ?`).run(listId);
        const ins = db.prepare(`INSERT OR IGNORE INTO ${t.members} (list_id, prow) SELECT ?, rowid FROM ${t.parts} WHERE id = ?`);
        for (const id of partIds) ins.run(listId, id);
        // Keep the stored records' `lists` in step with the membership table. Only `record` changes in a
        // live version's parts table: the ranked windows (text-rank.ts) and kNN (knn.ts) remember each
        // row's id, category and status for the life of the version.
        const read = db.prepare(`SELECT record FROM ${t.parts} WHERE id = ?`);
        const write = db.prepare(`UPDATE ${t.parts} SET record = ? WHERE id = ?`);
        const now = new Set(partIds);
        for (const id of new Set([...before.map((b) => b.id), ...partIds])) {
          const row = read.get(id) as { record: string } | undefined;
          if (!row) continue;
          const rec = JSON.parse(row.record) as PartRecord;
          const lists = rec.lists.filter((l) => l !== listId);
          if (now.has(id)) {
            lists.push(listId);
            lists.sort();
          }
          if (lists.length !== rec.lists.length || !lists.every((l, i) => l === rec.lists[i])) write.run(recordJson({ ...rec, lists }), id);
        }
      })();
      records.clear(); // this connection's commits do not move data_version (refresh)
    },
    async close() {
      db.close();
    },
  };
  return engine;
}
