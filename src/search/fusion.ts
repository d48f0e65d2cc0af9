/**
 * Fusion of the BM25 and kNN rankings of agentic search (agentic.ts): reciprocal rank fusion (the
 * default), weighted per list, with the kNN list's weight set by how well BM25 covers the query
 * (lexicalCoverage); or min-max normalised scores (relevance experiments).
 */
import type { PartRecord } from '../catalog/part.ts';
import type { ScoredId } from '../engines/port.ts';
import { partTextFields, TOKEN, textTokens } from '../engines/text-tokens.ts';
import { STOPWORDS } from './query-scan.ts';
import { perRecord } from './record-memo.ts';

/** How the BM25 and kNN rankings are fused: reciprocal rank fusion or min-max normalised scores. */
export type Fusion = 'rrf' | 'normalized';
export const FUSIONS: readonly Fusion[] = ['rrf', 'normalized'];
/**
 * Default fusion, chosen by measurement on the sample natural-language/parametric suite
 * (bench/results/relevance.md, "Fusion").
 */
export const DEFAULT_FUSION: Fusion = 'rrf';

export const RRF_K = 60;
/** Weight of the normalised BM25 score in `normalized` fusion; the cosine gets 1 - this. */
export const NORMALIZED_LEXICAL_WEIGHT = 0.5;

/** Reciprocal rank fusion: sum over lists of weight / (k + rank), rank from 1 (weights default to 1). */
export function rrf(lists: readonly (readonly ScoredId[])[], weights: readonly number[] = []): Map<number, number> {
  const score = new Map<number, number>();
  lists.forEach((list, i) => {
    const w = weights[i] ?? 1;
    list.forEach((h, rank) => score.set(h.id, (score.get(h.id) ?? 0) + w / (RRF_K + rank + 1)));
  });
  return score;
}

/**
 * Query words the best BM25 hits must all hold (COVERED_SHARE of them, in one of the first
 * COVERAGE_HITS hits) for the kNN list to weigh only TRUSTED_KNN_WEIGHT in reciprocal rank fusion.
 * Measured on the four suites (bench/results/relevance.md, "Fusion by lexical coverage").
 */
export const COVERAGE_HITS = 3;
export const COVERED_SHARE = 0.75;
/**
 * The kNN list's weight when BM25 covers the query: it still adds its candidates and breaks ties and
 * near-ties of the lexical lists, but cannot reorder BM25's own first 40 (adjacent ranks there differ by
 * at least 1/100 - 1/101 = 0.000099 in RRF, a kNN term is at most 0.005 / 61 = 0.000082; with the
 * named-category list added, two parts' sums can be nearer than that).
 */
export const TRUSTED_KNN_WEIGHT = 0.005;

/** Lower case without accents (FTS5's remove_diacritics; OpenSearch's asciifolding). */
const fold = (t: string) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A part's words as the text indexes hold them (partTextFields). */
const recordWords = perRecord((r: PartRecord): Set<string> => new Set(fold(Object.values(partTextFields(r)).join(' ')).match(TOKEN) ?? []));

/**
 * Share of the query's words (textTokens, without function words such as "for" and "with"; one-letter
 * words only with digits) that the best-covering of the given parts holds in its indexed text: 1 when a
 * BM25 hit carries every word of the query, 0 without hits.
 */
export function lexicalCoverage(query: string, parts: readonly (PartRecord | undefined)[]): number {
  const words = textTokens(fold(query)).filter((w) => (w.length > 1 || /\d/.test(w)) && !STOPWORDS.has(w));
  if (!words.length) return 0;
  let best = 0;
  for (const p of parts) {
    if (!p) continue;
    const have = recordWords(p);
    best = Math.max(best, words.filter((w) => have.has(w)).length / words.length);
  }
  return best;
}

/** Min-max normalisation of one list's scores to [0, 1] (all equal: every one 1). Higher is better. */
export function minMax(list: readonly ScoredId[]): Map<number, number> {
  const out = new Map<number, number>();
  if (list.length === 0) return out;
  let lo = Infinity;
  let hi = -Infinity;
  for (const h of list) {
    if (!Number.isFinite(h.score)) continue;
    lo = Math.min(lo, h.score);
    hi = Math.max(hi, h.score);
  }
  for (const h of list) {
    if (out.has(h.id)) continue; // a part listed twice keeps its first (best) score
    const s = !Number.isFinite(h.score) || hi === lo ? 1 : (h.score - lo) / (hi - lo);
    out.set(h.id, s);
  }
  return out;
}

/**
 * Normalised-score fusion: w * minMax(BM25) + (1 - w) * minMax(cosine), a part absent from a list scoring 0
 * there. Both engines return higher-is-better scores (SQLite negates FTS5 bm25(); OpenSearch _score; the
 * kNN side is the cosine on both). With one list only, the order is that list's score order.
 */
export function normalizedFusion(lexical: readonly ScoredId[], vector: readonly ScoredId[], lexicalWeight = NORMALIZED_LEXICAL_WEIGHT): Map<number, number> {
  const score = new Map<number, number>();
  const lists: [Map<number, number>, number][] = [
    [minMax(lexical), lexical.length && vector.length ? lexicalWeight : 1],
    [minMax(vector), lexical.length && vector.length ? 1 - lexicalWeight : 1],
  ];
  for (const [m, w] of lists) for (const [id, s] of m) score.set(id, (score.get(id) ?? 0) + w * s);
  return score;
}

/** Two BM25 lists as one (normalised fusion takes one lexical list): each part's best score. */
export function mergeLists(a: readonly ScoredId[], b: readonly ScoredId[]): ScoredId[] {
  if (b.length === 0) return [...a];
  const best = new Map<number, number>();
  for (const h of [...a, ...b]) best.set(h.id, Math.max(best.get(h.id) ?? -Infinity, h.score));
  return [...best.entries()].map(([id, score]) => ({ id, score })).sort((x, y) => y.score - x.score || x.id - y.id);
}
