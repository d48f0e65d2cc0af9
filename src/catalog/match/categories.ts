/**
 * Free-text category name matching, in memory, independent of any search engine.
 *
 * Scoring. Names and queries become stemmed terms (text.ts); each term weighs its IDF over the
 * tree's names, ln(1 + N / df), so "mlcc" counts more than "ic" (a query word no name holds weighs
 * 0.6 of the rarest, or the least when it has digits or one letter: "3.3v ldo"). The query is cut into slots
 * (slots.ts: a typed word or a synonym phrase with its alternatives). Against a category:
 *
 *   - each query term gets the best credit any of the category's terms gives it (vocabulary.ts:
 *     exact 1, prefix, one or two edits on longer words), or 0.8 of what the parent's name gives
 *     (context: "transistor mosfet" fits Transistors > MOSFETs);
 *   - a slot scores its best alternative: weighted mean of its terms' credits, times the
 *     alternative's credit (typed 1, synonym 0.95);
 *   - queryCov = slot scores weighted by slot weight: how much of the query is explained;
 *   - nameCov = the category's own terms weighted by IDF, each credited by the best query term of any
 *     alternative: how much of the name the query accounts for (a category matched only through
 *     its parent is dropped: the parent itself is the answer);
 *   - quality = queryCov * (0.55 + 0.45 * nameCov).
 *
 * Confidence: 100 when the query equals the name up to case, spacing and punctuation; otherwise
 * round(100 * quality * (0.94 + 0.06 * popularity)), at most 99, where popularity is the category's
 * log part count relative to the largest at its depth: a nudge towards the categories that hold
 * parts, never enough to overturn a clearly better name. About: 90+ the query says the name in other
 * words, 80+ a confident match (abbreviation, plural, word order, one typo), 40-60 partial, under 40
 * weak. Results under FLOOR are dropped.
 *
 * Ranking. Categories whose names reduce to the same terms ("MOSFETs" under three roots and
 * "MOSFET", siblings "RMS-To-DC Converters" / "RMS-to-DC Converters") form a group: the group ranks
 * by its best member and lists all members together, by part count (descending), all with the
 * group's confidence. Between equal scores a leaf goes before a root, then more parts first.
 */
import type { CategoryData } from '../categories.ts';
import { nameKey } from '../mpn.ts';
import { compilePhrases, toSlots, type PhraseTable } from './slots.ts';
import { STOPWORDS } from './synonyms.ts';
import { terms } from './text.ts';
import { Vocabulary, type TermHit } from './vocabulary.ts';

export interface CategoryMatch {
  slug: string;
  confidence: number;
  /** The query equals this category's own name up to case, spacing and punctuation (not only its group's). */
  exact: boolean;
  /** Named by what its parts do, not by its name: the function's id (vocabulary/functions.json). */
  function?: string;
}

export interface CategoryMatcher {
  match(query: string, limit: number): CategoryMatch[];
  /** The categories whose parts do what the query asks for, by the function vocabulary (match/functions.ts); none when it says no function. */
  byFunction?(query: string): CategoryMatch[];
}

export const CATEGORY_FLOOR = 25;
const PARENT_CREDIT = 0.8;
/** Weight of a query word no name holds, as a share of the rarest word's: it lowers, not sinks. */
const UNKNOWN_SHARE = 0.6;

interface Entry {
  slug: string;
  depth: number;
  partCount: number;
  key: string;
  sig: string;
  terms: number[];
  parentTerms: number[];
  popularity: number;
}

/** A query's slots, each its alternatives: credit, its terms' credit arrays (by vocabulary id) and weights, the weights' sum. */
type Plan = { credit: number; terms: Float64Array[]; weights: number[]; ad: number }[][];

/** The best credit a term gets from any of these vocabulary ids (0 when none gives it any). */
function bestCredit(arr: Float64Array, ids: readonly number[]): number {
  let best = 0;
  for (const id of ids) best = Math.max(best, arr[id]!);
  return best;
}

interface Scored {
  entry: Entry;
  quality: number;
  rank: number;
  confidence: number;
}

