/**
 * Ranking metrics over graded judgments (pure functions).
 *
 * `ranked` is the result list best first (part slugs); `judgments` maps slug -> grade 0..3 (absent = 0).
 * A result is relevant when its grade is >= 1.
 *
 * - nDCG@k: DCG = sum over ranks i = 1..k of (2^grade - 1) / log2(i + 1), divided by the DCG of the ideal
 *   ordering of all judged grades (0 when nothing is judged relevant).
 * - MRR: 1 / rank of the first relevant result in the list (0 when none is returned).
 * - P@k: relevant results in the top k / k (a short list counts its missing places as misses).
 * - R@k: relevant results in the top k / min(k, number of relevant parts), i.e. capped recall ("R_cap@k",
 *   as in BEIR): a query with 40 relevant parts can still reach 1.0 at k = 10. Plain recall is in
 *   `recallAt(..., { capped: false })`.
 */
import type { Grade } from './format.ts';

export interface Metrics {
  ndcg10: number;
  mrr: number;
  p1: number;
  p5: number;
  r10: number;
}

export const METRIC_NAMES: readonly (keyof Metrics)[] = ['ndcg10', 'mrr', 'p1', 'p5', 'r10'];
export const METRIC_LABELS: Record<keyof Metrics, string> = { ndcg10: 'nDCG@10', mrr: 'MRR', p1: 'P@1', p5: 'P@5', r10: 'R@10' };

type Judgments = Readonly<Record<string, Grade | number>>;

const gain = (g: number) => 2 ** g - 1;
const grade = (j: Judgments, slug: string) => j[slug] ?? 0;

export function dcgAt(grades: readonly number[], k: number): number {
  let s = 0;
  for (let i = 0; i < Math.min(k, grades.length); i++) s += gain(grades[i]!) / Math.log2(i + 2);
  return s;
}

export function ndcgAt(ranked: readonly string[], judgments: Judgments, k = 10): number {
  const ideal = Object.values(judgments)
    .filter((g) => g > 0)
    .sort((a, b) => b - a);
  const idcg = dcgAt(ideal, k);
  if (idcg === 0) return 0;
  return (
    dcgAt(
      dedupe(ranked).map((s) => grade(judgments, s)),
      k,
    ) / idcg
  );
}

export function reciprocalRank(ranked: readonly string[], judgments: Judgments): number {
  const i = dedupe(ranked).findIndex((s) => grade(judgments, s) >= 1);
  return i < 0 ? 0 : 1 / (i + 1);
}

export function precisionAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  return (
    dedupe(ranked)
      .slice(0, k)
      .filter((s) => grade(judgments, s) >= 1).length / k
  );
}

export function recallAt(ranked: readonly string[], judgments: Judgments, k: number, opts: { capped?: boolean } = {}): number {
  const relevant = Object.values(judgments).filter((g) => g >= 1).length;
  if (relevant === 0) return 0;
  const found = dedupe(ranked)
    .slice(0, k)
    .filter((s) => grade(judgments, s) >= 1).length;
  return found / (opts.capped === false ? relevant : Math.min(k, relevant));
}

export function metricsOf(ranked: readonly string[], judgments: Judgments): Metrics {
  return {
    ndcg10: ndcgAt(ranked, judgments, 10),
    mrr: reciprocalRank(ranked, judgments),
    p1: precisionAt(ranked, judgments, 1),
    p5: precisionAt(ranked, judgments, 5),
    r10: recallAt(ranked, judgments, 10),
  };
}

export function meanMetrics(all: readonly Metrics[]): Metrics {
  const out: Metrics = { ndcg10: 0, mrr: 0, p1: 0, p5: 0, r10: 0 };
  if (all.length === 0) return out;
  for (const m of all) for (const k of METRIC_NAMES) out[k] += m[k];
  for (const k of METRIC_NAMES) out[k] /= all.length;
  return out;
}

/** Rounds every metric to 4 decimals (reports and baselines). */
export function roundMetrics(m: Metrics, digits = 4): Metrics {
  const f = 10 ** digits;
  return Object.fromEntries(METRIC_NAMES.map((k) => [k, Math.round(m[k] * f) / f])) as unknown as Metrics;
}

/** A part returned twice counts once, at its first rank. */
function dedupe(ranked: readonly string[]): string[] {
  return [...new Set(ranked)];
}
