/**
 * Supply API use cases of matching (GraphQL supMultiMatch, SupPart.similarParts).
 *
 *   supplyMatchLine: a BOM line's matches: the parts whose MPN is the line's (case and punctuation aside),
 *     its packaging variants and alternate MPNs, the catalogue MPN it extends by a packaging suffix
 *     (search/match.ts, confidence at least MATCH_CONFIDENCE), best first; with a manufacturer the
 *     catalogue knows, only that manufacturer's; with `withOffers`, only parts with offers.
 *   similarParts: the parts of the same category most like a part by its description and package (BM25
 *     over the catalogue's text fields, the part itself left out).
 */
import type { PartRecord } from '../catalog/part.ts';
import type { CatalogView } from '../catalog/view.ts';
import type { EngineFilters } from '../engines/port.ts';
import { matchPart } from '../search/match.ts';
import type { SearchDeps } from './deps.ts';

/** Lowest confidence of a match: exact, packaging variants and alternate MPNs, packaging stems (search/match.ts). */
export const MATCH_CONFIDENCE = 86;
/** Characters of a description used as the search text of similar parts. */
const TEXT_CHARS = 200;

type Deps = Pick<SearchDeps, 'engine'>;

export async function supplyMatchLine(
  d: Deps,
  view: CatalogView,
  line: { mpn: string; manufacturer?: string | null; window: number; filters: EngineFilters; withOffers: boolean },
): Promise<PartRecord[]> {
  const result = await matchPart(d.engine, view, {
    query: line.mpn,
    ...(line.manufacturer ? { manufacturer: line.manufacturer } : {}),
    limit: line.window,
    filters: line.filters,
  });
  const maker = line.manufacturer ? view.manufacturerMatcher().match(line.manufacturer, 1)[0] : undefined;
  const makerSlug = maker && maker.confidence >= 60 ? maker.slug : null;
  return result.results
    .filter((c) => c.confidence >= MATCH_CONFIDENCE || c.exact)
    .filter((c) => makerSlug === null || c.part.manufacturer.slug === makerSlug)
    .filter((c) => !line.withOffers || c.part.offers.length > 0)
    .map((c) => c.part);
}

export async function similarParts(d: Deps, r: PartRecord, limit: number): Promise<PartRecord[]> {
  const text = `${r.description} ${r.package ?? ''}`.slice(0, TEXT_CHARS).trim() || r.mpn;
  const found = await d.engine.textSearch({
    text,
    filters: r.category ? { categories: [r.category.slug] } : {},
    limit: limit + 1,
    offset: 0,
    exactTotal: false,
    records: true,
  });
  const others = found.hits.filter((h) => h.id !== r.id).slice(0, limit);
  return others.every((h) => h.record) ? others.map((h) => h.record!) : d.engine.getParts(others.map((h) => h.id));
}
