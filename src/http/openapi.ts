/**
 * The OpenAPI 3.1 document, generated from the same route declarations and JSON Schemas that
 * validate requests; error responses come from the error catalogue by access class.
 */
import { SERVICE_VERSION } from '../version.ts';
import { openapiPathOf, type RouteSpec } from './route.ts';
import { errorEnvelopeSchema, graphqlErrorsSchema, validationErrorSchema } from './schemas.ts';
import type { JsonSchema } from './validation.ts';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'GraphQL: the request or document is malformed or invalid (GraphQL errors).',
  401: 'Missing (missing_api_key), malformed, unknown or revoked (invalid_api_key) API key.',
  402: 'No credit left (insufficient_credit) or monthly usage quota exhausted (usage_limit_exceeded).',
  403: "The key lacks the route's capability (insufficient_scope), or a paid operation without a subscription (subscription_required).",
  404: 'Unknown resource (not_found).',
  406: 'GraphQL: the client accepts no JSON media type (not_acceptable).',
  413: 'Request body over 2 MB (payload_too_large).',
  415: 'Request body sent without Content-Type: application/json (unsupported_media_type).',
  422: 'Validation error: `detail` names each bad field by `loc`.',
  429: 'Per-minute throttle or monthly request cap (rate_limit_exceeded); see Retry-After.',
  500: 'Server error (internal_error); retry.',
  503: 'The search engine is unavailable (engine_unavailable); retry after Retry-After.',
};

const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Maximum requests in the 60 s window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests remaining in the window; 0 on a 429.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix epoch seconds when the oldest counted request leaves the window.', schema: { type: 'integer' } },
};
const requestIdHeader = { 'X-Request-Id': { description: 'Request id, also in error bodies.', schema: { type: 'string' } } };

function errorStatuses(r: RouteSpec): number[] {
  const base = r.access === 'public' ? [500] : [401, 429, 500];
  if (r.access !== 'public' && r.access !== 'authenticated') base.push(403);
  if (r.paid) base.push(402, 403);
  if (r.query || r.params || r.body) base.push(422);
  if (r.body || r.documentedBody) base.push(413);
  if (r.body || (r.documentedBody && !r.documentedBodyType)) base.push(415);
  // Routes that read the catalogue answer 503 when the engine does not (or nothing is loaded yet).
  if (r.access !== 'public' && r.access !== 'authenticated') base.push(503);
  return [...new Set([...base, ...(r.errors ?? [])])].sort((a, b) => a - b);
}

function parameters(r: RouteSpec): unknown[] {
  const out: unknown[] = [];
  const add = (where: 'query' | 'path' | 'header', schema: JsonSchema | undefined) => {
    const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, s] of Object.entries(props)) {
      const p: Record<string, unknown> = { name, in: where, required: where === 'path' || required.has(name), schema: s };
      if (s.description) p.description = s.description;
      if (s.type === 'array') {
        p.style = 'form';
        p.explode = true;
      }
      out.push(p);
    }
  };
  add('path', r.params);
  add('query', r.query);
  add('header', r.requestHeaders);
  return out;
}

export function buildOpenApi(routes: readonly RouteSpec[], serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const p = (paths[openapiPathOf(r)] ??= {});
    const responses: Record<string, unknown> = {};
    const headers = r.access === 'public' ? requestIdHeader : { ...requestIdHeader, ...rateHeaders };
    for (const [status, spec] of Object.entries(r.responses)) {
      responses[status] = {
        description: spec.description,
        headers: { ...headers, ...spec.headers },
        ...(spec.schema || spec.contentType
          ? {
              content: {
                [spec.contentType ?? 'application/json']: { schema: spec.schema ?? { type: 'string' } },
                ...Object.fromEntries(Object.entries(spec.otherContent ?? {}).map(([type, schema]) => [type, { schema }])),
              },
            }
          : {}),
      };
    }
    for (const status of errorStatuses(r)) {
      responses[String(status)] = {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
        headers: status === 429 ? { ...headers, 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } : headers,
        content: {
          'application/json': {
            schema: {
              $ref:
                r.errorForm === 'graphql'
                  ? '#/components/schemas/GraphQLErrors'
                  : status === 422
                    ? '#/components/schemas/ValidationError'
                    : '#/components/schemas/ErrorEnvelope',
            },
          },
        },
      };
    }
    p[r.method.toLowerCase()] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: r.tags,
      ...(r.access === 'public' ? { security: [] } : {}),
      ...(r.access !== 'public' && r.access !== 'authenticated' ? { 'x-capability': r.access } : {}),
      ...(r.paid ? { 'x-paid': true } : {}),
      parameters: parameters(r),
      ...(r.body || r.documentedBody
        ? { requestBody: { required: true, content: { [r.documentedBodyType ?? 'application/json']: { schema: r.body ?? r.documentedBody } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'partsearch',
      version: SERVICE_VERSION,
      description:
        "Electronic-components catalogue: MPN, natural-language and parametric search, part matching, taxonomy and approved-list lookups, usage, and GraphQL (POST /graphql). Errors: 422 uses the validation form, every other error the envelope form (GraphQL errors keep GraphQL's form).",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: Authorization: Bearer psk_…' } },
      schemas: { ErrorEnvelope: errorEnvelopeSchema, ValidationError: validationErrorSchema, GraphQLErrors: graphqlErrorsSchema },
    },
  };
}
