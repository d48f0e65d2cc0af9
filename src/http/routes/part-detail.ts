/**
 * GET /v1/parts/{manufacturer}/{mpn}: one part by slugs; one paid part record per 200.
 * Exact slugs answer 200; the same part by other case or by a manufacturer alias answers 308 to the
 * canonical URL (free), as does the MPN as written ("MCP6002T-I/SN", URL-encoded) for its slug;
 * anything else 404 not_found.
 */
import { notFound } from '../../errors.ts';
import { partSearchResultSchema, presentPart } from '../../search/present.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';

export function partDetailRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/v1/parts/:manufacturer/:mpn',
      operationId: 'getPart',
      summary: 'Part detail by manufacturer and MPN slugs',
      description: 'Paid: one part record per call. Other case or a manufacturer alias redirects (308) to the canonical URL.',
      tags: ['parts'],
      access: 'parts:read',
      paid: true,
      price: { usage_class: 'part_records', units: 1 },
      params: {
        type: 'object',
        required: ['manufacturer', 'mpn'],
        properties: {
          manufacturer: { type: 'string', minLength: 1, maxLength: 200, description: 'Manufacturer slug, e.g. texas-instruments.' },
          // The slug of a 200-character MPN (the dump's limit) of letters outside the BMP: 4 UTF-8 bytes of 3 characters each.
          mpn: { type: 'string', minLength: 1, maxLength: 2400, description: 'MPN slug, e.g. LM358DR (the `slug` of a search result after the manufacturer).' },
        },
      },
      responses: {
        200: {
          description: 'The part.',
          schema: { type: 'object', required: ['part', 'request_id'], properties: { part: partSearchResultSchema, request_id: requestIdSchema } },
        },
        308: {
          description: 'Redirect to the canonical URL of the part (Location).',
          headers: { Location: { description: 'The canonical URL of the part: /v1/parts/{manufacturer}/{mpn slug}.', schema: { type: 'string' } } },
        },
      },
      errors: [404],
      handler: async (ctx, { params }) => {
        const { manufacturer, mpn } = params as { manufacturer: string; mpn: string };
        const found = await s.parts.resolve(manufacturer, mpn);
        if (!found) throw notFound(`Part ${manufacturer}/${mpn}`);
        if (!found.canonical) {
          ctx.status = 308;
          ctx.set('Location', `/v1/parts/${found.part.manufacturer.slug}/${encodeURIComponent(found.part.mpn_slug)}`);
          return { redirect: `/v1/parts/${found.part.slug}`, request_id: ctx.state.requestId };
        }
        await ctx.state.charge('part_records', 1);
        return { part: presentPart(found.part), request_id: ctx.state.requestId };
      },
    },
  ];
}
