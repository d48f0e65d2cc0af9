/**
 * POST /graphql: GraphQL over HTTP (graphql-http), behind the same guard as the REST routes (bearer key,
 * `parts:read`, the per-key throttle and the monthly request cap: one HTTP request counts once).
 *
 *   - Before execution: the operation is parsed (at most MAX_TOKENS tokens), validated, and may select at
 *     most MAX_FIELDS fields once its fragments are expanded, of which at most MAX_EXPENSIVE root fields
 *     and `aggregations` (aliases count: each runs a search). When it selects a paid field (PAID_FIELDS),
 *     the account needs a subscription (403 subscription_required), credit (402 insufficient_credit) and
 *     monthly quota left (402 usage_limit_exceeded); the parts it can still pay for (quota and credit)
 *     are its allowance, and results beyond it are cut with a warning (SPEC.md Errors 4).
 *   - After: the parts returned are charged as `graphql_parts` (one unit a part). Should the debit fail
 *     anyway (a concurrent request spent the credit) the answer is 402 without data, and nothing is
 *     charged (a failed operation is free).
 *   - Errors keep GraphQL's form, `{errors: [{message, extensions: {code, request_id, detail?}}]}`, with the
 *     error catalogue's codes: a refused request (401, 403, 402, 429) answers with its HTTP status; a
 *     field's error (a bad argument: validation_error with `detail`; not_found) is an entry of `errors`
 *     beside the data of the other fields (GraphQL-over-HTTP status rules: 200 for application/json).
 * GET /graphql answers 404: this server ships no explorer and takes no GET queries (SPEC.md allows both off).
 */
import type { Context } from 'koa';
import { GraphQLError, parse, specifiedRules, validate, type DocumentNode } from 'graphql/index.js';
import { createHandler, type OperationArgs, type Response } from 'graphql-http';
import { ApiError, graphqlExtensions, type ErrorCode } from '../errors.ts';
import { currentPeriod } from '../accounts/billing.ts';
import type { AuthState } from '../accounts/port.ts';
import type { RouteSpec } from '../http/route.ts';
import { graphqlErrorsSchema } from '../http/schemas.ts';
import type { AppServices } from '../service/app-services.ts';
import { operationShape } from './selection.ts';
import { graphqlSchema, newContext, PAID_FIELDS, type GraphQLContext } from './schema.ts';
import { Lru } from '../util/lru.ts';

/** Largest query document, in GraphQL tokens (a 250-line supMultiMatch with every Part field fits). */
export const MAX_TOKENS = 20_000;
/** Most fields of one operation with its fragments expanded (a query for every Part field has about 60). */
export const MAX_FIELDS = 1_000;
/** Most root fields and `aggregations` fields (aliases included) one operation may select: each runs a search. */
export const MAX_EXPENSIVE = 10;

/** An ApiError as the GraphQL error of a field (`original`: where it was raised). */
function toGraphQLError(e: ApiError, requestId: string, original: GraphQLError): GraphQLError {
  const { nodes, source, positions, path } = original;
  return new GraphQLError(e.message, { nodes, source, positions, path, extensions: graphqlExtensions(e, requestId) });
}

/** The GraphQL error of a malformed request or document: the catalogue's graphql_* codes. */
function requestError(e: Readonly<Error>, requestId: string): GraphQLError {
  const code = /^Syntax Error/.test(e.message) ? 'graphql_parse_failed' : 'graphql_validation_failed';
  const g = e instanceof GraphQLError ? e : null;
  return new GraphQLError(e.message, {
    nodes: g?.nodes,
    source: g?.source,
    positions: g?.positions,
    extensions: { ...g?.extensions, code, request_id: requestId },
  });
}

/** Documents kept parsed and validated, and the longest query text kept (a client sends the same few queries over and over). */
export const DOCUMENT_CACHE_SIZE = 500;
export const DOCUMENT_CACHE_MAX_QUERY = 16 * 1024;

