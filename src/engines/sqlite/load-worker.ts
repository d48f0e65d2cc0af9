/**
 * Worker thread of a SQLite bulk load: owns its own connection to the database file and runs the
 * load core on batches posted by the ingest thread, so JSON parsing/validation and SQLite writes
 * overlap. Protocol: {op, seq, ...} in, {seq, ok, value | error} out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDb } from './db.ts';
import { createLoadCore, type LoadRow } from './load-core.ts';

const { file, version, dims } = workerData as { file: string; version: string; dims: number | null };
const db = openSqliteDb(file);
// Bulk loads sort millions of index entries: spill the sorts to temporary files rather than memory,
// and keep a smaller page cache, so peak memory stays flat with the dump size.
db.pragma('temp_store = FILE');
db.pragma('cache_size = -32768');
const core = createLoadCore(db, version, dims);

type Msg =
  | { op: 'write'; seq: number; rows: LoadRow[] }
  | { op: 'countsBy'; seq: number; field: 'category' | 'manufacturer' }
  | { op: 'finish'; seq: number; metaJson: string; expected: number }
  | { op: 'abort'; seq: number };

parentPort!.on('message', (m: Msg) => {
  try {
    let value: unknown;
    if (m.op === 'write') value = core.write(m.rows);
    else if (m.op === 'countsBy') value = core.countsBy(m.field);
    else if (m.op === 'finish') value = core.finish(m.metaJson, m.expected);
    else core.abort();
    parentPort!.postMessage({ seq: m.seq, ok: true, value });
    if (m.op === 'finish' || m.op === 'abort') db.close();
  } catch (e) {
    parentPort!.postMessage({ seq: m.seq, ok: false, error: (e as Error).message });
  }
});
