/**
 * Natural-language (agentic) part search, engine-neutral:
 *
 *   query -> understanding (spec constraints in SI, packages, MPN-like tokens, part families)
 *         -> candidates: BM25 over the text fields, kNN over the query embedding (when a model and
 *            vectors exist), MPN lookups for MPN-like tokens, all filtered by status first
 *         -> fusion: reciprocal rank fusion of the BM25 and kNN rankings (k = 60)
 *         -> constraint ranking: parts satisfying more of the parsed constraints rank first
 *            (constraints dominate; fusion orders parts that satisfy equally many)
 *         -> one deterministic order; pages are slices of it, so page 2 continues page 1.
 *
 * `available_specs` counts, for every spec name, the parts of the whole ranked result set (all
 * pages of this query, up to the candidate pool) that carry it.
 */
import type { PartRecord } from '../catalog/part.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { EngineFilters, ScoredId, SearchEngine } from '../engines/port.ts';
import { searchMpn } from './mpn.ts';
import { satisfies, understandQuery, type QueryUnderstanding } from './understand.ts';

export type Retrieval = 'hybrid' | 'lexical' | 'vector';

export interface AgenticRequest {
  query: string;
  limit: number;
  offset: number;
  filters: EngineFilters;
  /** Which retrievers to use (relevance experiments); default hybrid, lexical when no vectors. */
  retrieval?: Retrieval;
}

export interface AgenticResult {
  /** Parts of this page, best first. */
  parts: PartRecord[];
  /** Size of the whole ranked result set. */
  total: number;
  availableSpecs: Record<string, number>;
  understanding: QueryUnderstanding;
  retrieval: Retrieval;
}

const RRF_K = 60;
const POOL_MIN = 100;
const POOL_MAX = 500;

function rrf(lists: readonly ScoredId[][]): Map<number, number> {
  const score = new Map<number, number>();
  for (const list of lists) list.forEach((h, rank) => score.set(h.id, (score.get(h.id) ?? 0) + 1 / (RRF_K + rank + 1)));
  return score;
}

/** Fraction of the parsed constraints a part satisfies (1 when there are none). */
export function constraintScore(u: QueryUnderstanding, p: PartRecord): number {
  const checks: boolean[] = [];
  for (const c of u.specs) checks.push(satisfies(p.specs, c));
  for (const c of u.values) checks.push(satisfies(p.specs, c));
  if (u.packages.length) {
    const pkg = (p.package ?? '').toUpperCase().replace(/\s+/g, '');
    const text = `${pkg} ${p.description.toUpperCase()}`;
    checks.push(u.packages.some((k) => pkg === k || pkg.startsWith(`${k}(`) || pkg.startsWith(`${k}-`) || text.includes(k)));
  }
  return checks.length ? checks.filter(Boolean).length / checks.length : 1;
}

export async function agenticSearch(engine: SearchEngine, embedder: Embedder | null, vectorsIndexed: boolean, req: AgenticRequest): Promise<AgenticResult> {
  const u = understandQuery(req.query);
  const pool = Math.min(POOL_MAX, Math.max(POOL_MIN, req.offset + req.limit));
  const canVector = embedder !== null && vectorsIndexed;
  const retrieval: Retrieval = req.retrieval === 'vector' && !canVector ? 'lexical' : (req.retrieval ?? (canVector ? 'hybrid' : 'lexical'));

  const lexical = retrieval !== 'vector' ? engine.textSearch({ text: req.query, filters: req.filters, limit: pool, offset: 0 }).then((r) => r.hits) : Promise.resolve([]);
  const vector =
    retrieval !== 'lexical' && embedder
      ? embedder.embed([req.query]).then(([v]) => engine.knn(v!, pool, req.filters))
      : Promise.resolve([] as ScoredId[]);
  const mpn = Promise.all(u.mpns.slice(0, 3).map((m) => searchMpn(engine, m, { limit: 10, filters: req.filters })));
  const [lex, vec, mpnHits] = await Promise.all([lexical, vector, mpn]);

  const fused = rrf([lex, vec]);
  const mpnRank = new Map<number, number>();
  mpnHits.flat().forEach((c, i) => {
    if (!mpnRank.has(c.id)) mpnRank.set(c.id, i);
    if (!fused.has(c.id)) fused.set(c.id, 0);
  });
  const parts = await engine.getParts([...fused.keys()]);
  const ranked = parts
    .map((p) => ({ p, c: constraintScore(u, p), m: mpnRank.get(p.id), f: fused.get(p.id) ?? 0 }))
    .sort((a, b) => {
      if ((a.m !== undefined) !== (b.m !== undefined)) return a.m !== undefined ? -1 : 1;
      if (a.m !== undefined && b.m !== undefined && a.m !== b.m) return a.m - b.m;
      return b.c - a.c || b.f - a.f || a.p.id - b.p.id;
    })
    .map((x) => x.p);

  const availableSpecs: Record<string, number> = {};
  for (const p of ranked) for (const name of new Set(p.specs.map((s) => s.name))) availableSpecs[name] = (availableSpecs[name] ?? 0) + 1;
  return {
    parts: ranked.slice(req.offset, req.offset + req.limit),
    total: ranked.length,
    availableSpecs,
    understanding: u,
    retrieval,
  };
}
