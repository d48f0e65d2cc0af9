/**
 * Agentic search, stage 2: retrieval, the one place that schedules reads. From the plan it reads the
 * candidate lists, each filtered by the request's filters (status first), POOL_MIN or POOL_MAX per list:
 *
 *   - kNN over the query's embedding (hybrid and vector; the embedding is started before the plan is
 *     made, queryEmbedding, since the model runs in its own thread while this one plans and reads);
 *   - BM25 over the text fields (hybrid and lexical);
 *   - MPN lookups of the query's MPN-like tokens;
 *   - when BM25 over the whole catalogue holds fewer than CATEGORY_FILL parts of the named categories:
 *     BM25 within them (`cat`), and when even that leaves them short, their parts by the filter alone,
 *     best stocked first (`browse`);
 *   - when fewer than SPEC_FILL candidates meet every parsed quantity: the parts holding the parsed
 *     values, through the engines' spec filters (`specHits`; within the named categories, if any).
 *
 * What follows from the BM25 list alone is read while the query's embedding is computed (on SQLite the
 * engine's reads take this thread, the model its own), not after kNN; on an engine whose reads overlap
 * the category reads are asked for together with BM25 (early-reads.ts). kNN only adds candidates, so
 * the category and spec reads are made whenever the lexical lists leave them possible, and used after
 * kNN only when the same rules, over every list, still ask for them. Meanwhile the lexical candidates'
 * records are read and `warm` is run on each (the ranking keys), until the kNN lists are in.
 */
import type { PartRecord } from '../../catalog/part.ts';
import type { Embedder } from '../../embeddings/port.ts';
import type { EngineFilters, MpnCandidate, ScoredId, SearchReader, TextHit, VectorHit } from '../../engines/port.ts';
import { categoryReadsLikely, mayNeed, noteCategoryReads } from '../early-reads.ts';
import { searchMpn } from '../mpn.ts';
import { underCategory } from '../named-categories.ts';
import { satisfiesLoosely } from '../spec-match.ts';
import { POOL_MIN, type Retrieval, type SearchPlan } from './plan.ts';

/** Parts of the named categories the whole-catalogue BM25 list must hold before BM25 within them is skipped. */
export const CATEGORY_FILL = 20;
/** Candidates meeting every quantity constraint below which the spec-filtered candidates are read (spec-retrieval.ts). */
export const SPEC_FILL = 20;
/** Candidates whose keys the lexical stage computes between two looks at whether the embedding is in. */
const WARM_CHUNK = 16;
/** MPN candidates per MPN-like token. */
const MPN_LIMIT = 10;

/** A list's first POOL_MIN: what the first block of the ranking is built from, on every page. */
export const head = <T extends ScoredId>(l: readonly T[]): T[] => l.slice(0, POOL_MIN);

export interface QueryEmbedding {
  /** The query's vector (null: no vector side, or hybrid whose embedding failed); rejects only for vector-only retrieval. */
  vector: Promise<Float32Array | null> | null;
  /** Whether hybrid retrieval lost its vector side (the model's worker died): it answers lexical-only then, and says so. */
  failed(): boolean;
}

/** Starts embedding the query, first of all: the model runs in its own thread while this one plans and reads. */
export function queryEmbedding(embedder: Embedder | null, retrieval: Retrieval, query: string): QueryEmbedding {
  let failed = false;
  const vector =
    retrieval !== 'lexical' && embedder
      ? embedder.embed([query]).then(
          (vs) => vs[0] ?? null,
          (e: unknown) => {
            if (retrieval !== 'hybrid') throw e;
            failed = true;
            return null;
          },
        )
      : null;
  vector?.catch(() => undefined); // awaited in retrieve; this only keeps an early throw from leaving it unhandled
  return { vector, failed: () => failed };
}

/** The records that came with the hits, by id, read from their hit only when first needed (SQLite parses a record's JSON then). */
export class CandidateRecords {
  private readonly carriers = new Map<number, { record?: PartRecord }>();

  keep(hits: readonly (TextHit | VectorHit)[]): void {
    for (const h of hits) if ('record' in h && !this.carriers.has(h.id)) this.carriers.set(h.id, h);
  }

  get(id: number): PartRecord | undefined {
    return this.carriers.get(id)?.record;
  }

  /**
   * Reads from the live version the records no list gave among `ids`: the MPN hits, and any hit whose
   * record its list could not give (SQLite kNN reads a hit's record on demand, from the version it
   * searched: gone if two swaps came between).
   */
  async fill(engine: SearchReader, ids: readonly number[]): Promise<void> {
    const missing = ids.filter((id) => this.get(id) === undefined);
    if (missing.length) for (const p of await engine.getParts(missing)) this.carriers.set(p.id, { record: p });
  }
}

