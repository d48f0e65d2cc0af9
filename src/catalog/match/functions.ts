/**
 * The categories a query names by what their parts do ("isolate ... with light": the optocoupler
 * categories), from the function vocabulary (src/vocabulary/functions.ts) and the live category tree:
 * every leaf category holding parts whose own name matches the function's category pattern.
 */
import type { CategoryData } from '../categories.ts';
import { functionOf, FUNCTIONS, type PartFunction } from '../../vocabulary/functions.ts';
import type { CategoryMatch, CategoryMatcher } from './categories.ts';

/** Confidence given to a category named by function: the floor of a name the query says (named-categories.ts NAMED_MIN). */
export const FUNCTION_CONFIDENCE = 90;

/** The categories of each function, resolved once per tree, most parts first. */
export function functionCategories(categories: readonly CategoryData[], functions: readonly PartFunction[] = FUNCTIONS): Map<string, CategoryMatch[]> {
  const out = new Map<string, CategoryMatch[]>();
  for (const f of functions) {
    const hits = categories
      .filter((c) => c.children.length === 0 && c.part_count > 0 && f.category.test(c.name))
      .sort((a, b) => b.part_count - a.part_count || (a.slug < b.slug ? -1 : 1));
    out.set(
      f.id,
      hits.map((c) => ({ slug: c.slug, confidence: FUNCTION_CONFIDENCE, exact: false, function: f.id })),
    );
  }
  return out;
}

/** `matcher` that also names categories by function (CategoryMatcher.byFunction). */
export function withFunctions(matcher: CategoryMatcher, categories: readonly CategoryData[]): CategoryMatcher {
  let table: Map<string, CategoryMatch[]> | null = null;
  return {
    match: (query, limit) => matcher.match(query, limit),
    byFunction(query) {
      const f = functionOf(query);
      if (!f) return [];
      table ??= functionCategories(categories);
      return table.get(f.id) ?? [];
    },
  };
}
