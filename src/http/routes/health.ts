/**
 * GET /health: the spec's Health object exactly ({status, version, timestamp}); public, unthrottled.
 * GET /v1/diagnostics: what the service runs on: engine, index version, part count, and whether
 * search is hybrid or lexical-only (and why). An extension, documented in the README.
 */
import Router from '@koa/router';
import { SERVICE_VERSION } from '../../version.ts';
import type { AppServices } from '../services.ts';

export function healthRoutes(s: AppServices): Router {
  const r = new Router();
  r.get('/health', (ctx) => {
    ctx.body = { status: 'ok', version: SERVICE_VERSION, timestamp: new Date().toISOString() };
  });
  r.get('/v1/diagnostics', async (ctx) => {
    const info = await s.engine.info();
    const meta = await s.engine.meta();
    ctx.body = {
      version: SERVICE_VERSION,
      engine: { kind: info.kind, index_version: info.version, previous_version: info.previous, parts: info.parts },
      search_mode: s.embedder && info.vectors ? 'hybrid' : 'lexical-only',
      embeddings: {
        model: s.embedder?.model ?? null,
        dims: s.embedder?.dims ?? null,
        index_model: meta?.embedding.model ?? null,
        message: s.embedderMessage,
      },
      request_id: ctx.state.requestId,
    };
  });
  return r;
}
