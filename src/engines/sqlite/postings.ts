/**
 * BM25 of the SQLite adapter without FTS5's per-row scoring: FTS5 computes bm25() for every row that
 * matches a query (about 1 µs a row) before it sorts them, and an OR over a few common words ("red
 * led 0603") matches thousands of rows. Here each query word's postings (the rows holding it and its
 * weighted frequency in each, the BM25 column weights applied) are read once from FTS5's own index
 * (fts5vocab 'instance', looked up by term) and kept per version, with the row lengths and totals of
 * FTS5's docsize and averages records (fts-lengths.ts). A query's scores are then summed over
 * typed arrays, word by word, and equal FTS5's bm25() (same formula, same inputs, same order of
 * additions; only `log` is JavaScript's), so the ranking is unchanged.
 *
 * A phrase (the words of "sot-23-5" in a row, in one column) is found from its words' occurrences and
 * offsets, as FTS5 matches it, unless its words occur more than PHRASE_OCCURRENCES_MAX times in all
 * (FTS5 then ranks the query: every phrase is a new combination, so these reads are not bounded by
 * the cache). Used for queries whose words are all ASCII letters, digits and inner dots (what FTS5's
 * tokenizer keeps whole and unchanged); a word with other characters ("10µF") goes to FTS5. A word's
 * first use reads its occurrences (about 1 µs each: a few ms at 29k parts, up to 0.3 s for the most
 * common words of the 578k catalogue, once); the kept postings are bounded (CACHE_ENTRIES, with
 * KEY_ENTRIES for each word), the most recently used kept.
 */
import type Database from 'better-sqlite3';
import { statementCache } from './db.ts';
import { createFtsLengths, type FtsVersion } from './fts-lengths.ts';
import { FTS_COLUMNS, type VersionTables } from './schema.ts';
import { Lru } from '../../util/lru.ts';

const K1 = 1.2;
const B = 0.75;
/** Postings entries (rows) kept per version, over all words: 8 bytes each. */
const CACHE_ENTRIES = 8_000_000;
/** What a kept word or phrase costs beyond its rows, in entries (its key, map slot and arrays: about 500 bytes). */
const KEY_ENTRIES = 64;
/**
 * Most occurrences of a phrase's words read to find the phrase (about 1 µs each). Every phrase is a new
 * combination, so their reads cannot be bounded by the cache; a phrase of words more common than this
 * goes to FTS5, which matches it from its position lists faster than they can be read out.
 */
const PHRASE_OCCURRENCES_MAX = 20_000;
/** A word FTS5's unicode61 tokenizer (remove_diacritics 2, tokenchars '.') returns unchanged as one token. */
const PLAIN_WORD = /^[a-z0-9]+(?:\.[a-z0-9]+)*$/;

/** The query as FTS5 scores it: its phrases in expression order, and the phrases a row must hold one of. */
export interface ScoredQuery {
  phrases: readonly (readonly string[])[];
  select: readonly (readonly string[])[];
}

/** Every matching row's FTS5 bm25() value (lower is better). */
export interface ScoredRows {
  /** Number of matching rows. */
  size: number;
  /** The matching rows (in no particular order). */
  rows: Int32Array;
  /** The n best rows by (score, rowid): FTS5's `ORDER BY bm25 LIMIT n`, its ties broken by rowid. */
  top(n: number): { r: number; s: number }[];
  /** Every row scoring exactly `s`. */
  tied(s: number): { r: number }[];
  /**
   * The bm25() value of a row, undefined when it does not match: a lookup in the scorer's own per-row
   * sums while no other query has been scored since (rankFew asks at once), else a Map built once over
   * every matching row.
   */
  scoreOf(r: number): number | undefined;
  /** The matching rows among `rows` (in their order) and their bm25() values: scoreOf over many rows at once. */
  among(rows: readonly number[]): { rows: number[]; scores: number[] };
}

