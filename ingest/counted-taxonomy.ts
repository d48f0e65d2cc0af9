/**
 * A category tree and manufacturer registry from a dump's side files, with part counts taken from
 * its parts file (streamed). Used where matchers are measured without building an index (the
 * real-data matching test and bench/match.ts).
 */
import fs from 'node:fs';
import { openLines } from './read-lines.ts';
import { CategoryTree } from '../src/catalog/categories.ts';
import { ManufacturerRegistry } from '../src/catalog/manufacturers.ts';

export async function loadCountedTaxonomy(files: {
  categories: string;
  manufacturers: string;
  parts: string;
}): Promise<{ tree: CategoryTree; registry: ManufacturerRegistry }> {
  const tree = CategoryTree.fromFile(JSON.parse(fs.readFileSync(files.categories, 'utf8')));
  const registry = ManufacturerRegistry.from(JSON.parse(fs.readFileSync(files.manufacturers, 'utf8')));
  const counts = new Map<string, number>();
  for await (const { text } of (await openLines(files.parts)).lines) {
    const p = JSON.parse(text) as { category?: unknown; manufacturer?: unknown };
    if (Array.isArray(p.category)) {
      const slug = tree.resolvePath(p.category.filter((c): c is string => typeof c === 'string'));
      if (slug) counts.set(slug, (counts.get(slug) ?? 0) + 1);
    }
    if (typeof p.manufacturer === 'string' && p.manufacturer.trim()) registry.resolve(p.manufacturer).part_count++;
  }
  tree.setCounts(counts);
  return { tree, registry };
}
