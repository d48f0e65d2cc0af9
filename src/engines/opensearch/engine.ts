/**
 * OpenSearch adapter of the search-engine port. Parts live in versioned indices behind the alias
 * `<prefix>-parts`; queries go to the alias, so a swap made by another process (an ingest) is seen
 * by the next query. Catalogue snapshots and the version counter live in `<prefix>-meta`.
 * Index layout: index-mappings/; naming and swaps: indices.ts; bulk load: loader.ts; list membership:
 * list-membership.ts; lookups by slug: slugs.ts.
 * Semantics follow the SQLite adapter (src/engines/sqlite/engine.ts); see queries.ts.
 */
import type { CatalogMeta } from '../../catalog/meta.ts';
import type { PartRecord } from '../../catalog/part.ts';
import { editDistance } from '../../catalog/edit-distance.ts';
import type {
  EngineFilters,
  EngineInfo,
  FacetRequest,
  FacetResult,
  MpnCandidate,
  MpnHit,
  MpnLookupRequest,
  MpnSearchRequest,
  MpnTier,
  SearchEngine,
  TextSearchRequest,
  TextSearchResult,
  VectorHit,
} from '../port.ts';
import { createClient, OpenSearchError, type OsClient, type OsClientOptions } from './client.ts';
import { keySort } from './documents.ts';
import { filtered, type Dsl } from './filters.ts';
import { indexNames, liveIndex, pointers, swapAlias, writePointers } from './indices.ts';
import { createOpenSearchLoader } from './loader.ts';
import { createOpenSearchBackfill } from './backfill.ts';
import { setListMembership } from './list-membership.ts';
import { page, type SearchResponse } from './paging.ts';
import { createRecordStore, hitId, ID_ONLY } from './records.ts';
import { withRecord } from '../lazy-record-hit.ts';
import { createSlugLookups } from './slugs.ts';
import { FUZZY_MIN_KEY, fuzzyEdits, INFIX_MIN_KEY, VARIANT_SUFFIX_MAX } from '../mpn-tiers.ts';
import { NEIGHBOURS_MAX_KEY } from '../mpn-neighbours.ts';
import { metaIndexBody } from './mappings.ts';
import { DEFAULT_LAYOUT, type OpenSearchConnection, type OpenSearchIndexLayout } from './options.ts';
import {
  aliasKeyQuery,
  cosineFromScore,
  facetAggs,
  fuzzyQuery,
  infixQuery,
  keyMatches,
  knnQuery,
  mpnKeyQuery,
  mpnSearchQuery,
  oneEditQuery,
  parseFacets,
  SCORE_ORDER,
  STOCK_ORDER,
  textQuery,
  textTokens,
} from './queries.ts';

export interface OpenSearchEngineOptions {
  /** The cluster: its nodes, TLS, auth, sniffing (options.ts). Either this or `url`. */
  connection?: OpenSearchConnection;
  /** One URL or a comma-separated list; credentials in it (https://user:pass@host:9200) become Basic auth. */
  url?: string;
  /** Prefix of every index and alias this engine owns. */
  prefix: string;
  /** Retry and timeout tuning (tests). */
  client?: OsClientOptions;
  /** MPN search: the fuzzy clause in the one bool query instead of a follow-up request (see mpnSearch). */
  mpnFuzzyInQuery?: boolean;
  /** Segments a loaded version is merged down to before it goes live (loader.ts; default 1, 0: none). */
  mergeSegments?: number;
  /** Loads derive the new version from the live one when they can (derive.ts; default true; false: always from scratch). */
  deriveVersions?: boolean;
  /** Parsed records kept for searches' hits (records.ts; default 20,000, 0: none). */
  recordCacheSize?: number;
  /** Shards and replicas of each parts version, and how long a load waits for them (default DEFAULT_LAYOUT). */
  layout?: OpenSearchIndexLayout;
  /**
   * Which shard copies searches and record reads prefer (OpenSearch's `preference`). Default `_local`:
   * a copy on the node asked when it holds one, sparing a hop between nodes (MPN search p50 on three
   * nodes 1.30 -> 1.18 times one node's, bench/README.md); null: adaptive replica selection.
   */
  searchPreference?: string | null;
}

/** Lucene's k-NN limit. */
const MAX_K = 10_000;

