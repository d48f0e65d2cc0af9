/**
 * Natural-language (agentic) part search, engine-neutral:
 *
 *   query -> understanding (spec constraints in SI, packages, MPN-like tokens, part families) and the
 *            categories it names (named-categories.ts: "2A 250V wire to board connector")
 *         -> candidates: BM25 over the text fields (and within the named categories, when the
 *            whole-catalogue list holds fewer than CATEGORY_FILL of their parts), kNN over the query
 *            embedding (when a model and vectors exist), MPN lookups for MPN-like tokens, all filtered
 *            by status first; 100 per list, 500 for pages beyond the first 100 results
 *         -> fusion of the BM25 and kNN rankings (`fusion`): reciprocal rank fusion, k = 60 (default; the
 *            kNN list weighs TRUSTED_KNN_WEIGHT instead of 1 when one of the first 3 BM25 hits holds at least
 *            3/4 of the query's words, lexicalCoverage),
 *            or normalised scores: each list's scores min-max normalised to [0, 1] over the candidate
 *            pool (BM25 higher-is-better as the engines return it; cosine), combined as
 *            0.5 * bm25 + 0.5 * cosine, a part missing from a list scoring 0 there
 *         -> the ranked set, in two blocks ranked each on its own: (1) the 100 best of the fusion of
 *            each list's first 100, every MPN hit and every part found within the named categories;
 *            (2) for pages beyond the first 100 results, the rest of the fusion of the whole lists, up
 *            to 500 parts in all. Block 1 is built the same way for every page.
 *         -> category, family and constraint ranking: parts of the named categories first; then, when
 *            the query names a part family ("mosfets", "ldo"), parts of that family (by category,
 *            src/search/families.ts); then parts satisfying more of the parsed constraints; then parts
 *            holding more of the asked values themselves (a 20 V MOSFET before a 100 V one for "20V
 *            mosfet", where the rating reading accepts both; not for a stated comparison such as "< 10mΩ";
 *            the asked tolerance before a tighter one, "1%" before "0.1%"), first under the spec
 *            names the query was read as, then under any name of the value's unit; then parts in the
 *            package the query names exactly ("TO-252" before "TO-252-2", which the package constraint
 *            also accepts); then parts of the category named by its exact name; then parts meeting the
 *            constraints fewer of the first block's candidates meet (strict reading: spec and value
 *            constraints under known spec names, the package)
 *            (ranking-keys.ts constraintWeights: a 16 MHz crystal before a 25 MHz one for "16MHz crystal
 *            20pF", where many crystals have a 20 pF load); fusion orders the rest
 *         -> one deterministic order; pages are slices of it, so page 2 continues page 1, at any depth.
 *
 * `available_specs` counts, for every spec name, the parts of the first block (the first 100-odd
 * results, the same for every page of the query) that carry it.
 */
import type { CategoryMatch, CategoryMatcher } from '../catalog/match/categories.ts';
import type { PartRecord } from '../catalog/part.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { EngineFilters, ScoredId, SearchReader, TextHit, VectorHit } from '../engines/port.ts';
import { familiesToMatch } from './families.ts';
import { searchMpn } from './mpn.ts';
import { perRecord } from './record-memo.ts';
import { namedCategories, namedSet, underCategory } from './named-categories.ts';
import { satisfiesLoosely } from './spec-match.ts';
import { specFilters, type SpecNameIndex } from './spec-retrieval.ts';
import { constraintCount, constraintWeights, recordKeysFor, weightMet } from './ranking-keys.ts';
import { understandQuery, type QueryUnderstanding } from './understand.ts';
import { COVERAGE_HITS, COVERED_SHARE, DEFAULT_FUSION, lexicalCoverage, mergeLists, normalizedFusion, rrf, TRUSTED_KNN_WEIGHT, type Fusion } from './fusion.ts';
import { categoryReadsLikely, mayNeed, noteCategoryReads } from './early-reads.ts';

export type Retrieval = 'hybrid' | 'lexical' | 'vector';

/** A part's distinct spec names (available_specs counts each part once per name), per record. */
const specNamesOf = perRecord((p: PartRecord): string[] => [...new Set(p.specs.map((s) => s.name))]);

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

