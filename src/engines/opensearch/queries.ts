/**
 * Query DSL of the OpenSearch adapter: MPN lookups, BM25 text search, kNN and facet aggregations,
 * each matching the SQLite adapter's semantics (src/engines/sqlite/engine.ts).
 */
import { normaliseMpn } from '../../catalog/mpn.ts';
import { fuzzyEdits } from '../mpn-tiers.ts';
import { NEIGHBOURS_MAX_KEY, oneEditNeighbours } from '../mpn-neighbours.ts';
import type { EngineFilters, FacetResult, MpnMode, SpecValueFacet } from '../port.ts';
import { filtered, filterQuery, type Dsl } from './filters.ts';
import { keySort } from './documents.ts';
import { VECTOR_FIELD } from './mappings.ts';

/** Longest prefix the edge n-gram subfields hold (parts.json mpn_edge_grams.max_gram). */
export const EDGE_MAX = 32;

// ---------------------------------------------------------------------------------------------
// MPN lookups

/** The key query for exact/prefix on a key field (`mpn_norm` or `alias_keys.key`). */
export function keyClause(field: string, key: string, mode: 'exact' | 'prefix'): Dsl {
  if (mode === 'exact') return { term: { [field]: key } };
  // Edge n-grams hold every prefix up to EDGE_MAX: one term lookup; longer keys use a prefix query.
  return key.length <= EDGE_MAX ? { match: { [`${field}.edge`]: { query: key } } } : { prefix: { [field]: key } };
}

/** Shorter key first, then lexicographic, then id: the SQLite adapter's ORDER BY length(k), k, id. */
export const KEY_ORDER: Dsl[] = [{ mpn_len: 'asc' }, { mpn_norm: 'asc' }, { id: 'asc' }];

export function mpnKeyQuery(key: string, mode: 'exact' | 'prefix', filters: EngineFilters, limit: number): Dsl {
  return {
    size: limit,
    track_total_hits: false,
    _source: ['id', 'mpn_norm'],
    query: filtered(filters, [{ constant_score: { filter: keyClause('mpn_norm', key, mode) } }]),
    sort: KEY_ORDER,
  };
}

/** Alias matches, ordered by the best matching alias (length, then key) through a nested sort. */
export function aliasKeyQuery(key: string, mode: 'exact' | 'prefix', filters: EngineFilters, limit: number): Dsl {
  const match = keyClause('alias_keys.key', key, mode);
  return {
    size: limit,
    track_total_hits: false,
    _source: ['id', 'aliases_norm'],
    query: filtered(filters, [{ nested: { path: 'alias_keys', query: match, score_mode: 'none' } }]),
    sort: [{ 'alias_keys.sort': { order: 'asc', mode: 'min', nested: { path: 'alias_keys', filter: match } } }, { id: 'asc' }],
  };
}

const WILDCARD_SPECIAL = /[*?\\]/g;

/** Substring of the MPN key: a phrase of its trigrams (exact substring), a scan for shorter keys. */
export function infixQuery(key: string, filters: EngineFilters, limit: number): Dsl {
  const clause =
    key.length >= 3
      ? { match_phrase: { 'mpn_norm.infix': { query: key } } }
      : { wildcard: { mpn_norm: { value: `*${key.replace(WILDCARD_SPECIAL, '\\$&')}*` } } };
  return {
    size: limit,
    track_total_hits: false,
    _source: ['id', 'mpn_norm'],
    query: filtered(filters, [{ constant_score: { filter: clause } }]),
    sort: KEY_ORDER,
  };
}

/** Parts whose key or an alias key is one edit from `key`, by key (the fuzzy mode's first look). */
export function oneEditQuery(key: string, filters: EngineFilters, limit: number): Dsl {
  return {
    size: limit,
    track_total_hits: false,
    _source: ['id', 'mpn_norm', 'aliases_norm'],
    query: filtered(filters, [{ constant_score: { filter: neighboursClause(key) } }]),
    sort: KEY_ORDER,
  };
}

/** Candidates the fuzzy mode verifies client-side (the SQLite adapter reads 400 trigram matches). */
export const FUZZY_CANDIDATES = 400;

/**
 * Fuzzy candidates: keys within `maxEdits` (Lucene, with transpositions) that also share a trigram
 * with the key, like the SQLite adapter's trigram candidates. The caller verifies with editDistance.
 */
