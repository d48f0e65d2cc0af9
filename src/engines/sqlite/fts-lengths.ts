/**
 * What BM25 needs of a full-text index version besides the query words' postings (postings.ts): its
 * row count and average row length (FTS5's averages record, id 1 of the data table) and each row's
 * length in tokens (its docsize records), plus the fts5vocab tables that postings.ts and text-rank.ts
 * read words from.
 *
 * The row lengths are read inline on a version's first use (the default), or, for a serving engine,
 * in the background: LENGTHS_CHUNK rows per turn of the event loop, `get` answering null meanwhile so
 * that FTS5 ranks (reading every length of the 578k catalogue at once held the event loop for 1.3 s on
 * the first text query after a new version went live).
 */
import type Database from 'better-sqlite3';
import type { VersionTables } from './schema.ts';

/** A version's totals and row lengths, and the names of its vocabulary tables. */
export interface FtsVersion {
  fts: string;
  /** fts5vocab 'instance': each occurrence of a term (row, column, offset). */
  instances: string;
  /** fts5vocab 'row': per term, the rows holding it and its occurrences. */
  vocab: string;
  /** Tokens per row, by rowid. */
  lengths: Int32Array;
  rowCount: number;
  avgdl: number;
}

export interface FtsLengthsOptions {
  /** Read a new version's lengths in the background, a chunk per turn (the engine), not at once on its first use (default). */
  background?: boolean;
  /** Rows read per turn in the background (LENGTHS_CHUNK). */
  chunk?: number;
  /** Pause before a failed background read is tried again (RETRY_AFTER_MS). */
  retryAfterMs?: number;
}

/** Rows read per turn of the event loop in the background (about 4 ms at a time). */
const LENGTHS_CHUNK = 4096;
/** Pause before a failed background read is tried again. */
const RETRY_AFTER_MS = 5_000;

/** A background read that a newer version's read replaced, or whose connection closed. */
class Superseded extends Error {}

/** SQLite's variable-length integer (as FTS5 writes its averages and docsize records): value and bytes read. */
function readVarint(buf: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const b = buf[at + i]!;
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) return [v, i + 1];
  }
  return [v * 256 + buf[at + 8]!, 9];
}

function sumVarints(buf: Uint8Array): number {
  let total = 0;
  for (let at = 0; at < buf.length;) {
    const [v, n] = readVarint(buf, at);
    total += v;
    at += n;
  }
  return total;
}

/**
 * The version's fts5vocab 'row' table (per word: the rows holding it and its occurrences), created on the
 * connection when first asked for; text-rank.ts reads document frequencies from it too.
 */
