/**
 * The request body parser. Bodies are JSON: a body whose media type is JSON (`application/json`, or
 * any `application/*+json` type, RFC 6839: JSON:API's, merge patches...) is read, at most
 * JSON_BODY_LIMIT after any gzip/deflate encoding is undone, and parsed, all alike. JSON nested more
 * than MAX_JSON_DEPTH levels is refused here (422 json_too_deep) before anything recursive walks it.
 * A body whose Content-Encoding does not decode is a 422 content_encoding_invalid. Bodies of other
 * types are not read; a route that takes a body refuses them (415, route.ts), and
 * decides so by `isJsonBody`, the parser's own test, so no body is ever read as empty.
 */
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { validationError } from '../../errors.ts';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../util/json-depth.ts';

/** The media types read as JSON (type-is patterns). */
export const JSON_MEDIA_TYPES: readonly string[] = ['application/json', 'application/*+json'];
/** Largest body read. */
export const JSON_BODY_LIMIT = '2mb';

/** Whether the request's body is of a JSON media type (what the parser reads). */
export function isJsonBody(ctx: Context): boolean {
  return typeof ctx.is([...JSON_MEDIA_TYPES]) === 'string';
}

export function jsonBody(): Middleware {
  const parse = koaBody({
    jsonLimit: JSON_BODY_LIMIT,
    jsonTypes: [...JSON_MEDIA_TYPES],
    text: false,
    urlencoded: false,
    multipart: false,
    onError: (e, ctx) => {
      // A body whose Content-Encoding does not decode (zlib's errors carry no HTTP status: they were 500s).
      const code = (e as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('Z_')) {
        const encoding = ctx.get('Content-Encoding');
        throw validationError([
          { loc: ['body'], msg: `The body is not valid ${encoding} data (Content-Encoding: ${encoding}).`, type: 'content_encoding_invalid' },
        ]);
      }
      throw e;
    },
  });
  return (ctx, next) =>
    parse(ctx, () => {
      if (jsonDeeperThan((ctx.request as { body?: unknown }).body)) {
        throw validationError([
          { loc: ['body'], msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, type: 'json_too_deep', ctx: { limit: MAX_JSON_DEPTH } },
        ]);
      }
      return next();
    });
}
