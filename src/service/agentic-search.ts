/**
 * Agentic search (REST GET /v1/parts/agentic-search, discovery jobs' retrieval, the relevance runner's
 * natural-language suites): free text understood into constraints, hybrid retrieval, ranked parts. The
 * live snapshot supplies what the ranking reads of the catalogue (category names, spec names) and says
 * whether the index holds vectors.
 */
import type { PartStatus } from '../catalog/status.ts';
import type { EngineFilters } from '../engines/port.ts';
import { agenticSearch, type AgenticResult, type Retrieval } from '../search/agentic.ts';
import type { Fusion } from '../search/fusion.ts';
import type { TextSearchDeps } from './deps.ts';

export interface AgenticQuery {
  query: string;
  limit: number;
  offset: number;
  filters: EngineFilters;
  /** Relevance tuning: the retrieval to run (default hybrid, lexical without vectors). */
  retrieval?: Retrieval;
  /** Relevance tuning: how lexical and vector lists are fused (default the search default). */
  fusion?: Fusion;
  /** Whether the live index holds vectors; default: the live snapshot says (an embedding model recorded). */
  vectors?: boolean;
}

/** The status filter of a search that names none: active parts only (SPEC.md part_status default). */
export function statusFilter(statuses: readonly PartStatus[] | undefined): PartStatus[] {
  return statuses?.length ? [...new Set(statuses)] : ['active'];
}

export async function agentic(deps: TextSearchDeps, q: AgenticQuery): Promise<AgenticResult> {
  // Whether the live index holds vectors comes from the cached snapshot: no engine round trip
  // (engine.info() counts the parts) on this hot path.
  const view = await deps.catalog.get();
  // A version whose vectors are still being filled (meta `embedding.pending`) is searched lexical-only.
  const vectors = q.vectors ?? ((view?.meta.embedding.dims ?? null) !== null && !view?.meta.embedding.pending);
  return agenticSearch(deps.engine, deps.embedder, vectors, {
    query: q.query,
    limit: q.limit,
    offset: q.offset,
    filters: q.filters,
    retrieval: q.retrieval,
    fusion: q.fusion,
    categories: view?.categoryMatcher(),
    specNames: view?.specNameIndex(),
  });
}
