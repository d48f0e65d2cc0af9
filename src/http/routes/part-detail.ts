/**
 * GET /v1/parts/{manufacturer}/{mpn}: one part by slugs; one paid part record per 200.
 * Exact slugs answer 200; the same part by other case or by a manufacturer alias answers 308 to the
 * canonical URL (free), as does the MPN as written ("MCP6002T-I/SN", URL-encoded) for its slug;
 * anything else 404 not_found.
 */
import { legacySlug, mpnSlug, normaliseMpn } from '../../catalog/mpn.ts';
import { partId } from '../../catalog/normalise.ts';
import { notFound } from '../../errors.ts';
import { partSearchResultSchema, presentPart } from '../../search/present.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../services.ts';

/** Parts with escaped slugs read per manufacturer when a pre-escape slug is asked for (the most of one maker in the 582k catalogue: 995). */
const LEGACY_SCAN_MAX = 10_000;

export function partDetailRoutes(s: AppServices): RouteSpec[] {
  /** Manufacturer slug as given, or the canonical one it resolves to (case, alias), from the cached snapshot. */
  async function canonicalManufacturer(given: string): Promise<string | null> {
    const registry = (await s.catalog.get())?.manufacturers;
    if (!registry) return null;
    if (registry.get(given)) return given;
    return registry.get(given.toLowerCase())?.slug ?? registry.lookup(given.replace(/-/g, ' '))?.slug ?? null;
  }

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
        308: { description: 'Redirect to the canonical URL of the part (Location).' },
      },
      errors: [404],
      handler: async (ctx, { params }) => {
        const { manufacturer, mpn } = params as { manufacturer: string; mpn: string };
        const mfr = await canonicalManufacturer(manufacturer);
        // A slug first (any case); otherwise the MPN as written ("MCP6002T-I/SN", URL-encoded) is read as
        // its slug ("MCP6002T-I_SN") and redirected, provided the part found is that MPN's own (a slug
        // written before its escapes existed, "2.54-2_5P__", is nobody's MPN as written).
        let found = mfr ? await s.engine.getPartBySlug(mfr, mpn) : null;
        let asWritten = false;
        if (mfr && !found && mpnSlug(mpn) !== mpn) {
          // By its key, as the ingest identifies parts: any case of any letter ("r16ω" is R16Ω, whose
          // slug escapes Ω's bytes, not ω's).
          const [part] = await s.engine.getParts([partId(mfr, normaliseMpn(mpn))]);
          if (part) found = { part, exact: false };
          asWritten = true;
        }
        // A slug published before the escapes ("YX-KC9042-42_" for YX-KC9042 42Ω), when it names one part;
        // several parts shared such a slug, and it stays unknown for them (a 404, not a guess).
        if (mfr && !found && mpn.includes('_')) {
          const given = mpn.toLowerCase();
          const same = (await s.engine.escapedSlugs(mfr, LEGACY_SCAN_MAX)).filter((x) => legacySlug(x.mpn_slug).toLowerCase() === given);
          const [part] = same.length === 1 ? await s.engine.getParts([same[0]!.id]) : [];
          if (part) found = { part, exact: false };
        }
        if (!found) throw notFound(`Part ${manufacturer}/${mpn}`);
        if (!found.exact || mfr !== manufacturer || asWritten) {
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