export function fuzzyQuery(key: string, maxEdits: number, filters: EngineFilters): Dsl {
  return {
    size: FUZZY_CANDIDATES,
    track_total_hits: false,
    _source: ['id', 'mpn_norm'],
    query: filtered(filters, [
      { fuzzy: { mpn_norm: { value: key, fuzziness: maxEdits, transpositions: true, prefix_length: 0, max_expansions: 256 } } },
      { constant_score: { filter: { match: { 'mpn_norm.infix': { query: key } } }, boost: 0 } },
    ]),
  };
}

/**
 * Tier scores of mpnSearchQuery (dis_max: a part scores by its best clause). Fuzzy keeps its own
 * Lucene score (similarity x idf, at most ~14 at 600k parts), always below infix.
 */
export const MPN_TIER_SCORE = { exact: 100, aliasExact: 90, variant: 80, aliasVariant: 75, prefix: 60, aliasPrefix: 50, infix: 20, oneEdit: 15 } as const;

/** Parts whose key or an alias key is one edit from `key` (mpn-neighbours.ts). */
export function neighboursClause(key: string): Dsl {
  const near = oneEditNeighbours(key);
  return { bool: { should: [{ terms: { mpn_norm: near } }, { terms: { aliases_norm: near } }], minimum_should_match: 1 } };
}

/**
 * MPN search as one bool query (the tiers of src/engines/mpn-tiers.ts): a dis_max of a high-boost
 * exact term, alias terms, edge n-gram prefix clauses (split at the variant suffix length through
 * mpn_len and the alias sort key), the n-gram infix phrase and a bounded fuzzy clause (also sharing a
 * trigram, like the SQLite candidates), under the filters; best tier first, then shorter key. The
 * caller assigns tiers from the returned keys and drops fuzzy hits when a stronger tier matched.
 * `fuzzy`: 'with' (default) the whole bool; 'without' / 'only' split it in two requests.
 */
export function mpnSearchQuery(
  key: string,
  filters: EngineFilters,
  size: number,
  opts: { variantMax: number; infixMin: number; fuzzyMin: number; fuzzyEdits: number; fuzzy?: 'with' | 'only' | 'without' },
): Dsl {
  const fuzzy = opts.fuzzy ?? 'with';
  const scored = (boost: number, filter: Dsl | Dsl[]) => ({ constant_score: { filter: Array.isArray(filter) ? { bool: { filter } } : filter, boost } });
  const longest = keySort(`${key}${'x'.repeat(opts.variantMax + 1)}`).slice(0, 4);
  const clauses: Dsl[] =
    fuzzy === 'only'
      ? []
      : [
          scored(MPN_TIER_SCORE.exact, { term: { mpn_norm: key } }),
          scored(MPN_TIER_SCORE.aliasExact, { term: { aliases_norm: key } }),
          scored(MPN_TIER_SCORE.variant, [keyClause('mpn_norm', key, 'prefix'), { range: { mpn_len: { lte: key.length + opts.variantMax } } }]),
          scored(MPN_TIER_SCORE.aliasVariant, {
            nested: {
              path: 'alias_keys',
              score_mode: 'none',
              query: { bool: { filter: [keyClause('alias_keys.key', key, 'prefix'), { range: { 'alias_keys.sort': { lt: longest } } }] } },
            },
          }),
          scored(MPN_TIER_SCORE.prefix, keyClause('mpn_norm', key, 'prefix')),
          scored(MPN_TIER_SCORE.aliasPrefix, keyClause('aliases_norm', key, 'prefix')),
        ];
  if (key.length >= opts.infixMin && fuzzy !== 'only') clauses.push(scored(MPN_TIER_SCORE.infix, { match_phrase: { 'mpn_norm.infix': { query: key } } }));
  if (key.length >= opts.fuzzyMin && fuzzy !== 'without') {
    // Keys one edit away, exactly (mpn-neighbours.ts): a transposition in a short key shares no trigram.
    if (key.length <= NEIGHBOURS_MAX_KEY) clauses.push(scored(MPN_TIER_SCORE.oneEdit, neighboursClause(key)));
    clauses.push({
      bool: {
        must: [{ fuzzy: { mpn_norm: { value: key, fuzziness: opts.fuzzyEdits, transpositions: true, prefix_length: 0, max_expansions: 50 } } }],
        filter: [{ match: { 'mpn_norm.infix': { query: key } } }],
      },
    });
  }
  return {
    size,
    track_total_hits: false,
    // Id and keys from doc values: no stored field is read (records.ts ID_ONLY).
    _source: false,
    stored_fields: '_none_',
    docvalue_fields: ['id', 'mpn_norm', 'aliases_norm'],
    query: filtered(filters, [{ dis_max: { queries: clauses, tie_breaker: 0 } }]),
    sort: [{ _score: 'desc' }, ...KEY_ORDER],
  };
}

