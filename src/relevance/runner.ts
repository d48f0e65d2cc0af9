/**
 * Runs relevance fixtures in-process against a SearchReader (and an optional Embedder), through the
 * use cases the HTTP routes call (src/service):
 *
 *   mpn      -> mpnSearch (GET /v1/parts/search: 10 results)
 *   agentic  -> agentic with { limit: 10, offset: 0, filters: { status } }
 *               (GET /v1/parts/agentic-search; status = params.part_status, default ["active"])
 *
 * The retrieval mode of agentic queries: the run's override, else the fixture's params.retrieval, else
 * hybrid. When the index has no vectors or no embedder is loaded, hybrid and vector fall back to lexical
 * and the report says so (`retrieval` is what actually ran). The fusion of agentic queries: the run's
 * `fusion`, else the search default (DEFAULT_FUSION).
 *
 * Constraint satisfaction (the "top 5 results satisfy every parsed constraint" target), per agentic
 * query whose understanding has parsed constraints (spec constraints, value constraints, packages: what
 * `constraintScore` checks, strictly; and the categories the query names, src/search/named-categories.ts:
 * a part must be in or under one of them; family words are hints, not constraints):
 *
 *   n = min(5, number of parts in the index matching the query's status filter that satisfy all of them)
 *   satisfied = each of the top n returned results satisfies all of them (a missing place is a miss)
 *
 * so a query whose constraints only 2 catalogue parts meet passes when those 2 come first. Queries with no
 * satisfying part at all (n = 0) cannot pass or fail: they are counted as `unsatisfiable` and left out of
 * the share, as are queries without parsed constraints (`unconstrained`). The catalogue count comes from
 * one scan of the index per status filter and set of named categories (getParts over every matching part), at most
 * CONSTRAINT_SCAN_MAX parts; when the index is larger and the scan found fewer than 5 satisfying parts,
 * n is taken as 5 (the strict reading). share = satisfied / (queries with n >= 1).
 */
import type { CategoryMatch, CategoryMatcher } from '../catalog/match/categories.ts';
import type { PartRecord } from '../catalog/part.ts';
import type { PartStatus } from '../catalog/status.ts';
import { createCatalogProvider, type CatalogProvider } from '../catalog/view.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { SearchReader } from '../engines/port.ts';
import { agentic, statusFilter } from '../service/agentic-search.ts';
import { mpnSearch } from '../service/mpn-search.ts';
import type { Retrieval } from '../search/agentic.ts';
import { constraintCount, constraintScore } from '../search/ranking-keys.ts';
import type { Fusion } from '../search/fusion.ts';
import { namedCategories, namedCategoryScore, namedSet } from '../search/named-categories.ts';
import { understandQuery, type QueryUnderstanding } from '../search/understand.ts';
import type { RelevanceQuery } from './format.ts';
import { meanMetrics, metricsOf, roundMetrics, type Metrics } from './metrics.ts';

export const RESULT_LIMIT = 10;
/** Places checked by the constraint-satisfaction measure. */
export const CONSTRAINT_TOP = 5;
/** At most this many parts are scanned to count the parts satisfying a query's constraints. */
export const CONSTRAINT_SCAN_MAX = 10_000;

export interface QueryConstraints {
  /** Number of parsed constraints (spec, value, one for packages). */
  parsed: number;
  /** min(5, parts of the index satisfying all of them); 5 when a truncated scan found fewer. */
  checked: number;
  /** Whether each returned result of the top 5 satisfies every parsed constraint. */
  top: boolean[];
  /** null when there is no parsed constraint or no satisfying part (not counted). */
  satisfied: boolean | null;
}

export interface ConstraintShare {
  /** Agentic queries with at least one parsed constraint and at least one satisfying part in the index. */
  queries: number;
  satisfied: number;
  /** satisfied / queries (null with no such query). */
  share: number | null;
  /** Agentic queries without parsed constraints. */
  unconstrained: number;
  /** Agentic queries whose parsed constraints no part of the index meets. */
  unsatisfiable: number;
}

