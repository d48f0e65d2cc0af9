/**
 * Agentic search, stage 3: fusion. The candidate lists become the ranking's two blocks, each ranked on
 * its own and the second appended to the first (rank.ts):
 *
 *  1. the POOL_MIN best of the fusion of each list's first POOL_MIN, then every MPN hit, every part BM25
 *     found within the named categories, every part of theirs read by the filter alone and every part
 *     found by spec value (fused scores alone would cut parts only those lists found). Built from the
 *     first POOL_MIN of each list, it is the same for every page.
 *  2. for pages beyond POOL_MIN results only: the rest of the fusion of the whole lists (POOL_MAX each),
 *     up to POOL_MAX parts in all.
 *
 * Fusion: reciprocal rank fusion by default (fusion.ts; the kNN list weighs TRUSTED_KNN_WEIGHT when BM25
 * has read the query, lexicalCoverage), or min-max normalised scores (relevance experiments).
 */
import type { ScoredId } from '../../engines/port.ts';
import { COVERAGE_HITS, COVERED_SHARE, lexicalCoverage, mergeLists, normalizedFusion, rrf, TRUSTED_KNN_WEIGHT } from '../fusion.ts';
import { POOL_MAX, POOL_MIN, type SearchPlan } from './plan.ts';
import { head, type Retrieved } from './retrieve.ts';

/**
 * Weight of the named categories' parts read by the filter alone (`browse`) in reciprocal rank fusion:
 * it orders them among themselves (best stocked first) but cannot reorder what BM25 or kNN found
 * (0.001 / 61 is below the gap between adjacent ranks of a list up to rank 240).
 */
const BROWSE_WEIGHT = 0.001;

export interface Blocks {
  /** Block 1's part ids, and the fused score of each (absent: 0). */
  first: number[];
  firstScores: Map<number, number>;
  /** Block 2's part ids (empty within the first POOL_MIN results), and their fused scores. */
  second: number[];
  secondScores: Map<number, number>;
  /** Each MPN hit's place in the MPN lookups' lists (token by token, best first). */
  mpnRank: Map<number, number>;
}

/**
 * The kNN list's weight in reciprocal rank fusion: when one of the best BM25 hits holds the query's
 * words, BM25 has read the query and the kNN list only breaks ties and adds candidates
 * (TRUSTED_KNN_WEIGHT). Otherwise ("light emitting diode indicator", whose words no single part holds)
 * both lists weigh alike.
 */
export function knnWeight(query: string, found: Pick<Retrieved, 'lex' | 'vecHead' | 'records'>): number {
  if (!found.vecHead.length || !found.lex.length) return 1;
  const best = head(found.lex)
    .slice(0, COVERAGE_HITS)
    .map((h) => found.records.get(h.id));
  return lexicalCoverage(query, best) >= COVERED_SHARE ? TRUSTED_KNN_WEIGHT : 1;
}

/** Ids by fused score, best first (ties by id). */
export function byScore(scores: ReadonlyMap<number, number>): number[] {
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

/** Each MPN hit's first place over the lookups' lists, in order. */
export function mpnRanks(lists: readonly (readonly { id: number }[])[]): Map<number, number> {
  const rank = new Map<number, number>();
  lists.flat().forEach((c, i) => {
    if (!rank.has(c.id)) rank.set(c.id, i);
  });
  return rank;
}

export function fuse(plan: SearchPlan, found: Retrieved): Blocks {
  const weight = knnWeight(plan.query, found);
  const fused = (l: readonly ScoredId[], v: readonly ScoredId[], c: readonly ScoredId[]) =>
    plan.fusion === 'normalized' ? normalizedFusion(mergeLists(l, c), v) : rrf([l, v, c, found.browse], [1, weight, 1, BROWSE_WEIGHT]);
  const mpnRank = mpnRanks(found.mpnHits);

  const firstScores = fused(head(found.lex), head(found.vecHead), head(found.cat));
  const first = byScore(firstScores).slice(0, POOL_MIN);
  const inFirst = new Set(first);
  for (const id of [...mpnRank.keys(), ...[...head(found.cat), ...found.browse, ...found.specHits].map((h) => h.id)]) {
    if (inFirst.has(id)) continue;
    inFirst.add(id);
    first.push(id);
  }
  if (plan.pool <= POOL_MIN) return { first, firstScores, second: [], secondScores: firstScores, mpnRank };
  const secondScores = fused(found.lex, found.vec, found.cat);
  const second = byScore(secondScores)
    .filter((id) => !inFirst.has(id))
    .slice(0, Math.max(0, POOL_MAX - first.length));
  return { first, firstScores, second, secondScores, mpnRank };
}
