/**
 * The GraphQL schema (SPEC.md names the queries, not their shape: README "GraphQL" documents the choices).
 *
 * Every query runs the same code as its REST counterpart, so the two cannot drift:
 *   supSearchMpn    GET  /v1/parts/search?mpn=          paid: one unit per part returned
 *   supSearch       POST /v1/parts/search (+ /facets)   paid: one unit per part in `results`;
 *                                                       `aggregations` are free and computed only when selected
 *   supMultiMatch   POST /v1/parts/match/batch          paid: one unit per part returned
 *   supParts        GET  /v1/parts/{mfr}/{mpn}, by id   paid: one unit per part found
 *   supManufacturers manufacturer match / detail        free
 *   supCategories   category browse / match / detail    free
 * Field names are those of the REST bodies (snake_case), so one vocabulary serves both. Part ids exceed
 * GraphQL's 32-bit Int and are `ID`s (their decimal string). Arguments are validated by JSON Schemas, the
 * REST routes' where the argument is theirs (mpn, filters, BOM lines): a bad one is an error of that field with `extensions.code` validation_error and
 * `extensions.detail` in the validation form, its `loc` starting with the argument's name.
 */
import { buildSchema, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql/index.js';
import { SDL } from './sdl.ts';
import { selectsPath } from './selection.ts';
import type { PartRecord } from '../catalog/part.ts';
import { ApiError, notFound } from '../errors.ts';
import { loadedCatalog, presentCategory, trimSlashes } from '../service/categories.ts';
import type { Manufacturer } from '../catalog/manufacturers.ts';
import { presentManufacturer } from '../service/manufacturers.ts';
import { batchLinesSchema, matchLines, type BatchLine } from '../service/match.ts';
import { facetCounts, parametricSearch } from '../service/parametric.ts';
import { partResolver } from '../service/part-detail.ts';
import { mpnSchema, mpnSearch } from '../service/mpn-search.ts';
import type { AuthState } from '../accounts/port.ts';
import type { AppServices } from '../service/app-services.ts';
import { compileValidator, type JsonSchema } from '../http/validation.ts';
import { partFiltersSchema, type PartFiltersInput } from '../search/filters.ts';
import { presentPart, type PartSearchResult } from '../search/present.ts';

/** Root fields that cost one `graphql_parts` unit per part they return (SPEC.md Limits). */
export const PAID_FIELDS: ReadonlySet<string> = new Set(['supSearchMpn', 'supSearch', 'supMultiMatch', 'supParts']);
/** Most lines of supMultiMatch in one request (as one POST /v1/parts/match/batch) and parts of supParts. */
export const MAX_MATCH_LINES = batchLinesSchema.maxItems;
export const MAX_PART_REFS = 50;

/** What every resolver of one request sees. */
export interface GraphQLContext extends Record<PropertyKey, unknown> {
  s: AppServices;
  auth: AuthState;
  /** Parts returned by the paid fields so far: the units charged when the operation succeeds. */
  paidParts: number;
  /** Parts the account can still pay for in this request (monthly quota and credit); Infinity when unbounded. */
  allowance: number;
  /** Why results were capped, for the response's `extensions.warnings`. */
  warnings: string[];
  /** Part references (supParts ids and slugs) and BOM lines (supMultiMatch) asked for so far, across fields. */
  refs: number;
  lines: number;
}

export function newContext(s: AppServices, auth: AuthState, allowance: number): GraphQLContext {
  return { s, auth, paidParts: 0, allowance, warnings: [], refs: 0, lines: 0 };
}

/** Takes up to `n` parts from the request's allowance; returns how many may be returned (and are charged). */
function take(ctx: GraphQLContext, n: number): number {
  const k = Math.min(n, ctx.allowance);
  ctx.allowance -= k;
  ctx.paidParts += k;
  return k;
}

const capWarning = (field: string, k: number, n: number) =>
  `${field}: ${k} of ${n} parts returned; the account's remaining graphql_parts allowance (monthly quota or credit) covers no more.`;

/** Whether the field being resolved selects the path of sub-fields (`['results']`), as execution includes them. */
const selects = (info: GraphQLResolveInfo, ...path: string[]) => selectsPath(info.fieldNodes, info.fragments, info.variableValues, path);

/** Counts references asked for across the request's fields; more than `max` is the field's validation_error. */
function budget(ctx: GraphQLContext, kind: 'refs' | 'lines', n: number, max: number, what: string, loc: string): void {
  if (ctx[kind] + n > max) {
    throw new ApiError('validation_error', `At most ${max} ${what} in one request, across fields.`, {
      detail: [{ loc: [loc], msg: `At most ${max} ${what} in one request, across fields`, type: 'too_long', ctx: { max_length: max } }],
    });
  }
  ctx[kind] += n;
}

/** Validates a field's arguments with the JSON Schema of its REST counterpart; errors name the argument. */
function argsValidator(schema: JsonSchema) {
  const v = compileValidator('body', schema);
  return <T>(args: unknown): T => {
    try {
      return v(args) as T;
    } catch (e) {
      if (e instanceof ApiError && e.extra.detail) {
        const detail = e.extra.detail.map((d) => ({ ...d, loc: d.loc.slice(1) }));
        throw new ApiError('validation_error', detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '), { detail });
      }
      throw e;
    }
  };
}

const intIn = (minimum: number, maximum: number, dflt?: number) => ({ type: 'integer', minimum, maximum, ...(dflt !== undefined ? { default: dflt } : {}) });
const strings = (maxItems: number, maxLength = 2600) => ({ type: 'array', maxItems, items: { type: 'string', minLength: 1, maxLength } });

const validate = {
  supSearchMpn: argsValidator({ type: 'object', required: ['mpn'], properties: { mpn: mpnSchema } }),
  supSearch: argsValidator({
    type: 'object',
    properties: { q: { type: ['string', 'null'], maxLength: 500 }, filters: partFiltersSchema, limit: intIn(1, 50), offset: intIn(0, 10000) },
  }),
  aggregations: argsValidator({ type: 'object', properties: { specs: strings(30, 200), size: intIn(1, 100) } }),
  supMultiMatch: argsValidator({ type: 'object', required: ['queries'], properties: { queries: batchLinesSchema } }),
  supParts: argsValidator({
    type: 'object',
    properties: { ids: { ...strings(MAX_PART_REFS), items: { type: 'string', pattern: '^[0-9]{1,20}$' } }, slugs: strings(MAX_PART_REFS) },
  }),
  supManufacturers: argsValidator({
    type: 'object',
    properties: { slugs: strings(100, 200), q: { type: 'string', minLength: 1, maxLength: 500 }, limit: intIn(1, 100) },
  }),
  supCategories: argsValidator({
    type: 'object',
    properties: {
      slugs: strings(100, 1000),
      q: { type: 'string', minLength: 1, maxLength: 500 },
      parent: { type: 'string', maxLength: 1000 },
      limit: intIn(1, 100),
    },
  }),
};

/** GraphQL's null for an absent optional argument, as the REST schemas expect it: left out. */
function defined<T extends Record<string, unknown>>(args: T): T {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)) as T;
}