export function createOpenSearchEngine(opts: OpenSearchEngineOptions): SearchEngine {
  const fuzzyInQuery = opts.mpnFuzzyInQuery ?? process.env.MPN_FUZZY_IN_QUERY === '1';
  const target = opts.connection ?? opts.url;
  if (target === undefined) throw new TypeError('createOpenSearchEngine needs a connection or a url');
  const client: OsClient = createClient(target, opts.client);
  const names = indexNames(opts.prefix);
  // Searches answer with every shard's hits or fail (never a partial 200).
  const pref = opts.searchPreference === undefined ? '_local' : opts.searchPreference;
  const readParams: Record<string, string> = { allow_partial_search_results: 'false', ...(pref ? { preference: pref } : {}) };
  const recordStore = createRecordStore({ client, names, cacheSize: opts.recordCacheSize, readParams });
  let initialising: Promise<void> | null = null;
  let closed = false;
  let metaCache: { index: string; seqNo: number; term: number; meta: CatalogMeta } | null = null;

  function open(): void {
    if (closed) throw new Error('the OpenSearch engine is closed');
  }

  async function createMetaIndex(): Promise<void> {
    await client.send({ method: 'GET', path: '/' });
    const exists = await client.request({ method: 'HEAD', path: `/${names.meta}`, allow: [404] });
    if (exists !== null) return;
    try {
      await client.send({ method: 'PUT', path: `/${names.meta}`, body: metaIndexBody() });
    } catch (e) {
      if (!(e instanceof OpenSearchError && e.type === 'resource_already_exists_exception')) throw e;
    }
  }

  function init(): Promise<void> {
    open();
    initialising ??= createMetaIndex().catch((e: unknown) => {
      initialising = null;
      throw e;
    });
    return initialising;
  }

  /**
   * A search on the live alias; null when nothing is live yet. A shard none of whose copies answered
   * fails the search (retried by the client) instead of leaving its hits out of a 200.
   */
  async function search(body: Dsl, index = names.alias): Promise<SearchResponse | null> {
    open();
    return client.request<SearchResponse>({ method: 'POST', path: `/${index}/_search`, query: readParams, body, allow: [404] });
  }
  const slugs = createSlugLookups((body) => search(body));

  async function mpnLookup(req: MpnLookupRequest): Promise<MpnHit[]> {
    open();
    if (!req.key) return [];
    const filters = req.filters ?? {};
    const limit = Math.max(1, req.limit);
    const hits = new Map<number, MpnHit>();
    const add = (id: number, matched: string, alias: boolean) => {
      if (!hits.has(id)) hits.set(id, { id, matched, alias });
    };
    const key = req.key;

    if (req.mode === 'exact' || req.mode === 'prefix') {
      const mode = req.mode;
      const withAliases = req.aliases ?? true;
      const [direct, aliased] = await Promise.all([
        search(mpnKeyQuery(key, mode, filters, limit)),
        withAliases ? search(aliasKeyQuery(key, mode, filters, limit)) : Promise.resolve(null),
      ]);
      for (const h of direct?.hits.hits ?? []) add(hitId(h), String(h._source?.mpn_norm ?? ''), false);
      if (hits.size < limit) {
        for (const h of aliased?.hits.hits ?? []) {
          // The alias the nested sort ordered by: the shortest, then lowest, matching key.
          const keys = ((h._source?.aliases_norm as string[] | undefined) ?? []).filter((k) => keyMatches(k, key, mode));
          const best = keys.sort((a, b) => (keySort(a) < keySort(b) ? -1 : 1))[0];
          if (best !== undefined) add(hitId(h), best, true);
        }
      }
      return [...hits.values()].slice(0, limit);
    }

    if (req.mode === 'infix') {
      // Like the SQLite adapter, infix looks at the part's own MPN key only.
      const r = await search(infixQuery(key, filters, limit));
      for (const h of r?.hits.hits ?? []) add(hitId(h), String(h._source?.mpn_norm ?? ''), false);
      return [...hits.values()];
    }

    // fuzzy: a short key's keys one edit away, looked up exactly (mpn-neighbours.ts); when there are none,
    // candidates sharing a trigram, verified by edit distance <= 2 (1 for keys of 4 characters)
    if (key.length < 3) return [];
    if (key.length <= NEIGHBOURS_MAX_KEY) {
      const r = await search(oneEditQuery(key, filters, limit));
      const one = (r?.hits.hits ?? []).flatMap((h) => {
        const own = String(h._source?.mpn_norm ?? '');
        if (editDistance(key, own, 1) <= 1) return [{ id: hitId(h), k: own, alias: false }];
        const alias = ((h._source?.aliases_norm as string[] | undefined) ?? []).find((a) => editDistance(key, a, 1) <= 1);
        return alias === undefined ? [] : [{ id: hitId(h), k: alias, alias: true }];
      });
      one.sort(
        (a, b) =>
          Number(a.alias) - Number(b.alias) ||
          Math.abs(a.k.length - key.length) - Math.abs(b.k.length - key.length) ||
          (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id - b.id),
      );
      for (const c of one) add(c.id, c.k, c.alias);
      if (hits.size > 0) return [...hits.values()].slice(0, limit);
    }
    const maxEdits = fuzzyEdits(key);
    const r = await search(fuzzyQuery(key, maxEdits, filters));
    const scored = (r?.hits.hits ?? [])
      .map((h) => ({ id: hitId(h), k: String(h._source?.mpn_norm ?? '') }))
      .map((c) => ({ ...c, d: editDistance(key, c.k, maxEdits) }))
      .filter((c) => c.d <= maxEdits)
      .sort((a, b) => a.d - b.d || Math.abs(a.k.length - key.length) - Math.abs(b.k.length - key.length) || (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id - b.id));
    for (const c of scored) add(c.id, c.k, false);
    return [...hits.values()].slice(0, limit);
  }

  /**
   * MPN search in one request (queries.ts mpnSearchQuery); tiers are assigned here from the keys the
   * hits carry, in the order of tieredMpnSearch (the SQLite adapter), which the contract suite checks.
   */
  async function mpnSearch(req: MpnSearchRequest): Promise<MpnCandidate[]> {
    open();
    const { key } = req;
    const limit = req.limit;
    if (!key || limit <= 0) return [];
    const maxEdits = fuzzyEdits(key);
    const query = (fuzzy: 'with' | 'only' | 'without') =>
      search(
        mpnSearchQuery(key, req.filters ?? {}, limit * 5, {
          variantMax: VARIANT_SUFFIX_MAX,
          infixMin: INFIX_MIN_KEY,
          fuzzyMin: FUZZY_MIN_KEY,
          fuzzyEdits: maxEdits,
          fuzzy,
        }),
      );
    // The fuzzy clause costs more than all the others together at 578k parts (its automaton walks
    // the whole term dictionary) and only counts when nothing stronger matched: by default it is
    // asked for in a second request when the first found nothing (MPN_FUZZY_IN_QUERY=1: one request).
    let r = await query(fuzzyInQuery ? 'with' : 'without');
    if (!fuzzyInQuery && !r?.hits.hits.length && key.length >= FUZZY_MIN_KEY) r = await query('only');
    const byKey = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
    const near = (k: string) => k.length - key.length <= VARIANT_SUFFIX_MAX;
    /** Tier of a hit, and its rank: the tier, split like tieredMpnSearch orders within it. */
    const classify = (mpn: string, aliases: string[]): { tier: MpnTier; matched: string; rank: number } | null => {
      if (mpn === key) return { tier: 'exact', matched: mpn, rank: 0 };
      if (aliases.includes(key)) return { tier: 'variant', matched: key, rank: 1 };
      // A part's own MPN key wins over its aliases for the prefix tiers.
      if (mpn.startsWith(key)) return near(mpn) ? { tier: 'variant', matched: mpn, rank: 2 } : { tier: 'prefix', matched: mpn, rank: 4 };
      const alias = aliases.filter((a) => a.startsWith(key)).sort(byKey)[0];
      if (alias !== undefined) return near(alias) ? { tier: 'variant', matched: alias, rank: 3 } : { tier: 'prefix', matched: alias, rank: 5 };
      if (key.length >= INFIX_MIN_KEY && mpn.includes(key)) return { tier: 'infix', matched: mpn, rank: 6 };
      if (key.length < FUZZY_MIN_KEY) return null;
      // The closest of its keys (a one-edit alias key counts as one edit).
      const closest = [mpn, ...aliases].sort((a, b) => editDistance(key, a, maxEdits) - editDistance(key, b, maxEdits))[0]!;
      return { tier: 'fuzzy', matched: closest, rank: 7 };
    };
    const found: { c: MpnCandidate; rank: number; d: number }[] = [];
    for (const h of r?.hits.hits ?? []) {
      const hit = classify(String(h.fields?.mpn_norm?.[0] ?? ''), (h.fields?.aliases_norm as string[] | undefined) ?? []);
      if (!hit) continue;
      const d = hit.tier === 'fuzzy' ? editDistance(key, hit.matched, maxEdits) : 0;
      if (d > maxEdits) continue;
      found.push({ c: { id: hitId(h), tier: hit.tier, matched: hit.matched }, rank: hit.rank, d });
    }
    const strong = found.some((x) => x.c.tier !== 'fuzzy');
    // Keys one edit away are the answer when there are some (as the SQLite adapter's fuzzy lookup).
    const closest = Math.min(...found.map((x) => x.d));
    return found
      .filter((x) => !strong || x.c.tier !== 'fuzzy')
      .filter((x) => x.c.tier !== 'fuzzy' || x.d === closest)
      .sort(
        (a, b) =>
          a.rank - b.rank ||
          a.d - b.d ||
          // fuzzy: closest length, then key (the SQLite adapter's order); other tiers: shorter key first
          (a.rank === 7
            ? Math.abs(a.c.matched.length - key.length) - Math.abs(b.c.matched.length - key.length) ||
              (a.c.matched < b.c.matched ? -1 : a.c.matched > b.c.matched ? 1 : 0)
            : byKey(a.c.matched, b.c.matched)) ||
          a.c.id - b.c.id,
      )
      .slice(0, limit)
      .map((x) => x.c);
  }

  async function textSearch(req: TextSearchRequest): Promise<TextSearchResult> {
    open();
    const tokens = req.text ? textTokens(req.text) : null;
    if (req.text && !tokens?.length) return { total: 0, hits: [] };
    const scored = tokens !== null;
    const fetch = req.records ? await recordStore.recordFields() : ID_ONLY;
    const body: Dsl = {
      ...fetch,
      docvalue_fields: ['category.slug', ...(fetch.docvalue_fields as string[])],
      query: scored ? textQuery(tokens, req.filters) : filtered(req.filters),
      sort: scored ? SCORE_ORDER : STOCK_ORDER,
    };
    const { total, hits } = await page(search, body, Math.max(0, req.offset), Math.max(0, req.limit), req.exactTotal !== false);
    const records = req.records ? await recordStore.hitRecords(hits) : null;
    return {
      total,
      hits: hits.map((h) => {
        const id = hitId(h);
        const hit = {
          id,
          score: scored ? Number(h.sort?.[0] ?? h._score ?? 0) : 0,
          category: (h.fields?.['category.slug']?.[0] as string | undefined) ?? null,
        };
        return withRecord(hit, records?.get(id));
      }),
    };
  }

  async function knn(vector: Float32Array, k: number, filters: EngineFilters, opts: { records?: boolean } = {}): Promise<VectorHit[]> {
    open();
    const shape = k > 0 ? await recordStore.liveShape() : null;
    if (!shape?.vectors) return [];
    let r: SearchResponse | null;
    try {
      const query = knnQuery(vector, Math.min(k, MAX_K), filters);
      r = await search({ ...query, ...(opts.records ? await recordStore.recordFields() : ID_ONLY) });
    } catch (e) {
      if (!(e instanceof OpenSearchError && e.status === 400 && JSON.stringify(e.body).includes('is not knn_vector type'))) throw e;
      recordStore.forgetShape();
      return [];
    }
    const hits = (r?.hits.hits ?? []).slice(0, k);
    const records = opts.records ? await recordStore.hitRecords(hits) : null;
    return hits.map((h) => {
      const id = hitId(h);
      return withRecord({ id, score: cosineFromScore(h._score ?? 0) }, records?.get(id));
    });
  }

  async function facets(req: FacetRequest): Promise<FacetResult> {
    open();
    const empty: FacetResult = { total: 0, specNames: {}, attributes: {}, specValues: {}, attributeValues: {}, manufacturers: [], categories: [] };
    const tokens = req.text ? textTokens(req.text) : null;
    if (req.text && !tokens?.length) return empty;
    const keys = { names: [...new Set(req.specValues ?? [])], attributes: [...new Set(req.attributeValues ?? [])] };
    const r = await search({
      size: 0,
      track_total_hits: true,
      query: tokens ? textQuery(tokens, req.filters) : filtered(req.filters),
      aggs: facetAggs(keys, req.size ?? 20),
    });
    if (!r) return empty;
    return parseFacets(r.hits.total?.value ?? 0, r.aggregations ?? {}, keys);
  }

  async function getParts(ids: readonly number[]): Promise<PartRecord[]> {
    open();
    return recordStore.getParts(ids);
  }

  async function meta(): Promise<CatalogMeta | null> {
    open();
    const live = await liveIndex(client, names, { local: true });
    if (!live) return null;
    const path = `/${names.meta}/_doc/${encodeURIComponent(live)}`;
    // The snapshot can be large: re-read it only when its sequence number moved.
    if (metaCache?.index === live) {
      const head = await client.request<{ found: boolean; _seq_no: number; _primary_term: number }>({
        method: 'GET',
        path,
        query: { _source: 'false' },
        allow: [404],
      });
      if (head?.found && head._seq_no === metaCache.seqNo && head._primary_term === metaCache.term) return metaCache.meta;
    }
    const doc = await client.request<{ found: boolean; _seq_no: number; _primary_term: number; _source?: { meta?: CatalogMeta } }>({
      method: 'GET',
      path,
      allow: [404],
    });
    const m = doc?.found ? (doc._source?.meta ?? null) : null;
    metaCache = m && doc ? { index: live, seqNo: doc._seq_no, term: doc._primary_term, meta: m } : null;
    return m;
  }

  const engine: SearchEngine = {
    kind: 'opensearch',
    concurrentReads: true,
    init,
    async info(): Promise<EngineInfo> {
      open();
      const p = await pointers(client, names);
      if (!p.live) return { kind: 'opensearch', version: null, previous: p.previous, parts: 0, vectors: false };
      const [count, vectors, m] = await Promise.all([
        client.send<{ count: number }>({ method: 'GET', path: `/${p.live}/_count` }),
        recordStore.mappedFields(p.live).then((m) => m.vectors),
        meta(),
      ]);
      // Vectors still being filled (vector-backfill.ts) are not searched yet.
      return { kind: 'opensearch', version: p.live, previous: p.previous, parts: count.count, vectors: vectors && !m?.embedding.pending };
    },
    meta,
    async saveMeta(m) {
      await init();
      const live = await liveIndex(client, names);
      if (!live) throw new Error('no live index version to attach the catalogue snapshot to');
      await client.send({
        method: 'PUT',
        path: `/${names.meta}/_doc/${encodeURIComponent(live)}`,
        query: { refresh: 'true' },
        body: { kind: 'catalog_meta', version: live, updated_at: new Date().toISOString(), meta: { ...m, version: live } },
      });
      metaCache = null;
    },
    mpnLookup,
    mpnSearch,
    textSearch,
    knn,
    facets,
    getParts,
    getPartBySlug: slugs.getPartBySlug,
    escapedSlugs: slugs.escapedSlugs,
    async beginLoad(o) {
      await init();
      const loader = await createOpenSearchLoader({ client, names, layout: opts.layout ?? DEFAULT_LAYOUT }, o.embeddingDims, {
        mergeSegments: opts.mergeSegments ?? 1,
        derive: opts.deriveVersions,
      });
      // The finished load swaps the live version: what was remembered of the old one goes.
      const finish = loader.finish.bind(loader);
      return Object.assign(loader, {
        async finish(m: CatalogMeta, expected: number) {
          try {
            return await finish(m, expected);
          } finally {
            recordStore.forgetShape();
          }
        },
      });
    },
    backfill: createOpenSearchBackfill({
      client,
      names,
      onChange: () => {
        metaCache = null;
      },
    }),
    async rollback() {
      await init();
      const p = await pointers(client, names);
      if (!p.live || !p.previous) throw new Error('there is no previous index version to roll back to');
      await swapAlias(client, names, p.live, p.previous);
      await writePointers(client, names, p.previous, p.live);
      metaCache = null;
      recordStore.forgetShape();
      return { from: p.live, to: p.previous };
    },
    async setListMembership(listId, partIds) {
      open();
      await setListMembership({ client, names, search }, listId, partIds);
    },
    async close() {
      closed = true;
      metaCache = null;
      client.close();
    },
  };
  return engine;
}