const toTerms = (s: string) => terms(s, { camel: true, stopwords: STOPWORDS });

export function createCategoryMatcher(categories: readonly CategoryData[], phrases: PhraseTable = compilePhrases()): CategoryMatcher {
  const vocab = new Vocabulary();
  const bySlug = new Map(categories.map((c) => [c.slug, c]));
  const nameTerms = (c: CategoryData) => [...new Set(toTerms(c.name))].map((t) => vocab.add(t));
  const maxAtDepth = new Map<number, number>();
  for (const c of categories) maxAtDepth.set(c.depth, Math.max(maxAtDepth.get(c.depth) ?? 0, c.part_count));
  const entries: Entry[] = categories.map((c) => {
    const own = nameTerms(c);
    const parent = c.parent ? bySlug.get(c.parent) : undefined;
    const max = maxAtDepth.get(c.depth) ?? 0;
    return {
      slug: c.slug,
      depth: c.depth,
      partCount: c.part_count,
      key: nameKey(c.name),
      sig: own.map((t) => vocab.terms[t]).join('') || c.slug,
      terms: own,
      parentTerms: parent ? nameTerms(parent).filter((t) => !own.includes(t)) : [],
      popularity: max > 0 ? Math.log1p(c.part_count) / Math.log1p(max) : 0,
    };
  });
  const df = new Array<number>(vocab.size).fill(0);
  const postings: number[][] = Array.from({ length: vocab.size }, () => []);
  entries.forEach((e, i) => {
    for (const t of e.terms) {
      df[t]!++;
      postings[t]!.push(i);
    }
  });
  const n = entries.length;
  const idf = df.map((d) => Math.log(1 + n / Math.max(d, 1)));
  const maxIdf = Math.log(1 + Math.max(n, 1));
  const minIdf = idf.length ? Math.min(...idf) : 1;
  vocab.seal();
  const childrenOf = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const p = bySlug.get(e.slug)?.parent;
    if (p) (childrenOf.get(p) ?? childrenOf.set(p, []).get(p)!).push(i);
  });

  /** Credit arrays by vocabulary id, one per distinct query term, reused from query to query (all zero between queries). */
  const scratchArrays: Float64Array[] = [];
  const scratch = (i: number) => (scratchArrays[i] ??= new Float64Array(vocab.size));

  function match(query: string, limit: number): CategoryMatch[] {
    if (typeof query !== 'string' || !(limit > 0)) return [];
    const qKey = nameKey(query);
    if (!qKey) return [];
    const slots = toSlots(query, phrases, (t) => vocab.id(t) !== undefined);
    if (slots.length === 0) return [];

    // Every query term (typed or alternative) -> the vocabulary terms it may mean.
    const hits = new Map<string, TermHit[]>();
    const weight = new Map<string, number>();
    for (const s of slots) {
      for (const a of s.alts) {
        for (const t of a.terms) {
          if (hits.has(t)) continue;
          const found: TermHit[] = vocab.lookup(t); // one hit per vocabulary term, with its best credit
          hits.set(t, found);
          const best = found.reduce<TermHit | null>((b, h) => (!b || h.credit > b.credit ? h : b), null);
          weight.set(t, best ? idf[best.id]! : t.length === 1 || /\d/.test(t) ? minIdf : UNKNOWN_SHARE * maxIdf);
        }
      }
    }

    // Candidates: categories holding a hit term, and children of categories holding one (context).
    const cand = new Set<number>();
    for (const found of hits.values()) {
      for (const { id } of found) {
        for (const i of postings[id]!) {
          cand.add(i);
          for (const c of childrenOf.get(entries[i]!.slug) ?? []) cand.add(c);
        }
      }
    }

    // Each query term's credits by vocabulary id, in dense arrays (scratch: every entry set here is
    // zeroed again in the finally, whatever happens) so that the loops over the candidates read arrays,
    // not Maps; the arithmetic and its order are as they were. `match` runs to its end without calling
    // out, so no other call can see the arrays filled.
    const creditsOf = new Map<string, Float64Array>();
    const scored: Scored[] = [];
    try {
      for (const [t, found] of hits) {
        const arr = scratch(creditsOf.size);
        creditsOf.set(t, arr);
        for (const { id, credit } of found) arr[id] = credit;
      }
      // Per slot, its alternatives with their terms' credit arrays and weights (the same for every candidate).
      const plan: Plan = slots.map((s) =>
        s.alts.map((a) => {
          let ad = 0;
          for (const t of a.terms) ad += weight.get(t)!;
          return { credit: a.credit, terms: a.terms.map((t) => creditsOf.get(t)!), weights: a.terms.map((t) => weight.get(t)!), ad };
        }),
      );
      const allTerms = plan.flatMap((alts) => alts.flatMap((a) => a.terms.map((arr) => ({ credit: a.credit, arr }))));
      for (const i of cand) {
        const e = entries[i]!;
        // How much of the name the query accounts for (any alternative may cover it); a category none of
        // whose own terms the query holds (a child added for context) is no match.
        let cn = 0;
        let cd = 0;
        for (const id of e.terms) {
          let best = 0;
          for (const { credit: c, arr } of allTerms) best = Math.max(best, c * arr[id]!);
          cn += idf[id]! * best;
          cd += idf[id]!;
        }
        const nameCov = cd > 0 ? cn / cd : 0;
        if (nameCov === 0) continue;
        // How much of the query this category explains.
        let num = 0;
        let den = 0;
        for (const alts of plan) {
          let best = 0;
          let slotWeight = 0;
          for (const a of alts) {
            let an = 0;
            for (let j = 0; j < a.terms.length; j++)
              an += a.weights[j]! * Math.max(bestCredit(a.terms[j]!, e.terms), PARENT_CREDIT * bestCredit(a.terms[j]!, e.parentTerms));
            const v = a.ad > 0 ? (a.credit * an) / a.ad : 0;
            if (v > best) best = v;
            if (a.credit === 1) slotWeight = a.ad / a.terms.length;
          }
          num += slotWeight * best;
          den += slotWeight;
        }
        const queryCov = den > 0 ? num / den : 0;
        const exact = e.key === qKey;
        const quality = exact ? 1 : queryCov * (0.55 + 0.45 * nameCov);
        const rank = exact ? 1.01 : quality * (0.94 + 0.06 * e.popularity);
        const confidence = exact ? 100 : Math.min(99, Math.round(100 * rank));
        if (confidence >= CATEGORY_FLOOR) scored.push({ entry: e, quality, rank, confidence });
      }
    } finally {
      for (const [t, arr] of creditsOf) for (const { id } of hits.get(t)!) arr[id] = 0;
    }
    return rankGroups(scored, limit);
  }

  return { match };
}