/** The k-th largest value of `xs` (1-based), by selection over a copy: O(n) on average. */
export function kthLargest(xs: Float64Array, k: number): number {
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

/** Rows and their bm25 sums (higher is better; FTS5's value is the negation); `current`: a row's sum from the scorer's arrays, or null once they hold another query's. */
function scoredRows(
  rows: Int32Array,
  sums: Float64Array,
  current: (r: number) => number | undefined | null,
  own: () => { mark: Int32Array; acc: Float64Array; stamp: number } | null,
): ScoredRows {
  const sorted = (idx: number[]) => idx.sort((a, b) => sums[b]! - sums[a]! || rows[a]! - rows[b]!).map((i) => ({ r: rows[i]!, s: -1.0 * sums[i]! }));
  let byRow: Map<number, number> | null = null;
  const byRowMap = () => {
    if (!byRow) {
      byRow = new Map();
      for (let i = 0; i < rows.length; i++) byRow.set(rows[i]!, -1.0 * sums[i]!);
    }
    return byRow;
  };
  return {
    size: rows.length,
    rows,
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
    scoreOf(r) {
      const sum = current(r);
      if (sum !== null) return sum === undefined ? undefined : -1.0 * sum;
      return byRowMap().get(r);
    },
    among(given) {
      const out: number[] = [];
      const scores: number[] = [];
      const o = own();
      if (o) {
        // The scorer's per-row sums are still this query's: typed arrays, no call per row.
        const { mark, acc, stamp } = o;
        for (let i = 0; i < given.length; i++) {
          const r = given[i]!;
          if (r >= 0 && r < mark.length && mark[r] === stamp) {
            out.push(r);
            scores.push(-1.0 * acc[r]!);
          }
        }
      } else {
        const m = byRowMap();
        for (const r of given) {
          const s = m.get(r);
          if (s !== undefined) {
            out.push(r);
            scores.push(s);
          }
        }
      }
      return { rows: out, scores };
    },
  };
}

interface Postings {
  rows: Int32Array;
  freqs: Float32Array;
}

/** The scorer's state for one version: its full-text state (fts-lengths.ts), kept postings and scratch. */
interface VersionPostings extends FtsVersion {
  /** Kept postings, the most recently used within CACHE_ENTRIES (KEY_ENTRIES plus its rows each). */
  words: Lru<string, Postings>;
  /** Scratch per row: scores, and the query that last marked the row a candidate. */
  acc: Float64Array;
  mark: Int32Array;
  stamp: number;
  /** Queries scored on this version: never starts afresh (unlike `stamp`), so a result knows whether the sums are still its own. */
  scorings: number;
}

/** Limits (tests lower them): kept entries, occurrences read for a phrase, the stamp at which marks start afresh; how row lengths are read (fts-lengths.ts). */
export interface PostingsLimits {
  cacheEntries?: number;
  phraseOccurrences?: number;
  stampMax?: number;
  /** Row lengths of a new version read in the background, a chunk per turn (the engine), not at once on its first query (default). */
  lengthsInBackground?: boolean;
  /** Rows read per turn in the background. */
  lengthsChunk?: number;
  /** Pause before a failed background read is tried again. */
  retryAfterMs?: number;
}

/** `stmt`: the connection's prepared-statement cache (the engine's), or one of the scorer's own. */
export function createPostingsScorer(db: Database.Database, limits: PostingsLimits = {}, stmt: (sql: string) => Database.Statement = statementCache(db)) {
  const cacheEntries = limits.cacheEntries ?? CACHE_ENTRIES;
  const phraseOccurrencesMax = limits.phraseOccurrences ?? PHRASE_OCCURRENCES_MAX;
  const stampMax = limits.stampMax ?? 0x7fffffff;
  const weight = new Map<string, number>(FTS_COLUMNS.map(([c, w]) => [`t_${c}`, w]));
  const columnIndex = new Map<string, number>(FTS_COLUMNS.map(([c], i) => [`t_${c}`, i]));
  const versions = createFtsLengths(db, stmt, { background: limits.lengthsInBackground, chunk: limits.lengthsChunk, retryAfterMs: limits.retryAfterMs });
  let current: VersionPostings | null = null;

  /** The scorer's state for the version, once its row lengths are read (FTS5 ranks until then). */
  function versionOf(t: VersionTables): VersionPostings | null {
    if (current?.fts === t.fts) return current;
    const v = versions.get(t);
    // Another version's kept postings are not asked for again (only the live one is): they go now.
    current = v && {
      ...v,
      words: new Lru<string, Postings>(cacheEntries, (p) => KEY_ENTRIES + p.rows.length),
      acc: new Float64Array(v.lengths.length),
      mark: new Int32Array(v.lengths.length),
      stamp: 0,
      scorings: 0,
    };
    return current;
  }

  /**
   * A phrase's rows (ascending) and weighted frequencies: for one word, its occurrences in the index; for
   * several, the places where they stand in a row in one column (FTS5's phrase match), found from each
   * word's occurrences and offsets. Null when an offset is too large for the position key (FTS5 ranks then).
   */
  function postingsOf(v: VersionPostings, phrase: readonly string[]): Postings | null {
    const key = phrase.join(' ');
    const kept = v.words.get(key);
    if (kept) return kept;
    const found = phrase.length === 1 ? wordPostings(v, phrase[0]!) : phrasePostings(v, phrase);
    return found && v.words.set(key, found);
  }

  /** Appends an occurrence of weight `w` in row `doc` to postings being built in row order. */
  const addTo = (rows: number[], freqs: number[], doc: number, w: number) => {
    if (rows[rows.length - 1] === doc) freqs[freqs.length - 1]! += w;
    else {
      rows.push(doc);
      freqs.push(w);
    }
  };

  function wordPostings(v: VersionPostings, word: string): Postings {
    const rows: number[] = [];
    const freqs: number[] = [];
    for (const [doc, col] of stmt(`SELECT doc, col FROM ${v.instances} WHERE term = ?`).raw().iterate(word) as Iterable<[number, string]>) {
      addTo(rows, freqs, doc, weight.get(col) ?? 1);
    }
    return { rows: Int32Array.from(rows), freqs: Float32Array.from(freqs) };
  }

  function phrasePostings(v: VersionPostings, phrase: readonly string[]): Postings | null {
    let occurrences = 0;
    for (const word of phrase) occurrences += (stmt(`SELECT cnt FROM ${v.vocab} WHERE term = ?`).pluck().get(word) as number | undefined) ?? 0;
    if (occurrences > phraseOccurrencesMax) return null;
    const occurrencesOf = (word: string) => stmt(`SELECT doc, col, offset FROM ${v.instances} WHERE term = ?`).raw().all(word) as [number, string, number][];
    // Row, column and offset in one number: (row * 8 + column) * 2^16 + offset (exact below 2^53).
    const at = (doc: number, col: string, offset: number) => (doc * 8 + columnIndex.get(col)!) * 65536 + offset;
    const later: Set<number>[] = [];
    for (let i = 1; i < phrase.length; i++) {
      const set = new Set<number>();
      for (const [doc, col, offset] of occurrencesOf(phrase[i]!)) {
        if (offset >= 65536) return null;
        set.add(at(doc, col, offset - i));
      }
      later.push(set);
    }
    const rows: number[] = [];
    const freqs: number[] = [];
    for (const [doc, col, offset] of occurrencesOf(phrase[0]!)) {
      if (offset >= 65536) return null;
      const k = at(doc, col, offset);
      if (later.every((set) => set.has(k))) addTo(rows, freqs, doc, weight.get(col) ?? 1);
    }
    return { rows: Int32Array.from(rows), freqs: Float32Array.from(freqs) };
  }

  /**
   * The rows holding one of `q.select` and their bm25() under `q.phrases`; null when a word is not plain
   * (PLAIN_WORD) or an offset too large (FTS5 then ranks).
   */
  function score(t: VersionTables, q: ScoredQuery): ScoredRows | null {
    if (![...q.phrases, ...q.select].every((p) => p.every((w) => PLAIN_WORD.test(w)))) return null;
    const v = versionOf(t);
    if (!v) return null;
    // Marks are compared with the stamp: before it would overflow the Int32Array, they start afresh.
    if (v.stamp >= stampMax) {
      v.mark.fill(0);
      v.stamp = 0;
    }
    const stamp = ++v.stamp;
    const scoring = ++v.scorings;
    // Typed arrays in locals: a plain array and for-of made marking 87k rows take 10 ms, not 1.
    const { mark, acc, lengths, avgdl } = v;
    const selectedPostings = q.select.map((phrase) => postingsOf(v, phrase));
    const scoredPostings = q.phrases.map((phrase) => postingsOf(v, phrase));
    if (selectedPostings.includes(null) || scoredPostings.includes(null)) return null;
    const selected = selectedPostings.map((p) => p!.rows);
    const candidates = new Int32Array(selected.reduce((n, rows) => n + rows.length, 0));
    let n = 0;
    for (const rows of selected) {
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        if (mark[r] !== stamp) {
          mark[r] = stamp;
          acc[r] = 0;
          candidates[n++] = r;
        }
      }
    }
    // FTS5's bm25(): for each phrase in expression order, idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)),
    // f the phrase's weighted frequency in the row, D the row's length in tokens; the sum negated.
    for (const p of scoredPostings as Postings[]) {
      let idf = Math.log((v.rowCount - p.rows.length + 0.5) / (p.rows.length + 0.5));
      if (idf <= 0.0) idf = 1e-6;
      const { rows, freqs } = p;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        if (mark[r] !== stamp) continue;
        const f = freqs[i]!;
        acc[r]! += idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * lengths[r]!) / avgdl)));
      }
    }
    const rows = candidates.slice(0, n);
    const sums = new Float64Array(n);
    for (let i = 0; i < n; i++) sums[i] = acc[rows[i]!]!;
    // The per-row sums stay this query's until the next scoring.
    return scoredRows(
      rows,
      sums,
      (r) => (v.scorings !== scoring ? null : r >= 0 && r < mark.length && mark[r] === stamp ? acc[r]! : undefined),
      () => (v.scorings !== scoring ? null : { mark, acc, stamp }),
    );
  }

  /** Kept words and phrases and their entries (KEY_ENTRIES each plus their rows), for tests. */
  const kept = () => ({ keys: current?.words.size ?? 0, entries: current?.words.used ?? 0 });

  return { score, kept, ready: versions.ready };
}
