/**
 * The synchronous core of a SQLite bulk load, run either in the caller's thread or in a worker
 * (load-worker.ts) so parsing and writing overlap. Rows go into fresh version tables, one
 * transaction per batch, in append order. The FTS tables (external content over the parts table)
 * are filled while the load streams: `catchUp` indexes the rows written since the last catch-up,
 * a chunk at a time, with one INSERT ... SELECT per FTS table (the worker calls it after answering a
 * write, i.e. while the ingest thread parses the next batch). The category and manufacturer indexes
 * are maintained during the load; the other B-tree indexes are built at the end, one pass each (much
 * cheaper than maintaining them row by row: their keys arrive in random order). `finish` verifies the
 * count and swaps the live pointer in one transaction, keeping the previous version for rollback
 * and dropping older ones.
 */
import type Database from 'better-sqlite3';
import { IdMap } from '../../catalog/id-set.ts';
import type { IndexedPart } from '../../catalog/part.ts';
import { priceBands } from '../../catalog/prices.ts';
import { specAttributeId } from '../../vocabulary/attributes.ts';
import type { WriteFailure } from '../port.ts';
import { createVersionDdl, dropVersionDdl, earlyIndexDdl, FTS_COLUMNS, lateIndexDdl, versionTables } from './schema.ts';
import { recordJson } from './records.ts';
import { ftsRow } from './text.ts';
import { graphVersion, removeVectorIndex, vectorIndexFile } from './vector-index.ts';

/** A part flattened for the load (cheap to post to a worker: arrays of strings and numbers). */
export interface LoadRow {
  id: number;
  mpn: string;
  manufacturer: string;
  cols: (string | number | null)[];
  aliases: string[];
  /** name, value, num, min, max, unit, canonical attribute id. */
  specs: [string, string, number | null, number | null, number | null, string | null, string | null][];
  lists: string[];
  /** Price bands: from, to (null: no end), price. */
  prices: [number, number | null, number][];
  vec: Float32Array | null;
  /** The vector's key (IndexedPart.vectorKey), null when unknown. */
  vkey: Uint8Array | null;
}

export function toLoadRow({ record: r, embedding, vectorKey }: IndexedPart): LoadRow {
  return {
    id: r.id,
    mpn: r.mpn,
    manufacturer: r.manufacturer.name,
    cols: [r.id, r.mpn_norm, r.manufacturer.slug, r.mpn_slug, r.status, r.category?.slug ?? null, r.stock, r.min_price_usd, recordJson(r), ...ftsRow(r)],
    aliases: r.aliases_norm,
    specs: r.specs.map((s) => [s.name, s.value, s.num, s.min, s.max, s.unit, specAttributeId(s)]),
    lists: r.lists,
    prices: priceBands(r.offers).map((b) => [b.from, b.to, b.price]),
    vec: embedding,
    vkey: embedding ? (vectorKey ?? null) : null,
  };
}

export function nextVersion(db: Database.Database): string {
  const row = db.prepare("SELECT value FROM engine_meta WHERE key = 'seq'").get() as { value: string } | undefined;
  const seq = (row ? Number(row.value) : 0) + 1;
  db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('seq', ?)").run(String(seq));
  return `v${seq}`;
}

export interface LoadCoreOptions {
  /**
   * Rows written before `catchUp` indexes them into the FTS tables. Each chunk is one FTS transaction
   * (one new segment, merged by FTS5's automerge); small enough that the ingest thread, a few batches
   * ahead, does not wait for it, and its rows are still in the page cache when read back.
   */
  ftsChunkRows?: number;
  /** Phase timings on stderr (PARTSEARCH_LOAD_TRACE=1). */
  trace?: (line: string) => void;
  /** The database file: a version's HNSW graph is saved beside it (vector-index.ts); none for ':memory:'. */
  dbFile?: string;
  /** Versions with at least this many vectors get a graph (default ANN_MIN_VECTORS). */
  vectorIndexMin?: number;
}

