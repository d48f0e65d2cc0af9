/**
 * BM25 of the SQLite adapter without FTS5's per-row scoring: FTS5 computes bm25() for every row that
 * matches a query (about 1 µs a row) before it sorts them, and an OR over a few common words ("red
 * led 0603") matches thousands of rows. The postings table holds, per word of a version's full-text
 * index, the rows that contain it and the word's weighted frequency in each (the BM25 column weights
 * applied), read from FTS5's own index at the end of a load (fts5vocab 'instance'); row lengths and
 * the catalogue totals come from FTS5's docsize and averages records. A query's scores are then
 * accumulated over typed arrays, word by word, and equal FTS5's bm25() (same formula, same inputs,
 * same order of additions; only `log` is JavaScript's), so the ranking is unchanged.
 *
 * Used for queries whose terms are all single ASCII words (letters, digits, inner dots: what FTS5's
 * tokenizer keeps whole); a phrase ("sot-23-5") or a word with other characters ("10µF") goes to
 * FTS5 as before, and so does every query on a version loaded before this table existed.
 */
import type Database from 'better-sqlite3';
import { FTS_COLUMNS, type VersionTables } from './schema.ts';

const K1 = 1.2;
const B = 0.75;
/** Decoded posting lists kept per version (the words of recent queries). */
const CACHE_WORDS = 4_096;
/** A word FTS5's unicode61 tokenizer (remove_diacritics 2, tokenchars '.') returns unchanged as one token. */
const PLAIN_WORD = /^[a-z0-9]+(?:\.[a-z0-9]+)*$/;
/** The postings row holding the row lengths (index: rowid) and [row count, token count]: no word is empty. */
const TOTALS_KEY = '';

/** The query as FTS5 scores it: its phrases in expression order, and the phrases a row must hold one of. */
export interface ScoredQuery {
  phrases: readonly (readonly string[])[];
  select: readonly (readonly string[])[];
}

/** Every matching row's FTS5 bm25() value (lower is better). */
export interface ScoredRows {
  /** Number of matching rows. */
  size: number;
  /** The n best rows by (score, rowid): FTS5's `ORDER BY bm25 LIMIT n`, its ties broken by rowid. */
  top(n: number): { r: number; s: number }[];
  /** Every row scoring exactly `s`. */
  tied(s: number): { r: number }[];
}

/** The k-th largest value of `xs` (1-based), by selection over a copy: O(n) on average. */
function kthLargest(xs: Float64Array, k: number): number {
  const a = Float64Array.from(xs);
  let lo = 0;
  let hi = a.length - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const x = a[i]!;
        a[i] = a[j]!;
        a[j] = x;
        i++;
        j--;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else return a[want]!;
  }
  return a[want]!;
}

/** Rows and their bm25 sums (higher is better; FTS5's value is the negation). */
function scoredRows(rows: Int32Array, sums: Float64Array): ScoredRows {
  const sorted = (idx: number[]) => idx.sort((a, b) => sums[b]! - sums[a]! || rows[a]! - rows[b]!).map((i) => ({ r: rows[i]!, s: -1.0 * sums[i]! }));
  return {
    size: rows.length,
    top(n) {
      const idx: number[] = [];
      if (n >= rows.length) {
        for (let i = 0; i < rows.length; i++) idx.push(i);
        return sorted(idx);
      }
      if (n <= 0) return [];
      // Only rows at or above the n-th best sum can be among the n best.
      const floor = kthLargest(sums, n);
      for (let i = 0; i < rows.length; i++) if (sums[i]! >= floor) idx.push(i);
      return sorted(idx).slice(0, n);
    },
    tied(s) {
      const out: { r: number }[] = [];
      for (let i = 0; i < rows.length; i++) if (-1.0 * sums[i]! === s) out.push({ r: rows[i]! });
      return out;
    },
  };
}

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

