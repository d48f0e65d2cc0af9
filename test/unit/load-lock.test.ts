/**
 * One SQLite load at a time, and versions that interrupted loads left behind swept by the next
 * (src/engines/sqlite/load-lock.ts): real SQLite files, the real ingest pipeline.
 */
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { LoadBusyError } from '../../src/engines/sqlite/load-lock.ts';
import { SMALL, tempDir } from '../support/fixtures.ts';

describe('SQLite load claim', () => {
  const engines: SearchEngine[] = [];
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
  });
  const open = async () => {
    const file = path.join(tempDir(), 'p.db');
    const engine = createSqliteEngine({ file });
    engines.push(engine);
    await engine.init();
    return { file, engine };
  };
  const ingest = (engine: SearchEngine) => runIngest({ engine, embedder: null, parts: [SMALL.parts], reportFile: path.join(tempDir(), 'r.jsonl') });
  const tables = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'parts_v[0-9]*'").pluck().all();
    } finally {
      db.close();
    }
  };
  const setClaim = (file: string, pid: number, proc?: string) => {
    const db = new Database(file);
    db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('loading', ?)").run(
      JSON.stringify({ pid, host: os.hostname(), started_at: 'then', proc }),
    );
    db.close();
  };

  it('refuses a load while a live process holds the claim, leaving the live version as it was', async () => {
    const { file, engine } = await open();
    await ingest(engine);
    setClaim(file, process.ppid); // a live process
    await expect(ingest(engine)).rejects.toThrow(LoadBusyError);
    expect((await engine.info()).parts).toBe(12);
    expect(tables(file)).toEqual(['parts_v1']);
  });

  it('takes over a claim whose pid now belongs to another process (started later than the claim says)', async () => {
    const { file, engine } = await open();
    await ingest(engine);
    setClaim(file, process.ppid, 'another-boot:1'); // a live pid, but not the process that claimed
    expect((await ingest(engine)).version).toBe('v2');
  });

  it('takes over the claim of a process that is gone and drops the version it left half built', async () => {
    const { file, engine } = await open();
    await ingest(engine);
    // A load killed outright: its version's tables stay, and so does its claim.
    const loader = await engine.beginLoad({ embeddingDims: null });
    expect(loader.version).toBe('v2');
    await loader.countsBy('category'); // its worker has created the version's tables
    expect(tables(file).sort()).toEqual(['parts_v1', 'parts_v2']);
    setClaim(file, 2 ** 22 + 12345); // no such process
    const s = await ingest(engine);
    expect(s.version).toBe('v3');
    expect(tables(file).sort()).toEqual(['parts_v1', 'parts_v3']);
    // and the claim is given up once the load is done
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM engine_meta WHERE key = 'loading'").pluck().get()).toBe(0);
    db.close();
  });
});
