/** Manufacturer name matching and detail (SPEC.md manufacturer endpoints). Free, `parts:read`. */
import { notFound } from '../../errors.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { presentManufacturer } from '../../service/manufacturers.ts';
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
        const view = await s.catalog.get();
        const results = view
          ? view
              .manufacturerMatcher()
              .match(body.query, body.limit ?? 5)
              .flatMap((m) => {
                const mfr = view.manufacturers.get(m.slug);
                return mfr ? [{ manufacturer: presentManufacturer(mfr), confidence: m.confidence }] : [];
              })
          : [];
        return { query: body.query, results, request_id: ctx.state.requestId };
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
        const view = await s.catalog.get();
        const m = view?.manufacturers.get(params.manufacturer as string);
        if (!m) throw notFound(`Manufacturer "${params.manufacturer}"`);
        return { manufacturer: presentManufacturer(m), request_id: ctx.state.requestId };
      },
    },
  ];
}
