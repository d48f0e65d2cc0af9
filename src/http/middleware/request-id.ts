/** Gives every request an id (X-Request-Id echoed when the client sent a sane one) and logs it. */
import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';

const SANE = /^[A-Za-z0-9._-]{8,128}$/;

export function requestId(): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    const id = SANE.test(given) ? given : `req_${randomBytes(12).toString('hex')}`;
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
