/**
 * The search-engine port. Two adapters implement it (src/engines/sqlite, src/engines/opensearch) and
 * one contract suite (test/contract/engine.contract.ts) proves them equal. Everything above this
 * file (ingest, search planning, the service layer) talks to engines only through it, each client
 * through its side: SearchReader (searching), CatalogWriter (ingest, list edits), EngineAdmin (the
 * process that owns the engine).
 *
 * Index versions: a load builds a new version beside the live one; `finish` checks the count and
 * makes it live atomically (SQLite: one transaction on the meta table; OpenSearch: one alias swap).
 * The previous version is kept so `rollback` can make it live again.
 */
import type { CatalogMeta } from '../catalog/meta.ts';
import type { IndexedPart, PartRecord } from '../catalog/part.ts';
import type { PartStatus } from '../catalog/status.ts';
import type { VectorBackfill } from './vector-backfill.ts';

/**
 * Parsed part records an engine keeps for reuse by default (RECORD_CACHE_SIZE): about 3.4 KiB each on the
 * real catalogue, so about 70 MB when full.
 */
export const DEFAULT_RECORD_CACHE = 20_000;

/** A numeric bound set in SI units. A part matches when its [min, max] lies within the bounds. */
export interface NumericRange {
  gte?: number;
  lte?: number;
  gt?: number;
  lt?: number;
}

/**
 * Which specs a condition is on: `name`, one spec display name or several (any of them: the same
 * quantity under the names catalogues use); or `attribute`, one canonical attribute id or several
 * (vocabulary/attributes.json: a part's spec counts whatever it was named). Attribute conditions need an
 * index version that stores attributes (CatalogMeta.features 'spec_attributes'); on another they match
 * nothing, so callers check the feature first.
 */
export type SpecKey = { name: string | readonly string[]; attribute?: undefined } | { attribute: string | readonly string[]; name?: undefined };

/**
 * A spec condition on the specs of `SpecKey`. `values`: display values accepted as written, or (`nums`)
 * single SI values a part's number equals (within a relative 1e-9, engines/same-number.ts: "0.1uF" is the
 * "100nF" and "100nF@1kHz" parts).
 */
export type SpecFilter = SpecKey &
  (
    | {
        values: string[];
        nums?: number[];
        /** The SI unit of `nums` (null: plain numbers); a part's number must be in it. */
        numUnit?: string | null;
      }
    | {
        range: NumericRange;
        /**
         * The SI unit of the range (null: plain numbers). A part's number must be in it or be a plain
         * number (a catalogue writes "5000" for 5000 V): "25℃" under "Tolerance" is no 25 % tolerance.
         * Absent: any unit.
         */
        unit?: string | null;
      }
  );

/** Hard constraints, ANDed. Absent members do not constrain. */
export interface EngineFilters {
  status?: PartStatus[];
  /** Category slugs, subtree-inclusive; a part matches when under any of them. */
  categories?: string[];
  excludeCategories?: string[];
  /** Manufacturer slugs. */
  manufacturers?: string[];
  /** Packages as the parts' `package` field writes them ("0603", "SOT-23-5"), in any case: any of them. */
  packages?: string[];
  /** lst_ ids: union. */
  lists?: string[];
  specs?: SpecFilter[];
  inStock?: boolean;
  /** The lowest unit price over all offers and price breaks is at most this (USD). */
  maxPriceUsd?: number;
  /**
   * The unit price of an order of `quantity` units (catalog/prices.ts: the lowest over the offers whose
   * price breaks hold that quantity) is at most `maxUsd`. Indexes record whether they hold the bands
   * this needs (CatalogMeta.features, 'price_bands').
   */
  priceAt?: { quantity: number; maxUsd: number };
}

export interface ScoredId {
  id: number;
  score: number;
}

export interface TextSearchRequest {
  /** Free text for BM25 over the part's text fields; null/empty: every part matching the filters. */
  text: string | null;
  filters: EngineFilters;
  limit: number;
  offset: number;
  /**
   * Default true. False: the caller does not read `total`, and the engine may skip counting the
   * whole match set (with free text over a large catalogue that count costs more than the ranking);
   * `total` is then only a lower bound (at least offset + hits.length).
   */
  exactTotal?: boolean;
  /**
   * Also return each hit's full record (`TextHit.record`), as getParts would: OpenSearch then reads them
   * in the search's own fetch phase instead of a later `_mget` round trip. `record` may be a getter
   * that parses the stored record when first read (SQLite): read it, do not copy the hit to get it.
   */
  records?: boolean;
}