export function keyMatches(candidate: string, key: string, mode: MpnMode): boolean {
  return mode === 'exact' ? candidate === key : candidate.startsWith(key);
}

// ---------------------------------------------------------------------------------------------
// Text search

export { textTokens } from '../text-tokens.ts';

/** The SQLite adapter's FTS column weights (schema.ts FTS_COLUMNS), as field boosts. */
const TEXT_FIELDS = ['mpn_text^10', 'manufacturer.name^4', 'description^3', 'long_description^1', 'category.names^2', 'package^3', 'specs_text^1.5'];
/** Stemmed subfields: scoring only (inside a bool with a must, should clauses never widen the set). */
const STEMMED_FIELDS = ['description.en^1.5', 'long_description.en^0.5', 'category.names.en^1', 'specs_text.en^0.75'];

/**
 * MPN-looking tokens (3+ key characters, one a digit) add a bool of a high-boost exact clause,
 * an edge n-gram prefix, an n-gram infix and a bounded fuzzy clause: ranking only.
 */
function mpnBoosts(tokens: string[]): Dsl[] {
  const keys = [...new Set(tokens.map(normaliseMpn))].filter((k) => k.length >= 3 && /\p{N}/u.test(k)).slice(0, 4);
  return keys.map((key) => ({
    bool: {
      should: [
        { term: { mpn_norm: { value: key, boost: 20 } } },
        { term: { aliases_norm: { value: key, boost: 10 } } },
        ...(key.length <= EDGE_MAX ? [{ match: { 'mpn_norm.edge': { query: key, boost: 4 } } }] : []),
        { match_phrase: { 'mpn_norm.infix': { query: key, boost: 1 } } },
        {
          fuzzy: {
            mpn_norm: { value: key, fuzziness: fuzzyEdits(key), prefix_length: 1, max_expansions: 10, boost: 1 },
          },
        },
      ],
    },
  }));
}

/**
 * The set: parts where any token matches any text field (the SQLite OR of tokens); score: BM25
 * with the SQLite column weights, plus stemmed and MPN ranking clauses.
 */
export function textQuery(tokens: string[], filters: EngineFilters): Dsl {
  const query = tokens.join(' ');
  return filtered(
    filters,
    [{ multi_match: { query, type: 'most_fields', operator: 'or', fields: TEXT_FIELDS } }],
    [{ multi_match: { query, type: 'most_fields', operator: 'or', fields: STEMMED_FIELDS } }, ...mpnBoosts(tokens)],
  );
}

export const SCORE_ORDER: Dsl[] = [{ _score: 'desc' }, { id: 'asc' }];
/** Without text: most stock first (the SQLite adapter's ORDER BY stock DESC, id). */
export const STOCK_ORDER: Dsl[] = [{ stock: 'desc' }, { id: 'asc' }];

// ---------------------------------------------------------------------------------------------
// kNN

/**
 * Fewest candidates the graph search keeps (ef_search). Left alone, the Lucene engine searches with
 * ef = k, and a small k over a graph split in several segments can miss the true nearest (a k = 3
 * query of the contract suite did, once, under load); agentic search asks for 100 or more.
 */
export const KNN_EF_SEARCH_MIN = 100;

/** Lucene efficient filtering: the filter sits inside the knn clause and is applied during the search. */
export function knnQuery(vector: Float32Array, k: number, filters: EngineFilters): Dsl {
  const clause: Dsl = { vector: Array.from(vector), k, method_parameters: { ef_search: Math.max(k, KNN_EF_SEARCH_MIN) } };
  const f = filterQuery(filters);
  if (f) clause.filter = f;
  return { size: k, track_total_hits: false, _source: false, query: { knn: { [VECTOR_FIELD]: clause } } };
}