const asBlob = (a: Int32Array | Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * Writes the postings table of a loaded version from its FTS5 index (after the last FTS chunk).
 * Returns the number of words.
 */
export function buildPostings(db: Database.Database, t: VersionTables): number {
  const weight = new Map<string, number>(FTS_COLUMNS.map(([c, w]) => [`t_${c}`, w]));
  db.exec(`DROP TABLE IF EXISTS ${t.postings}; CREATE TABLE ${t.postings} (term TEXT PRIMARY KEY, rows BLOB NOT NULL, freqs BLOB NOT NULL) WITHOUT ROWID;`);
  const vocab = `temp.${t.fts}_instances`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab} USING fts5vocab(main, ${t.fts}, 'instance')`);
  const insert = db.prepare(`INSERT INTO ${t.postings} (term, rows, freqs) VALUES (?, ?, ?)`);
  // Averages record (id 1 of the data table): the row count, then each column's token count.
  const averages = db.prepare(`SELECT block FROM ${t.fts}_data WHERE id = 1`).pluck().get() as Uint8Array | undefined;
  let rowCount = 0;
  let tokenCount = 0;
  if (averages) {
    const [n, used] = readVarint(averages, 0);
    rowCount = n;
    tokenCount = sumVarints(averages.subarray(used));
  }
  const maxRowid = (db.prepare(`SELECT max(id) FROM ${t.fts}_docsize`).pluck().get() as number | null) ?? 0;
  const lengths = new Int32Array(maxRowid + 1);
  for (const [id, sz] of db.prepare(`SELECT id, sz FROM ${t.fts}_docsize`).raw().iterate() as Iterable<[number, Uint8Array]>) lengths[id] = sumVarints(sz);
  insert.run(TOTALS_KEY, asBlob(lengths), asBlob(new Float64Array([rowCount, tokenCount])));

  // Read whole, then written (no writes while a statement iterates): the (row, frequency) pairs in
  // growing typed arrays, each word's run starting at starts[i].
  const terms: string[] = [];
  const starts: number[] = [];
  let rows = new Int32Array(1 << 16);
  let freqs = new Float32Array(1 << 16);
  let n = 0;
  // Ordered by term, then row (the index's order).
  for (const [word, doc, col] of db.prepare(`SELECT term, doc, col FROM ${vocab}`).raw().iterate() as Iterable<[string, number, string]>) {
    const w = weight.get(col) ?? 1;
    if (word !== terms[terms.length - 1]) {
      terms.push(word);
      starts.push(n);
    } else if (rows[n - 1] === doc) {
      freqs[n - 1]! += w;
      continue;
    }
    if (n === rows.length) {
      const grown = new Int32Array(n * 2);
      grown.set(rows);
      rows = grown;
      const grownF = new Float32Array(n * 2);
      grownF.set(freqs);
      freqs = grownF;
    }
    rows[n] = doc;
    freqs[n] = w;
    n++;
  }
  starts.push(n);
  for (let i = 0; i < terms.length; i++)
    insert.run(terms[i], asBlob(rows.subarray(starts[i], starts[i + 1])), asBlob(freqs.subarray(starts[i], starts[i + 1])));
  const words = terms.length;
  db.exec(`DROP TABLE IF EXISTS ${vocab}`);
  return words;
}

interface VersionPostings {
  postings: string;
  lengths: Int32Array;
  rowCount: number;
  avgdl: number;
  words: Map<string, { rows: Int32Array; freqs: Float32Array }>;
  /** Scratch per row: scores, and the query that last marked the row a candidate. */
  acc: Float64Array;
  mark: Int32Array;
  stamp: number;
}

export function createPostingsScorer(db: Database.Database) {
  let current: VersionPostings | null = null;
  /** Versions found without a postings table (loaded before it existed). */
  const absent = new Set<string>();

  function versionOf(t: VersionTables): VersionPostings | null {
    if (current?.postings === t.postings) return current;
    if (absent.has(t.postings)) return null;
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t.postings)) {
      absent.add(t.postings);
      return null;
    }
    const totals = db.prepare(`SELECT rows, freqs FROM ${t.postings} WHERE term = ?`).get(TOTALS_KEY) as { rows: Buffer; freqs: Buffer } | undefined;
    if (!totals) return null;
    const lengths = new Int32Array(totals.rows.buffer.slice(totals.rows.byteOffset, totals.rows.byteOffset + totals.rows.byteLength));
    const [rowCount, tokenCount] = new Float64Array(totals.freqs.buffer.slice(totals.freqs.byteOffset, totals.freqs.byteOffset + totals.freqs.byteLength));
    current = {
      postings: t.postings,
      lengths,
      rowCount: rowCount!,
      avgdl: tokenCount! / rowCount!,
      words: new Map(),
      acc: new Float64Array(lengths.length),
      mark: new Int32Array(lengths.length),
      stamp: 0,
    };
    return current;
  }

  function postingsOf(v: VersionPostings, word: string) {
    let p = v.words.get(word);
    if (!p) {
      const row = db.prepare(`SELECT rows, freqs FROM ${v.postings} WHERE term = ?`).get(word) as { rows: Buffer; freqs: Buffer } | undefined;
      // Copies: a Buffer from SQLite may share a pooled ArrayBuffer at an offset no typed array of 4-byte items can start at.
      p = row
        ? { rows: new Int32Array(Uint8Array.from(row.rows).buffer), freqs: new Float32Array(Uint8Array.from(row.freqs).buffer) }
        : { rows: new Int32Array(0), freqs: new Float32Array(0) };
      if (v.words.size >= CACHE_WORDS) v.words.clear();
      v.words.set(word, p);
    }
    return p;
  }

  /**
   * The rows holding one of `q.select` and their bm25() under `q.phrases`, best first; null when the
   * version has no postings table or a phrase is not a single plain word (FTS5 then ranks).
   */
  function score(t: VersionTables, q: ScoredQuery): ScoredRows | null {
    if (![...q.phrases, ...q.select].every((p) => p.length === 1 && PLAIN_WORD.test(p[0]!))) return null;
    const v = versionOf(t);
    if (!v) return null;
    const stamp = ++v.stamp;
    const candidates: number[] = [];
    for (const [word] of q.select) {
      for (const r of postingsOf(v, word!).rows) {
        if (v.mark[r] !== stamp) {
          v.mark[r] = stamp;
          v.acc[r] = 0;
          candidates.push(r);
        }
      }
    }
    // FTS5's bm25(): for each phrase in expression order, idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)),
    // f the phrase's weighted frequency in the row, D the row's length in tokens; the sum negated.
    for (const [word] of q.phrases) {
      const p = postingsOf(v, word!);
      let idf = Math.log((v.rowCount - p.rows.length + 0.5) / (p.rows.length + 0.5));
      if (idf <= 0.0) idf = 1e-6;
      for (let i = 0; i < p.rows.length; i++) {
        const r = p.rows[i]!;
        if (v.mark[r] !== stamp) continue;
        const f = p.freqs[i]!;
        v.acc[r]! += idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * v.lengths[r]!) / v.avgdl)));
      }
    }
    const rows = Int32Array.from(candidates);
    const sums = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) sums[i] = v.acc[rows[i]!]!;
    return scoredRows(rows, sums);
  }

  return { score };
}
