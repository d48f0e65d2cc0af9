/**
 * Agentic search, stage 1: the plan. Everything the later stages need that follows from the request
 * and the query's understanding alone, decided before any read: which retrievers run, how deep the
 * candidate lists go, the categories the query names (and of those, the ones within the request's
 * category filter), the spec filters of its parsed quantities, the families it names, its MPN-like
 * tokens. Pure: no engine, no model.
 */
import type { CategoryMatch, CategoryMatcher } from '../../catalog/match/categories.ts';
import type { EngineFilters, SpecFilter } from '../../engines/port.ts';
import { familiesToMatch } from '../families.ts';
import { DEFAULT_FUSION, type Fusion } from '../fusion.ts';
import { namedCategories, namedSet, underCategory } from '../named-categories.ts';
import { specFilters, type SpecNameIndex } from '../spec-retrieval.ts';
import type { Family } from '../../vocabulary/families.ts';
import { functionById } from '../../vocabulary/functions.ts';
import { understandQuery, type QueryUnderstanding } from '../understand.ts';

export type Retrieval = 'hybrid' | 'lexical' | 'vector';

/** Candidates per list for pages within the first POOL_MIN results; the first block of the ranking is built from these. */
export const POOL_MIN = 100;
/** Candidates per list for deeper pages, and the most parts a ranking holds. */
export const POOL_MAX = 500;
/** MPN-like tokens of a query looked up by MPN (each up to 10 candidates). */
const MPN_TOKENS = 3;

export interface AgenticRequest {
  query: string;
  limit: number;
  offset: number;
  filters: EngineFilters;
  /** Which retrievers to use (relevance experiments); default hybrid, lexical when no vectors. */
  retrieval?: Retrieval;
  /** How BM25 and kNN are fused (relevance experiments); default DEFAULT_FUSION. */
  fusion?: Fusion;
  /** The live catalogue's category-name matcher: finds the categories a query names (named-categories.ts). */
  categories?: CategoryMatcher;
  /** The catalogue's spec names by key: enables candidates by the parsed spec values (spec-retrieval.ts). */
  specNames?: SpecNameIndex;
}

export interface SearchPlan {
  query: string;
  filters: EngineFilters;
  u: QueryUnderstanding;
  /** The retrievers that run (hybrid falls back to lexical later when the query cannot be embedded). */
  retrieval: Retrieval;
  fusion: Fusion;
  /** Candidates per list: POOL_MIN, or POOL_MAX for pages beyond the first POOL_MIN results. */
  pool: number;
  /** The categories the query names, best first, and each one's slug -> named by its exact name. */
  named: CategoryMatch[];
  namedSlugs: Map<string, boolean>;
  /** The named categories within the request's category filter: BM25 within them, their parts by the filter alone (not with vector-only retrieval). */
  within: string[];
  /** Spec filters of the parsed quantities on the catalogue's own spec names (not with vector-only retrieval). */
  bySpec: SpecFilter[];
  /** The specific families the query names ("mosfets", "ldo"), which rank first (families.ts). */
  families: Family[];
  /** MPN-like tokens looked up by MPN. */
  mpns: string[];
}

/** The retrievers a request runs: hybrid by default; lexical whenever there is no model or no vector in the index. */
export function retrievalOf(canVector: boolean, asked: Retrieval | undefined): Retrieval {
  return canVector ? (asked ?? 'hybrid') : 'lexical';
}

/** The named categories within the request's category filter (subtree-inclusive both ways); empty when none is. */
export function intersectCategories(filter: readonly string[] | undefined, named: readonly string[]): string[] {
  if (!filter?.length) return [...named];
  const out = new Set<string>();
  for (const n of named)
    for (const f of filter) {
      if (underCategory(n, f)) out.add(n);
      else if (underCategory(f, n)) out.add(f);
    }
  return [...out];
}

export function planSearch(req: AgenticRequest, retrieval: Retrieval): SearchPlan {
  const named = namedCategories(req.categories, req.query);
  // A function may imply a value the need leaves unsaid (a real-time clock crystal: 32.768 kHz).
  const implied = named[0]?.function ? functionById(named[0].function)?.adds : undefined;
  const u = understandQuery(implied ? `${req.query} ${implied}` : req.query);
  const lexicalLists = retrieval !== 'vector';
  return {
    query: req.query,
    filters: req.filters,
    u,
    retrieval,
    fusion: req.fusion ?? DEFAULT_FUSION,
    // Pages within the first POOL_MIN results read POOL_MIN candidates per list; deeper pages read POOL_MAX.
    pool: req.offset + req.limit > POOL_MIN ? POOL_MAX : POOL_MIN,
    named,
    namedSlugs: namedSet(named),
    within: lexicalLists
      ? intersectCategories(
          req.filters.categories,
          named.map((m) => m.slug),
        )
      : [],
    bySpec: lexicalLists && req.specNames ? specFilters(u, req.specNames) : [],
    families: familiesToMatch(u.families),
    mpns: u.mpns.slice(0, MPN_TOKENS),
  };
}
