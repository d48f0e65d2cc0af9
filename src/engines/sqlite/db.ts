/** Opens the engine's database file with the pragmas every connection uses, and sqlite-vec loaded. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { GLOBAL_DDL } from './schema.ts';

export function openSqliteDb(file: string): Database.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  sqliteVec.load(db);
  db.exec(GLOBAL_DDL);
  return db;
}

/** A prepared-statement cache over `db`: each SQL text prepared once; `clear` forgets them (a new version's tables). */
export function statementCache(db: Database.Database): ((sql: string) => Database.Statement) & { clear(): void } {
  const cache = new Map<string, Database.Statement>();
  const stmt = (sql: string) => {
    let st = cache.get(sql);
    if (!st) cache.set(sql, (st = db.prepare(sql)));
    return st;
  };
  return Object.assign(stmt, { clear: () => cache.clear() });
}