/** Near-duplicate names together, ranked by the group's best; members by part count. */
function rankGroups(scored: Scored[], limit: number): CategoryMatch[] {
  const groups = new Map<string, Scored[]>();
  for (const s of scored) (groups.get(s.entry.sig) ?? groups.set(s.entry.sig, []).get(s.entry.sig)!).push(s);
  const ranked = [...groups.values()].map((members) => {
    members.sort((a, b) => b.entry.partCount - a.entry.partCount || (a.entry.slug < b.entry.slug ? -1 : 1));
    const best = members.reduce((b, m) => (m.rank > b.rank ? m : b));
    return {
      members,
      rank: best.rank,
      confidence: Math.max(...members.map((m) => m.confidence)),
      depth: Math.max(...members.map((m) => m.entry.depth)),
      parts: members[0]!.entry.partCount,
      slug: members[0]!.entry.slug,
    };
  });
  ranked.sort((a, b) => b.confidence - a.confidence || b.rank - a.rank || b.depth - a.depth || b.parts - a.parts || (a.slug < b.slug ? -1 : 1));
  const out: CategoryMatch[] = [];
  for (const g of ranked) {
    for (const m of g.members) {
      if (out.length >= limit) return out;
      out.push({ slug: m.entry.slug, confidence: g.confidence, exact: m.confidence === 100 }); // only an exact name scores 100
    }
  }
  return out;
}
