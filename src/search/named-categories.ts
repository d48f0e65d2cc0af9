/**
 * The categories a free-text part query names ("2A 250V wire to board connector", "1.6A 20V mosfets",
 * "8MHz 8pF crystals"), found with the catalogue's own category-name matcher
 * (src/catalog/match/categories.ts) on the query's words without digits: quantities, packages and
 * part numbers ("2A", "SOT-23-5", "100nA@16V") are not category words and would only dilute the match.
 *
 * A query names a category when the best match reaches NAMED_MIN confidence (80+ is the matcher's
 * "confident": the name in other words, a plural, an abbreviation); every match within NAMED_SPREAD
 * of the best is named with it, so near-identical names ("MOSFETs" under three roots, "Wire To Board
 * Connector" and "Wire To Board / Wire To Wire Connector") all count. Agentic search retrieves from the
 * named categories and ranks their parts first, the best-named category's before the others'.
 */
import type { CategoryMatch, CategoryMatcher } from '../catalog/match/categories.ts';

export const NAMED_MIN = 75;
export const NAMED_SPREAD = 2;
const MAX_NAMED = 20;

/** Words of the query that can be category words: those without digits. */
export function categoryWords(query: string): string {
  return query
    .split(/\s+/)
    .filter((w) => w !== '' && !/\d/.test(w))
    .join(' ');
}

/** The categories the query names, best first, with the matcher's confidence (empty when none is named confidently). */
export function namedCategories(matcher: CategoryMatcher | undefined, query: string): CategoryMatch[] {
  if (!matcher) return [];
  const words = categoryWords(query);
  if (words === '') return [];
  const matches = matcher.match(words, MAX_NAMED);
  const best = matches[0]?.confidence ?? 0;
  if (best < NAMED_MIN) return [];
  return matches.filter((m) => m.confidence >= best - NAMED_SPREAD);
}

/** Named category slug -> rank weight: its confidence, plus one when the query says its own name exactly. */
export function namedWeights(named: readonly CategoryMatch[]): Map<string, number> {
  return new Map(named.map((m) => [m.slug, m.confidence + (m.exact ? 1 : 0)]));
}

/**
 * How well the query names a part's category: the weight (namedWeights) of the named category it is in
 * or under (the best, when several), 0 when none. The category named by its exact name ranks above one
 * whose name only reduces to the same words ("Wire To Board / Wire To Wire Connector" for "wire to board
 * connector").
 */
export function namedCategoryScore(named: ReadonlyMap<string, number>, category: { slug: string; path: readonly { slug: string }[] } | null): number {
  if (named.size === 0 || !category) return 0;
  let best = named.get(category.slug) ?? 0;
  for (const c of category.path) best = Math.max(best, named.get(c.slug) ?? 0);
  return best;
}
