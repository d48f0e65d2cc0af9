/** Manufacturer name matching and detail (SPEC.md manufacturer endpoints). Free, `parts:read`. */
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { manufacturerSchema, matchRequestSchema, matchResponseSchema } from './catalog-schemas.ts';

export function manufacturerRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/v1/manufacturers/match',
      operationId: 'matchManufacturers',
      summary: 'Resolve a full name, partial name or alias',
      description: 'Case- and punctuation-insensitive; aliases ("TI", "ST", "ON Semiconductor"), legal suffixes and typos. Nonsense returns an empty list.',
      tags: ['manufacturers'],
      access: 'parts:read',
      body: matchRequestSchema,
      responses: { 200: { description: 'Matches, best first.', schema: matchResponseSchema('manufacturer', manufacturerSchema) } },
      handler: async (ctx, { body }) => {
        return { query: body.query, results: await s.manufacturers.match(body.query, body.limit ?? 5), request_id: ctx.state.requestId };
      },
    },
    {
      method: 'GET',
      path: '/v1/manufacturers/:manufacturer',
      operationId: 'getManufacturer',
      summary: 'Manufacturer by slug',
      tags: ['manufacturers'],
      access: 'parts:read',
      params: { type: 'object', required: ['manufacturer'], properties: { manufacturer: { type: 'string', minLength: 1, maxLength: 200 } } },
      responses: {
        200: {
          description: 'The manufacturer.',
          schema: { type: 'object', required: ['manufacturer', 'request_id'], properties: { manufacturer: manufacturerSchema, request_id: requestIdSchema } },
        },
      },
      errors: [404],
      handler: async (ctx, { params }) => {
        return { manufacturer: await s.manufacturers.get(params.manufacturer as string), request_id: ctx.state.requestId };
      },
    },
  ];
}
