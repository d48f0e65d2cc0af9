/**
 * Natural-language (agentic) part search, engine-neutral, in four stages (src/search/agentic/):
 *
 *   plan      the query's understanding (spec constraints in SI, packages, MPN-like tokens, part
 *             families), the categories it names, how deep the lists go (plan.ts)
 *   retrieve  the engine's candidate lists: BM25, kNN over the query's embedding, MPN lookups, and when
 *             the lists hold too few of them, BM25 within the named categories, their parts by the filter
 *             alone and the parts holding the parsed spec values; the one place that schedules reads
 *             (retrieve.ts)
 *   fuse      the lists fused (reciprocal rank fusion by default) into the ranking's two blocks: the best
 *             100 of each list's first 100 with every MPN, category and spec hit; for deep pages, the rest
 *             of the whole lists, up to 500 parts (fuse.ts)
 *   rank      each block ordered by the named, ordered ranking rules: MPN hits, named categories, family,
 *             constraints met, asked values, exact package and category, rarer constraints, fused score
 *             (ranking-rules.ts, rank.ts)
 *
 * A query nothing in the catalogue relates to (no category, family, constraint or MPN; words the best
 * BM25 hits barely hold; no part near in meaning) answers no match (evidence.ts).
 * One deterministic order; pages are slices of it, so page 2 continues page 1, at any depth; a page
 * past its end is empty.
 * `available_specs` counts, for every spec name, the parts of the first block (the first 100-odd
 * results, the same for every page of the query) that carry it.
 */
import type { CategoryMatch } from '../catalog/match/categories.ts';
import type { PartRecord } from '../catalog/part.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { SearchReader } from '../engines/port.ts';
import { evidenceOf, relates } from './agentic/evidence.ts';
import { fuse } from './agentic/fuse.ts';
import { planSearch, retrievalOf, type AgenticRequest, type Retrieval } from './agentic/plan.ts';
import { rank } from './agentic/rank.ts';
import { queryEmbedding, retrieve } from './agentic/retrieve.ts';
import type { Fusion } from './fusion.ts';
import { recordKeysFor } from './ranking-keys.ts';
import { perRecord } from './record-memo.ts';
import type { QueryUnderstanding } from './understand.ts';

export type { AgenticRequest, Retrieval } from './agentic/plan.ts';
export { intersectCategories } from './agentic/plan.ts';
export { CATEGORY_FILL, SPEC_FILL } from './agentic/retrieve.ts';
export { WIDEN_BELOW } from './agentic/rank.ts';

export interface AgenticResult {
  /** Parts of this page, best first. */
  parts: PartRecord[];
  /**
   * Parts in the ranking this request built: the first block (100 and the MPN and in-category hits) for
   * pages within the first 100 results, up to 500 for deeper pages. Not an exact count of matches.
   */
  total: number;
  availableSpecs: Record<string, number>;
  understanding: QueryUnderstanding;
  /** The categories the query names, best first (their parts rank first, subtree-inclusive). */
  namedCategories: CategoryMatch[];
  retrieval: Retrieval;
  fusion: Fusion;
}

/** A part's distinct spec names (available_specs counts each part once per name), per record. */
const specNamesOf = perRecord((p: PartRecord): string[] => [...new Set(p.specs.map((s) => s.name))]);

/** For every spec name, how many of the parts carry it. */
export function countSpecs(parts: readonly PartRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of parts) for (const name of specNamesOf(p)) out[name] = (out[name] ?? 0) + 1;
  return out;
}

export async function agenticSearch(engine: SearchReader, embedder: Embedder | null, vectorsIndexed: boolean, req: AgenticRequest): Promise<AgenticResult> {
  // Without a model or indexed vectors every retrieval falls back to lexical (and says so). The query's
  // embedding starts before anything else: the model runs in its own thread while this one plans and reads.
  const retrieval = retrievalOf(embedder !== null && vectorsIndexed, req.retrieval);
  const embedding = queryEmbedding(embedder, retrieval, req.query);
  const plan = planSearch(req, retrieval);
  // Each candidate's ranking keys, computed once: the retrieval computes those of the lexical candidates
  // while kNN is awaited, the ranking the rest.
  const keysOf = recordKeysFor(plan.u, plan.namedSlugs, plan.families);
  const found = await retrieve(engine, plan, embedding, keysOf);
  const retrieved = embedding.failed() ? 'lexical' : retrieval;
  // Nothing in the catalogue relates to the query: no match, not the nearest of unrelated parts.
  if (!relates(evidenceOf(plan, found)))
    return { parts: [], total: 0, availableSpecs: {}, understanding: plan.u, namedCategories: plan.named, retrieval: retrieved, fusion: plan.fusion };
  const blocks = fuse(plan, found);
  await found.records.fill(engine, [...blocks.first, ...blocks.second]);
  const ranked = rank(plan, blocks, (id) => found.records.get(id), keysOf);
  return {
    parts: ranked.parts.slice(req.offset, req.offset + req.limit),
    total: ranked.parts.length,
    availableSpecs: countSpecs(ranked.first),
    understanding: plan.u,
    namedCategories: plan.named,
    retrieval: retrieved,
    fusion: plan.fusion,
  };
}