export interface QueryResult {
  id: string;
  kind: string | null;
  query: string;
  endpoint: 'mpn' | 'agentic';
  /** Retrieval that ran (agentic only). */
  retrieval: Retrieval | null;
  /** Fusion used (agentic only; absent in reports written before fusion was selectable). */
  fusion?: Fusion | null;
  /** Constraint satisfaction of the top 5 (agentic only; absent in older reports). */
  constraints?: QueryConstraints | null;
  metrics: Metrics;
  /** Returned part slugs, best first, with their judged grade. */
  results: { slug: string; grade: number }[];
  /** Relevant parts (grade >= 1) judged for the query. */
  relevant: number;
  ms: number;
}

export interface SuiteResult {
  suite: string;
  file: string | null;
  queries: number;
  mean: Metrics;
  byKind: Record<string, Metrics & { queries: number }>;
  /** Retrieval modes that actually ran, with counts (agentic queries). */
  retrieval: Partial<Record<Retrieval, number>>;
  /** Top-5 constraint satisfaction over the agentic queries (null: the suite has none), overall and per kind. */
  constraints?: (ConstraintShare & { byKind: Record<string, ConstraintShare> }) | null;
  results: QueryResult[];
}

export interface RunContext {
  engine: SearchReader;
  embedder: Embedder | null;
  /** Whether the live index holds vectors (engine.info().vectors); read from the engine when omitted. */
  vectors?: boolean;
  /** Overrides the fixtures' retrieval for every agentic query. */
  retrieval?: Retrieval;
  /** Fusion of agentic queries; default the search default. */
  fusion?: Fusion;
}

type QueryContext = Required<Pick<RunContext, 'engine' | 'embedder' | 'vectors'>> & {
  /** The live catalogue's snapshot, as the HTTP routes read it (category names, spec names). */
  catalog: CatalogProvider;
  retrieval?: Retrieval;
  fusion?: Fusion;
  /** Query id -> min(5, satisfying parts in the index) for agentic queries with constraints (countSatisfying). */
  satisfying?: Map<string, number>;
};

const statusOf = (q: RelevanceQuery): PartStatus[] => statusFilter(q.params?.part_status);

/** What the constraint measure checks of one query: its parsed constraints and the categories it names. */
export interface QueryConstraintSet {
  u: QueryUnderstanding;
  /** Named category slug -> whether named by its exact name (namedSet); empty when the query names none. */
  named: Map<string, boolean>;
}

export function constraintSetOf(u: QueryUnderstanding, named: readonly CategoryMatch[]): QueryConstraintSet {
  return { u, named: namedSet(named) };
}

/** Parsed constraints of the measure: constraintCount plus one for the named categories. */
export function measuredConstraints(c: QueryConstraintSet): number {
  return constraintCount(c.u) + (c.named.size ? 1 : 0);
}

/** Whether a part meets every constraint of the measure (strict spec reading; in a named category when one is named). */
export function meetsAll(c: QueryConstraintSet, p: PartRecord): boolean {
  return constraintScore(c.u, p) === 1 && (c.named.size === 0 || namedCategoryScore(c.named, p.category) > 0);
}

/**
 * For every agentic query with parsed constraints: min(CONSTRAINT_TOP, number of parts matching its status
 * filter (and in its named categories) that satisfy all of them). One scan of the index per distinct status
 * filter and set of named categories, stopping early once every query has CONSTRAINT_TOP; a scan cut at
 * CONSTRAINT_SCAN_MAX parts counts CONSTRAINT_TOP.
 */
