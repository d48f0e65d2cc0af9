/**
 * POST /graphql: GraphQL over HTTP (graphql-http), behind the same guard as the REST routes (bearer key,
 * `parts:read`, the per-key throttle and the monthly request cap: one HTTP request counts once).
 *
 *   - Before execution: the operation is parsed (at most MAX_TOKENS tokens), validated, and may select at
 *     most MAX_ROOT_FIELDS root fields (aliases count). When it selects a paid field (PAID_FIELDS), the
 *     account must have a subscription (403 subscription_required) and credit (402 insufficient_credit).
 *   - After: the parts the paid fields returned are charged as `graphql_parts` (one unit a part). When the
 *     balance or the monthly quota cannot cover them the answer is 402 without data, and nothing is
 *     charged (a failed operation is free).
 *   - Errors keep GraphQL's form, `{errors: [{message, extensions: {code, request_id, detail?}}]}`, with the
 *     error catalogue's codes: a refused request (401, 403, 402, 429) answers with its HTTP status; a
 *     field's error (a bad argument: validation_error with `detail`; not_found) is an entry of `errors`
 *     beside the data of the other fields (GraphQL-over-HTTP status rules: 200 for application/json).
 * GET /graphql answers 404: this server ships no explorer and takes no GET queries (SPEC.md allows both off).
 */
import type { Context } from 'koa';
import { getOperationAST, GraphQLError, Kind, parse, specifiedRules, validate, type DocumentNode, type SelectionSetNode } from 'graphql/index.js';
import { createHandler, type OperationArgs, type Response } from 'graphql-http';
import { ApiError } from '../errors.ts';
import type { AuthState } from '../http/middleware/guard.ts';
import type { RouteSpec } from '../http/route.ts';
import { graphqlErrorsSchema } from '../http/schemas.ts';
import type { AppServices } from '../http/services.ts';
import { graphqlSchema, PAID_FIELDS, toGraphQLError, type GraphQLContext } from './schema.ts';

/** Largest query document, in GraphQL tokens (a 250-line supMultiMatch with every Part field fits). */
export const MAX_TOKENS = 20_000;
/** Most root fields (aliases included) one operation may select. */
export const MAX_ROOT_FIELDS = 10;

/** The root field names an operation selects, through fragments (aliases counted once each). */
function rootFields(doc: DocumentNode, operationName: string | null | undefined): string[] {
  const op = getOperationAST(doc, operationName);
  if (!op) return [];
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) out.push(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const f = fragments.get(sel.name.value);
        if (f) walk(f.selectionSet);
      }
    }
  };
  walk(op.selectionSet);
  return out.filter((n) => n !== '__typename');
}

const errorBody = (errors: readonly GraphQLError[]) => JSON.stringify({ errors: errors.map((e) => e.toJSON()) });

/** A refusal of the whole request: the catalogue's status, GraphQL's body. */
function refusal(e: ApiError, requestId: string): Response {
  return [errorBody([toGraphQLError(e, requestId)]), { status: e.status, statusText: e.code, headers: { 'content-type': 'application/json; charset=utf-8' } }];
}

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

  async function execute(ctx: Context): Promise<Response> {
    const auth = ctx.state.auth as AuthState;
    const requestId = String(ctx.state.requestId ?? '');
    const context: GraphQLContext = { s, auth, paidParts: 0 };
    const handler = createHandler<Context, undefined, GraphQLContext>({
      schema,
      rootValue,
      onSubscribe: (_req, params) => {
        let document: DocumentNode;
        try {
          document = parse(params.query, { maxTokens: MAX_TOKENS });
        } catch (e) {
          return e instanceof GraphQLError ? [e] : undefined;
        }
        const errors = validate(schema, document, specifiedRules);
        if (errors.length) return errors;
        const fields = rootFields(document, params.operationName);
        if (fields.length > MAX_ROOT_FIELDS) {
          return [new GraphQLError(`An operation may select at most ${MAX_ROOT_FIELDS} root fields (aliases included); it selects ${fields.length}.`)];
        }
        if (fields.some((f) => PAID_FIELDS.has(f))) {
          if (!auth.account.subscription) {
            return refusal(new ApiError('subscription_required', 'This query selects paid fields and needs an active subscription on the account.'), requestId);
          }
          if (auth.account.balance_micros <= 0)
            return refusal(new ApiError('insufficient_credit', 'The account has no credit left; add credit to continue.'), requestId);
        }
        return {
          schema,
          document,
          operationName: params.operationName,
          variableValues: params.variables,
          rootValue,
          contextValue: context,
        } satisfies OperationArgs<GraphQLContext>;
      },
      onOperation: async () => {
        try {
          await (ctx.state.charge as (cls: 'graphql_parts', units: number) => Promise<void>)('graphql_parts', context.paidParts);
        } catch (e) {
          if (e instanceof ApiError) return refusal(e, requestId);
          throw e;
        }
      },
      formatError: (err) => {
        if (!(err instanceof GraphQLError)) return err;
        const original = err.originalError;
        if (original instanceof ApiError) return toGraphQLError(original, requestId, err);
        if (original && !(original instanceof GraphQLError)) {
          // A resolver's unexpected failure: logged with the request id, never shown.
          s.log.error('graphql resolver failed', { request_id: requestId, path: err.path?.join('.'), error: original.stack ?? String(original) });
          return toGraphQLError(new ApiError('internal_error', 'The server failed to resolve this field; retry later.'), requestId, err);
        }
        return err;
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
      errors: [400, 402, 403, 415],
      handler: async (ctx) => {
        const [body, init] = await execute(ctx);
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