/** Lucene cosinesimil scores are (1 + cos) / 2; the port wants the cosine itself. */
export function cosineFromScore(score: number): number {
  return Math.max(-1, Math.min(1, 2 * score - 1));
}

// ---------------------------------------------------------------------------------------------
// Facets

/** Enough buckets for every spec name of the catalogue (~2,000 today). */
const SPEC_NAME_BUCKETS = 10_000;
const COUNT_THEN_KEY = [{ _count: 'desc' }, { _key: 'asc' }];

/** Keys whose value buckets a facet request asks for: spec names and canonical attribute ids. */
export interface FacetKeys {
  names: readonly string[];
  attributes: readonly string[];
}

export function facetAggs(keys: FacetKeys, size: number): Dsl {
  const aggs: Dsl = {
    spec_names: { terms: { field: 'spec_names', size: SPEC_NAME_BUCKETS } },
    spec_attributes: { terms: { field: 'spec_attributes', size: SPEC_NAME_BUCKETS } },
    manufacturers: { terms: { field: 'manufacturer.slug', size, order: COUNT_THEN_KEY } },
    categories: { terms: { field: 'category.slug', size, order: COUNT_THEN_KEY } },
  };
  const units: Dsl = {};
  const valueAggs = (prefix: string, field: string, list: readonly string[]) =>
    list.forEach((key, i) => {
      const named = { term: { [field]: key } };
      aggs[`${prefix}_${i}`] = {
        nested: { path: 'specs' },
        aggs: {
          named: {
            filter: named,
            aggs: {
              // Parts, not spec rows: reverse_nested counts each part once per value.
              values: {
                terms: { field: 'specs.value', size, order: [{ parts: 'desc' }, { _key: 'asc' }] },
                aggs: { parts: { reverse_nested: {} } },
              },
              min: { min: { field: 'specs.min' } },
              max: { max: { field: 'specs.max' } },
            },
          },
        },
      };
      units[`unit_${prefix}_${i}`] = { filter: named, aggs: { unit: { terms: { field: 'specs.unit', size: 1, order: COUNT_THEN_KEY } } } };
    });
  valueAggs('spec', 'specs.name', keys.names);
  valueAggs('attr', 'specs.attribute', keys.attributes);
  // The most common unit of a spec (or attribute) over the whole version, as the SQLite adapter computes it.
  if (Object.keys(units).length) aggs.units = { global: {}, aggs: { specs: { nested: { path: 'specs' }, aggs: units } } };
  return aggs;
}

interface Bucket {
  key: string;
  doc_count: number;
  parts?: { doc_count: number };
}
interface Terms {
  buckets: Bucket[];
}

export function parseFacets(total: number, aggs: Record<string, unknown>, keys: FacetKeys): FacetResult {
  const terms = (name: string) => (aggs[name] as Terms | undefined)?.buckets ?? [];
  const counts = (name: string) => {
    const out: Record<string, number> = {};
    for (const b of [...terms(name)].sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) out[b.key] = b.doc_count;
    return out;
  };
  const units = (aggs.units as { specs?: Record<string, { unit?: Terms }> } | undefined)?.specs ?? {};
  const valueFacets = (prefix: string, list: readonly string[]) => {
    const values: Record<string, SpecValueFacet> = {};
    list.forEach((key, i) => {
      const named = (aggs[`${prefix}_${i}`] as { named?: Record<string, unknown> } | undefined)?.named ?? {};
      const vals = (named.values as Terms | undefined)?.buckets ?? [];
      const min = (named.min as { value: number | null } | undefined)?.value ?? null;
      const max = (named.max as { value: number | null } | undefined)?.value ?? null;
      values[key] = {
        values: vals.map((b) => ({ value: b.key, count: b.parts?.doc_count ?? b.doc_count })),
        min,
        max,
        unit: units[`unit_${prefix}_${i}`]?.unit?.buckets[0]?.key ?? null,
      };
    });
    return values;
  };
  return {
    total,
    specNames: counts('spec_names'),
    attributes: counts('spec_attributes'),
    specValues: valueFacets('spec', keys.names),
    attributeValues: valueFacets('attr', keys.attributes),
    manufacturers: terms('manufacturers').map((b) => ({ slug: b.key, count: b.doc_count })),
    categories: terms('categories').map((b) => ({ slug: b.key, count: b.doc_count })),
  };
}
