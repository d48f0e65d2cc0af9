/** Gives every request an id (X-Request-Id echoed when the client sent a sane one) and logs it. */
import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';

const SANE = /^[A-Za-z0-9._-]{8,128}$/;
/** Unique without a random draw per request: a random process prefix and a counter. */
const PROCESS = randomBytes(6).toString('hex');
let counter = 0;
const nextId = () => `req_${PROCESS}${(counter++).toString(16).padStart(12, '0')}`;

export function requestId(): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    const id = SANE.test(given) ? given : nextId();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
