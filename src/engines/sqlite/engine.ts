/**
 * SQLite adapter of the search-engine port (the embedded default): one database file holding parts
 * with their full records, FTS5 (BM25 with field weights), a trigram index over MPN keys, a specs
 * table with SI numbers, list memberships, and sqlite-vec vectors. See schema.ts for the layout.
 *
 * Readers notice a swap made by another process (an ingest) through PRAGMA data_version and
 * re-read the live version before the next query.
 */
import type Database from 'better-sqlite3';
import { openSqliteDb } from './db.ts';
import type { CatalogMeta } from '../../catalog/meta.ts';
import type { PartRecord } from '../../catalog/part.ts';
import { editDistance } from '../../catalog/edit-distance.ts';
import type {
  EngineFilters, EngineInfo, EngineLoader, FacetRequest, FacetResult, MpnHit, MpnLookupRequest,
  ScoredId, SearchEngine, TextHit, TextSearchRequest, TextSearchResult, VectorHit,
} from '../port.ts';
import { filterSql } from './filters.ts';
import { versionTables, type VersionTables } from './schema.ts';
import { trigramMatch, trigramSpread } from './text.ts';
import { createTextRanking, type CommonWordBounds } from './text-rank.ts';
import { createKnn } from './knn.ts';
import { createSqliteLoader } from './loader.ts';
import { fuzzyEdits, tieredMpnSearch } from '../mpn-tiers.ts';
import { oncePerTurn } from '../../util/turn.ts';


export interface SqliteEngineOptions {
  /** Database file; ':memory:' for tests. */
  file: string;
  /** When a query word counts as common (text-rank.ts). */
  commonWord?: CommonWordBounds;
  /** Exact kNN over the vectors in memory (vector-scan.ts) when usearch loads; false: vec0's KNN only. Default true. */
  memoryVectors?: boolean;
}


