/**
 * When agentic search (agentic.ts) makes the reads its lexical stage may need, besides BM25 itself: BM25
 * within the named categories, their best-stocked parts, the parts holding the parsed spec values.
 * Whether each is needed follows from BM25's list; on an engine whose reads overlap
 * (SearchReader.concurrentReads: OpenSearch) the category reads are asked for together with BM25
 * instead ("red led 0603" at 578k read BM25, then BM25 within the named categories: two round trips),
 * unless the same categories' last query did not need them: a read not needed takes CPU from those
 * that are (2 cores: "10k 0603 1% resistor" at 578k took 15 -> 20 ms with them read early). Read once
 * either way; the rules and what they read are the same, only when the reads are made differs.
 */
import type { SearchReader } from '../engines/port.ts';
import { Lru } from '../util/lru.ts';

/** Sets of named categories whose last query BM25 over the whole catalogue served (their own reads not needed). */
const categoriesServed = new Lru<string, true>(4096);

const categoriesKey = (within: readonly string[]) => within.join('\n');

/** Whether the named categories' reads are worth asking for early: some are named, and their last query needed the reads (or none was seen). */
export function categoryReadsLikely(within: readonly string[]): boolean {
  return within.length > 0 && !categoriesServed.has(categoriesKey(within));
}

/** Remembers whether the named categories' reads were needed this time (BM25 over the whole catalogue held too few of their parts). */
export function noteCategoryReads(within: readonly string[], needed: boolean): void {
  if (within.length === 0) return;
  const key = categoriesKey(within);
  if (needed) categoriesServed.delete(key);
  else categoriesServed.set(key, true);
}

/**
 * A read the lexical stage may need: made at most once, when first called for, or at once when `early`
 * and the engine's reads overlap (a read made early and not needed may fail unseen).
 */
export function mayNeed<T>(engine: SearchReader, early: boolean, read: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  const get = () => (made ??= read());
  if (early && engine.concurrentReads) get().catch(() => undefined);
  return get;
}