/**
 * Query text -> its parsed document, kept once it validated against the schema (validation depends on
 * the document and the schema only, and takes about 0.5 ms for a query selecting every Part field,
 * against 30 µs to parse it). The most recently used DOCUMENT_CACHE_SIZE of at most
 * DOCUMENT_CACHE_MAX_QUERY characters each; graphql-js never changes a document it executes.
 */
class DocumentCache {
  readonly #kept = new Lru<string, DocumentNode>(DOCUMENT_CACHE_SIZE);
  get(query: string): DocumentNode | undefined {
    return this.#kept.get(query);
  }
  set(query: string, d: DocumentNode): void {
    if (query.length <= DOCUMENT_CACHE_MAX_QUERY) this.#kept.set(query, d);
  }
}

/** graphql-http's answers without a body, by status. */
const HTTP_REFUSALS: Record<number, ErrorCode> = { 405: 'method_not_allowed', 406: 'not_acceptable', 415: 'unsupported_media_type' };
const HTTP_REFUSAL_MESSAGES: Record<number, string> = {
  405: 'GraphQL queries are POSTed to /graphql.',
  406: 'The client accepts neither application/graphql-response+json nor application/json.',
  415: 'The request body must be JSON: send Content-Type: application/json.',
};

const graphqlRequestSchema = {
  type: 'object',
  required: ['query'],
  properties: {
    query: { type: 'string', description: 'The GraphQL document.' },
    operationName: { type: ['string', 'null'] },
    variables: { type: ['object', 'null'] },
    extensions: { type: ['object', 'null'] },
  },
};

/** A GraphQL result: the data, and field errors in the error form. */
const graphqlResponseSchema = {
  type: 'object',
  properties: { data: { type: ['object', 'null'] }, errors: (graphqlErrorsSchema.properties as Record<string, unknown>).errors },
};