export async function countSatisfying(engine: SearchReader, queries: readonly RelevanceQuery[], categories?: CategoryMatcher): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  // One scan per status filter and set of named categories (a query naming categories is counted over
  // them only: they hold every part that can meet it).
  const groups = new Map<string, { status: PartStatus[]; categories: string[]; items: { id: string; c: QueryConstraintSet }[] }>();
  for (const q of queries) {
    if (q.endpoint !== 'agentic') continue;
    const c = constraintSetOf(understandQuery(q.query), namedCategories(categories, q.query));
    if (measuredConstraints(c) === 0) continue;
    const status = statusOf(q).sort();
    const named = [...c.named.keys()].sort();
    const key = `${status.join(',')}|${named.join(',')}`;
    if (!groups.has(key)) groups.set(key, { status, categories: named, items: [] });
    groups.get(key)!.items.push({ id: q.id, c });
    out.set(q.id, 0);
  }
  const PAGE = 1000;
  for (const g of groups.values()) {
    let pending = g.items;
    let offset = 0;
    let complete = false;
    while (pending.length && offset < CONSTRAINT_SCAN_MAX) {
      const limit = Math.min(PAGE, CONSTRAINT_SCAN_MAX - offset);
      const filters = g.categories.length ? { status: g.status, categories: g.categories } : { status: g.status };
      const page = await engine.textSearch({ text: null, filters, limit, offset });
      const parts = await engine.getParts(page.hits.map((h) => h.id));
      for (const p of parts) for (const it of pending) if (meetsAll(it.c, p)) out.set(it.id, out.get(it.id)! + 1);
      pending = pending.filter((it) => out.get(it.id)! < CONSTRAINT_TOP);
      offset += page.hits.length;
      if (page.hits.length < limit) {
        complete = true;
        break;
      }
    }
    if (!complete) for (const it of pending) out.set(it.id, CONSTRAINT_TOP);
  }
  for (const [id, n] of out) out.set(id, Math.min(CONSTRAINT_TOP, n));
  return out;
}

/**
 * Whether the top `checked` places (min(5, satisfying parts in the index)) all hold a result satisfying every
 * parsed constraint; a missing place is a miss. null when nothing can be checked (no constraint or no
 * satisfying part).
 */
export function topSatisfied(checked: number, top: readonly boolean[]): boolean | null {
  if (checked <= 0) return null;
  return top.length >= checked && top.slice(0, checked).every(Boolean);
}

export async function runQuery(q: RelevanceQuery, ctx: QueryContext): Promise<QueryResult> {
  const t0 = performance.now();
  let slugs: string[];
  let retrieval: Retrieval | null = null;
  let fusion: Fusion | null = null;
  let constraints: QueryConstraints | null = null;
  if (q.endpoint === 'mpn') {
    slugs = (await mpnSearch(ctx, q.query)).map((p) => p.slug);
  } else {
    const status = statusOf(q);
    const r = await agentic(ctx, {
      query: q.query,
      limit: RESULT_LIMIT,
      offset: 0,
      filters: { status },
      retrieval: ctx.retrieval ?? q.params?.retrieval ?? 'hybrid',
      fusion: ctx.fusion,
      vectors: ctx.vectors,
    });
    const ms = performance.now() - t0;
    retrieval = r.retrieval;
    fusion = r.fusion;
    slugs = r.parts.map((p) => p.slug);
    const measured = constraintSetOf(r.understanding, r.namedCategories);
    const parsed = measuredConstraints(measured);
    const top = r.parts.slice(0, CONSTRAINT_TOP).map((p) => meetsAll(measured, p));
    const checked = parsed === 0 ? 0 : (ctx.satisfying?.get(q.id) ?? CONSTRAINT_TOP);
    constraints = { parsed, checked, top, satisfied: topSatisfied(checked, top) };
    return finish(q, slugs, retrieval, fusion, constraints, ms);
  }
  return finish(q, slugs, retrieval, fusion, constraints, performance.now() - t0);
}

