/**
 * The categories a free-text part query names ("2A 250V wire to board connector", "1.6A 20V mosfets",
 * "8MHz 8pF crystals"), found with the catalogue's own category-name matcher
 * (src/catalog/match/categories.ts) on the query's words without digits: quantities, packages and
 * part numbers ("2A", "SOT-23-5", "100nA@16V") are not category words and would only dilute the match.
 *
 * A query names a category when the best match reaches NAMED_MIN confidence: 90+ is the matcher's "the
 * query says the name, perhaps in other words" (a plural, word order, an abbreviation). Below it a word
 * only resembles a name ("inductor" is 80 for "Power Inductors", "smd" 84 for "Chip Resistor - Surface
 * Mount"), and a category named on that evidence would push its parts above parts that meet the query.
 * Every match within NAMED_SPREAD of the best is named with it, so near-identical names ("MOSFETs" under
 * three roots, "Fuse" and "Fuses", "Wire To Board Connector" and "Wire To Board / Wire To Wire
 * Connector") all count, as one tier: agentic search ranks the parts of every named category first, and
 * uses the category named by its own exact name only to order parts that tie on everything else.
 */
import type { CategoryMatch, CategoryMatcher } from '../catalog/match/categories.ts';
import { CATEGORY_QUALIFIER_WORDS, MOUNTING_WORDS } from '../vocabulary/query-words.ts';

export const NAMED_MIN = 90;
export const NAMED_SPREAD = 2;
const MAX_NAMED = 20;

/** Words of the query that can be category words: those without digits. */
export function categoryWords(query: string): string {
  return query
    .split(/\s+/)
    .filter((w) => w !== '' && !/\d/.test(w))
    .join(' ');
}

/** Words that say how a part mounts, and counts and colours: vocabulary/query-words.json. */
const QUALIFIER_WORDS = CATEGORY_QUALIFIER_WORDS;
const bare = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}-]/gu, '');

/**
 * The categories the query names, best first, with the matcher's confidence (empty when none is named
 * confidently): the category words together; or else the same words without mounting words ("ir led
 * smd" names the infrared LEDs); or else without counts and colours too ("white LED through hole" names
 * the LED categories, whose names say nothing of colour or mounting).
 * When no name is said, the categories whose parts do what the query describes ("isolate ... with
 * light": optocouplers; the function vocabulary, CategoryMatcher.byFunction), all as one tier.
 * A run of a description's words ("Step-Down Voltage Regulator" in "Adjustable 3A 150kHz Step-Down
 * Voltage Regulator") is not tried: it named categories the description was not about (real-nl -0.014
 * and -0.032 on two seeds, bench/results/relevance.md).
 */
export function namedCategories(matcher: CategoryMatcher | undefined, query: string): CategoryMatch[] {
  if (!matcher) return [];
  const byName = namedByName(matcher, query);
  return byName.length ? byName : (matcher.byFunction?.(query) ?? []);
}

/** The categories the query names by their names (see namedCategories). */
function namedByName(matcher: CategoryMatcher, query: string): CategoryMatch[] {
  const all = categoryWords(query);
  if (all === '') return [];
  const named = (words: string) => {
    const matches = matcher.match(words, MAX_NAMED);
    const best = matches[0]?.confidence ?? 0;
    return best >= NAMED_MIN ? matches.filter((m) => m.confidence >= best - NAMED_SPREAD) : [];
  };
  let words = all.split(' ');
  let result = named(all);
  for (const drop of [MOUNTING_WORDS, QUALIFIER_WORDS]) {
    if (result.length) return result;
    const kept = words.filter((w) => !drop.has(bare(w)));
    if (kept.length === 0 || kept.length === words.length) continue;
    words = kept;
    result = named(words.join(' '));
  }
  return result;
}

/** Named category slug -> whether the query says that category's own name exactly (CategoryMatch.exact). */
export function namedSet(named: readonly CategoryMatch[]): Map<string, boolean> {
  return new Map(named.map((m) => [m.slug, m.exact]));
}

/**
 * Whether a part's category is one of the named ones or under one (subtree-inclusive): 0 no, 1 yes,
 * 2 yes and that category's own name is what the query says (the finer tie-break).
 */
export function namedCategoryScore(named: ReadonlyMap<string, boolean>, category: { slug: string } | null): 0 | 1 | 2 {
  if (!category) return 0;
  let best: 0 | 1 | 2 = 0;
  for (const [slug, exact] of named) {
    if (!underCategory(category.slug, slug)) continue;
    if (exact) return 2;
    best = 1;
  }
  return best;
}

/** Whether a category slug is `root` or under it (slugs are full paths: "capacitors/tantalum-capacitors"). */
export function underCategory(slug: string, root: string): boolean {
  return slug === root || (slug.length > root.length && slug.startsWith(root) && slug.charAt(root.length) === '/');
}
