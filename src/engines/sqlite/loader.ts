/**
 * Bulk load of a new SQLite index version. Rows go into fresh version tables (one transaction per
 * batch); secondary indexes are built at the end; `finish` verifies the count and swaps the live
 * pointer in one transaction, keeping the previous version for rollback and dropping older ones.
 */
import type Database from 'better-sqlite3';
import type { CatalogMeta } from '../../catalog/meta.ts';
import type { IndexedPart } from '../../catalog/part.ts';
import type { EngineLoader, WriteFailure } from '../port.ts';
import { createVersionDdl, dropVersionDdl, indexVersionDdl, versionTables } from './schema.ts';
import { ftsRow } from './text.ts';

function nextVersion(db: Database.Database): string {
  const row = db.prepare("SELECT value FROM engine_meta WHERE key = 'seq'").get() as { value: string } | undefined;
  const seq = (row ? Number(row.value) : 0) + 1;
  db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('seq', ?)").run(String(seq));
  return `v${seq}`;
}

export function createSqliteLoader(db: Database.Database, dims: number | null, onSwap: () => void): EngineLoader {
  const version = nextVersion(db);
  const t = versionTables(version);
  db.exec(dropVersionDdl(version));
  db.exec(createVersionDdl(version, dims));
  const seen = new Set<number>();

  const insPart = db.prepare(
    `INSERT OR REPLACE INTO ${t.parts} (id, mpn_norm, mfr_slug, mpn_slug, status, category, stock, min_price, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insAlias = db.prepare(`INSERT INTO ${t.aliases} (alias_norm, part_id) VALUES (?, ?)`);
  const insSpec = db.prepare(
    `INSERT INTO ${t.specs} (part_id, name, value, num, min, max, unit) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insMember = db.prepare(`INSERT OR IGNORE INTO ${t.members} (list_id, part_id) VALUES (?, ?)`);
  const insFts = db.prepare(`INSERT INTO ${t.fts} (rowid, mpn, manufacturer, description, long_description, category, package, specs) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const insTri = db.prepare(`INSERT INTO ${t.tri} (rowid, key) VALUES (?, ?)`);
  const insVec = dims ? db.prepare(`INSERT INTO ${t.vec} (part_id, embedding) VALUES (?, ?)`) : null;
  const deletes = [t.aliases, t.specs, t.members].map((tbl) => db.prepare(`DELETE FROM ${tbl} WHERE part_id = ?`));
  const delFts = db.prepare(`DELETE FROM ${t.fts} WHERE rowid = ?`);
  const delTri = db.prepare(`DELETE FROM ${t.tri} WHERE rowid = ?`);
  const delVec = dims ? db.prepare(`DELETE FROM ${t.vec} WHERE part_id = ?`) : null;

  const writeBatch = db.transaction((parts: readonly IndexedPart[]) => {
    for (const { record: r, embedding } of parts) {
      if (seen.has(r.id)) {
        // A later record with the same identity replaces the earlier one everywhere.
        for (const d of deletes) d.run(r.id);
        delFts.run(r.id);
        delTri.run(r.id);
        delVec?.run(BigInt(r.id));
      }
      seen.add(r.id);
      insPart.run(r.id, r.mpn_norm, r.manufacturer.slug, r.mpn_slug, r.status, r.category?.slug ?? null, r.stock, r.min_price_usd, JSON.stringify(r));
      for (const a of r.aliases_norm) insAlias.run(a, r.id);
      for (const s of r.specs) insSpec.run(r.id, s.name, s.value, s.num, s.min, s.max, s.unit);
      for (const l of r.lists) insMember.run(l, r.id);
      insFts.run(r.id, ...ftsRow(r));
      insTri.run(r.id, r.mpn_norm);
      if (insVec && embedding) insVec.run(BigInt(r.id), Buffer.from(embedding.buffer, embedding.byteOffset, embedding.byteLength));
    }
  });

  return {
    version,
    async write(parts) {
      try {
        writeBatch(parts);
        return [];
      } catch (e) {
        // One bad row must not sink the batch: retry row by row and report the ones that fail.
        const failures: WriteFailure[] = [];
        for (const p of parts) {
          try {
            writeBatch([p]);
          } catch (err) {
            failures.push({ id: p.record.id, mpn: p.record.mpn, manufacturer: p.record.manufacturer.name, reason: (err as Error).message });
          }
        }
        if (failures.length === parts.length) throw e;
        return failures;
      }
    },
    async countsBy(field) {
      const col = field === 'category' ? 'category' : 'mfr_slug';
      const rows = db.prepare(`SELECT ${col} AS k, count(*) AS n FROM ${t.parts} WHERE ${col} IS NOT NULL GROUP BY ${col}`).all() as { k: string; n: number }[];
      return new Map(rows.map((r) => [r.k, r.n]));
    },
    async finish(meta: CatalogMeta, expected: number) {
      db.exec(indexVersionDdl(version));
      const count = (db.prepare(`SELECT count(*) AS n FROM ${t.parts}`).get() as { n: number }).n;
      if (count !== expected) {
        throw new Error(`index version ${version} holds ${count} parts, expected ${expected}; the live version is unchanged`);
      }
      const get = db.prepare('SELECT value FROM engine_meta WHERE key = ?');
      const oldLive = (get.get('live') as { value: string } | undefined)?.value ?? null;
      const oldPrev = (get.get('previous') as { value: string } | undefined)?.value ?? null;
      db.transaction(() => {
        db.prepare('INSERT OR REPLACE INTO catalog_meta (version, meta) VALUES (?, ?)').run(version, JSON.stringify({ ...meta, version }));
        db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('live', ?)").run(version);
        if (oldLive) db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('previous', ?)").run(oldLive);
      })();
      onSwap();
      if (oldPrev && oldPrev !== version) {
        db.exec(dropVersionDdl(oldPrev));
        db.prepare('DELETE FROM catalog_meta WHERE version = ?').run(oldPrev);
      }
      db.pragma('wal_checkpoint(TRUNCATE)');
      return { version, count };
    },
    async abort() {
      db.exec(dropVersionDdl(version));
    },
  };
}
