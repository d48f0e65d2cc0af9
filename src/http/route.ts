/**
 * Routes are declared once, as data: method, path, who may call it, JSON Schemas of the query, path
 * and body, the response shapes, and the handler. The same declarations mount the Koa routes (with
 * validation and access control) and generate the OpenAPI document, so the two cannot drift.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../errors.ts';
import type { Capability, UsageClass } from '../accounts/port.ts';
import { isJsonBody, JSON_MEDIA_TYPES } from './middleware/json-body.ts';
import { compileValidator, type JsonSchema } from './validation.ts';

/** public: no key, not throttled. authenticated: any valid key. Otherwise the capability a key needs. */
export type Access = 'public' | 'authenticated' | Capability;

export interface ResponseSpec {
  description: string;
  schema?: JsonSchema;
  /** Content type when not JSON (e.g. text/event-stream). */
  contentType?: string;
  /** Other media types this status may answer in (the GraphQL explorer's page beside GraphQL's JSON), with their schemas. */
  otherContent?: Record<string, JsonSchema>;
  /** Headers of this response beyond the ones every response of the route carries (X-Request-Id, rate limits). */
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

// Handlers see their validated input through these parameters; `any` by default so that a route
// without its own types reads fields the way its JSON Schema allows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface RouteInput<Q = any, P = any, B = any> {
  query: Q;
  params: P;
  body: B;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface RouteSpec<Q = any, P = any, B = any> {
  method: 'GET' | 'POST';
  /** Koa-router path (e.g. `/v1/categories/:slug+`). */
  path: string;
  /** OpenAPI path (e.g. `/v1/categories/{slug}`); defaults to `path` with `:x` -> `{x}`. */
  openapiPath?: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  /**
   * Requests this route answers without access control although its `access` says otherwise (GET /graphql:
   * a browser's request for the explorer page needs no key; a query over GET does).
   */
  publicWhen?(ctx: Context): boolean;
  /** Paid operation: needs an active subscription and credit (README "Metering"). */
  paid?: boolean;
  /**
   * The fixed price of a successful call of a paid route (part detail: one part record). A gate that can
   * (Redis) debits it with the admission, in the same script; the handler confirms it with
   * `ctx.state.charge(class, units)` as any route charges, and a call it does not confirm (a failure, a
   * redirect) gets it back when it ends. Other gates debit at the handler's charge, after the work.
   */
  price?: { usage_class: UsageClass; units: number };
  query?: JsonSchema;
  params?: JsonSchema;
  body?: JsonSchema;
  /** Request headers the handler reads and checks itself (an SSE stream's Last-Event-ID): documented in OpenAPI, not validated here. */
  requestHeaders?: JsonSchema;
  /** A body the handler reads and checks itself (GraphQL): documented in OpenAPI, not validated here. */
  documentedBody?: JsonSchema;
  /** The media type of `documentedBody` when it is not JSON (the OAuth token request's form). */
  documentedBodyType?: string;
  /**
   * The body form of this route's errors: the REST forms (default), or GraphQL's `{errors: [...]}` (for
   * every request to its path, including those refused before routing: app.ts).
   */
  errorForm?: 'rest' | 'graphql';
  /** Success responses by status; error responses are added from the catalogue. */
  responses: Record<number, ResponseSpec>;
  /** Error statuses this route can answer beyond the ones every route of its access class can. */
  errors?: number[];
  handler(ctx: Context, input: RouteInput<Q, P, B>): Promise<unknown> | unknown;
}

/**
 * A handler's answer already written as JSON text (search/present.ts answerJson): sent as it is, with
 * the JSON content type (a string body alone would go out as text/plain).
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Whether the request carries a body: a non-zero Content-Length, or a chunked one. */
function hasBody(ctx: Context): boolean {
  return ctx.get('Transfer-Encoding') !== '' || Number(ctx.get('Content-Length') || 0) > 0;
}

/** Mounts declared routes; `guard` runs before validation (throttle, authentication, access). */
export function mountRoutes(
  router: Router,
  routes: readonly RouteSpec[],
  guard: (route: RouteSpec) => (ctx: Context, next: () => Promise<unknown>) => Promise<unknown>,
): void {
  for (const route of routes) {
    const vQuery = route.query ? compileValidator('query', route.query) : null;
    const vParams = route.params ? compileValidator('path', route.params) : null;
    const vBody = route.body ? compileValidator('body', route.body) : null;
    const handle = async (ctx: Context) => {
      const query = vQuery ? vQuery({ ...ctx.query }) : ctx.query;
      const params = vParams ? vParams({ ...ctx.params }) : ctx.params;
      // A body the JSON parser left alone (sent as text/plain, curl's form default...) would read as empty.
      if (vBody && hasBody(ctx) && !isJsonBody(ctx)) {
        throw new ApiError(
          'unsupported_media_type',
          `Request body must be JSON: send Content-Type: application/json (got ${ctx.get('Content-Type') || 'none'}).`,
          { headers: { Accept: JSON_MEDIA_TYPES.join(', ') } },
        );
      }
      const rawBody = (ctx.request as unknown as { body?: unknown }).body;
      const body = vBody
        ? vBody(
            rawBody === undefined || (typeof rawBody === 'object' && rawBody !== null && Object.keys(rawBody).length === 0 && !ctx.request.length)
              ? {}
              : rawBody,
          )
        : rawBody;
      const result = await route.handler(ctx, { query, params, body });
      if (result instanceof JsonText) {
        ctx.type = 'application/json';
        ctx.body = result.text;
      } else if (result !== undefined) ctx.body = result;
    };
    const method = route.method === 'GET' ? 'get' : 'post';
    router[method](route.operationId, route.path, guard(route), handle);
  }
}

/** A request path as the router matches it: in any case, with or without a trailing slash. */
export function routePath(path: string): string {
  return path.toLowerCase().replace(/(?<=.)\/+$/, '');
}

export function openapiPathOf(route: RouteSpec): string {
  return route.openapiPath ?? route.path.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
}
