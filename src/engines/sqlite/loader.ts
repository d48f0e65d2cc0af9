/**
 * EngineLoader of the SQLite adapter. With a database file, the load runs in a worker thread with
 * its own connection (the ingest thread keeps parsing while SQLite writes); with ':memory:' it runs
 * in the caller's thread on the shared connection.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { CatalogMeta } from '../../catalog/meta.ts';
import type { EngineLoader, WriteFailure } from '../port.ts';
import { createLoadCore, nextVersion, toLoadRow } from './load-core.ts';
import { claimLoad } from './load-lock.ts';
import { workerClient } from '../../util/worker-rpc.ts';
import { workerEntry } from '../../util/project.ts';

export function createSqliteLoader(db: Database.Database, file: string, dims: number | null, onSwap: () => void, vectorIndexMin?: number): EngineLoader {
  // One load at a time; versions that interrupted loads left are dropped first (load-lock.ts).
  const claim = claimLoad(db, file);
  for (const v of claim.swept) process.stderr.write(`[sqlite load] dropped index version ${v}, left by an interrupted ingest\n`);
  let loader: EngineLoader;
  try {
    loader = createLoader(db, file, dims, onSwap, vectorIndexMin);
  } catch (e) {
    claim.release();
    throw e;
  }
  const released = <T>(p: Promise<T>) => p.finally(() => claim.release());
  return {
    ...loader,
    finish: (meta, expected) => released(loader.finish(meta, expected)),
    abort: () => released(loader.abort()),
  };
}

function createLoader(db: Database.Database, file: string, dims: number | null, onSwap: () => void, vectorIndexMin?: number): EngineLoader {
  const version = nextVersion(db);
  const metaJson = (meta: CatalogMeta) => JSON.stringify({ ...meta, version });

  if (file === ':memory:') {
    const core = createLoadCore(db, version, dims, { dbFile: file, vectorIndexMin });
    return {
      version,
      async write(parts) {
        const failures = core.write(parts.map(toLoadRow));
        core.catchUp();
        return failures;
      },
      async countsBy(field) {
        return new Map(core.countsBy(field));
      },
      async finish(meta, expected) {
        const r = core.finish(metaJson(meta), expected);
        onSwap();
        return r;
      },
      async abort() {
        core.abort();
      },
    };
  }

  const worker = new Worker(workerEntry('load-worker', import.meta.url), {
    workerData: { file, version, dims, vectorIndexMin },
  });
  worker.unref();
  const { call } = workerClient(worker, 'the SQLite load worker');
  const stop = () => void worker.terminate().catch(() => undefined);

  return {
    version,
    async write(parts) {
      return call<WriteFailure[]>({ op: 'write', rows: parts.map(toLoadRow) });
    },
    async countsBy(field) {
      return new Map(await call<[string, number][]>({ op: 'countsBy', field }));
    },
    async finish(meta, expected) {
      try {
        const r = await call<{ version: string; count: number }>({ op: 'finish', metaJson: metaJson(meta), expected });
        onSwap();
        return r;
      } finally {
        stop();
      }
    },
    async abort() {
      try {
        await call({ op: 'abort' });
      } finally {
        stop();
      }
    },
  };
}
