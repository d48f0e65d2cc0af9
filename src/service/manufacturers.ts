/** Manufacturers (REST manufacturer endpoints, GraphQL supManufacturers): name matching and detail. */
import type { Manufacturer } from '../catalog/manufacturers.ts';

/** Manufacturer: slug, name, logo (spec) plus aliases and part_count (documented extension). */
export const presentManufacturer = (m: Manufacturer) => ({ slug: m.slug, name: m.name, logo: m.logo, aliases: m.aliases, part_count: m.part_count });
