/**
 * One load at a time per database file, and versions that interrupted loads left behind swept away.
 *
 * A load claims the file by writing its process id, host and start time to engine_meta ('loading') in
 * one BEGIN IMMEDIATE transaction. A claim held by a live process on this host, this one included (or
 * by any process on another host, which this one cannot check) refuses the new load: two loads at once took
 * version numbers from the same sequence and the later swap dropped the earlier's live version. A claim
 * whose process is gone (an ingest killed by a signal or a crash) is taken over. Under the claim, every
 * version that is neither live nor previous is an interrupted load's and is dropped (its tables, its
 * snapshot and its HNSW graph file): 'kill -9' during an ingest of the 29k dump left 12k rows and
 * their FTS and spec tables in the file until then.
 */
import fs from 'node:fs';
import os from 'node:os';
import type Database from 'better-sqlite3';
import { dropVersionDdl, versionTables } from './schema.ts';
import { removeVectorIndex, vectorIndexFile } from './vector-index.ts';

interface Claim {
  pid: number;
  host: string;
  started_at: string;
  /** The process's start (Linux: boot id and start time in clock ticks), so that a reused pid is no live claim. */
  proc?: string | null;
}

/** Boot id and start time of a process (Linux /proc); null elsewhere or when it is gone. */
function procStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces and brackets): field 22 is the start time.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return `${fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}:${start}`;
  } catch {
    return null;
  }
}

export class LoadBusyError extends Error {
  override name = 'LoadBusyError';
}

/** Whether the claim's process still runs: its pid answers and, where recorded, it started when the claim says. */
const alive = (c: Claim): boolean => {
  try {
    process.kill(c.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !c.proc || procStart(c.pid) === c.proc;
};

/** The claim the file holds, if any. */
function heldClaim(db: Database.Database): Claim | null {
  const held = db.prepare<[], { value: string }>("SELECT value FROM engine_meta WHERE key = 'loading'").get();
  return held ? (JSON.parse(held.value) as Claim) : null;
}

/** Gives up whatever claim the file holds (`partsearch ingest --break-lock`: a claim of another host that is gone). */
export function breakLoadClaim(db: Database.Database): Claim | null {
  const c = heldClaim(db);
  db.prepare("DELETE FROM engine_meta WHERE key = 'loading'").run();
  return c;
}

/** Claims `db` for a load and sweeps stray versions; `release` gives the claim up (finish or abort). */
export function claimLoad(db: Database.Database, file: string): { swept: string[]; release(): void } {
  const mine: Claim = { pid: process.pid, host: os.hostname(), started_at: new Date().toISOString(), proc: procStart(process.pid) };
  db.transaction(() => {
    const c = heldClaim(db);
    if (c) {
      // This very process too: a load of its own is still running (claims are released on finish and abort).
      if (c.host !== mine.host || alive(c)) {
        throw new LoadBusyError(
          `another ingest (process ${c.pid} on ${c.host}, since ${c.started_at}) is loading this database; the live version is unchanged` +
            (c.host !== mine.host ? ' (if that process is gone: partsearch ingest --break-lock)' : ''),
        );
      }
    }
    db.prepare("INSERT OR REPLACE INTO engine_meta (key, value) VALUES ('loading', ?)").run(JSON.stringify(mine));
  }).immediate();

  const pointer = db.prepare<[string], { value: string }>('SELECT value FROM engine_meta WHERE key = ?');
  const keep = new Set([pointer.get('live')?.value, pointer.get('previous')?.value].filter((v): v is string => !!v));
  const versions = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'parts_v[0-9]*'").pluck().all() as string[])
    .map((n) => n.slice('parts_'.length))
    .filter((v) => /^v\d+$/.test(v));
  const swept = versions.filter((v) => !keep.has(v));
  for (const v of swept) {
    db.exec(dropVersionDdl(v));
    db.prepare('DELETE FROM catalog_meta WHERE version = ?').run(v);
    if (file !== ':memory:') removeVectorIndex(vectorIndexFile(file, versionTables(v).vec));
  }
  return {
    swept,
    release() {
      db.prepare("DELETE FROM engine_meta WHERE key = 'loading' AND value = ?").run(JSON.stringify(mine));
    },
  };
}
