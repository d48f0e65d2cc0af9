/**
 * GET /health: the spec's Health object exactly ({status, version, timestamp}); public, unthrottled.
 * GET /v1/diagnostics: what the service runs on: engine, index version, part count, and whether
 * search is hybrid or lexical-only (and why). An extension, documented in the README.
 */
import { SERVICE_VERSION } from '../../version.ts';
import type { RouteSpec } from '../route.ts';
import { healthSchema, requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import type { CatalogMeta } from '../../catalog/meta.ts';

/** The live version's vectors and their fill, by this process or another (diagnostics). */
async function vectorState(s: AppServices, meta: CatalogMeta | null) {
  if (!meta?.embedding.dims) return { state: 'none', pending: 0, fill: null };
  const pending = meta.embedding.pending ?? 0;
  if (!pending) return { state: 'complete', pending: 0, fill: null };
  const own = s.vectorFill?.status();
  if (own?.version === meta.version && own.state === 'embedding') {
    return { state: 'filling', pending, fill: { by: 'this process', done: own.done, total: own.total, started_at: own.started_at, updated_before: null } };
  }
  const other = await s.engine.backfill?.currentClaim(meta.version).catch(() => null);
  return {
    state: 'filling',
    pending,
    fill: other ? { by: other.owner, done: other.done, total: other.total, started_at: null, updated_before: new Date(other.expiresAt).toISOString() } : null,
  };
}

export function healthRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Service health',
      tags: ['service'],
      access: 'public',
      responses: { 200: { description: 'The service is up.', schema: healthSchema } },
      handler: () => ({ status: 'ok', version: SERVICE_VERSION, timestamp: new Date().toISOString() }),
    },
    {
      method: 'GET',
      path: '/v1/diagnostics',
      operationId: 'getDiagnostics',
      summary: 'Engine, index version and search mode (hybrid or lexical-only)',
      tags: ['service'],
      access: 'authenticated',
      responses: {
        200: {
          description: 'What the service runs on.',
          schema: {
            type: 'object',
            required: ['version', 'engine', 'search_mode', 'embeddings', 'request_id'],
            properties: {
              version: { type: 'string' },
              engine: {
                type: 'object',
                properties: {
                  kind: { type: 'string' },
                  index_version: { type: ['string', 'null'] },
                  previous_version: { type: ['string', 'null'] },
                  parts: { type: 'integer' },
                  index_features: {
                    type: 'array',
                    items: { type: 'string' },
                    description:
                      'What the live index holds beyond the base: "price_bands" (PartFilters price.min_quantity), "mpn_identity" (parts told apart by the MPN as written, not by its search key), "spec_attributes" (specs filtered and counted by canonical attribute). Older indexes lack them: re-ingest.',
                  },
                },
              },
              search_mode: { enum: ['hybrid', 'lexical-only'] },
              embeddings: {
                type: 'object',
                properties: {
                  model: { type: ['string', 'null'] },
                  dims: { type: ['integer', 'null'] },
                  index_model: { type: ['string', 'null'] },
                  message: { type: 'string' },
                  vectors: {
                    type: 'object',
                    description:
                      "The live version's vectors: complete (searched: hybrid), filling (the version went live before its vectors were complete: lexical-only until they are), or none (a lexical-only version).",
                    properties: {
                      state: { enum: ['complete', 'filling', 'none'] },
                      pending: { type: 'integer', description: 'Parts that had no vector when the version went live (0 once complete).' },
                      fill: {
                        type: ['object', 'null'],
                        description: 'The fill in progress: by this process or another (its lease), parts with a vector now of those pending.',
                        properties: {
                          by: { type: 'string' },
                          done: { type: 'integer' },
                          total: { type: 'integer' },
                          started_at: { type: ['string', 'null'] },
                          updated_before: { type: ['string', 'null'], description: 'Another process: its lease runs out then unless renewed.' },
                        },
                      },
                    },
                  },
                },
              },
              request_id: requestIdSchema,
            },
          },
        },
      },
      handler: async (ctx) => {
        const info = await s.engine.info();
        const meta = await s.engine.meta();
        return {
          version: SERVICE_VERSION,
          engine: {
            kind: info.kind,
            index_version: info.version,
            previous_version: info.previous,
            parts: info.parts,
            index_features: meta?.features ?? [],
          },
          search_mode: s.embedder && info.vectors ? 'hybrid' : 'lexical-only',
          embeddings: {
            model: s.embedder?.model ?? null,
            dims: s.embedder?.dims ?? null,
            index_model: meta?.embedding.model ?? null,
            message: s.embedderMessage,
            vectors: await vectorState(s, meta),
          },
          request_id: ctx.state.requestId,
        };
      },
    },
  ];
}
