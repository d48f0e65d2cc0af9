/**
 * Free-text ranking of the SQLite adapter: the FTS5 MATCH of a query (textMatch, with the common-word
 * rule) and the best k parts by BM25 among those matching it and the filters (rankedText).
 */
import type Database from 'better-sqlite3';
import type { TextHit } from '../port.ts';
import type { FilterSql } from './filters.ts';
import { createRowFacts } from './row-facts.ts';
import { fewSelected, type FewSelected } from './filter-plans.ts';
import { nextWindow } from './window.ts';
import { FTS_COLUMNS, type VersionTables } from './schema.ts';
import { orMatch, textTerms } from './text.ts';
import { rowVocab } from './fts-lengths.ts';
import { createPostingsScorer, kthLargest, type ScoredQuery, type ScoredRows } from './postings.ts';

const BM25_WEIGHTS = FTS_COLUMNS.map(([, w]) => w).join(', ');
/**
 * A query word in more than COMMON_WORD_PARTS parts and COMMON_WORD_SHARE of the catalogue scores but
 * does not select candidates when the query has rarer words (see textMatch). Both bounds: the cost is
 * the length of the word's posting list, and small catalogues are left exactly as they are.
 */
const COMMON_WORD_PARTS = 5_000;
const COMMON_WORD_SHARE = 0.01;
/** Largest ranked window filtered in JS before the plain join takes over (see rankedText). */
const RANK_WINDOW_MAX = 20_000;
/** Most parts passing the filters' indexed conditions that are read and ranked from the postings when the ranked windows find the filters selective (rankedText). */
const RANK_FEW_MAX = 5_000;
/**
 * Most rows of the filters' narrowing set read (their rowids, through its index) to rank the text's
 * matches within it from the postings (rankInSet): as many as the matches (the plain join's cost is
 * about theirs), twice as many when the exact total is wanted too (the join then counts the matches
 * again), and at most SET_ROWS_MAX.
 */
const SET_ROWS_PER_MATCH = 1;
const SET_ROWS_MAX = 500_000;
/** Most rows whose facts one query reads for the plans that check them there (row-facts.ts, its budget). */
const FACTS_READ_MAX = 10_000;
/** Below 1 row in this many passing the filters, the filters go inside the plain join instead. */
const SELECTIVE_PASS_RATE = 20;
/**
 * The rows matching a text and passing the filters, with each row's category and manufacturer slug
 * (facet counts: facets.ts), from the postings and the rows' kept facts (matchedRows).
 */
export interface MatchedRows {
  rows: number[];
  categoryOf(r: number): string | null;
  makerOf(r: number): string | null;
}

/** When a query word counts as common (tests lower them); defaults COMMON_WORD_PARTS / COMMON_WORD_SHARE. */
export interface CommonWordBounds {
  parts: number;
  share: number;
}

/**
 * Ranked text under filters: ranked windows first, the plain join when they cannot fill or show the
 * filters selective (the default; see rankedText), or the plain join at once (tests compare the two).
 */
export type TextRankPlan = 'windows' | 'join';

/**
 * The best k matches passing the filters, best first, and how many match and pass in all when the plan
 * that found them counted them on the way (null: count them apart).
 */
export interface RankedText {
  hits: TextHit[];
  total: number | null;
}

/** A query's FTS5 MATCH expression, with its phrases in expression order and the phrases a row must hold one of (postings.ts). */
export interface TextMatch extends ScoredQuery {
  expr: string;
}

/** The k best of rows passing the filters by bm25() (lower is better), ties by id: the plain join's `ORDER BY score DESC, p.id LIMIT k`. */
function bestOf(xs: { id: number; category: string | null; s: number }[], k: number): TextHit[] {
  if (k <= 0) return [];
  // Many rows (a set's thousands of matches): only those scoring at least the k-th best are sorted.
  if (xs.length > 4 * k + 256) {
    const negated = new Float64Array(xs.length);
    for (let i = 0; i < xs.length; i++) negated[i] = -xs[i]!.s;
    const cut = -kthLargest(negated, k);
    xs = xs.filter((x) => x.s <= cut);
  }
  return xs
    .sort((a, b) => a.s - b.s || a.id - b.id)
    .slice(0, k)
    .map((x) => ({ id: x.id, score: -x.s, category: x.category }));
}

