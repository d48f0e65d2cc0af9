/** Builds the Koa application from services: middleware order, then routes. No adapter imports here. */
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { errorHandler } from './middleware/errors.ts';
import { requestId } from './middleware/request-id.ts';
import { healthRoutes } from './routes/health.ts';
import type { AppServices } from './services.ts';

export function createApp(s: AppServices): Koa {
  const app = new Koa();
  app.proxy = false;
  // Koa's default handler prints errors as text; ours renders them all.
  app.silent = true;
  app.use(requestId());
  app.use(errorHandler(s.log));
  app.use(koaBody({ jsonLimit: '2mb', text: false, urlencoded: false, multipart: false }));
  for (const router of [healthRoutes(s)]) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  return app;
}