/** A kNN hit: the part's id, its cosine, and its record when the request asked for records. */
export interface VectorHit extends ScoredId {
  record?: PartRecord;
}

/** A text search hit: the part's id, its score and its category slug (null when uncategorised). */
export interface TextHit extends ScoredId {
  category: string | null;
  /** The part's record, when the request asked for records. */
  record?: PartRecord;
}

export interface TextSearchResult {
  /** Number of parts matching text and filters (exact unless the request set exactTotal: false). */
  total: number;
  /** Best first; BM25-like scores, higher is better. Each carries its category (read from the index, not the record). */
  hits: TextHit[];
}

export type MpnMode = 'exact' | 'prefix' | 'infix' | 'fuzzy';

export interface MpnLookupRequest {
  /** Normalised MPN key (normaliseMpn). */
  key: string;
  mode: MpnMode;
  limit: number;
  /** Also match alternate MPNs (aliases). Default true for exact and prefix. */
  aliases?: boolean;
  filters?: EngineFilters;
}

export interface MpnHit {
  id: number;
  /** The key that matched: the part's MPN key or one of its alias keys. */
  matched: string;
  /** Whether the match was on an alias. */
  alias: boolean;
}

/** MPN search tiers, best first (src/search/mpn.ts describes them). */
export type MpnTier = 'exact' | 'variant' | 'prefix' | 'infix' | 'fuzzy';

export interface MpnSearchRequest {
  /** Normalised MPN key (normaliseMpn). */
  key: string;
  limit: number;
  filters?: EngineFilters;
}

export interface MpnCandidate {
  id: number;
  tier: MpnTier;
  /** The key that matched (the part's MPN key or an alias key). */
  matched: string;
  /**
   * A packaging stem of the query (src/search/packaging-stems.ts; tier 'variant'), and which: 0 for the
   * one that strips least. Ranks after the variants the engine found, longer stems first.
   */
  stem?: number;
}

export interface FacetRequest {
  text: string | null;
  filters: EngineFilters;
  /** Spec names whose value buckets and numeric min/max are wanted. */
  specValues?: string[];
  /**
   * Canonical attribute ids whose value buckets and numeric min/max are wanted (over every spec of the
   * attribute, whatever its name). Versions without 'spec_attributes' answer none.
   */
  attributeValues?: string[];
  /** Bucket count for value lists. */
  size?: number;
}

export interface SpecValueFacet {
  values: { value: string; count: number }[];
  /** Numeric extent over the set, in SI; null when no part has a number for this spec. */
  min: number | null;
  max: number | null;
  unit: string | null;
}

export interface FacetResult {
  total: number;
  /** Spec name -> number of parts in the whole set that have it. */
  specNames: Record<string, number>;
  /** Canonical attribute id -> number of parts in the whole set with a spec of it (empty on versions without 'spec_attributes'). */
  attributes: Record<string, number>;
  /** Per attribute of `attributeValues`. */
  attributeValues: Record<string, SpecValueFacet>;
  specValues: Record<string, SpecValueFacet>;
  manufacturers: { slug: string; count: number }[];
  categories: { slug: string; count: number }[];
}

export interface WriteFailure {
  id: number;
  mpn: string;
  manufacturer: string;
  reason: string;
}

export interface EngineLoader {
  /** Writes a batch (upsert by id); transient failures are retried inside, permanent ones returned. */
  write(parts: readonly IndexedPart[]): Promise<WriteFailure[]>;
  /** Parts per category slug or manufacturer slug in the version being loaded. */
  countsBy(field: 'category' | 'manufacturer'): Promise<Map<string, number>>;
  /** Verifies `expected` parts are present, stores `meta`, and makes the version live. */
  finish(meta: CatalogMeta, expected: number): Promise<{ version: string; count: number }>;
  /** Drops the version being loaded; the live one is untouched. */
  abort(): Promise<void>;
  readonly version: string;
}

export interface EngineInfo {
  kind: 'sqlite' | 'opensearch';
  version: string | null;
  previous: string | null;
  parts: number;
  vectors: boolean;
}

