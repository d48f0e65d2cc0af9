/**
 * A part by manufacturer and MPN slugs (REST GET /v1/parts/{manufacturer}/{mpn} and its deep dive,
 * GraphQL supParts by slug): the part, and whether the slugs given are its canonical ones.
 */
import { legacySlug, mpnSlug } from '../catalog/mpn.ts';
import { legacyIds, partId } from '../catalog/normalise.ts';
import type { PartRecord } from '../catalog/part.ts';
import type { CatalogView } from '../catalog/view.ts';
import type { SearchDeps } from './deps.ts';

/** Parts with escaped slugs read per manufacturer when a pre-escape slug is asked for (the most of one maker in the 582k catalogue: 995). */
const LEGACY_SCAN_MAX = 10_000;

/**
 * The part that manufacturer and MPN slugs name, and whether they are its canonical slugs (anything else
 * answers 308 on the REST route). In this order: the slug as given; a slug published before the escapes,
 * as given (old slugs were matched exactly first too); either in another case; the MPN as written
 * ("MCP6002T-I/SN", URL-encoded), by its key. A manufacturer alias or another case resolves too.
 */
export type PartResolver = (manufacturer: string, mpn: string) => Promise<ResolvedPart | null>;

/** A part found by slugs; `canonical`: the slugs given are its own (REST answers 200, else a 308 to them). */
export interface ResolvedPart {
  part: PartRecord;
  canonical: boolean;
}

export function partResolver(deps: SearchDeps): PartResolver {
  /** Manufacturer slug as given, or the canonical one it resolves to (case, alias), from the cached snapshot. */
  function canonicalManufacturer(view: CatalogView | null, given: string): string | null {
    const registry = view?.manufacturers;
    if (!registry) return null;
    if (registry.get(given)) return given;
    return registry.get(given.toLowerCase())?.slug ?? registry.lookup(given.replace(/-/g, ' '))?.slug ?? null;
  }

  /**
   * The part a slug published before the escapes named ("YX-KC9042-42_" for YX-KC9042 42Ω; legacySlug),
   * when exactly one part of the maker had it: exactly as given, or (`anyCase`) in any case when none had
   * it exactly. Several parts shared some such slugs: those stay unknown (a 404, not a guess), as does
   * every slug when the maker's escaped slugs were not all read.
   */
  async function oldSlugPart(mfr: string, slug: string, anyCase: boolean): Promise<PartRecord | null> {
    // Escapes were written "_", so an old slug holds no "~", and before its first "_" it is the escaped
    // slug itself: only slugs with that prefix, in any case, can be it. The prefix goes in lower case, so
    // that both engines fold it alike (SQLite's LIKE folds ASCII only; "\u212A", the Kelvin sign, is "k").
    // A fallback for what would be a 404: should the engine refuse the lookup (an OpenSearch cluster that
    // disallows wildcard queries), the answer stays the 404.
    if (slug.includes('~')) return null;
    const escaped = await deps.engine.escapedSlugs(mfr, slug.slice(0, slug.indexOf('_')).toLowerCase(), LEGACY_SCAN_MAX).catch(() => null);
    if (!escaped || escaped.length >= LEGACY_SCAN_MAX) return null;
    const olds = escaped.map((x) => ({ id: x.id, old: legacySlug(x.mpn_slug) }));
    let same = olds.filter((x) => x.old === slug);
    if (same.length === 0 && anyCase) same = olds.filter((x) => x.old.toLowerCase() === slug.toLowerCase());
    if (same.length !== 1) return null;
    return (await deps.engine.getParts([same[0]!.id]))[0] ?? null;
  }

  return async (manufacturer, mpn) => {
    const view = await deps.catalog.get();
    const mfr = canonicalManufacturer(view, manufacturer);
    let found = mfr ? await deps.engine.getPartBySlug(mfr, mpn) : null;
    let asWritten = false;
    if (mfr && !found?.exact && mpn.includes('_')) {
      const old = await oldSlugPart(mfr, mpn, found === null);
      if (old) found = { part: old, exact: false };
    }
    if (mfr && !found && mpnSlug(mpn) !== mpn) {
      // By its identity, as the ingest identifies parts: any case of any letter ("r16ω" is R16Ω, whose
      // slug escapes Ω's bytes, not ω's).
      const [part] = await deps.engine.getParts([partId(mfr, mpn, legacyIds(view?.meta.features))]);
      if (part) found = { part, exact: false };
      asWritten = true;
    }
    return found ? { part: found.part, canonical: found.exact && mfr === manufacturer && !asWritten } : null;
  };
}
