/**
 * Runs relevance fixtures in-process against a SearchEngine (and an optional Embedder), calling the
 * search code exactly as the HTTP routes do:
 *
 *   mpn      -> searchMpn(engine, query, { limit: 10 }) then orderCandidates (GET /v1/parts/search)
 *   agentic  -> agenticSearch(engine, embedder, vectors, { limit: 10, offset: 0, filters: { status } })
 *               (GET /v1/parts/agentic-search; status = params.part_status, default ["active"])
 *
 * The retrieval mode of agentic queries: the run's override, else the fixture's params.retrieval, else
 * hybrid. When the index has no vectors or no embedder is loaded, hybrid and vector fall back to lexical
 * and the report says so (`retrieval` is what actually ran).
 */
import type { PartStatus } from '../catalog/status.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { SearchEngine } from '../engines/port.ts';
import { orderCandidates } from '../http/routes/parts-search.ts';
import { agenticSearch, type Retrieval } from '../search/agentic.ts';
import { searchMpn } from '../search/mpn.ts';
import type { RelevanceQuery } from './format.ts';
import { meanMetrics, metricsOf, roundMetrics, type Metrics } from './metrics.ts';

export const RESULT_LIMIT = 10;

export interface QueryResult {
  id: string;
  kind: string | null;
  query: string;
  endpoint: 'mpn' | 'agentic';
  /** Retrieval that ran (agentic only). */
  retrieval: Retrieval | null;
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
  results: QueryResult[];
}

export interface RunContext {
  engine: SearchEngine;
  embedder: Embedder | null;
  /** Whether the live index holds vectors (engine.info().vectors); read from the engine when omitted. */
  vectors?: boolean;
  /** Overrides the fixtures' retrieval for every agentic query. */
  retrieval?: Retrieval;
}

export async function runQuery(q: RelevanceQuery, ctx: Required<Pick<RunContext, 'engine' | 'embedder' | 'vectors'>> & { retrieval?: Retrieval }): Promise<QueryResult> {
  const t0 = performance.now();
  let slugs: string[];
  let retrieval: Retrieval | null = null;
  if (q.endpoint === 'mpn') {
    const cands = await searchMpn(ctx.engine, q.query, { limit: RESULT_LIMIT });
    slugs = orderCandidates(cands, await ctx.engine.getParts(cands.map((c) => c.id))).map((p) => p.slug);
  } else {
    const status: PartStatus[] = q.params?.part_status?.length ? [...new Set(q.params.part_status)] : ['active'];
    const wanted: Retrieval = ctx.retrieval ?? q.params?.retrieval ?? 'hybrid';
    const canVector = ctx.embedder !== null && ctx.vectors;
    const r = await agenticSearch(ctx.engine, ctx.embedder, ctx.vectors, {
      query: q.query,
      limit: RESULT_LIMIT,
      offset: 0,
      filters: { status },
      retrieval: canVector ? wanted : 'lexical',
    });
    retrieval = r.retrieval;
    slugs = r.parts.map((p) => p.slug);
  }
  const ms = performance.now() - t0;
  return {
    id: q.id,
    kind: q.kind ?? null,
    query: q.query,
    endpoint: q.endpoint,
    retrieval,
    metrics: roundMetrics(metricsOf(slugs, q.judgments)),
    results: slugs.map((slug) => ({ slug, grade: q.judgments[slug] ?? 0 })),
    relevant: Object.values(q.judgments).filter((g) => g >= 1).length,
    ms: Math.round(ms * 10) / 10,
  };
}

/** Runs every query of a suite (sequentially, so timings are comparable) and averages the metrics. */
export async function runSuite(queries: readonly RelevanceQuery[], ctx: RunContext, file: string | null = null): Promise<SuiteResult> {
  const vectors = ctx.vectors ?? (await ctx.engine.info()).vectors;
  const results: QueryResult[] = [];
  for (const q of queries) results.push(await runQuery(q, { engine: ctx.engine, embedder: ctx.embedder, vectors, retrieval: ctx.retrieval }));
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
    results,
  };
}

export interface RelevanceReport {
  created_at: string;
  engine: 'sqlite' | 'opensearch';
  /** The override given to the run (null: each fixture's own, default hybrid). */
  retrieval: Retrieval | null;
  embeddings: { model: string | null; vectors: boolean };
  /** "sample" (a temporary index of the generated sample catalogue) or "configured" (the live index). */
  index: 'sample' | 'configured';
  parts: number;
  suites: SuiteResult[];
}
