/** Builds the Koa application from services: middleware order, then the declared routes. No adapter imports here. */
import Router from '@koa/router';
import Koa from 'koa';
import { createGuard } from './middleware/guard.ts';
import { errorHandler } from './middleware/errors.ts';
import { jsonBody } from './middleware/json-body.ts';
import { requestId } from './middleware/request-id.ts';
import { buildOpenApi } from './openapi.ts';
import type { Middleware } from 'koa';
import { mountRoutes, routePath, type RouteSpec } from './route.ts';
import { healthRoutes } from './routes/health.ts';
import { categoryRoutes } from './routes/categories.ts';
import { listRoutes } from './routes/lists.ts';
import { attributeRoutes } from './routes/attributes.ts';
import { manufacturerRoutes } from './routes/manufacturers.ts';
import { partDetailRoutes } from './routes/part-detail.ts';
import { partsSearchRoutes } from './routes/parts-search.ts';
import { parametricRoutes } from './routes/parametric.ts';
import { agenticRoutes } from './routes/agentic.ts';
import { matchRoutes } from './routes/match.ts';
import { usageRoutes } from './routes/usage.ts';
import { jobRoutes } from './routes/jobs.ts';
import { graphqlRoutes } from './routes/graphql.ts';
import { oauthTokenRoutes } from './routes/oauth-token.ts';
import type { AppServices } from '../service/app-services.ts';

/** Every declared route of the API, in documentation order. */
export function apiRoutes(s: AppServices): RouteSpec[] {
  return [
    ...healthRoutes(s),
    ...oauthTokenRoutes(s),
    ...usageRoutes(s),
    ...categoryRoutes(s),
    ...manufacturerRoutes(s),
    ...listRoutes(s),
    ...attributeRoutes(s),
    ...partsSearchRoutes(s),
    ...agenticRoutes(s),
    ...parametricRoutes(s),
    ...matchRoutes(s),
    ...partDetailRoutes(s),
    ...jobRoutes(s),
    ...graphqlRoutes(s),
  ];
}

export function createApp(s: AppServices, opts: { extraRoutes?: RouteSpec[] } = {}): Koa & { router: Router } {
  const app = new Koa();
  app.proxy = false;
  // Koa's default handler prints errors as text; ours renders them all.
  app.silent = true;
  const routes = [...apiRoutes(s), ...(opts.extraRoutes ?? [])];
  const openapi = buildOpenApi(routes);
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  // Guarded paths outside /v1 (GraphQL): throttled like /v1 even when refused before routing (guard.unrouted).
  const guardedElsewhere = routes.filter((r) => r.access !== 'public' && !r.path.toLowerCase().startsWith('/v1')).map((r) => r.path.toLowerCase());
  const guard = createGuard(s, guardedElsewhere);
  mountRoutes(router, routes, guard);
  // Paths whose every error, even one raised before routing (a body that is not JSON), takes GraphQL's form:
  // decided when an error is rendered, not on every request.
  const graphqlPaths = new Set(routes.filter((r) => r.errorForm === 'graphql').map((r) => r.path.toLowerCase()));
  app.use(requestId());
  app.use(errorHandler(s.log, (path) => graphqlPaths.has(routePath(path))));
  app.use(guard.unrouted);
  app.use(jsonBody());
  app.use(otherMethods(routes));
  app.use(router.routes());
  // 405 (501 for a method it does not know) with their Allow header; the error handler renders both as the 405 envelope.
  app.use(router.allowedMethods());
  return Object.assign(app, { router });
}

/** Methods the router knows; others are its 501, answered as 405 (middleware/errors.ts). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * A path declared without parameters answers only its own methods: `GET /v1/parts/search/facets` is a 405
 * (Allow: POST), not the part detail route's `/v1/parts/{manufacturer}/{mpn}` for a maker "search", and
 * OPTIONS lists the path's own methods. Other paths are left to the router.
 */
function otherMethods(routes: readonly RouteSpec[]): Middleware {
  const methods = new Map<string, Set<string>>();
  for (const r of routes) {
    if (/[:*]/.test(r.path)) continue;
    const p = routePath(r.path);
    const m = methods.get(p) ?? new Set<string>();
    if (r.method === 'GET') m.add('HEAD'); // listed as the router lists it
    m.add(r.method);
    methods.set(p, m);
  }
  return (ctx, next) => {
    const own = methods.get(routePath(ctx.path));
    if (!own || own.has(ctx.method) || !KNOWN_METHODS.has(ctx.method)) return next();
    ctx.set('Allow', [...own].join(', '));
    // OPTIONS: the Allow header is the answer; anything else is a 405, rendered by the error handler.
    if (ctx.method === 'OPTIONS') {
      ctx.status = 200;
      ctx.body = '';
    } else ctx.status = 405;
    return Promise.resolve();
  };
}
