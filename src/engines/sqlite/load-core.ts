/**
 * The synchronous core of a SQLite bulk load, run either in the caller's thread or in a worker
 * (load-worker.ts) so parsing and writing overlap. Rows go into fresh version tables, one
 * transaction per batch, in append order; the FTS tables and secondary indexes are built in one
 * pass each at the end. `finish` verifies the count and swaps the live pointer in one transaction,
 * keeping the previous version for rollback and dropping older ones.
 */
import type Database from 'better-sqlite3';
import { IdMap } from '../../catalog/id-set.ts';
import type { IndexedPart } from '../../catalog/part.ts';
import type { WriteFailure } from '../port.ts';
import { createVersionDdl, dropVersionDdl, FTS_COLUMNS, indexVersionDdl, versionTables } from './schema.ts';
import { ftsRow } from './text.ts';

/** A part flattened for the load (cheap to post to a worker). */
export interface LoadRow {
  id: number;
  mpn: string;
  manufacturer: string;
  cols: (string | number | null)[];
  aliases: string[];
  specs: [string, string, number | null, number | null, number | null, string | null][];
  lists: string[];
  vec: Float32Array | null;
}

export function toLoadRow({ record: r, embedding }: IndexedPart): LoadRow {
  return {
    id: r.id,
    mpn: r.mpn,
    manufacturer: r.manufacturer.name,
    cols: [r.id, r.mpn_norm, r.manufacturer.slug, r.mpn_slug, r.status, r.category?.slug ?? null, r.stock, r.min_price_usd, JSON.stringify(r), ...ftsRow(r)],
    aliases: r.aliases_norm,
    specs: r.specs.map((s) => [s.name, s.value, s.num, s.min, s.max, s.unit]),
    lists: r.lists,
    vec: embedding,
  };
}

export function nextVersion(db: Database.Database): string {
  const row = db.prepare("SELECT value FROM engine_meta WHERE key = 'seq'").get() as { value: string } | undefined;
  const seq = (row ? Number(row.value) : 0) + 1;
  db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('seq', ?)").run(String(seq));
  return `v${seq}`;
}

export interface LoadCore {
  /** Rows after the indexes are built are refused (the pipeline writes everything first). */
  write(rows: readonly LoadRow[]): WriteFailure[];
  countsBy(field: 'category' | 'manufacturer'): [string, number][];
  finish(metaJson: string, expected: number): { version: string; count: number };
  abort(): void;
}

export function createLoadCore(db: Database.Database, version: string, dims: number | null): LoadCore {
  const t = versionTables(version);
  db.exec(dropVersionDdl(version));
  db.exec(createVersionDdl(version, dims));
  // The version being loaded is disposable until it is swapped in: no fsync while loading.
  db.pragma('synchronous = OFF');
  const restore = () => db.pragma('synchronous = NORMAL');
  /** Part id -> rowid of its row, to replace a later duplicate without an index on id. */
  const rowOf = new IdMap();
  let replaced = 0;
  let indexed = false;
  /** Sweeps replaced rows' side rows, then builds the FTS tables and indexes (once). */
  const buildIndexes = () => {
    if (indexed) return;
    if (replaced > 0) {
      for (const tbl of [t.aliases, t.specs, t.members]) {
        db.exec(`DELETE FROM ${tbl} WHERE prow NOT IN (SELECT rowid FROM ${t.parts})`);
      }
    }
    db.exec(indexVersionDdl(version));
    indexed = true;
  };

  const insPart = db.prepare(
    `INSERT INTO ${t.parts} (id, mpn_norm, mfr_slug, mpn_slug, status, category, stock, min_price, record, ${FTS_COLUMNS.map(([c]) => `t_${c}`).join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ${FTS_COLUMNS.map(() => '?').join(', ')})`,
  );
  const delPart = db.prepare(`DELETE FROM ${t.parts} WHERE rowid = ?`);
  const insAlias = db.prepare(`INSERT INTO ${t.aliases} (alias_norm, prow) VALUES (?, ?)`);
  const insSpec = db.prepare(`INSERT INTO ${t.specs} (prow, name, value, num, min, max, unit) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insMember = db.prepare(`INSERT OR IGNORE INTO ${t.members} (list_id, prow) VALUES (?, ?)`);
  const insVec = dims ? db.prepare(`INSERT INTO ${t.vec} (part_id, embedding) VALUES (?, ?)`) : null;
  const delVec = dims ? db.prepare(`DELETE FROM ${t.vec} WHERE part_id = ?`) : null;

  const writeBatch = db.transaction((rows: readonly LoadRow[]) => {
    for (const r of rows) {
      const old = rowOf.get(r.id);
      if (old !== undefined) {
        // A later record with the same identity replaces the earlier one; its side rows are
        // swept once in finish().
        delPart.run(old);
        delVec?.run(BigInt(r.id));
        replaced++;
      }
      const prow = Number(insPart.run(...r.cols).lastInsertRowid);
      rowOf.set(r.id, prow);
      for (const a of r.aliases) insAlias.run(a, prow);
      for (const s of r.specs) insSpec.run(prow, ...s);
      for (const l of r.lists) insMember.run(l, prow);
      if (insVec && r.vec) insVec.run(BigInt(r.id), Buffer.from(r.vec.buffer, r.vec.byteOffset, r.vec.byteLength));
    }
  });

  return {
    write(rows) {
      if (indexed) throw new Error('this load is finishing: no more rows are accepted');
      try {
        writeBatch(rows);
        return [];
      } catch (e) {
        // One bad row must not sink the batch: retry row by row and report the ones that fail.
        const failures: WriteFailure[] = [];
        for (const r of rows) {
          try {
            writeBatch([r]);
          } catch (err) {
            failures.push({ id: r.id, mpn: r.mpn, manufacturer: r.manufacturer, reason: (err as Error).message });
          }
        }
        if (failures.length === rows.length) throw e;
        return failures;
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
      const get = db.prepare('SELECT value FROM engine_meta WHERE key = ?');
      const oldLive = (get.get('live') as { value: string } | undefined)?.value ?? null;
      const oldPrev = (get.get('previous') as { value: string } | undefined)?.value ?? null;
      db.transaction(() => {
        db.prepare('INSERT OR REPLACE INTO catalog_meta (version, meta) VALUES (?, ?)').run(version, metaJson);
        db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('live', ?)").run(version);
        if (oldLive) db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('previous', ?)").run(oldLive);
      })();
      if (oldPrev && oldPrev !== version) {
        db.exec(dropVersionDdl(oldPrev));
        db.prepare('DELETE FROM catalog_meta WHERE version = ?').run(oldPrev);
      }
      db.pragma('wal_checkpoint(TRUNCATE)');
      return { version, count };
    },
    abort() {
      restore();
      db.exec(dropVersionDdl(version));
    },
  };
}
