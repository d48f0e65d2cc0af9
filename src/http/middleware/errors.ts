/**
 * The error middleware, mounted first: renders ApiError in its documented body form, maps Koa/body
 * parser errors onto the catalogue, turns unmatched routes into 404 not_found, and answers anything
 * unexpected with a 500 that carries no stack or internal message (it is logged with the request id).
 */
import type { Middleware } from 'koa';
import { ApiError, graphqlExtensions, validationError } from '../../errors.ts';
import type { Logger } from '../../log.ts';

/** Whether `text` is JSON at all (the body parser's strict check refuses "3" and "not json" alike). */
function isJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function fromHttpError(e: { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string; body?: unknown }): ApiError | null {
  const status = e.status ?? e.statusCode;
  if (!status || status >= 500) return null;
  if (status === 400 && /only supports object and array/i.test(e.message ?? '') && isJson(e.body)) {
    // Valid JSON that is not an object ("null", "3"): the body of every route is an object.
    return validationError([{ loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type' }]);
  }
  if (status === 400 && /json|parse/i.test(`${e.type ?? ''} ${e.message ?? ''}`)) {
    return validationError([{ loc: ['body'], msg: 'Request body is not valid JSON.', type: 'json_invalid' }]);
  }
  if (status === 413) return new ApiError('payload_too_large', 'Request body is too large.');
  if (status === 415) return new ApiError('unsupported_media_type', 'Request body must be JSON (Content-Type: application/json).');
  if (status === 404) return new ApiError('not_found', 'Not found.');
  if (status === 405) return new ApiError('method_not_allowed', 'Method not allowed for this route.');
  return validationError([{ loc: ['body'], msg: e.expose && e.message ? e.message : 'Bad request.', type: 'bad_request' }]);
}

/** `graphqlPath`: whether a request path answers errors in GraphQL's form (src/http/routes/graphql.ts), whatever failed. */
export function errorHandler(log: Logger, graphqlPath: (path: string) => boolean = () => false): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined) {
        if (ctx.status === 404) throw new ApiError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
        // The router's answer to a method the path does not have; its Allow header stays. A method the
        // router does not know at all (its 501: PROPFIND) is a 405 too: a 5xx says the server failed, and
        // clients retry those (SPEC.md Errors), where this request can only fail again.
        if (ctx.status === 405 || ctx.status === 501) {
          throw new ApiError('method_not_allowed', `${ctx.method} is not allowed here; allowed: ${ctx.response.get('Allow') || 'none'}.`);
        }
      }
    } catch (err) {
      const e = err instanceof ApiError ? err : fromHttpError(err as never);
      const requestId = String(ctx.state.requestId ?? '');
      if (!e) {
        log.error('unhandled error', { request_id: requestId, method: ctx.method, path: ctx.path, error: err instanceof Error ? err.stack : String(err) });
      }
      const api = e ?? new ApiError('internal_error', 'The server failed to handle this request; retry later.');
      ctx.status = api.status;
      for (const [k, v] of Object.entries(api.extra.headers ?? {})) ctx.set(k, v);
      if (graphqlPath(ctx.path)) {
        // GraphQL clients read `errors`; the catalogue's code is the extension code.
        ctx.body = { errors: [{ message: api.message, extensions: graphqlExtensions(api, requestId) }] };
      } else {
        ctx.body = api.extra.detail ? { detail: api.extra.detail } : { error: { type: api.code, message: api.message, request_id: requestId } };
      }
    }
  };
}