export interface Retrieved {
  /** BM25 over the whole catalogue (pool), and within the named categories. */
  lex: TextHit[];
  cat: TextHit[];
  /** kNN (pool), and kNN's first POOL_MIN asked for as such (an approximate index may answer them differently from k = pool). */
  vec: VectorHit[];
  vecHead: VectorHit[];
  /** The named categories' parts by the filter alone, best stocked first (empty unless the lists held too few of them). */
  browse: TextHit[];
  /** Parts holding the parsed spec values (empty unless the lists held too few meeting them). */
  specHits: TextHit[];
  /** MPN candidates of each MPN-like token. */
  mpnHits: MpnCandidate[][];
  records: CandidateRecords;
}

/** Reads the engine's lists for the plan (see the header); `warm` runs on each lexical candidate's record while kNN is awaited. */
export async function retrieve(engine: SearchReader, plan: SearchPlan, embedding: QueryEmbedding, warm: (p: PartRecord) => void): Promise<Retrieved> {
  const knn = knnLists(engine, plan, embedding.vector);
  // Set once the kNN lists are in (or failed): the lexical stage's warm-up stops then.
  let vectorIn = false;
  const settle = () => void (vectorIn = true);
  knn.then(settle, settle);
  const text = textReads(engine, plan);
  const lexical = plan.retrieval !== 'vector' ? text.bm25(plan.filters) : Promise.resolve([] as TextHit[]);
  const mpn = Promise.all(plan.mpns.map((m) => searchMpn(engine, m, { limit: MPN_LIMIT, filters: plan.filters })));
  // Created after BM25 and the MPN lookups are asked for: an engine whose reads overlap is asked for these next.
  const reads = laterReads(engine, plan, text);
  const early = lexical.then((lex) => lexicalStage(plan, reads, lex, embedding.vector ? () => vectorIn : null, warm));
  const [lexicalResult, { vec, vecHead }, mpnHits] = await Promise.all([early, knn, mpn]);
  const { lex, cat, found } = lexicalResult;
  let browse: TextHit[] = [];
  if (found) {
    for (const h of head(vecHead)) if (isNamed(plan, h.record?.category?.slug)) found.add(h.id);
    if (found.size < CATEGORY_FILL) browse = lexicalResult.browse!; // read whenever the lexical lists alone left it short
  }
  const records = new CandidateRecords();
  for (const hits of [lex, vec, vecHead, cat, browse]) records.keep(hits);
  let specHits: TextHit[] = [];
  const candidates = new Set([...head(lex), ...head(vecHead), ...head(cat), ...browse].map((h) => h.id));
  if (plan.bySpec.length && !specFilled(plan, candidates, (id) => records.get(id))) {
    // Read in the lexical stage unless the lists there seemed to fill: they may not now when the browse
    // read there is not used (kNN found the categories' parts), or when a record read with kNN differs
    // from the same part's read with BM25 (a version went live between them).
    specHits = lexicalResult.specs ?? (await reads.spec());
    records.keep(specHits);
  }
  return { lex, cat, vec, vecHead, browse, specHits, mpnHits, records };
}

/** BM25, and the engine's filtered lists; records come with the hits (no _mget round trip on OpenSearch). */
function textReads(engine: SearchReader, plan: SearchPlan) {
  const textHits = (text: string | null, filters: EngineFilters, limit: number) =>
    engine.textSearch({ text, filters, limit, offset: 0, exactTotal: false, records: true }).then((r) => r.hits);
  return { textHits, bm25: (filters: EngineFilters) => textHits(plan.query, filters, plan.pool) };
}

/** The reads the lexical stage may need, each made at most once (early-reads.ts: some early, on an engine whose reads overlap). */
function laterReads(engine: SearchReader, plan: SearchPlan, { textHits, bm25 }: ReturnType<typeof textReads>) {
  const inNamed = { ...plan.filters, categories: plan.within };
  const catEarly = categoryReadsLikely(plan.within);
  return {
    /** BM25 within the named categories. */
    cat: mayNeed(engine, catEarly, () => bm25(inNamed)),
    /** The named categories' best-stocked parts. */
    browse: mayNeed(engine, catEarly, () => textHits(null, inNamed, POOL_MIN)),
    /** The parts holding the parsed spec values (within the named categories, if any). */
    spec: mayNeed(engine, false, () =>
      textHits(
        null,
        { ...plan.filters, ...(plan.within.length ? { categories: plan.within } : {}), specs: [...(plan.filters.specs ?? []), ...plan.bySpec] },
        POOL_MIN,
      ),
    ),
  };
}
type LaterReads = ReturnType<typeof laterReads>;

