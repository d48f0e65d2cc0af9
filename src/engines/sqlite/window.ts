/**
 * Ranked windows with filters applied afterwards (text-rank.ts for BM25, knn.ts for vectors): when
 * fewer than k of the n best rows pass the filters, the next window is grown by their observed pass
 * rate (with a margin), and at least fourfold.
 */
export function nextWindow(n: number, k: number, kept: number): number {
  return Math.max(4 * n, Math.ceil((1.5 * n * k) / Math.max(1, kept)));
}
