/**
 * Worker thread of the SQLite vector backfill (backfill.ts): its own connection to the database file,
 * running the backfill's writes (backfill-core.ts) posted by the filling thread, one at a time. Protocol:
 * {op, seq, ...} in, {seq, ok, value | error} out; 'close' closes the connection.
 */
import { workerData } from 'node:worker_threads';
import { serveRequests } from '../../util/worker-rpc.ts';
import { createBackfillCore, type VectorRow } from './backfill-core.ts';
import { openSqliteDb } from './db.ts';

const { file, vectorIndexMin } = workerData as { file: string; vectorIndexMin?: number };
const db = openSqliteDb(file);
const core = createBackfillCore(db, file, { vectorIndexMin });

type Msg = { op: 'write'; seq: number; version: string; rows: VectorRow[] } | { op: 'complete'; seq: number; version: string } | { op: 'close'; seq: number };

serveRequests<Msg>(
  (m) => {
    if (m.op === 'write') return core.writeVectors(m.version, m.rows);
    if (m.op === 'complete') return core.complete(m.version);
    return undefined;
  },
  {
    after(m) {
      if (m.op === 'close') db.close();
    },
  },
);
