/**
 * The executable Supply schema: the SDL (sdl/) and the root resolvers (resolvers/). Below the root,
 * fields resolve from node objects (types/): graphql-js reads a property of the same name, or calls a
 * method of that name with the field's arguments, the context and the info.
 *
 *   supSearchMpn, supSearch, supMultiMatch, supParts   paid: one graphql_parts unit per part returned
 *   supCategories, supManufacturers, supAttributes, supSellers   free (the catalogue snapshot)
 */
import { buildSchema, type GraphQLSchema } from 'graphql/index.js';
import { withSourceResolvers } from './execute.ts';
import { PART_SDL } from './sdl/part.ts';
import { QUERY_SDL } from './sdl/query.ts';
import { RESULTS_SDL } from './sdl/results.ts';
import { supAttributes, supCategories, supManufacturers, supParts, supSellers } from './resolvers/lookups.ts';
import { supMultiMatch } from './resolvers/match.ts';
import { supSearch, supSearchMpn } from './resolvers/search.ts';

/** Root fields that cost one `graphql_parts` unit per part they return (SPEC.md Limits). */
export const PAID_FIELDS: ReadonlySet<string> = new Set(['supSearchMpn', 'supSearch', 'supMultiMatch', 'supParts']);

export const SDL = [QUERY_SDL, PART_SDL, RESULTS_SDL].join('\n');

/** Fields of the node types (types/) whose getters answer a promise: they search (similar parts, aggregations). */
const PROMISED_FIELDS: ReadonlySet<string> = new Set([
  'SupPart.counts',
  'SupPart.similarParts',
  'SupPartResultSet.allFilters',
  'SupPartResultSet.suggestedFilters',
  'SupPartResultSet.suggestedCategories',
  'SupPartResultSet.inStockAgg',
]);

const rootValue = { supSearchMpn, supSearch, supMultiMatch, supParts, supCategories, supManufacturers, supAttributes, supSellers };

let built: GraphQLSchema | null = null;
/** The executable schema (built once) and the root value its queries resolve from. */
export function graphqlSchema(): { schema: GraphQLSchema; rootValue: typeof rootValue } {
  built ??= withSourceResolvers(buildSchema(SDL), PROMISED_FIELDS);
  return { schema: built, rootValue };
}