/** A part as GraphQL shows it: the REST body, ids as ID strings (they exceed GraphQL's 32-bit Int). */
const withIdStrings = (p: PartSearchResult) => ({
  ...p,
  id: String(p.id),
  manufacturer: p.manufacturer && { ...p.manufacturer, id: p.manufacturer.id === null ? null : String(p.manufacturer.id) },
});
const presentForGraphQL = (r: PartRecord) => withIdStrings(presentPart(r));

/**
 * A paid field's parts, capped to the request's allowance and charged, when the query selects them (a
 * query selecting only counts gets no parts and pays nothing); with the warning when capped.
 */
function paidResults(ctx: GraphQLContext, info: GraphQLResolveInfo, field: string, parts: readonly PartRecord[]) {
  if (!selects(info, 'results')) return { results: [], warnings: [] as string[], selected: false };
  const k = take(ctx, parts.length);
  const warnings = k < parts.length ? [capWarning(field, k, parts.length)] : [];
  ctx.warnings.push(...warnings);
  return { results: parts.slice(0, k).map(presentForGraphQL), warnings, selected: true };
}

/** The root resolvers (graphql-js calls a root value's functions with the field's arguments, the context and the field's info). */
function rootResolvers() {
  return {
    async supSearchMpn(raw: { mpn: string }, ctx: GraphQLContext, info: GraphQLResolveInfo) {
      const { mpn } = validate.supSearchMpn<{ mpn: string }>(defined(raw));
      const parts = await mpnSearch(ctx.s, mpn);
      const r = paidResults(ctx, info, 'supSearchMpn', parts);
      return { hits: r.selected ? r.results.length : parts.length, results: r.results, warnings: r.warnings };
    },
    async supSearch(raw: Record<string, unknown>, ctx: GraphQLContext, info: GraphQLResolveInfo) {
      const args = validate.supSearch<{ q?: string; filters?: PartFiltersInput; limit: number; offset: number }>(defined(raw));
      const { account } = ctx.auth;
      const found = await parametricSearch(ctx.s, account, { query: args.q, filters: args.filters, limit: args.limit, offset: args.offset }, ['filters']);
      const r = paidResults(ctx, info, 'supSearch', found.parts);
      return {
        total: found.total,
        hits: r.selected ? r.results.length : found.parts.length,
        offset: args.offset,
        results: r.results,
        warnings: r.warnings,
        // A field with arguments of its own: computed only when the query selects it.
        aggregations: async (rawAgg: Record<string, unknown>) => {
          const a = validate.aggregations<{ specs?: string[]; size: number }>(defined(rawAgg));
          const f = await facetCounts(ctx.s, account, { query: args.q, filters: args.filters, specs: a.specs, size: a.size }, ['filters']);
          return {
            total: f.total,
            manufacturers: f.manufacturers,
            categories: f.categories,
            specs: Object.entries(f.specs).map(([name, v]) => ({ name, ...v })),
            available_specs: Object.entries(f.available_specs)
              .map(([name, count]) => ({ name, count }))
              .sort((x, y) => y.count - x.count || x.name.localeCompare(y.name)),
          };
        },
      };
    },
    async supMultiMatch(raw: { queries: BatchLine[] }, ctx: GraphQLContext, info: GraphQLResolveInfo) {
      const { queries } = validate.supMultiMatch<{ queries: BatchLine[] }>({ queries: raw.queries.map((q) => defined({ ...q })) });
      budget(ctx, 'lines', queries.length, MAX_MATCH_LINES, 'supMultiMatch lines', 'queries');
      const { results } = await matchLines(ctx.s, queries);
      // Candidates count as returned parts when the query selects their part.
      const selected = selects(info, 'results', 'part');
      return results.map((line) => {
        if ('error' in line) return { ...line, ambiguous: null, results: null, errorString: null };
        if (!selected) return { ...line, errorString: null }; // no part shown: nothing to charge
        const k = take(ctx, line.results.length);
        const errorString = k < line.results.length ? capWarning(`supMultiMatch line ${line.index}`, k, line.results.length) : null;
        if (errorString) ctx.warnings.push(errorString);
        return { ...line, results: line.results.slice(0, k).map((c) => ({ ...c, part: withIdStrings(c.part) })), errorString };
      });
    },
    async supParts(raw: { ids?: string[]; slugs?: string[] }, ctx: GraphQLContext) {
      const args = validate.supParts<{ ids?: string[]; slugs?: string[] }>(defined(raw));
      const ids = args.ids ?? [];
      const slugs = args.slugs ?? [];
      budget(ctx, 'refs', ids.length + slugs.length, MAX_PART_REFS, 'supParts ids and slugs', ids.length ? 'ids' : 'slugs');
      const byId = new Map((await ctx.s.engine.getParts(ids.map(Number))).map((p) => [p.id, p]));
      const resolve = partResolver(ctx.s);
      // One after another: a slug may take a scan of its maker's escaped slugs (part-detail.ts).
      const bySlug: (PartRecord | null)[] = [];
      for (const slug of slugs) {
        const cut = slug.indexOf('/');
        bySlug.push(cut > 0 && cut < slug.length - 1 ? ((await resolve(slug.slice(0, cut), slug.slice(cut + 1)))?.part ?? null) : null);
      }
      const found = [...ids.map((id) => byId.get(Number(id)) ?? null), ...bySlug];
      const n = found.filter((p) => p !== null).length;
      let k = take(ctx, n);
      if (k < n) ctx.warnings.push(`${capWarning('supParts', k, n)} The others are null.`);
      return found.map((p) => (p && k-- > 0 ? presentForGraphQL(p) : null));
    },
    async supManufacturers(raw: Record<string, unknown>, ctx: GraphQLContext) {
      const args = validate.supManufacturers<{ slugs?: string[]; q?: string; limit: number }>(defined(raw));
      const view = await loadedCatalog(ctx.s);
      const present = (m: Manufacturer | undefined, confidence: number | null = null) => (m ? { ...presentManufacturer(m), confidence } : null);
      if (args.slugs) return args.slugs.map((slug) => present(view.manufacturers.get(slug)));
      if (args.q !== undefined) {
        const matches = view.manufacturerMatcher().match(args.q, args.limit);
        return matches.map((m) => present(view.manufacturers.get(m.slug), m.confidence)).filter((m) => m !== null);
      }
      const largest = [...view.manufacturers.all()].sort((a, b) => b.part_count - a.part_count || a.slug.localeCompare(b.slug));
      return largest.slice(0, args.limit).map((m) => present(m));
    },
    async supCategories(raw: Record<string, unknown>, ctx: GraphQLContext) {
      const args = validate.supCategories<{ slugs?: string[]; q?: string; parent?: string; limit: number }>(defined(raw));
      const view = await loadedCatalog(ctx.s);
      const { tree } = view;
      const detail = (slug: string, confidence: number | null = null) => {
        const c = tree.get(slug);
        return c ? { ...presentCategory(tree, c), has_children: c.children.length > 0, confidence } : null;
      };
      if (args.slugs) return args.slugs.map((slug) => detail(trimSlashes(slug)));
      if (args.q !== undefined) {
        return view
          .categoryMatcher()
          .match(args.q, args.limit)
          .map((m) => detail(m.slug, m.confidence))
          .filter((c) => c !== null);
      }
      const parent = args.parent === undefined ? undefined : trimSlashes(args.parent) || undefined;
      if (parent !== undefined && !tree.get(parent)) throw notFound(`Category "${parent}"`);
      return (parent === undefined ? tree.roots() : tree.children(parent)).slice(0, args.limit).map((c) => detail(c.slug));
    },
  };
}

let built: GraphQLSchema | null = null;
/** The executable schema (built once) and the root value its queries resolve from. */
export function graphqlSchema(): { schema: GraphQLSchema; rootValue: ReturnType<typeof rootResolvers> } {
  built ??= buildSchema(SDL);
  return { schema: built, rootValue: rootResolvers() };
}
