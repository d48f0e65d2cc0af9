/**
 * /graphql: the Supply schema over HTTP (graphql-http), behind the same guard as the REST routes (a key or
 * an access token of one, `parts:read`, the key's throttle and the monthly request cap: one request
 * counts once), and the explorer.
 *
 *   POST /graphql            a query (JSON body {query, variables?, operationName?})
 *   GET  /graphql?query=...  a read-only query (GraphQL over HTTP's GET); GRAPHQL_GET=false turns it off
 *   GET  /graphql            from a browser (Accept: text/html): the explorer page, which needs no key
 *                            (GRAPHQL_EXPLORER=false turns it off); GET /graphql/assets/<name> its files
 *
 * Before execution the operation is parsed (at most MAX_TOKENS tokens), validated, and judged: at most
 * MAX_FIELDS selections with fragments expanded, of which at most MAX_EXPENSIVE root fields and
 * aggregations, depth and cost within limits.ts. When it selects a paid field (PAID_FIELDS) the account
 * needs a subscription (403 subscription_required), credit (402 insufficient_credit) and monthly quota
 * (402 usage_limit_exceeded); the parts it can still pay for are its allowance (context.ts). After
 * execution the parts returned are charged as `graphql_parts`, in the ledger REST uses; should that debit
 * fail (a concurrent request spent the credit), the answer is 402 without data and nothing is charged.
 *
 * Errors keep GraphQL's form, `{errors: [{message, extensions: {code, request_id, ...}}]}`: a refused
 * request answers with its HTTP status; a malformed document is graphql_parse_failed or
 * graphql_validation_failed, one too deep or too costly query_too_complex, without `data` (GraphQL
 * §7.1.2: the request was not executed); a field's error (a bad argument: validation_error with
 * `detail`) is an entry of `errors` beside the data of the other fields.
 */
