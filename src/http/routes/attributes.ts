/**
 * GET /v1/attributes: the canonical spec attributes, each with the spec names this catalogue stores it
 * under. Their ids and shortnames key PartFilters.specs and the facets' `attributes`. Free, `parts:read`.
 */
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';

const attributeSchema = {
  type: 'object',
  required: ['id', 'name', 'shortname', 'group', 'value_type', 'unit', 'spec_names'],
  properties: {
    id: { type: 'string', description: 'Stable id ("supply_voltage"): a PartFilters.specs key and a facets attribute.' },
    name: { type: 'string' },
    shortname: { type: 'string', description: 'The name written as Octopart/Nexar shortnames are ("supplyvoltage"); also accepted as a key.' },
    group: { type: 'string', description: 'Technical, Physical, Dimensions or Compliance.' },
    value_type: { enum: ['number', 'text'] },
    unit: {
      type: ['object', 'null'],
      required: ['symbol', 'name'],
      properties: { symbol: { type: 'string' }, name: { type: ['string', 'null'] } },
      description: 'The SI unit values are compared in; null for text attributes and counts.',
    },
    spec_names: { type: 'array', items: { type: 'string' }, description: 'The names this catalogue stores it under (empty: it holds none).' },
  },
} as const;

export function attributeRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/v1/attributes',
      operationId: 'listAttributes',
      summary: 'Canonical spec attributes and the spec names the catalogue stores each under',
      tags: ['parts'],
      access: 'parts:read',
      responses: {
        200: {
          description: 'Every canonical attribute, in the vocabulary order.',
          schema: {
            type: 'object',
            required: ['attributes', 'request_id'],
            properties: { attributes: { type: 'array', items: attributeSchema }, request_id: requestIdSchema },
          },
        },
      },
      handler: async (ctx) => ({ ...(await s.attributes.list()), request_id: ctx.state.requestId }),
    },
  ];
}