export function graphqlRoutes(s: AppServices): RouteSpec[] {
  const { schema, rootValue } = graphqlSchema();
  const validDocuments = new DocumentCache();

  async function execute(ctx: Context): Promise<Response> {
    const auth = ctx.state.auth as AuthState;
    const requestId = String(ctx.state.requestId ?? '');
    /**
     * The parts the account can still pay for; throws why a paid field is refused before any work (thrown
     * out of graphql-http, the error middleware renders it with its status in GraphQL's form).
     */
    const paidAllowance = async (): Promise<number> => {
      if (!auth.account.subscription)
        throw new ApiError('subscription_required', 'This query selects paid fields and needs an active subscription on the account.');
      if (auth.account.balance_micros <= 0) throw new ApiError('insufficient_credit', 'The account has no credit left; add credit to continue.');
      const unit = s.config.billing.prices.graphql_parts;
      const byCredit = unit > 0 ? Math.floor(auth.account.balance_micros / unit) : Infinity;
      const quota = s.config.billing.quotas.graphql_parts;
      const byQuota = quota === undefined ? Infinity : quota - (await s.accounts.usage(auth.account.id, currentPeriod().key)).by_class.graphql_parts.units;
      if (byQuota <= 0) throw new ApiError('usage_limit_exceeded', 'The monthly usage quota for graphql parts is exhausted.');
      if (byCredit <= 0) throw new ApiError('insufficient_credit', "The account's credit does not cover one part.");
      return Math.min(byCredit, byQuota);
    };
    const handler = createHandler<Context, undefined, GraphQLContext>({
      schema,
      rootValue,
      onSubscribe: async (_req, params) => {
        let document = validDocuments.get(params.query);
        if (!document) {
          try {
            document = parse(params.query, { maxTokens: MAX_TOKENS });
          } catch (e) {
            return e instanceof GraphQLError ? [e] : undefined;
          }
          const errors = validate(schema, document, specifiedRules);
          if (errors.length) return errors;
          validDocuments.set(params.query, document);
        }
        const shape = operationShape(document, params.operationName, params.variables);
        if (shape.fields > MAX_FIELDS) return [new GraphQLError(`An operation may select at most ${MAX_FIELDS} fields with its fragments expanded.`)];
        if (shape.expensive > MAX_EXPENSIVE) {
          return [
            new GraphQLError(
              `An operation may select at most ${MAX_EXPENSIVE} root and aggregations fields (aliases included); it selects ${shape.expensive}.`,
            ),
          ];
        }
        const allowance = shape.roots.some((f) => PAID_FIELDS.has(f)) ? await paidAllowance() : Infinity;
        return {
          schema,
          document,
          operationName: params.operationName,
          variableValues: params.variables,
          rootValue,
          contextValue: newContext(s, auth, allowance),
        } satisfies OperationArgs<GraphQLContext>;
      },
      onOperation: async (_req, args, result) => {
        const context = args.contextValue as GraphQLContext;
        // A refused debit (402) is thrown like the refusals before execution: no data, nothing charged.
        await (ctx.state.charge as (cls: 'graphql_parts', units: number) => Promise<void>)('graphql_parts', context.paidParts);
        if (context.warnings.length) return { ...result, extensions: { ...result.extensions, warnings: context.warnings } };
      },
      formatError: (err) => {
        // Before execution (no path): a malformed request or document.
        if (!(err instanceof GraphQLError) || !err.path) return requestError(err, requestId);
        const original = err.originalError;
        if (original instanceof ApiError) return toGraphQLError(original, requestId, err);
        // A resolver's unexpected failure or a value the schema cannot represent: logged with the request id, never shown.
        s.log.error('graphql field failed', { request_id: requestId, path: err.path.join('.'), error: original?.stack ?? err.message });
        return toGraphQLError(new ApiError('internal_error', 'The server failed to resolve this field; retry later.'), requestId, err);
      },
    });
    return handler({
      method: ctx.method,
      url: ctx.url,
      headers: { get: (k: string) => ctx.get(k) || null },
      body: () => (ctx.request as unknown as { body?: Record<string, unknown> }).body ?? null,
      raw: ctx,
      context: undefined,
    });
  }

  return [
    {
      method: 'POST',
      path: '/graphql',
      operationId: 'graphql',
      summary: 'GraphQL queries: supSearchMpn, supSearch, supMultiMatch, supParts, supManufacturers, supCategories',
      description:
        'GraphQL over HTTP. The schema is in the README (GraphQL); introspection is on. Paid fields (supSearchMpn, supSearch, supMultiMatch, supParts) cost one graphql_parts unit per part returned and need a subscription and credit. Errors are GraphQL errors whose extensions.code is the error catalogue code; the throttle and monthly cap count each request once.',
      tags: ['graphql'],
      access: 'parts:read',
      documentedBody: graphqlRequestSchema,
      errorForm: 'graphql',
      responses: { 200: { description: 'The GraphQL result (data and field errors).', schema: graphqlResponseSchema } },
      errors: [400, 402, 403, 406, 415],
      handler: async (ctx) => {
        const [body, init] = await execute(ctx);
        // graphql-http's refusals without a body: the catalogue's error, in GraphQL's form (the error middleware).
        if (body === null)
          throw new ApiError(
            HTTP_REFUSALS[init.status] ?? 'graphql_validation_failed',
            HTTP_REFUSAL_MESSAGES[init.status] ?? (init.statusText || 'Bad request.'),
            { headers: init.headers },
          );
        ctx.status = init?.status ?? 200;
        for (const [k, v] of Object.entries(init?.headers ?? {})) ctx.set(k, v);
        ctx.body = body ?? '';
      },
    },
    {
      method: 'GET',
      path: '/graphql',
      operationId: 'graphqlExplorer',
      summary: 'GraphQL explorer and GET queries: disabled on this server (404)',
      tags: ['graphql'],
      access: 'parts:read',
      errorForm: 'graphql',
      responses: {},
      errors: [404],
      handler: () => {
        throw new ApiError('not_found', 'The GraphQL explorer and GET queries are disabled on this server; POST the query to /graphql.');
      },
    },
  ];
}