export interface LoadCore {
  /** Rows after the indexes are built are refused (the pipeline writes everything first). */
  write(rows: readonly LoadRow[]): WriteFailure[];
  /**
   * Indexes written rows into the FTS tables once a chunk has accumulated (finish() indexes the rest).
   * Meant for idle time between writes; an error is kept and thrown by the next call.
   */
  catchUp(): void;
  countsBy(field: 'category' | 'manufacturer'): [string, number][];
  finish(metaJson: string, expected: number): { version: string; count: number };
  abort(): void;
}

const DEFAULT_FTS_CHUNK_ROWS = 6_000;

export function createLoadCore(db: Database.Database, version: string, dims: number | null, opts: LoadCoreOptions = {}): LoadCore {
  const t = versionTables(version);
  const chunkRows = opts.ftsChunkRows ?? DEFAULT_FTS_CHUNK_ROWS;
  const trace = opts.trace ?? (() => undefined);
  const graphFile = (v: string) => (dims && opts.dbFile ? vectorIndexFile(opts.dbFile, versionTables(v).vec) : null);
  db.exec(dropVersionDdl(version));
  db.exec(createVersionDdl(version, dims));
  // Indexes whose keys arrive nearly in order (few distinct values, rowids ascending) cost less
  // maintained row by row than built by a pass over the whole table at the end.
  db.exec(earlyIndexDdl(version));
  // The version being loaded is disposable until it is swapped in: no fsync while loading.
  db.pragma('synchronous = OFF');
  const restore = () => db.pragma('synchronous = NORMAL');
  /** Part id -> rowid of its row, to replace a later duplicate without an index on id. */
  const rowOf = new IdMap();
  let replaced = 0;
  let indexed = false;
  /** Rows up to this rowid are in the FTS tables (rowids only grow: AUTOINCREMENT). */
  let ftsUpTo = 0;
  let lastRowid = 0;
  let ftsPending = 0;
  let deferred: Error | null = null;
  const started = performance.now();
  let writeMs = 0;
  let ftsMs = 0;

  const ftsCols = FTS_COLUMNS.map(([c]) => `t_${c}`).join(', ');
  const insPart = db.prepare(
    `INSERT INTO ${t.parts} (id, mpn_norm, mfr_slug, mpn_slug, status, category, stock, min_price, record, ${ftsCols}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ${FTS_COLUMNS.map(() => '?').join(', ')})`,
  );
  const delPart = db.prepare(`DELETE FROM ${t.parts} WHERE rowid = ?`);
  // External-content FTS tables: entries are added and removed with the row's indexed values.
  const ftsAdd = db.prepare(`INSERT INTO ${t.fts} (rowid, ${ftsCols}) SELECT rowid, ${ftsCols} FROM ${t.parts} WHERE rowid > ? AND rowid <= ?`);
  const triAdd = db.prepare(`INSERT INTO ${t.tri} (rowid, mpn_norm) SELECT rowid, mpn_norm FROM ${t.parts} WHERE rowid > ? AND rowid <= ?`);
  const ftsDel = db.prepare(`INSERT INTO ${t.fts} (${t.fts}, rowid, ${ftsCols}) SELECT 'delete', rowid, ${ftsCols} FROM ${t.parts} WHERE rowid = ?`);
  const triDel = db.prepare(`INSERT INTO ${t.tri} (${t.tri}, rowid, mpn_norm) SELECT 'delete', rowid, mpn_norm FROM ${t.parts} WHERE rowid = ?`);
  const insAlias = db.prepare(`INSERT INTO ${t.aliases} (alias_norm, prow) VALUES (?, ?)`);
  const insSpec = db.prepare(`INSERT INTO ${t.specs} (prow, name, value, num, min, max, unit, attr) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const insMember = db.prepare(`INSERT OR IGNORE INTO ${t.members} (list_id, prow) VALUES (?, ?)`);
  const insPrice = db.prepare(`INSERT INTO ${t.prices} (prow, qty_from, qty_to, price) VALUES (?, ?, ?, ?)`);
  const insVec = dims ? db.prepare(`INSERT INTO ${t.vec} (part_id, embedding) VALUES (?, ?)`) : null;
  const delVec = dims ? db.prepare(`DELETE FROM ${t.vec} WHERE part_id = ?`) : null;
  const putKey = dims ? db.prepare(`INSERT OR REPLACE INTO ${t.vkeys} (part_id, key) VALUES (?, ?)`) : null;
  const delKey = dims ? db.prepare(`DELETE FROM ${t.vkeys} WHERE part_id = ?`) : null;

  const writeBatch = db.transaction((rows: readonly LoadRow[]) => {
    let last = lastRowid;
    for (const r of rows) {
      const old = rowOf.get(r.id);
      if (old !== undefined) {
        // A later record with the same identity replaces the earlier one; its side rows are
        // swept once at the end, its FTS entries go now if they were already added.
        if (old <= ftsUpTo) {
          ftsDel.run(old);
          triDel.run(old);
        }
        delPart.run(old);
        delVec?.run(BigInt(r.id));
        delKey?.run(r.id);
        replaced++;
      }
      const prow = Number(insPart.run(...r.cols).lastInsertRowid);
      last = prow;
      rowOf.set(r.id, prow);
      for (const a of r.aliases) insAlias.run(a, prow);
      for (const s of r.specs) insSpec.run(prow, ...s);
      for (const l of r.lists) insMember.run(l, prow);
      for (const b of r.prices) insPrice.run(prow, ...b);
      if (insVec && r.vec) {
        insVec.run(BigInt(r.id), Buffer.from(r.vec.buffer, r.vec.byteOffset, r.vec.byteLength));
        if (r.vkey) putKey!.run(r.id, Buffer.from(r.vkey.buffer, r.vkey.byteOffset, r.vkey.byteLength));
      }
    }
    return last;
  });

  const ftsChunk = db.transaction((from: number, to: number) => {
    ftsAdd.run(from, to);
    triAdd.run(from, to);
  });
  const indexFts = () => {
    if (lastRowid <= ftsUpTo) return;
    const t0 = performance.now();
    ftsChunk(ftsUpTo, lastRowid);
    ftsUpTo = lastRowid;
    ftsPending = 0;
    ftsMs += performance.now() - t0;
  };
  const throwDeferred = () => {
    if (deferred) throw deferred;
  };

  /** Indexes the last FTS chunk, sweeps replaced rows' side rows, then builds the B-tree indexes (once). */
  const buildIndexes = () => {
    throwDeferred();
    if (indexed) return;
    const t0 = performance.now();
    indexFts();
    const t1 = performance.now();
    if (replaced > 0) {
      for (const tbl of [t.aliases, t.specs, t.members, t.prices]) {
        db.exec(`DELETE FROM ${tbl} WHERE prow NOT IN (SELECT rowid FROM ${t.parts})`);
      }
    }
    db.exec(lateIndexDdl(version));
    // Statistics for the query planner, sampled (analysis_limit: milliseconds, not a pass over every
    // index): without them SQLite walked the (status, stock) index for a filter-only search over a small
    // list or spec set (3 ms) instead of reading the set's rows (0.5 ms).
    db.exec(`PRAGMA analysis_limit = 1000; ANALYZE ${t.parts}; ANALYZE ${t.specs}; ANALYZE ${t.members}; ANALYZE ${t.aliases}; ANALYZE ${t.prices};`);
    // The sample sees one status in its first thousand rows and puts the status's parts at about a
    // thousand: so a status looked selective, and SQLite walked the (status, stock) index over every
    // active part where another index selected few (a price filter's count: 33 ms at 29k). The status
    // column's figure is set to the parts per status, counted (a handful of statuses).
    const statuses = db.prepare(`SELECT count(*) FROM (SELECT DISTINCT status FROM ${t.parts})`).pluck().get() as number;
    const statRow = db.prepare('SELECT stat FROM sqlite_stat1 WHERE tbl = ? AND idx = ?').pluck().get(t.parts, `${t.parts}_status_stock`) as string | undefined;
    if (statRow && statuses > 0) {
      const [rows, , ...rest] = statRow.split(' ');
      db.prepare('UPDATE sqlite_stat1 SET stat = ? WHERE tbl = ? AND idx = ?').run(
        [rows, String(Math.ceil(Number(rows) / statuses)), ...rest].join(' '),
        t.parts,
        `${t.parts}_status_stock`,
      );
    }
    // Other connections load statistics with the schema, and ANALYZE moves the schema version only when
    // it creates sqlite_stat1: a create and drop does, so a serving connection reloads them before it
    // first reads this version (the swap comes later).
    db.exec('CREATE TABLE partsearch_reload_stats (x); DROP TABLE partsearch_reload_stats;');
    indexed = true;
    const secs = (ms: number) => (ms / 1000).toFixed(1);
    trace(
      `streaming ${secs(t0 - started)} s (writes ${secs(writeMs)} s, FTS ${secs(ftsMs - (t1 - t0))} s); ` +
        `at the end: last FTS chunk ${secs(t1 - t0)} s, B-tree indexes ${secs(performance.now() - t1)} s`,
    );
  };

  return {
    write(rows) {
      throwDeferred();
      if (indexed) throw new Error('this load is finishing: no more rows are accepted');
      const t0 = performance.now();
      try {
        lastRowid = writeBatch(rows);
        ftsPending += rows.length;
        return [];
      } catch (e) {
        // One bad row must not sink the batch: retry row by row and report the ones that fail.
        const failures: WriteFailure[] = [];
        for (const r of rows) {
          try {
            lastRowid = writeBatch([r]);
            ftsPending++;
          } catch (err) {
            failures.push({ id: r.id, mpn: r.mpn, manufacturer: r.manufacturer, reason: (err as Error).message });
          }
        }
        if (failures.length === rows.length) throw e;
        return failures;
      } finally {
        writeMs += performance.now() - t0;
      }
    },
    catchUp() {
      if (deferred || indexed || ftsPending < chunkRows) return;
      try {
        indexFts();
      } catch (e) {
        deferred = e as Error;
      }
    },
    countsBy(field) {
      buildIndexes();
      const col = field === 'category' ? 'category' : 'mfr_slug';
      const rows = db.prepare(`SELECT ${col} AS k, count(*) AS n FROM ${t.parts} WHERE ${col} IS NOT NULL GROUP BY ${col}`).all() as { k: string; n: number }[];
      return rows.map((r) => [r.k, r.n]);
    },
    finish(metaJson, expected) {
      buildIndexes();
      restore();
      const count = (db.prepare(`SELECT count(*) AS n FROM ${t.parts}`).get() as { n: number }).n;
      if (count !== expected) {
        throw new Error(`index version ${version} holds ${count} parts, expected ${expected}; the live version is unchanged`);
      }
      // The graph goes on disk before the version goes live: the first kNN query of a serving process reads it.
      // Without it kNN still answers, by the exact scan: a failed build (a full disk) is reported, not fatal.
      if (dims && opts.dbFile) {
        const live = (db.prepare("SELECT value FROM engine_meta WHERE key = 'live'").pluck().get() as string | undefined) ?? null;
        graphVersion(db, opts.dbFile, version, live, { minVectors: opts.vectorIndexMin, trace });
      }
      const get = db.prepare('SELECT value FROM engine_meta WHERE key = ?');
      const oldLive = (get.get('live') as { value: string } | undefined)?.value ?? null;
      const oldPrev = (get.get('previous') as { value: string } | undefined)?.value ?? null;
      db.transaction(() => {
        db.prepare('INSERT OR REPLACE INTO catalog_meta (version, meta) VALUES (?, ?)').run(version, metaJson);
        db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('live', ?)").run(version);
        if (oldLive) db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('previous', ?)").run(oldLive);
      })();
      // The new version is live: a failing clean-up from here on is reported, never thrown (the caller would
      // abort, dropping the live version); the next load sweeps what is left (load-lock.ts).
      try {
        if (oldPrev && oldPrev !== version) {
          db.exec(dropVersionDdl(oldPrev));
          db.prepare('DELETE FROM catalog_meta WHERE version = ?').run(oldPrev);
          removeVectorIndex(graphFile(oldPrev));
        }
        db.pragma('wal_checkpoint(TRUNCATE)');
      } catch (e) {
        process.stderr.write(`[sqlite load] ${version} is live; dropping ${oldPrev} failed (${(e as Error).message}): the next load drops it\n`);
      }
      return { version, count };
    },
    abort() {
      restore();
      db.exec(dropVersionDdl(version));
      removeVectorIndex(graphFile(version));
    },
  };
}