export function rowVocab(db: Database.Database, t: VersionTables): string {
  const vocab = `temp.${t.fts}_vocab`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab} USING fts5vocab(main, ${t.fts}, 'row')`);
  return vocab;
}

/** The full-text state of the version asked for: `get` (null until its lengths are read) and `ready` (when they are). */
export function createFtsLengths(db: Database.Database, stmt: (sql: string) => Database.Statement, opts: FtsLengthsOptions = {}) {
  const background = opts.background ?? false;
  const chunk = opts.chunk ?? LENGTHS_CHUNK;
  const retryAfterMs = opts.retryAfterMs ?? RETRY_AFTER_MS;
  let current: FtsVersion | null = null;
  /** The version whose row lengths are being read in the background, and when that ends. */
  let loading: { fts: string; done: Promise<void> } | null = null;
  /** Versions whose lengths could not be read (tables gone, no averages record): FTS5 ranks them, no new attempt. */
  const failed = new Set<string>();
  /** After a read failed otherwise, no new one before `at` (a lasting fault is reported once a pause, not on every query). */
  let retryAfter: { fts: string; at: number } | null = null;

  /** The version's totals and an empty lengths array to fill; null without an averages record. */
  function begin(t: VersionTables): { version: FtsVersion; next: (after: number) => number | null } | null {
    const averages = stmt(`SELECT block FROM ${t.fts}_data WHERE id = 1`).pluck().get() as Uint8Array | undefined;
    if (!averages) return null;
    // The row count, then each column's token count.
    const [rowCount, used] = readVarint(averages, 0);
    const tokenCount = sumVarints(averages.subarray(used));
    const maxRowid = (stmt(`SELECT max(id) FROM ${t.fts}_docsize`).pluck().get() as number | null) ?? 0;
    const lengths = new Int32Array(maxRowid + 1);
    const read = stmt(`SELECT id, sz FROM ${t.fts}_docsize WHERE id > ? ORDER BY id LIMIT ?`).raw();
    /** Reads the `chunk` rows after row `after`; the last row read, or null at the end. */
    const next = (after: number): number | null => {
      let last: number | null = null;
      let n = 0;
      for (const [id, sz] of read.iterate(after, chunk) as Iterable<[number, Uint8Array]>) {
        lengths[id] = sumVarints(sz);
        last = id;
        n++;
      }
      return n < chunk ? null : last;
    };
    const instances = `temp.${t.fts}_instances`;
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${instances} USING fts5vocab(main, ${t.fts}, 'instance')`);
    const version = { fts: t.fts, instances, vocab: rowVocab(db, t), lengths, rowCount: Math.max(1, rowCount), avgdl: tokenCount / Math.max(1, rowCount) };
    return { version, next };
  }

  const tableExists = (name: string) => stmt(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck().get(name) !== undefined;

  /** Reads a version's lengths in the background, a chunk per turn; a failure is kept in `failed` or `retryAfter`. */
  function readInBackground(t: VersionTables): Promise<void> {
    const fts = t.fts;
    const mine: { fts: string; done: Promise<void> } = { fts, done: Promise.resolve() };
    loading = mine;
    // A newer version asked for meanwhile ends this read (its own starts), as does the connection closing.
    const turn = async () => {
      await new Promise((r) => setImmediate(r));
      if (loading !== mine || !db.open) throw new Superseded();
    };
    mine.done = (async () => {
      try {
        await turn(); // first, so that `loading` is this read's before anything can fail
        const started = begin(t);
        if (!started) {
          failed.add(fts); // no averages record: an empty or unfinished index, left to FTS5
          return;
        }
        for (let after: number | null = -1; after !== null; after = started.next(after)) await turn();
        current = started.version;
      } catch (e) {
        if (loading !== mine || e instanceof Superseded || !db.open) return;
        // Tables gone (a version dropped since): FTS5 ranks it until the next swap. Anything else is
        // reported, and tried again after a pause.
        if (!tableExists(`${fts}_docsize`)) failed.add(fts);
        else {
          retryAfter = { fts, at: Date.now() + retryAfterMs };
          process.stderr.write(
            `[sqlite] reading the full-text row lengths of ${fts} failed (FTS5 ranks meanwhile; tried again in ${retryAfterMs / 1000} s): ${String(e)}\n`,
          );
        }
      } finally {
        if (loading === mine) loading = null;
      }
    })();
    return mine.done;
  }

  /** Resolves once the version's lengths are read (at once inline); a failed read leaves FTS5 ranking it. */
  function ready(t: VersionTables): Promise<void> {
    if (current?.fts === t.fts || failed.has(t.fts)) return Promise.resolve();
    if (!background) {
      const started = begin(t);
      if (!started) failed.add(t.fts);
      else {
        for (let after: number | null = -1; after !== null; after = started.next(after));
        current = started.version;
      }
      return Promise.resolve();
    }
    if (loading?.fts === t.fts) return loading.done;
    if (retryAfter?.fts === t.fts && Date.now() < retryAfter.at) return Promise.resolve();
    current = null; // the version read before is not asked for again (only the live one is)
    return readInBackground(t);
  }

  return {
    /** The version's full-text state; null until its lengths are read (inline: read now; background: started). */
    get(t: VersionTables): FtsVersion | null {
      if (current?.fts !== t.fts) void ready(t);
      return current?.fts === t.fts ? current : null;
    },
    ready,
  };
}