/**
 * What searching needs: reads of the live version. The search code, the service layer and the relevance
 * runner take this; nothing that only searches can load, roll back or close an engine.
 */
export interface SearchReader {
  readonly kind: 'sqlite' | 'opensearch';
  /**
   * Whether reads run elsewhere and overlap (OpenSearch: requests to the node, served by its thread
   * pool): agentic search then asks at once for the reads it may need, instead of one after another.
   * Absent: reads take this thread (SQLite), and a read not needed is time lost.
   */
  readonly concurrentReads?: boolean;
  info(): Promise<EngineInfo>;
  /** The live version's catalogue snapshot, or null when nothing has been loaded. */
  meta(): Promise<CatalogMeta | null>;

  /** One lookup mode (exact, prefix, infix or fuzzy), ordered by (key length, key, id). */
  mpnLookup(req: MpnLookupRequest): Promise<MpnHit[]>;
  /**
   * MPN search: up to `limit` candidates in tier order (exact, variant, prefix, infix, fuzzy), the
   * tiers' semantics of src/engines/mpn-tiers.ts. SQLite composes them from mpnLookup calls;
   * OpenSearch answers with one bool query.
   */
  mpnSearch(req: MpnSearchRequest): Promise<MpnCandidate[]>;
  textSearch(req: TextSearchRequest): Promise<TextSearchResult>;
  /**
   * Nearest neighbours by cosine similarity (score in [-1, 1]), filters applied before ranking.
   * `records`: also return each hit's record (as getParts would; OpenSearch reads them in the search's
   * fetch phase).
   */
  knn(vector: Float32Array, k: number, filters: EngineFilters, opts?: { records?: boolean }): Promise<VectorHit[]>;
  facets(req: FacetRequest): Promise<FacetResult>;

  /** Full records in the order of `ids`; unknown ids are left out. */
  getParts(ids: readonly number[]): Promise<PartRecord[]>;
  /** Part by slugs: exact first, then case-insensitive (`exact: false`). */
  getPartBySlug(manufacturerSlug: string, mpnSlug: string): Promise<{ part: PartRecord; exact: boolean } | null>;
  /**
   * The manufacturer's parts whose MPN slug starts with `prefix` in any case (ASCII case; every part
   * when it is empty) and holds an escape after it ("~": letters outside ASCII, catalog/mpn.ts), at most
   * `limit`, by id: the part detail route reads their slugs of before the escapes from these (legacySlug).
   */
  escapedSlugs(manufacturerSlug: string, prefix: string, limit: number): Promise<{ id: number; mpn_slug: string }[]>;
}

/** What changing the catalogue needs: a new version (ingest), the snapshot and list memberships (list edits). */
export interface CatalogWriter {
  /** The live version's catalogue snapshot, or null when nothing has been loaded. */
  meta(): Promise<CatalogMeta | null>;
  /** Replaces the stored snapshot of the live version (list edits and the like). */
  saveMeta(meta: CatalogMeta): Promise<void>;
  /** Starts building a new version (replace semantics: the dump is the whole catalogue). */
  beginLoad(opts: { embeddingDims: number | null }): Promise<EngineLoader>;
  /** Updates list memberships of parts in the live version. */
  setListMembership(listId: string, partIds: readonly number[]): Promise<void>;
}

/** What the owner of an engine needs (the composition root, the CLI): start it, warm it up, roll back, stop it. */
export interface EngineAdmin {
  /** Connects and creates what must exist; safe to call more than once. */
  init(): Promise<void>;
  info(): Promise<EngineInfo>;
  /**
   * Reads what the first queries of the live version would otherwise wait for or run without (SQLite: the
   * full-text row lengths that BM25 from postings needs, read in the background on a swap), for the
   * API's start before it listens. Optional: engines without such state have none.
   */
  warmUp?(): Promise<void>;
  /** Makes the previous version live again. */
  rollback(): Promise<{ from: string; to: string }>;
  /** Completes the vectors of a version that went live without all of them (vector-backfill.ts). */
  readonly backfill?: VectorBackfill;
  close(): Promise<void>;
}

/** An engine adapter: all three clients' sides. Only the composition root and the CLI hold the whole. */
export interface SearchEngine extends SearchReader, CatalogWriter, EngineAdmin {}
