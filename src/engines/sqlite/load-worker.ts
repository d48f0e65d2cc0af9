/**
 * Worker thread of a SQLite bulk load: owns its own connection to the database file and runs the
 * load core on batches posted by the ingest thread, so JSON parsing/validation and SQLite writes
 * overlap. Protocol: {op, seq, ...} in, {seq, ok, value | error} out. After answering a write, the
 * worker indexes the rows written so far into the FTS tables (a chunk at a time) while the ingest
 * thread prepares the next batch.
 */
import { workerData } from 'node:worker_threads';
import { serveRequests } from '../../util/worker-rpc.ts';
import { openSqliteDb } from './db.ts';
import { createLoadCore, type LoadRow } from './load-core.ts';

const { file, version, dims, vectorIndexMin } = workerData as { file: string; version: string; dims: number | null; vectorIndexMin?: number };
const db = openSqliteDb(file);
// Bulk loads sort millions of index entries: spill the sorts to temporary files rather than memory,
// and keep a small page cache (it also bounds the sorter's memory), so peak memory stays flat with
// the dump size. Rows are appended and read back by the FTS catch-up while still in the OS page
// cache: a larger cache buys no speed here (32 MB: same speed, about 70 MB more peak RSS).
db.pragma('temp_store = FILE');
db.pragma('cache_size = -16384');
const trace = process.env.PARTSEARCH_LOAD_TRACE ? (line: string) => process.stderr.write(`[sqlite load] ${line}\n`) : undefined;
const core = createLoadCore(db, version, dims, { trace, dbFile: file, vectorIndexMin });

type Msg =
  | { op: 'write'; seq: number; rows: LoadRow[] }
  | { op: 'countsBy'; seq: number; field: 'category' | 'manufacturer' }
  | { op: 'finish'; seq: number; metaJson: string; expected: number }
  | { op: 'abort'; seq: number };

serveRequests<Msg>(
  (m) => {
    if (m.op === 'write') return core.write(m.rows);
    if (m.op === 'countsBy') return core.countsBy(m.field);
    if (m.op === 'finish') return core.finish(m.metaJson, m.expected);
    core.abort();
    return undefined;
  },
  {
    after(m) {
      if (m.op === 'finish' || m.op === 'abort') db.close();
      // The reply is out: index the FTS tables while the ingest thread works on the next batch.
      else if (m.op === 'write') core.catchUp();
    },
  },
);