export function createTextRanking(
  db: Database.Database,
  stmt: (sql: string) => Database.Statement,
  commonWord?: CommonWordBounds,
  plan: TextRankPlan = 'windows',
  /** Whether BM25 may be summed from postings (postings.ts) rather than by FTS5's bm25(); tests compare both. */
  usePostings = true,
  factsReadMax = FACTS_READ_MAX,
) {
  // A new version's row lengths are read in the background (postings.ts); FTS5 ranks until then.
  const postings = createPostingsScorer(db, { lengthsInBackground: true }, stmt);
  /** Size and document frequencies of query words of one index version (see textMatch), read on first use. */
  let stats: { fts: string; vocab: string; docCount: number; docFreq: Map<string, number> } | null = null;
  const versionStats = (t: VersionTables) => {
    if (stats?.fts !== t.fts) {
      stats = { fts: t.fts, vocab: rowVocab(db, t), docCount: (stmt(`SELECT count(*) AS n FROM ${t.parts}`).get() as { n: number }).n, docFreq: new Map() };
    }
    return stats;
  };

  /**
   * The FTS match of free text: an OR of its terms (text.ts `textTerms`: words, the words of a
   * hyphenated compound as one phrase, "SOT-23-5" -> "sot 23 5", and no lone function words such as
   * "to"). With OR semantics every part containing any term is scored, and over a large catalogue a
   * common word ("resistor", "5", "to": tens of thousands of parts) makes that most of a query's cost
   * while barely moving BM25 (its IDF is low). So when the query also has rarer terms, candidates must
   * contain one of those, and every term still scores: `(rare OR …) AND (every OR …)` (FTS5 then counts
   * the rare terms twice). Document frequencies come from an fts5vocab table, cached per version (a
   * phrase counts as its rarest word). Search and facets use the same match.
   */
  function textMatch(t: VersionTables, text: string): TextMatch | null {
    const terms = textTerms(text);
    const anyOf = (): TextMatch | null => {
      const expr = orMatch(terms);
      return expr === null ? null : { expr, phrases: terms, select: terms };
    };
    if (terms.length < 2) return anyOf();
    const v = versionStats(t);
    const common = Math.max(commonWord?.parts ?? COMMON_WORD_PARTS, (commonWord?.share ?? COMMON_WORD_SHARE) * v.docCount);
    if (v.docCount <= common) return anyOf();
    const df = (w: string) => {
      let n = v.docFreq.get(w);
      if (n === undefined) {
        n = (stmt(`SELECT doc FROM ${v.vocab} WHERE term = ?`).pluck().get(w) as number | undefined) ?? 0;
        if (v.docFreq.size >= 100_000) v.docFreq.clear();
        v.docFreq.set(w, n);
      }
      return n;
    };
    // A phrase is in at most as many parts as its rarest word.
    const rare = terms.filter((term) => Math.min(...term.map(df)) <= common);
    if (rare.length === 0 || rare.length === terms.length) return anyOf();
    // FTS5 numbers the phrases left to right: the rare ones, then every one (so bm25 counts the rare ones twice).
    return { expr: `(${orMatch(rare)}) AND (${orMatch(terms)})`, phrases: [...rare, ...terms], select: rare };
  }

  /**
   * The best `k` parts by BM25 among those matching `match` and the filters, ordered by score then id.
   *
   * Ranked windows first (`windowed`): FTS5 ranks the match set on its own (`ORDER BY bm25 LIMIT n`: no
   * join, a bounded sort), and only the n best rows are joined to the parts table for the filters and
   * ids. Joining every matching row first (the plain form) costs about as much as the ranking again: a
   * common word ("resistor") matches a sixth of a 578k catalogue. Every row scoring better than the
   * window's last is inside the window; when k passing rows are among them the answer is complete, and
   * when enough passed but some tie with the last row, the rows at that score are read once (ties are
   * broken by id, which the FTS order does not follow). Otherwise n grows by the observed pass rate for
   * one more round, and filters that pass under 1 in SELECTIVE_PASS_RATE rows are selective. When
   * fewer than k parts pass the filters' indexed conditions at all (fewerPass), the windows cannot
   * fill: those few parts are read, each checked against the filters, and ranked by their scores from
   * the postings (`rankFew`); selective filters whose parts are few next to the matches are read the
   * same way. Otherwise (or when the postings cannot score the query, or the few parts sit behind large
   * sets) the plain join, where SQLite filters before it sorts. Every path answers exactly what the
   * plain join answers (test/unit/sqlite-plans.test.ts forces both).
   */
  function rankedText(t: VersionTables, match: TextMatch, f: FilterSql, k: number, wantTotal = false): RankedText {
    if (plan === 'windows') {
      // Every matching row's score at once from the postings (postings.ts) when the query's words allow,
      // else FTS5's ranked windows; scored when first needed.
      let scored: ScoredRows | null | undefined;
      const scores = () => (scored === undefined ? (scored = usePostings ? postings.score(t, match) : null) : scored);
      const few = fewerPass(t, f, k);
      // Few parts behind large sets only (every set over DRIVER_COUNT_MAX, their intersection under k): the join.
      if (few) {
        const s = few.cheap ? scores() : null;
        if (s) return rankFew(t, few, s, k);
      } else {
        // With the exact total wanted under indexed conditions, the join's count of every match is most of
        // the cost whichever plan ranks: the set's rows give both at once when they are few enough
        // ("resistor" within the 85k chip resistors of the 578k catalogue, 98k matches: 77 -> 44 ms,
        // bench/filters.ts). Otherwise the set is tried only once the windows find the filters selective.
        const setFirst = wantTotal && f.narrowing !== null;
        const both = setFirst && scores() ? rankInSet(t, f, scores()!, k, true) : null;
        if (both) return both;
        const hits = windowed(t, match, f, k, scores());
        if (hits) return { hits, total: wantTotal ? rowTotal(t, f, scores()) : null };
        // The windows found the filters selective: when the parts passing their indexed conditions are
        // few enough to read (under a quarter of the matches and RANK_FEW_MAX) behind no large set, they
        // are ranked from the postings too ("resistor 0603" in a 700-part list of the 578k catalogue,
        // 98k matches: 55 -> 2 ms); else, when the filters ask at most the status, in-stock and excluded
        // categories beyond those conditions, the matches among the rows those conditions select, or among
        // all the matches when there are none (rankInSet: "chip resistor 1%" outside the chip resistors at
        // 578k, 236 -> 25 ms); else the join, whose cost is the matches'.
        const s = scores();
        const some = s ? fewSelected(stmt, t, f, Math.min(RANK_FEW_MAX, Math.floor(s.size / 4)), { cheapOnly: true }) : null;
        if (s && some) return rankFew(t, some, s, k);
        const inSet = s && !setFirst ? rankInSet(t, f, s, k, wantTotal) : null;
        if (inSet) return inSet;
      }
    }
    // Selective filters: join every match and let SQLite filter before it sorts.
    const hits = stmt(
      `SELECT p.id AS id, -bm25(${t.fts}, ${BM25_WEIGHTS}) AS score, p.category AS category FROM ${t.fts} JOIN ${t.parts} p ON p.rowid = ${t.fts}.rowid WHERE ${t.fts} MATCH ? AND ${f.sql} ORDER BY score DESC, p.id LIMIT ?`,
    ).all(match.expr, ...f.params, k) as TextHit[];
    return { hits, total: null };
  }

  /**
   * The exact total of a filter on the rows' own columns alone (status, in stock, excluded categories):
   * the scored rows passing on their kept facts, where the join counts every match in FTS5 ("resistor"
   * over the active parts in stock at 578k, 86k matches: 74 -> 25 ms). Null: count it in SQL.
   */
  function rowTotal(t: VersionTables, f: FilterSql, scored: ScoredRows | null): number | null {
    if (!scored || f.narrowing || !f.rowConditions) return null;
    return rowFacts.passing(t, Array.from(scored.rows), f.rowConditions, factsReadMax)?.at.length ?? null;
  }

  /**
   * The best k matches among the rows the filters' narrowing conditions select (manufacturers,
   * categories, lists, specs, the lowest price: FilterSql.narrowing), when the filters ask at most the
   * status, `in_stock` and excluded categories beyond them (FilterSql.rowConditions): the rows' ids are
   * read through the conditions' indexes alone (no parts row), when they are at most SET_ROWS_PER_MATCH
   * times the matches (counted first, up to that: a count costs a third of the read), looked up among
   * the query's scored rows, and those that match are checked on the rows' kept facts (row-facts.ts:
   * status, stock, category); without narrowing conditions, every match is. The exact total comes with
   * them. Where the plain join scores every match in FTS5 and reads its parts row ("resistor" within
   * Yageo's 24k parts of the 578k catalogue, 98k matches: about 70 ms, and as much again for the total).
   * Null when the set is larger than that, or its rows' facts are not all read yet.
   */
  function rankInSet(t: VersionTables, f: FilterSql, scored: ScoredRows, k: number, wantTotal: boolean): RankedText | null {
    const cand = f.rowConditions && candidates(t, f, scored, wantTotal);
    const read = cand && rowFacts.passing(t, cand.rows, f.rowConditions!, factsReadMax);
    if (!read) return null;
    const { rows, scores } = cand!;
    const { at, facts } = read;
    // Records only for the rows scoring at least the k-th best (bestOf breaks their ties by id).
    let cut = Infinity;
    if (at.length > k) {
      const negated = new Float64Array(at.length);
      for (let j = 0; j < at.length; j++) negated[j] = -scores[at[j]!]!;
      cut = -kthLargest(negated, k);
    }
    const best: { id: number; category: string | null; s: number }[] = [];
    for (const i of at) {
      const s = scores[i]!;
      if (s > cut) continue;
      const r = rows[i]!;
      best.push({ id: facts.id[r]!, category: facts.categories[facts.category[r]!]!, s });
    }
    return { hits: bestOf(best, k), total: at.length };
  }

  /**
   * The matches a set-driven plan starts from, with their bm25() values: those among the rows the
   * filters' narrowing conditions select (setRows, up to SET_ROWS_PER_MATCH times the matches, twice that
   * when every match passing is counted), or every match when there are no such conditions. Null when
   * the set is larger.
   */
  function candidates(t: VersionTables, f: FilterSql, scored: ScoredRows, countAll: boolean): { rows: number[]; scores: number[] } | null {
    if (!f.narrowing) return scored.among(Array.from(scored.rows));
    const rows = setRows(t, f.narrowing, Math.min(SET_ROWS_MAX, SET_ROWS_PER_MATCH * (countAll ? 2 : 1) * scored.size));
    return rows && scored.among(rows);
  }

  /**
   * Whether fewer than k parts pass the filters' indexed conditions (categories, manufacturers, lists,
   * spec values and ranges; FilterSql.narrowing), counted up to k: an upper bound of the filtered set,
   * read through indexes. Ranked windows then cannot gather k parts before they hold every match, so
   * rankedText joins at once: 'schottky diode 40V' within its 98-part category of the 29k catalogue
   * took two window rounds and the join, three BM25 passes (15 ms), where the join alone takes 1.2 ms.
   */
  const fewerPass = (t: VersionTables, f: FilterSql, k: number) => fewSelected(stmt, t, f, k);

  /**
   * The best k of the few parts passing the filters (fewerPass), by their bm25() from the postings: the
   * parts are read through the filters' indexes and looked up among the query's scored rows, where the
   * plain join scores every match in FTS5 first ("diode" within the 98 Schottky diodes of the 29k
   * catalogue: 2 -> 0.3 ms).
   */
  function rankFew(t: VersionTables, few: FewSelected, scored: ScoredRows, k: number): RankedText {
    const rows = stmt(`SELECT p.rowid AS r, p.id AS id, p.category AS category FROM ${t.parts} p WHERE ${few.where}`).all(...few.params) as {
      r: number;
      id: number;
      category: string | null;
    }[];
    const hits: { id: number; category: string | null; s: number }[] = [];
    for (const x of rows) {
      const s = scored.scoreOf(x.r);
      if (s !== undefined) hits.push({ id: x.id, category: x.category, s });
    }
    // Every part passing the filters was read: the ones matching are the exact total.
    return { hits: bestOf(hits, k), total: hits.length };
  }

  /** The rowids the narrowing conditions select, read through their indexes alone; null when over `bound` (counted first, up to it: a count costs a third of the read). */
  function setRows(t: VersionTables, narrowing: FilterSql, bound: number): number[] | null {
    const within = `SELECT p.rowid FROM ${t.parts} p WHERE ${narrowing.sql} LIMIT ?`;
    const count = stmt(`SELECT count(*) FROM (${within})`)
      .pluck()
      .get(...narrowing.params, bound + 1) as number;
    if (count > bound) return null;
    return stmt(within)
      .pluck()
      .all(...narrowing.params, bound) as number[];
  }

  /**
   * The rows matching `match` and passing the filters, with their categories and makers, when the query
   * is scored from the postings and the filters ask at most the status, in-stock and excluded categories
   * beyond their indexed conditions (the candidates rankInSet reads with the exact total, all checked on
   * the rows' facts): facet counts then start from these instead of the plain join of every match
   * (facets.ts). Null otherwise.
   */
  function matchedRows(t: VersionTables, match: TextMatch, f: FilterSql): MatchedRows | null {
    if (plan !== 'windows' || !usePostings || !f.rowConditions) return null;
    const scored = postings.score(t, match);
    const cand = scored && candidates(t, f, scored, true);
    const read = cand && rowFacts.passing(t, cand.rows, f.rowConditions, factsReadMax);
    if (!read) return null;
    const { facts } = read;
    return {
      rows: read.at.map((i) => cand!.rows[i]!),
      categoryOf: (r) => facts.categories[facts.category[r]!]!,
      makerOf: (r) => facts.makers[facts.maker[r]!]!,
    };
  }

  /** Row facts (row-facts.ts), for the plans that check filters on the rows' own columns outside SQL. */
  const rowFacts = createRowFacts(stmt);

  /** The ranked-window plan of rankedText; null when the filters turn out selective (the plain join then). */
  function windowed(t: VersionTables, match: TextMatch, f: FilterSql, k: number, scored: ScoredRows | null): TextHit[] | null {
    const top = scored
      ? (n: number) => scored.top(n)
      : (n: number) =>
          stmt(`SELECT rowid AS r, bm25(${t.fts}, ${BM25_WEIGHTS}) AS s FROM ${t.fts} WHERE ${t.fts} MATCH ? ORDER BY s LIMIT ?`).all(match.expr, n) as {
            r: number;
            s: number;
          }[];
    const tiedAt = scored
      ? (cut: number) => scored.tied(cut)
      : (cut: number) =>
          stmt(`SELECT rowid AS r FROM ${t.fts} WHERE ${t.fts} MATCH ? AND bm25(${t.fts}, ${BM25_WEIGHTS}) = ?`).all(match.expr, cut) as { r: number }[];
    // The window's rows drive the check (CROSS JOIN: the outer loop), each tested against the filters;
    // a status-only filter (agentic search's default) is checked here, on the rows' remembered facts.
    const allowed = f.statusOnly ? new Set(f.statusOnly) : null;
    const pick = (rows: number[]): { r: number; id: number; category: string | null }[] =>
      allowed
        ? rowFacts.of(t, rows).filter((x) => allowed.has(x.status))
        : (stmt(
            `SELECT p.rowid AS r, p.id AS id, p.category AS category FROM json_each(?) j CROSS JOIN ${t.parts} p ON p.rowid = j.value WHERE ${f.probeSql}`,
          ).all(JSON.stringify(rows), ...f.params) as { r: number; id: number; category: string | null }[]);
    for (let n = Math.max(64, 2 * k), round = 0; n <= RANK_WINDOW_MAX && round < 2; round++) {
      const rows = top(n);
      const complete = rows.length < n;
      const cut = complete ? Infinity : rows[rows.length - 1]!.s;
      const score = new Map(rows.map((x) => [x.r, x.s]));
      const passed = pick(rows.map((x) => x.r)).map((x) => ({
        id: x.id,
        category: x.category,
        s: score.get(x.r)!,
      }));
      const kept = passed.filter((x) => x.s < cut);
      if (complete || kept.length >= k) return bestOf(kept, k);
      // Enough passed, but some of them tie with the window's last row, and rows tied with it may lie
      // beyond the window (ties are broken by id, not in FTS order; a catalogue's many parts of one
      // description template score alike: "10k 0603 1% resistor", 90 rows better than the 200th and
      // 140 tied with it). Every row at that score, read once, completes the answer exactly.
      if (passed.length >= k) {
        const tied = tiedAt(cut);
        const atCut = pick(tied.map((x) => x.r));
        return bestOf([...kept, ...atCut.map((x) => ({ id: x.id, category: x.category, s: cut }))], k);
      }
      // Selective filters (under 1 in 20 rows passed: a list, a narrow spec range) are better applied by
      // SQLite inside the join than over ever larger windows of ranked rows: to the plain join.
      if (kept.length * SELECTIVE_PASS_RATE < rows.length) break;
      // Too few passed the filters: once more, in a larger window.
      n = nextWindow(n, k, kept.length);
    }
    return null;
  }

  /** Resolves once a version's BM25 can be summed from postings (its row lengths read; at once without postings). */
  const postingsReady = (t: VersionTables): Promise<void> => (usePostings ? postings.ready(t) : Promise.resolve());

  return { textMatch, rankedText, matchedRows, postingsReady };
}
