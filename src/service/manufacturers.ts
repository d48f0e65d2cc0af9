/** Manufacturers (REST manufacturer endpoints, GraphQL supManufacturers): name matching and detail. */
import type { Manufacturer } from '../catalog/manufacturers.ts';
import { notFound } from '../errors.ts';
import type { CatalogDeps } from './deps.ts';

/** Manufacturer: slug, name, logo (spec) plus aliases and part_count (documented extension). */
export const presentManufacturer = (m: Manufacturer) => ({ slug: m.slug, name: m.name, logo: m.logo, aliases: m.aliases, part_count: m.part_count });

/** POST /v1/manufacturers/match: manufacturers a full name, partial name or alias resolves to, best first. */
export async function matchManufacturers(deps: CatalogDeps, query: string, limit: number) {
  const view = await deps.catalog.get();
  if (!view) return [];
  return view
    .manufacturerMatcher()
    .match(query, limit)
    .flatMap((m) => {
      const mfr = view.manufacturers.get(m.slug);
      return mfr ? [{ manufacturer: presentManufacturer(mfr), confidence: m.confidence }] : [];
    });
}

/** GET /v1/manufacturers/{manufacturer}: a manufacturer by its slug, or not_found. */
export async function getManufacturer(deps: CatalogDeps, slug: string) {
  const m = (await deps.catalog.get())?.manufacturers.get(slug);
  if (!m) throw notFound(`Manufacturer "${slug}"`);
  return presentManufacturer(m);
}