function finish(
  q: RelevanceQuery,
  slugs: string[],
  retrieval: Retrieval | null,
  fusion: Fusion | null,
  constraints: QueryConstraints | null,
  ms: number,
): QueryResult {
  return {
    id: q.id,
    kind: q.kind ?? null,
    query: q.query,
    endpoint: q.endpoint,
    retrieval,
    fusion,
    constraints,
    metrics: roundMetrics(metricsOf(slugs, q.judgments)),
    results: slugs.map((slug) => ({ slug, grade: q.judgments[slug] ?? 0 })),
    relevant: Object.values(q.judgments).filter((g) => g >= 1).length,
    ms: Math.round(ms * 10) / 10,
  };
}

/** Runs every query of a suite (sequentially, so timings are comparable) and averages the metrics. */
export async function runSuite(queries: readonly RelevanceQuery[], ctx: RunContext, file: string | null = null): Promise<SuiteResult> {
  const vectors = ctx.vectors ?? (await ctx.engine.info()).vectors;
  // The live catalogue's snapshot, read as the HTTP routes read it.
  const catalog = createCatalogProvider(ctx.engine);
  const satisfying = await countSatisfying(ctx.engine, queries, (await catalog.get())?.categoryMatcher());
  const results: QueryResult[] = [];
  for (const q of queries) {
    results.push(
      await runQuery(q, {
        engine: ctx.engine,
        embedder: ctx.embedder,
        vectors,
        catalog,
        retrieval: ctx.retrieval,
        fusion: ctx.fusion,
        satisfying,
      }),
    );
  }
  const kinds = [...new Set(results.map((r) => r.kind ?? 'all'))];
  const byKind = Object.fromEntries(
    kinds.map((k) => {
      const rs = results.filter((r) => (r.kind ?? 'all') === k);
      return [k, { ...roundMetrics(meanMetrics(rs.map((r) => r.metrics))), queries: rs.length }];
    }),
  );
  const retrieval: Partial<Record<Retrieval, number>> = {};
  for (const r of results) if (r.retrieval) retrieval[r.retrieval] = (retrieval[r.retrieval] ?? 0) + 1;
  const suites = [...new Set(queries.map((q) => q.suite))];
  return {
    suite: suites.join('+'),
    file,
    queries: results.length,
    mean: roundMetrics(meanMetrics(results.map((r) => r.metrics))),
    byKind,
    retrieval,
    constraints: constraintShareOf(results),
    results,
  };
}

function shareOf(rs: readonly QueryResult[]): ConstraintShare {
  const agentic = rs.filter((r) => r.constraints != null);
  const counted = agentic.filter((r) => r.constraints!.satisfied !== null);
  const satisfied = counted.filter((r) => r.constraints!.satisfied).length;
  return {
    queries: counted.length,
    satisfied,
    share: counted.length ? Math.round((satisfied / counted.length) * 1e4) / 1e4 : null,
    unconstrained: agentic.filter((r) => r.constraints!.parsed === 0).length,
    unsatisfiable: agentic.filter((r) => r.constraints!.parsed > 0 && r.constraints!.checked === 0).length,
  };
}

/** Share of agentic queries whose top 5 satisfy every parsed constraint, overall and per kind (null: no agentic query). */
export function constraintShareOf(results: readonly QueryResult[]): SuiteResult['constraints'] {
  const agentic = results.filter((r) => r.constraints != null);
  if (agentic.length === 0) return null;
  const kinds = [...new Set(agentic.map((r) => r.kind ?? 'all'))];
  return { ...shareOf(agentic), byKind: Object.fromEntries(kinds.map((k) => [k, shareOf(agentic.filter((r) => (r.kind ?? 'all') === k))])) };
}

export interface RelevanceReport {
  created_at: string;
  engine: 'sqlite' | 'opensearch';
  /** The override given to the run (null: each fixture's own, default hybrid). */
  retrieval: Retrieval | null;
  /** Fusion of agentic queries (the search default when the run gave none; absent in older reports: rrf). */
  fusion?: Fusion;
  embeddings: { model: string | null; vectors: boolean };
  /** "sample" (a temporary index of the generated sample catalogue) or "configured" (the live index). */
  index: 'sample' | 'configured';
  parts: number;
  suites: SuiteResult[];
}