import type { Context } from 'koa';
import { GraphQLError, parse, specifiedRules, validate, type DocumentNode } from 'graphql/index.js';
import { createHandler, type OperationArgs, type Response } from 'graphql-http';
import { ApiError, graphqlExtensions, type ErrorCode } from '../../errors.ts';
import { currentPeriod } from '../../accounts/billing.ts';
import type { AuthState } from '../../accounts/port.ts';
import type { RouteSpec } from '../route.ts';
import { graphqlErrorsSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { loadedCatalog } from '../../service/categories.ts';
import { newContext, type GraphQLContext } from '../../graphql/context.ts';
import { execute as executeOperation } from '../../graphql/execute.ts';
import { EXPLORER_CSP, explorerAsset, explorerPage, ASSET_NAMES } from './graphql-explorer.ts';
import { MAX_COST, MAX_DEPTH, operationCost } from '../../graphql/limits.ts';
import { documentNestedDeeperThan, MAX_DOCUMENT_NESTING } from '../../graphql/nesting.ts';
import { graphqlSchema, PAID_FIELDS } from '../../graphql/schema.ts';
import { operationShape } from '../../graphql/selection.ts';
import { Lru } from '../../util/lru.ts';

/** Largest query document, in GraphQL tokens (a 250-line supMultiMatch with every part field fits). */
export const MAX_TOKENS = 20_000;
/** Most fields of one operation with its fragments expanded (a query for every SupPart field has about 150). */
export const MAX_FIELDS = 1_000;
/** Most root fields and aggregation fields (aliases included) one operation may select: each runs a search. */
export const MAX_EXPENSIVE = 10;

/** An ApiError as the GraphQL error of a field (`original`: where it was raised). */
function toGraphQLError(e: ApiError, requestId: string, original: GraphQLError): GraphQLError {
  const { nodes, source, positions, path } = original;
  return new GraphQLError(e.message, { nodes, source, positions, path, extensions: graphqlExtensions(e, requestId) });
}

/** The GraphQL error of a request refused before execution: its own code, else the catalogue's graphql_* codes. */
function requestError(e: Readonly<Error>, requestId: string): GraphQLError {
  const g = e instanceof GraphQLError ? e : null;
  const code = (g?.extensions?.code as string | undefined) ?? (/^Syntax Error/.test(e.message) ? 'graphql_parse_failed' : 'graphql_validation_failed');
  return new GraphQLError(e.message, {
    nodes: g?.nodes,
    source: g?.source,
    positions: g?.positions,
    extensions: { ...g?.extensions, code, request_id: requestId },
  });
}

/** A refusal of the operation's size: query_too_complex with what was measured. */
const tooComplex = (message: string, measured: Record<string, number>) =>
  new GraphQLError(message, { extensions: { code: 'query_too_complex' satisfies ErrorCode, ...measured } });

/** Documents kept parsed and validated, and the longest query text kept (a client sends the same few queries over and over). */
export const DOCUMENT_CACHE_SIZE = 500;
export const DOCUMENT_CACHE_MAX_QUERY = 16 * 1024;

/**
 * Query text -> its parsed document, kept once it validated against the schema (validation depends on the
 * document and the schema only). The most recently used DOCUMENT_CACHE_SIZE of at most
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
  405: 'Only queries run over GET; POST the others to /graphql.',
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

/** Whether a GET /graphql asks for the explorer page: a browser's navigation (HTML preferred to JSON). */
const wantsExplorer = (s: AppServices, ctx: Context) => s.config.graphqlExplorer && ctx.accepts('application/json', 'text/html') === 'text/html';

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
      execute: executeOperation,
      onSubscribe: async (_req, params) => {
        let document = validDocuments.get(params.query);
        if (!document) {
          if (documentNestedDeeperThan(params.query)) {
            return [
              tooComplex(
                `The document nests braces, brackets and parentheses more than ${MAX_DOCUMENT_NESTING} levels deep; at most ${MAX_DOCUMENT_NESTING} are read.`,
                { max_nesting: MAX_DOCUMENT_NESTING },
              ),
            ];
          }
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
        if (shape.fields > MAX_FIELDS)
          return [
            tooComplex(`An operation may select at most ${MAX_FIELDS} fields with its fragments expanded; it selects ${shape.fields}.`, {
              fields: shape.fields,
              max_fields: MAX_FIELDS,
            }),
          ];
        if (shape.expensive > MAX_EXPENSIVE) {
          return [
            tooComplex(`An operation may select at most ${MAX_EXPENSIVE} root and aggregation fields (aliases included); it selects ${shape.expensive}.`, {
              expensive: shape.expensive,
              max_expensive: MAX_EXPENSIVE,
            }),
          ];
        }
        const view = await loadedCatalog(s);
        const { depth, cost } = operationCost(schema, document, params.operationName, params.variables, view);
        if (depth > MAX_DEPTH)
          return [tooComplex(`The query nests fields ${depth} deep; at most ${MAX_DEPTH} levels are answered.`, { depth, max_depth: MAX_DEPTH })];
        if (cost > MAX_COST) {
          return [
            tooComplex(
              `The query's estimated cost is ${cost} (values in the answer, each search counting 100), above the limit of ${MAX_COST}: ask for fewer parts (limit, ids, queries) or fewer nested lists (similarParts, sellers, specs).`,
              { cost, max_cost: MAX_COST },
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
          contextValue: newContext(s, auth, view, s.config.publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`, allowance),
        } satisfies OperationArgs<GraphQLContext>;
      },
      onOperation: async (_req, args, result) => {
        const context = args.contextValue as GraphQLContext;
        // A refused debit (402) is thrown like the refusals before execution: no data, nothing charged.
        await (ctx.state.charge as (cls: 'graphql_parts', units: number) => Promise<void>)('graphql_parts', context.paidParts);
        if (context.warnings.length) return { ...result, extensions: { ...result.extensions, warnings: context.warnings } };
      },
      formatError: (err) => {
        // Before execution (no path): a malformed or refused document.
        if (!(err instanceof GraphQLError) || !err.path) return requestError(err, requestId);
        const original = err.originalError;
        if (original instanceof ApiError) return toGraphQLError(original, requestId, err);
        // A resolver's unexpected failure or a value the schema cannot represent: logged with the request id, never shown.
        s.log.error('graphql field failed', { request_id: requestId, path: err.path.join('.'), error: original?.stack ?? err.message });
        return toGraphQLError(new ApiError('internal_error', 'The server failed to resolve this field; retry later.'), requestId, err);
      },
    });
    return handler({
      method: ctx.method === 'HEAD' ? 'GET' : ctx.method,
      url: ctx.url,
      headers: { get: (k: string) => ctx.get(k) || null },
      body: () => (ctx.request as unknown as { body?: Record<string, unknown> }).body ?? null,
      raw: ctx,
      context: undefined,
    });
  }

  /** Runs the request through graphql-http and writes its answer (refusals without a body: the catalogue's error). */
  async function answer(ctx: Context) {
    const [body, init] = await execute(ctx);
    if (body === null)
      throw new ApiError(HTTP_REFUSALS[init.status] ?? 'graphql_validation_failed', HTTP_REFUSAL_MESSAGES[init.status] ?? (init.statusText || 'Bad request.'), {
        headers: init.headers,
      });
    ctx.status = init?.status ?? 200;
    for (const [k, v] of Object.entries(init?.headers ?? {})) ctx.set(k, v);
    ctx.body = body ?? '';
  }

  return [
    {
      method: 'POST',
      path: '/graphql',
      operationId: 'graphql',
      summary: 'GraphQL (the Supply API schema): supSearchMpn, supSearch, supMultiMatch, supParts, supCategories, supManufacturers, supAttributes, supSellers',
      description:
        'GraphQL over HTTP with the names, arguments and types of the public Supply API; introspection is on. Paid fields (supSearchMpn, supSearch, supMultiMatch, supParts) cost one graphql_parts unit per part returned and need a subscription and credit. Errors are GraphQL errors whose extensions.code is the error catalogue code; the throttle and monthly cap count each request once.',
      tags: ['graphql'],
      access: 'parts:read',
      documentedBody: graphqlRequestSchema,
      errorForm: 'graphql',
      responses: { 200: { description: 'The GraphQL result (data and field errors).', schema: graphqlResponseSchema } },
      errors: [400, 402, 403, 406, 415],
      handler: answer,
    },
    {
      method: 'GET',
      path: '/graphql',
      operationId: 'graphqlGet',
      summary: 'The GraphQL explorer (browsers), or a read-only query (?query=, &variables=, &operationName=)',
      description:
        'From a browser (Accept: text/html) the interactive explorer, which needs no key; otherwise the query of the URL, which needs one as POST does. 404 when GRAPHQL_EXPLORER or GRAPHQL_GET turn the one asked for off.',
      tags: ['graphql'],
      access: 'parts:read',
      publicWhen: (ctx) => wantsExplorer(s, ctx),
      query: {
        type: 'object',
        properties: { query: { type: 'string' }, variables: { type: 'string', description: 'JSON.' }, operationName: { type: 'string' } },
      },
      errorForm: 'graphql',
      responses: {
        200: {
          description: 'The explorer page (text/html), or the GraphQL result.',
          schema: graphqlResponseSchema,
          otherContent: { 'text/html': { type: 'string', description: 'The explorer page, for a browser (Accept: text/html).' } },
        },
      },
      errors: [400, 402, 403, 404, 405, 406],
      handler: async (ctx) => {
        if (wantsExplorer(s, ctx)) {
          ctx.set('Content-Security-Policy', EXPLORER_CSP);
          ctx.set('X-Content-Type-Options', 'nosniff');
          ctx.type = 'text/html; charset=utf-8';
          ctx.body = explorerPage();
          return;
        }
        if (!s.config.graphqlGet) throw new ApiError('not_found', 'GET queries are disabled on this server; POST the query to /graphql.');
        await answer(ctx);
      },
    },
    {
      method: 'GET',
      path: '/graphql/assets/:name',
      operationId: 'graphqlExplorerAsset',
      summary: "The explorer's scripts and styles (GraphiQL and React, served from this service)",
      tags: ['graphql'],
      access: 'public',
      params: { type: 'object', required: ['name'], properties: { name: { type: 'string', description: ASSET_NAMES.join(', ') } } },
      responses: { 200: { description: 'The file.', contentType: 'text/javascript' } },
      errors: [404],
      handler: (ctx, { params }) => {
        const a = s.config.graphqlExplorer ? explorerAsset(params.name as string) : null;
        if (!a) throw new ApiError('not_found', 'The GraphQL explorer is disabled on this server.');
        ctx.set('Cache-Control', 'public, max-age=86400');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('ETag', a.etag);
        if (ctx.get('If-None-Match') === a.etag) {
          ctx.status = 304;
          return;
        }
        ctx.type = a.type;
        ctx.body = a.body;
      },
    },
  ];
}