/** kNN over the query's vector. Deep pages ask for POOL_MIN as well: an approximate index (OpenSearch HNSW) may answer the first 100 of k = 500 differently from k = 100, and block 1 must be the same on every page. */
function knnLists(engine: SearchReader, plan: SearchPlan, vector: Promise<Float32Array | null> | null): Promise<{ vec: VectorHit[]; vecHead: VectorHit[] }> {
  if (!vector) return Promise.resolve({ vec: [], vecHead: [] });
  return vector.then(async (v) => {
    if (!v) return { vec: [], vecHead: [] };
    if (plan.pool === POOL_MIN) {
      const vec = await engine.knn(v, POOL_MIN, plan.filters, { records: true });
      return { vec, vecHead: vec };
    }
    const [vec, vecHead] = await Promise.all([
      engine.knn(v, plan.pool, plan.filters, { records: true }),
      engine.knn(v, POOL_MIN, plan.filters, { records: true }),
    ]);
    return { vec, vecHead };
  });
}

/** Whether a category is within the plan's named categories (subtree-inclusive). */
function isNamed(plan: SearchPlan, category: string | null | undefined): boolean {
  return category != null && plan.within.some((w) => underCategory(category, w));
}

/** Of these candidates (by id, with their records), whether at least SPEC_FILL meet every quantity constraint. */
function specFilled(plan: SearchPlan, ids: Iterable<number>, recordOf: (id: number) => PartRecord | undefined): boolean {
  let meeting = 0;
  for (const id of ids) {
    const p = recordOf(id);
    if (p && plan.u.specs.every((c) => satisfiesLoosely(p.specs, c)) && ++meeting >= SPEC_FILL) return true;
  }
  return false;
}

/**
 * What follows from the BM25 list alone, read while the query's embedding is computed:
 *  - The named categories' parts rank first, so enough of them must be candidates. BM25's order within
 *    them is its order over the whole catalogue, so the whole-catalogue list already holds their best
 *    matches; only when it holds fewer than CATEGORY_FILL does BM25 within the named categories add
 *    theirs (`cat`; other categories' parts may share more of the query's words). The hits carry their
 *    category, so no record is read for this. The count is taken over the list's first POOL_MIN, the
 *    same whatever the pool: the decision depends on the query, never on the page asked for.
 *  - The words that named the categories may be in few of their parts' texts, or none ("op amp" names
 *    "Operational Amplifiers", whose parts say "operational amplifier"): when BM25 (both lists) and
 *    kNN together found fewer than CATEGORY_FILL of their parts, the categories' parts come by the
 *    filter alone as well (`browse`; `found` is null when no browse can be needed whatever kNN finds).
 *  - Parts holding the parsed spec values, read when fewer than SPEC_FILL of the candidates (each
 *    list's first POOL_MIN, so the same on every page) meet every quantity constraint.
 * `vectorIn` (null without a vector side) says when kNN is in: the warm-up stops then.
 */
async function lexicalStage(plan: SearchPlan, reads: LaterReads, lex: TextHit[], vectorIn: (() => boolean) | null, warm: (p: PartRecord) => void) {
  let inNamed = 0;
  if (plan.within.length) for (const h of head(lex)) if (isNamed(plan, h.category)) inNamed++;
  noteCategoryReads(plan.within, inNamed < CATEGORY_FILL);
  const cat = plan.within.length && inNamed < CATEGORY_FILL ? await reads.cat() : [];
  const found =
    plan.within.length && inNamed < CATEGORY_FILL && cat.length < CATEGORY_FILL
      ? new Set([...head(lex).filter((h) => isNamed(plan, h.category)), ...cat].map((h) => h.id))
      : null;
  const browse = found && found.size < CATEGORY_FILL ? await reads.browse() : null;
  // The hits themselves: their records are parsed only when read.
  const hits = new Map<number, TextHit>();
  for (const h of [...head(lex), ...head(cat), ...(browse ?? [])]) if (!hits.has(h.id)) hits.set(h.id, h);
  const specs = plan.bySpec.length && !specFilled(plan, hits.keys(), (id) => hits.get(id)?.record) ? await reads.spec() : null;
  if (vectorIn) await warmUp([...hits.values(), ...(specs ?? [])], vectorIn, warm);
  return { lex, cat, found, browse, specs };
}

/**
 * Reads the records of the lexical candidates and runs `warm` on them while the query's embedding and
 * kNN run (this thread would wait for them otherwise: the model in its worker, an OpenSearch kNN on
 * the node), in the lists' order, a few at a time with a turn of the event loop between, and stops once
 * the kNN lists are in: from then on the ranking computes what it needs, only for the candidates ranked
 * (it is not held up by more than one chunk).
 */
async function warmUp(hits: readonly (TextHit | VectorHit)[], vectorIn: () => boolean, warm: (p: PartRecord) => void): Promise<void> {
  for (let i = 0; i < hits.length && !vectorIn(); i += WARM_CHUNK) {
    for (const h of hits.slice(i, i + WARM_CHUNK)) {
      try {
        if (h.record) warm(h.record);
      } catch {
        // Not this request's to fail on: the ranking computes the keys again if it ranks the part.
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
