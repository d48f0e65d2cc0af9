/** GET /v1/usage: usage per class for the current billing period (UTC month), with its bounds. Free. */
import { USAGE_CLASSES } from '../../accounts/port.ts';
import type { AuthState } from '../middleware/guard.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';

const classUsage = {
  type: 'object',
  required: ['units', 'amount_usd'],
  properties: { units: { type: 'integer' }, amount_usd: { type: 'number' } },
};

export function usageRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/v1/usage',
      operationId: 'getUsage',
      summary: 'Usage per class for the current billing period',
      description: 'Free. Units and dollars per metered class since the start of the UTC month, the balance and the subscription state.',
      tags: ['account'],
      access: 'authenticated',
      responses: {
        200: {
          description: "Usage of the calling key's account.",
          schema: {
            type: 'object',
            required: ['period', 'usage', 'balance_usd', 'subscription', 'request_id'],
            properties: {
              period: {
                type: 'object',
                required: ['start', 'end'],
                properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' } },
              },
              usage: { type: 'object', properties: Object.fromEntries(USAGE_CLASSES.map((c) => [c, classUsage])) },
              monthly_request_cap: { type: 'integer' },
              balance_usd: { type: 'number' },
              subscription: { type: 'boolean' },
              request_id: requestIdSchema,
            },
          },
        },
      },
      handler: async (ctx) => {
        return { ...(await s.usage.current((ctx.state.auth as AuthState).account)), request_id: ctx.state.requestId };
      },
    },
  ];
}
