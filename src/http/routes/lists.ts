/**
 * GET /v1/lists: the caller's own approved lists (most recently updated first), then the curated
 * lists. A caller never sees another account's user lists. Free, `parts:read`.
 */
import type { AuthState } from '../middleware/guard.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { approvedListSchema } from './catalog-schemas.ts';

export function listRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/v1/lists',
      operationId: 'listApprovedLists',
      summary: 'Approved lists the caller can search within',
      tags: ['lists'],
      access: 'parts:read',
      responses: {
        200: {
          description: "The caller's own lists (most recently updated first), then curated lists.",
          schema: {
            type: 'object',
            required: ['lists', 'notice', 'request_id'],
            properties: { lists: { type: 'array', items: approvedListSchema }, notice: { type: ['string', 'null'] }, request_id: requestIdSchema },
          },
        },
      },
      handler: async (ctx) => {
        return { ...(await s.lists.visible((ctx.state.auth as AuthState).account)), request_id: ctx.state.requestId };
      },
    },
  ];
}