const POOL_MIN = 100;
/** Parts of the named categories the whole-catalogue BM25 list must hold before BM25 within them is skipped. */
export const CATEGORY_FILL = 20;
/** Named categories holding fewer candidates that meet every constraint than this let family parts that do rank with them (the default page size). */
export const WIDEN_BELOW = 5;
/** Candidates meeting every quantity constraint below which the spec-filtered candidates are read (spec-retrieval.ts). */
export const SPEC_FILL = 20;
const POOL_MAX = 500;
/** Candidates whose keys the lexical stage computes between two looks at whether the embedding is in. */
const WARM_CHUNK = 16;
/**
 * Weight of the named categories' parts read by the filter alone (`browse`) in reciprocal rank fusion:
 * it orders them among themselves (best stocked first) but cannot reorder what BM25 or kNN found
 * (0.001 / 61 is below the gap between adjacent ranks of a list up to rank 240).
 */
const BROWSE_WEIGHT = 0.001;

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

export async function agenticSearch(engine: SearchReader, embedder: Embedder | null, vectorsIndexed: boolean, req: AgenticRequest): Promise<AgenticResult> {
  // Pages within the first POOL_MIN results read POOL_MIN candidates per list; deeper pages read POOL_MAX.
  // Either way the first block of the ranking is built from the lists' first POOL_MIN only (below), so
  // every page sees the same ranking.
  const pool = req.offset + req.limit > POOL_MIN ? POOL_MAX : POOL_MIN;
  const canVector = embedder !== null && vectorsIndexed;
  // Without a model or indexed vectors every retrieval falls back to lexical (and says so).
  const retrieval: Retrieval = canVector ? (req.retrieval ?? 'hybrid') : 'lexical';
  // The query's embedding starts before anything else: the model runs in its own thread
  // (embeddings/worker-embedder.ts) while this one reads the query and runs BM25 (synchronous on SQLite).
  // Hybrid search whose embedding fails (the model's worker died) answers lexical-only, and says so.
  let embeddingFailed = false;
  const queryVector =
    retrieval !== 'lexical' && embedder
      ? embedder.embed([req.query]).catch((e: unknown) => {
          if (retrieval !== 'hybrid') throw e;
          embeddingFailed = true;
          return null;
        })
      : null;
  queryVector?.catch(() => undefined); // awaited below; this only keeps an early throw from leaving it unhandled
  const u = understandQuery(req.query);

  const named = namedCategories(req.categories, req.query);
  const within =
    retrieval !== 'vector'
      ? intersectCategories(
          req.filters.categories,
          named.map((m) => m.slug),
        )
      : [];
  // Records come with the BM25 and kNN hits (no _mget round trip on OpenSearch).
  const textHits = (text: string | null, filters: EngineFilters, limit: number) =>
    engine.textSearch({ text, filters, limit, offset: 0, exactTotal: false, records: true }).then((r) => r.hits);
  const bm25 = (filters: EngineFilters) => textHits(req.query, filters, pool);
  // kNN on deep pages asks for POOL_MIN as well: an approximate index (OpenSearch HNSW) may answer the
  // first 100 of k = 500 differently from k = 100, and block 1 must be the same on every page.
  const vector: Promise<{ vec: VectorHit[]; vecHead: VectorHit[] }> = queryVector
    ? queryVector.then(async (vs) => {
        const v = vs?.[0];
        if (!v) return { vec: [], vecHead: [] };
        if (pool === POOL_MIN) {
          const vec = await engine.knn(v, POOL_MIN, req.filters, { records: true });
          return { vec, vecHead: vec };
        }
        const [vec, vecHead] = await Promise.all([
          engine.knn(v, pool, req.filters, { records: true }),
          engine.knn(v, POOL_MIN, req.filters, { records: true }),
        ]);
        return { vec, vecHead };
      })
    : Promise.resolve({ vec: [], vecHead: [] });
  // Set once the kNN lists are in (or failed): the lexical stage's warm-up below stops then.
  let vectorIn = false;
  const settle = () => void (vectorIn = true);
  vector.then(settle, settle);
  const lexical = retrieval !== 'vector' ? bm25(req.filters) : Promise.resolve([] as TextHit[]);
  const mpn = Promise.all(u.mpns.slice(0, 3).map((m) => searchMpn(engine, m, { limit: 10, filters: req.filters })));
  const head = <T extends ScoredId>(l: readonly T[]): T[] => l.slice(0, POOL_MIN);
  const namedSlugs = namedSet(named);
  const isNamed = (h: { category?: string | null }) => h.category != null && within.some((w) => underCategory(h.category!, w));
  const bySpec = retrieval !== 'vector' && req.specNames ? specFilters(u, req.specNames) : [];
  /** Of these candidates (by id, with their records), whether at least SPEC_FILL meet every quantity constraint. */
  const specFilled = (ids: Iterable<number>, recordOf: (id: number) => PartRecord | undefined) => {
    let meeting = 0;
    for (const id of ids) {
      const p = recordOf(id);
      if (p && u.specs.every((c) => satisfiesLoosely(p.specs, c)) && ++meeting >= SPEC_FILL) return true;
    }
    return false;
  };

  // Computed once per record: those the lexical stage computes while the embedding runs (warmKeys) are
  // not computed again in the ranking.
  const keysOf = recordKeysFor(u, namedSlugs, familiesToMatch(u.families));
  /**
   * Reads the records of the lexical candidates and computes their keys while the query's embedding
   * and kNN run (this thread would wait for them otherwise: the model in its worker, an OpenSearch
   * kNN on the node), in the lists' order, a few at a time with a turn of the event loop between, and
   * stops once the kNN lists are in: from then on the keys are computed in the ranking, only for the
   * candidates ranked (the ranking is not held up by more than one chunk).
   */
  const warmKeys = async (hits: readonly (TextHit | VectorHit)[]) => {
    for (let i = 0; i < hits.length && !vectorIn; i += WARM_CHUNK) {
      for (const h of hits.slice(i, i + WARM_CHUNK)) {
        try {
          if (h.record) keysOf(h.record);
        } catch {
          // Not this request's to fail on: the ranking computes the keys again if it ranks the part.
        }
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  // The reads the lexical stage may need, made early on an engine whose reads overlap (early-reads.ts).
  const catEarly = categoryReadsLikely(within);
  /** BM25 within the named categories. */
  const catRead = mayNeed(engine, catEarly, () => bm25({ ...req.filters, categories: within }));
  /** The named categories' best-stocked parts. */
  const browseRead = mayNeed(engine, catEarly, () => textHits(null, { ...req.filters, categories: within }, POOL_MIN));
  /** The parts holding the parsed spec values (within the named categories, if any). */
  const specRead = mayNeed(engine, false, () =>
    textHits(null, { ...req.filters, ...(within.length ? { categories: within } : {}), specs: [...(req.filters.specs ?? []), ...bySpec] }, POOL_MIN),
  );

  // What follows from the BM25 list alone is read while the query's embedding is computed (on SQLite the
  // engine's reads take this thread, the model its own), not after kNN:
  //  - The named categories' parts rank first, so enough of them must be candidates. BM25's order within
  //    them is its order over the whole catalogue, so the whole-catalogue list already holds their best
  //    matches; only when it holds fewer than CATEGORY_FILL does BM25 within the named categories add
  //    theirs (`cat`; other categories' parts may share more of the query's words). The hits carry their
  //    category, so no record is read for this. The count is taken over the list's first POOL_MIN, the
  //    same whatever the pool: the decision depends on the query, never on the page asked for.
  //  - The words that named the categories may be in few of their parts' texts, or none ("op amp" names
  //    "Operational Amplifiers", whose parts say "operational amplifier"): when BM25 (both lists) and
  //    kNN together found fewer than CATEGORY_FILL of their parts, the categories' parts come by the
  //    filter alone as well, best stocked first (`browse`: a candidate list of its own, which only orders
  //    its parts among themselves in the fusion).
  //  - Parts holding the parsed spec values (within the named categories, if any), whatever their text
  //    says: read through the engines' spec filters when fewer than SPEC_FILL of the candidates (each
  //    list's first POOL_MIN, so the same on every page) meet every quantity constraint.
  // kNN only adds candidates, so the last two are read here whenever the lexical lists leave them
  // possible, and used after kNN only when the same rules, over every list, still ask for them (the
  // spec read is made then if the lexical stage skipped it, see below).
  const lexicalStage = lexical.then(async (lex) => {
    let inNamed = 0;
    if (within.length) for (const h of head(lex)) if (isNamed(h)) inNamed++;
    noteCategoryReads(within, inNamed < CATEGORY_FILL);
    const cat = within.length && inNamed < CATEGORY_FILL ? await catRead() : [];
    // The named categories' parts found so far: null when the rules above need no browse whatever kNN finds.
    const found =
      within.length && inNamed < CATEGORY_FILL && cat.length < CATEGORY_FILL ? new Set([...head(lex).filter(isNamed), ...cat].map((h) => h.id)) : null;
    const browse = found && found.size < CATEGORY_FILL ? await browseRead() : null;
    // The hits themselves: their records are parsed only when read (see `carriers` below).
    const hits = new Map<number, TextHit>();
    for (const h of [...head(lex), ...head(cat), ...(browse ?? [])]) if (!hits.has(h.id)) hits.set(h.id, h);
    const specs = bySpec.length && !specFilled(hits.keys(), (id) => hits.get(id)?.record) ? await specRead() : null;
    if (queryVector) await warmKeys([...hits.values(), ...(specs ?? [])]);
    return { lex, cat, found, browse, specs };
  });
  const [lexicalResult, { vec, vecHead }, mpnHits] = await Promise.all([lexicalStage, vector, mpn]);
  const { lex, cat, found } = lexicalResult;
  let browse: TextHit[] = [];
  if (found) {
    for (const h of head(vecHead)) if (isNamed({ category: h.record?.category?.slug })) found.add(h.id);
    if (found.size < CATEGORY_FILL) browse = lexicalResult.browse!; // read whenever the lexical lists alone left it short
  }

  // The records that came with the hits, by id, read from their hit when first needed (the SQLite
  // adapter parses a record's JSON only then: of the 200-odd candidates, the ranking reads about 100,
  // and the lexical stage's warm-up those of the lexical lists while kNN runs); the few others (MPN
  // hits) are read at the end.
  const carriers = new Map<number, { record?: PartRecord }>();
  const keep = (hits: readonly (TextHit | VectorHit)[]) => {
    for (const h of hits) if ('record' in h && !carriers.has(h.id)) carriers.set(h.id, h);
  };
  const recordOf = (id: number): PartRecord | undefined => carriers.get(id)?.record;
  for (const hits of [lex, vec, vecHead, cat, browse]) keep(hits);
  let specHits: TextHit[] = [];
  if (bySpec.length && !specFilled(new Set([...head(lex), ...head(vecHead), ...head(cat), ...browse].map((h) => h.id)), recordOf)) {
    // Read in the lexical stage unless the lists there seemed to fill: they may not now when the browse
    // read there is not used (kNN found the categories' parts), or when a record read with kNN differs
    // from the same part's read with BM25 (a version went live between them).
    specHits = lexicalResult.specs ?? (await specRead());
    keep(specHits);
  }

  const fusion: Fusion = req.fusion ?? DEFAULT_FUSION;
  // When the best BM25 hits hold the query's words, BM25 has read the query: the kNN list then only
  // breaks ties and adds candidates (TRUSTED_KNN_WEIGHT). Otherwise ("light emitting diode indicator",
  // whose words no single part holds) both lists weigh alike.
  const knnWeight =
    vecHead.length &&
    lex.length &&
    lexicalCoverage(
      req.query,
      head(lex)
        .slice(0, COVERAGE_HITS)
        .map((h) => recordOf(h.id)),
    ) >= COVERED_SHARE
      ? TRUSTED_KNN_WEIGHT
      : 1;
  const fuse = (l: readonly ScoredId[], v: readonly ScoredId[], c: readonly ScoredId[]) =>
    fusion === 'normalized' ? normalizedFusion(mergeLists(l, c), v) : rrf([l, v, c, browse], [1, knnWeight, 1, BROWSE_WEIGHT]);
  const byScore = (m: Map<number, number>) => [...m.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
  const mpnRank = new Map<number, number>();
  mpnHits.flat().forEach((c, i) => {
    if (!mpnRank.has(c.id)) mpnRank.set(c.id, i);
  });

  // The ranking comes in two blocks, each ranked on its own and the second appended to the first:
  //  1. the POOL_MIN best of the fusion of each list's first POOL_MIN, every MPN hit, every part BM25
  //     found within the named categories and every part found by spec value (fused scores alone would
  //     cut parts only those lists found). Built from the first POOL_MIN of each list, it is the same
  //     for every page.
  //  2. for pages beyond POOL_MIN results only: the rest of the fusion of the whole lists (POOL_MAX each),
  //     up to POOL_MAX parts in all.
  const fusedHead = fuse(head(lex), head(vecHead), head(cat));
  const first = byScore(fusedHead).slice(0, POOL_MIN);
  const inFirst = new Set(first);
  for (const id of [...mpnRank.keys(), ...head(cat).map((h) => h.id), ...browse.map((h) => h.id), ...specHits.map((h) => h.id)]) {
    if (inFirst.has(id)) continue;
    inFirst.add(id);
    first.push(id);
  }
  let fusedAll = fusedHead;
  let second: number[] = [];
  if (pool > POOL_MIN) {
    fusedAll = fuse(lex, vec, cat);
    second = byScore(fusedAll)
      .filter((id) => !inFirst.has(id))
      .slice(0, Math.max(0, POOL_MAX - first.length));
  }
  // Read from the live version: the MPN hits, and any hit whose record its list could not give (SQLite
  // kNN reads a hit's record on demand, from the version it searched: gone if two swaps came between).
  const missing = [...first, ...second].filter((id) => recordOf(id) === undefined);
  if (missing.length) for (const p of await engine.getParts(missing)) carriers.set(p.id, { record: p });

  const constrained = constraintCount(u) > 0;
  const score = (ids: readonly number[], fused: Map<number, number>) =>
    ids
      .map((id) => recordOf(id))
      .filter((p) => p !== undefined)
      .map((p) => ({ p, ...keysOf(p), m: mpnRank.get(p.id), f: fused.get(p.id) ?? 0 }));
  type Scored = ReturnType<typeof score>[number];
  const firstScored = score(first, fusedHead);
  // The named categories' parts rank first. When the query says nothing beyond its constraints and
  // families (every word read) and those categories hold fewer than WIDEN_BELOW candidates meeting
  // every constraint, a part of the query's family meeting every constraint ranks with them: the
  // category was named by words the family already carries ("pnp transistor sot-23" names the
  // 8-part leaf "Transistors (NPN/PNP)", one of them a PNP in SOT-23, while 52 of the leaf
  // "Bipolar Transistors - BJT" are). A word left unread ("through hole resistors") may be what
  // the category's name adds, so then the tier stays as named. Decided once, from the first block,
  // so that every block (and page) ranks by the same tiers.
  const widen = constrained && u.unread.length === 0 && firstScored.filter((x) => x.cat > 0 && x.c === 1).length < WIDEN_BELOW;
  const tier = (x: Scored) => (x.cat > 0 || (widen && x.fam === 1 && x.c === 1) ? 1 : 0);
  // The last key before the fused score: the weight of the constraints met in the strict reading (spec
  // and value constraints under known spec names, the package), each
  // weighing more the fewer candidates of the first block meet it (constraintWeights; the same weights
  // for every block and page).
  const weights = constraintWeights(firstScored.map((x) => x.strict));
  const rank = (scored: Scored[]) =>
    scored
      // rounded: a sum of logs equal to another in exact arithmetic may differ from it in the last bit
      .map((x) => ({ x, tier: tier(x), r: Math.round(weightMet(x.strict, weights) * 1e9) }))
      .sort(({ x: a, tier: ta, r: ra }, { x: b, tier: tb, r: rb }) => {
        if ((a.m !== undefined) !== (b.m !== undefined)) return a.m !== undefined ? -1 : 1;
        if (a.m !== undefined && b.m !== undefined && a.m !== b.m) return a.m - b.m;
        return tb - ta || b.fam - a.fam || b.c - a.c || b.t - a.t || b.v - a.v || b.pe - a.pe || b.cat - a.cat || rb - ra || b.f - a.f || a.p.id - b.p.id;
      })
      .map(({ x }) => x.p);
  const top = rank(firstScored);
  const ranked = second.length ? [...top, ...rank(score(second, fusedAll))] : top;

  // Counted over the first block: the same figures on every page.
  const availableSpecs: Record<string, number> = {};
  for (const p of top) for (const name of specNamesOf(p)) availableSpecs[name] = (availableSpecs[name] ?? 0) + 1;
  return {
    parts: ranked.slice(req.offset, req.offset + req.limit),
    total: ranked.length,
    availableSpecs,
    understanding: u,
    namedCategories: named,
    retrieval: embeddingFailed ? 'lexical' : retrieval,
    fusion,
  };
}