export function createSqliteEngine(opts: SqliteEngineOptions): SearchEngine {
  const db = openSqliteDb(opts.file);
  let dataVersion = -1;
  let live: string | null = null;
  let previous: string | null = null;
  let metaCache: CatalogMeta | null = null;
  let hasVectors = false;
  const stmts = new Map<string, Database.Statement>();

  const getPointer = db.prepare<[string], { value: string }>('SELECT value FROM engine_meta WHERE key = ?');
  const readDataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
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
    const l = getPointer.get('live')?.value ?? null;
    previous = getPointer.get('previous')?.value ?? null;
    if (l !== live) {
      live = l;
      stmts.clear();
      metaCache = null;
      hasVectors =
        live !== null &&
        db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(`vec_${live}`) !== undefined;
    }
  }

  /** Live tables, or null when nothing is loaded. */
  function tables(): VersionTables | null {
    refresh();
    return live ? versionTables(live) : null;
  }

  function stmt(sql: string): Database.Statement {
    let s = stmts.get(sql);
    if (!s) stmts.set(sql, (s = db.prepare(sql)));
    return s;
  }
  const { textMatch, rankedText } = createTextRanking(db, stmt, opts.commonWord);
  const nearest = createKnn(db, stmt, opts.memoryVectors !== false);

  function mpnLookup(req: MpnLookupRequest): MpnHit[] {
    const t = tables();
    if (!t || !req.key) return [];
    const f = filterSql(req.filters ?? {}, t);
    const withAliases = req.aliases ?? req.mode !== 'infix';
    const limit = Math.max(1, req.limit);
    const hits = new Map<number, MpnHit>();
    const add = (rows: { id: number; k: string }[], alias: boolean) => {
      for (const r of rows) if (!hits.has(r.id)) hits.set(r.id, { id: r.id, matched: r.k, alias });
    };
    if (req.mode === 'exact' || req.mode === 'prefix') {
      const cond = req.mode === 'exact' ? '= ?' : '>= ? AND {col} < ?';
      const keyParams = req.mode === 'exact' ? [req.key] : [req.key, `${req.key}\uffff`];
      const order = 'ORDER BY length(k), k, id';
      add(
        stmt(
          `SELECT p.id AS id, p.mpn_norm AS k FROM ${t.parts} p WHERE p.mpn_norm ${cond.replace('{col}', 'p.mpn_norm')} AND ${f.sql} ${order} LIMIT ?`,
        ).all(...keyParams, ...f.params, limit) as { id: number; k: string }[],
        false,
      );
      if (withAliases && hits.size < limit) {
        add(
          stmt(
            `SELECT p.id AS id, a.alias_norm AS k FROM ${t.aliases} a JOIN ${t.parts} p ON p.rowid = a.prow WHERE a.alias_norm ${cond.replace('{col}', 'a.alias_norm')} AND ${f.sql} ${order} LIMIT ?`,
          ).all(...keyParams, ...f.params, limit) as { id: number; k: string }[],
          true,
        );
      }
      return [...hits.values()].slice(0, limit);
    }
    if (req.mode === 'infix') {
      // Substring of the key: LIKE over the trigram index (keys of 3+ characters), a bounded scan
      // below. Keys are letters and digits only (normaliseMpn), so no escaping: an ESCAPE clause
      // would stop SQLite from using the trigram index (a full scan, ~1 s at 580k parts).
      if (!/^[\p{L}\p{N}]+$/u.test(req.key)) return [];
      const like = `%${req.key}%`;
      // Candidates through the trigram index (trigramSpread; LIKE on the FTS column would read the
      // doclists of every trigram of the key), then LIKE on the parts column keeps exactly the keys
      // containing the query.
      const grams = req.key.length >= 3 ? trigramSpread(req.key) : null;
      const rows = grams
        ? stmt(
            `SELECT p.id AS id, p.mpn_norm AS k FROM ${t.tri} x JOIN ${t.parts} p ON p.rowid = x.rowid WHERE ${t.tri} MATCH ? AND p.mpn_norm LIKE ? AND ${f.sql} ORDER BY length(p.mpn_norm), p.mpn_norm, p.id LIMIT ?`,
          ).all(grams, like, ...f.params, limit)
        : stmt(`SELECT p.id AS id, p.mpn_norm AS k FROM ${t.parts} p WHERE p.mpn_norm LIKE ? AND ${f.sql} ORDER BY length(p.mpn_norm), p.mpn_norm, p.id LIMIT ?`).all(
            like,
            ...f.params,
            limit,
          );
      add(rows as { id: number; k: string }[], false);
      return [...hits.values()];
    }
    // fuzzy: candidates verified by edit distance <= 2 (1 for short keys)
    const key = req.key;
    const maxEdits = fuzzyEdits(key);
    const verified = (rows: { id: number; k: string }[], edits: number) =>
      rows
        .map((r) => ({ ...r, d: editDistance(key, r.k, edits) }))
        .filter((r) => r.d <= edits)
        .sort((a, b) => a.d - b.d || Math.abs(a.k.length - key.length) - Math.abs(b.k.length - key.length) || (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id - b.id));
    // One edit leaves one half of the key intact (bar a transposition across the middle), and an intact
    // half is found through the trigram index like an infix (its first, middle and last trigram), among
    // keys of about the right length. When that finds keys one edit away, they are the answer: keys two
    // edits away rank after them anyway.
    const mid = Math.floor(key.length / 2);
    if (mid >= 3) {
      const near = new Map<number, { id: number; k: string }>();
      for (const half of [key.slice(0, mid), key.slice(mid)]) {
        const rows = stmt(
          `SELECT p.id AS id, p.mpn_norm AS k FROM ${t.tri} x JOIN ${t.parts} p ON p.rowid = x.rowid WHERE ${t.tri} MATCH ? AND length(p.mpn_norm) BETWEEN ? AND ? AND ${f.sql} LIMIT 5000`,
        ).all(trigramSpread(half), key.length - 1, key.length + 1, ...f.params) as { id: number; k: string }[];
        for (const r of rows) near.set(r.id, r);
      }
      const oneEdit = verified([...near.values()], 1);
      if (oneEdit.length > 0) {
        add(oneEdit, false);
        return [...hits.values()].slice(0, limit);
      }
    }
    // Otherwise the keys sharing the most trigrams with it (ranked over every key sharing one).
    const match = trigramMatch(key);
    if (!match) return [];
    const rows = stmt(
      `SELECT p.id AS id, p.mpn_norm AS k FROM (SELECT rowid, rank FROM ${t.tri} WHERE ${t.tri} MATCH ? ORDER BY rank LIMIT 400) x JOIN ${t.parts} p ON p.rowid = x.rowid WHERE ${f.sql}`,
    ).all(match, ...f.params) as { id: number; k: string }[];
    add(verified(rows, maxEdits), false);
    return [...hits.values()].slice(0, limit);
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
      const hits = withRecords(req.records, limit > 0 ? rankedText(t, match, f, filterSql(req.filters, t, { probe: true }), offset + limit).slice(offset) : []);
      if (req.exactTotal === false) return { total: offset + hits.length, hits };
      const total = (
        stmt(`SELECT count(*) AS n FROM ${t.fts} JOIN ${t.parts} p ON p.rowid = ${t.fts}.rowid WHERE ${t.fts} MATCH ? AND ${f.sql}`).get(
          match,
          ...f.params,
        ) as { n: number }
      ).n;
      return { total, hits };
    }
    const total = (stmt(`SELECT count(*) AS n FROM ${t.parts} p WHERE ${f.sql}`).get(...f.params) as { n: number }).n;
    const rows = stmt(
      `SELECT p.id AS id, 0.0 AS score, p.category AS category FROM ${t.parts} p WHERE ${f.sql} ORDER BY p.stock DESC, p.id LIMIT ? OFFSET ?`,
    ).all(...f.params, limit, offset) as TextHit[];
    return { total, hits: withRecords(req.records, rows) };
  }

  /** The hits with their records when the request asks for them (read as getParts reads them). */
  function withRecords<T extends { id: number; record?: PartRecord }>(want: boolean | undefined, hits: T[]): T[] {
    if (!want || hits.length === 0) return hits;
    const byId = new Map(getParts(hits.map((h) => h.id)).map((p) => [p.id, p]));
    return hits.map((h) => {
      const record = byId.get(h.id);
      return record ? { ...h, record } : h;
    });
  }

  function knn(vector: Float32Array, k: number, filters: EngineFilters): ScoredId[] {
    const t = tables();
    return t && hasVectors ? nearest(t, vector, k, filters) : [];
  }

  function matchedSet(t: VersionTables, text: string | null, filters: EngineFilters): { sql: string; params: unknown[] } | null {
    const f = filterSql(filters, t);
    if (!text) return { sql: `SELECT p.rowid AS r FROM ${t.parts} p WHERE ${f.sql}`, params: f.params };
    const match = textMatch(t, text);
    if (!match) return null;
    return {
      sql: `SELECT p.rowid AS r FROM ${t.fts} JOIN ${t.parts} p ON p.rowid = ${t.fts}.rowid WHERE ${t.fts} MATCH ? AND ${f.sql}`,
      params: [match, ...f.params],
    };
  }

  function facets(req: FacetRequest): FacetResult {
    const empty: FacetResult = { total: 0, specNames: {}, specValues: {}, manufacturers: [], categories: [] };
    const t = tables();
    if (!t) return empty;
    const set = matchedSet(t, req.text, req.filters);
    if (!set) return empty;
    const size = req.size ?? 20;
    const total = (stmt(`SELECT count(*) AS n FROM (${set.sql})`).get(...set.params) as { n: number }).n;
    const specNames: Record<string, number> = {};
    for (const r of stmt(
      `WITH m AS (${set.sql}) SELECT s.name AS name, count(DISTINCT s.prow) AS n FROM ${t.specs} s JOIN m ON m.r = s.prow GROUP BY s.name ORDER BY n DESC, s.name`,
    ).all(...set.params) as { name: string; n: number }[]) {
      specNames[r.name] = r.n;
    }
    const specValues: FacetResult['specValues'] = {};
    for (const name of req.specValues ?? []) {
      const values = stmt(
        `WITH m AS (${set.sql}) SELECT s.value AS value, count(DISTINCT s.prow) AS count FROM ${t.specs} s JOIN m ON m.r = s.prow WHERE s.name = ? GROUP BY s.value ORDER BY count DESC, s.value LIMIT ?`,
      ).all(...set.params, name, size) as { value: string; count: number }[];
      const ext = stmt(
        `WITH m AS (${set.sql}) SELECT min(s.min) AS min, max(s.max) AS max, (SELECT unit FROM ${t.specs} u WHERE u.name = ? AND u.unit IS NOT NULL GROUP BY unit ORDER BY count(*) DESC LIMIT 1) AS unit FROM ${t.specs} s JOIN m ON m.r = s.prow WHERE s.name = ?`,
      ).get(...set.params, name, name) as { min: number | null; max: number | null; unit: string | null };
      specValues[name] = { values, min: ext.min, max: ext.max, unit: ext.unit };
    }
    const manufacturers = stmt(
      `WITH m AS (${set.sql}) SELECT p.mfr_slug AS slug, count(*) AS count FROM ${t.parts} p JOIN m ON m.r = p.rowid GROUP BY p.mfr_slug ORDER BY count DESC, slug LIMIT ?`,
    ).all(...set.params, size) as { slug: string; count: number }[];
    const categories = stmt(
      `WITH m AS (${set.sql}) SELECT p.category AS slug, count(*) AS count FROM ${t.parts} p JOIN m ON m.r = p.rowid WHERE p.category IS NOT NULL GROUP BY p.category ORDER BY count DESC, slug LIMIT ?`,
    ).all(...set.params, size) as { slug: string; count: number }[];
    return { total, specNames, specValues, manufacturers, categories };
  }

  function getParts(ids: readonly number[]): PartRecord[] {
    const t = tables();
    if (!t || ids.length === 0) return [];
    const byId = new Map<number, PartRecord>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = stmt(
        `SELECT id, record FROM ${t.parts} WHERE id IN (${chunk.map(() => '?').join(',')})`,
      ).all(...chunk) as { id: number; record: string }[];
      for (const r of rows) byId.set(r.id, JSON.parse(r.record) as PartRecord);
    }
    return ids.map((id) => byId.get(id)).filter((r): r is PartRecord => r !== undefined);
  }

  function getPartBySlug(mfr: string, mpnSlug: string): { part: PartRecord; exact: boolean } | null {
    const t = tables();
    if (!t) return null;
    const exact = stmt(`SELECT record FROM ${t.parts} WHERE mfr_slug = ? AND mpn_slug = ? ORDER BY id LIMIT 1`).get(
      mfr,
      mpnSlug,
    ) as { record: string } | undefined;
    if (exact) return { part: JSON.parse(exact.record) as PartRecord, exact: true };
    const loose = stmt(
      `SELECT record FROM ${t.parts} WHERE mfr_slug = ? AND mpn_slug = ? COLLATE NOCASE ORDER BY id LIMIT 1`,
    ).get(mfr.toLowerCase(), mpnSlug) as { record: string } | undefined;
    return loose ? { part: JSON.parse(loose.record) as PartRecord, exact: false } : null;
  }

  function meta(): CatalogMeta | null {
    refresh();
    if (!live) return null;
    if (!metaCache) {
      const row = db.prepare('SELECT meta FROM catalog_meta WHERE version = ?').get(live) as { meta: string } | undefined;
      metaCache = row ? (JSON.parse(row.meta) as CatalogMeta) : null;
    }
    return metaCache;
  }

  const engine: SearchEngine = {
    kind: 'sqlite',
    async init() {},
    async info(): Promise<EngineInfo> {
      const t = tables();
      const parts = t ? (stmt(`SELECT count(*) AS n FROM ${t.parts}`).get() as { n: number }).n : 0;
      return { kind: 'sqlite', version: live, previous, parts, vectors: hasVectors };
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
      return withRecords<VectorHit>(opts?.records, knn(vector, k, filters));
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
    async beginLoad(o) {
      return createSqliteLoader(db, opts.file, o.embeddingDims, invalidate);
    },
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
        const before = db.prepare(`SELECT p.id AS id FROM ${t.members} m JOIN ${t.parts} p ON p.rowid = m.prow WHERE m.list_id = ?`).all(listId) as { id: number }[];
        db.prepare(`DELETE FROM ${t.members} WHERE list_id = ?`).run(listId);
        const ins = db.prepare(`INSERT OR IGNORE INTO ${t.members} (list_id, prow) SELECT ?, rowid FROM ${t.parts} WHERE id = ?`);
        for (const id of partIds) ins.run(listId, id);
        // Keep the stored records' `lists` in step with the membership table.
        const read = db.prepare(`SELECT record FROM ${t.parts} WHERE id = ?`);
        const write = db.prepare(`UPDATE ${t.parts} SET record = ? WHERE id = ?`);
        const now = new Set(partIds);
        for (const id of new Set([...before.map((b) => b.id), ...partIds])) {
          const row = read.get(id) as { record: string } | undefined;
          if (!row) continue;
          const rec = JSON.parse(row.record) as PartRecord;
          const lists = rec.lists.filter((l) => l !== listId);
          if (now.has(id)) lists.push(listId);
          if (lists.length !== rec.lists.length || !lists.every((l, i) => l === rec.lists[i])) write.run(JSON.stringify({ ...rec, lists }), id);
        }
      })();
    },
    async close() {
      db.close();
    },
  };
  return engine;
}
