/**
 * Name matching against the real catalogue (../shared/data/catalog): the category tree and the
 * manufacturer registry as ingest builds them, part counts from parts.jsonl.gz, and every row of
 * test/fixtures/match/*.jsonl. Prints precision@1 per fixture file and the misses; asserts
 * precision@1 >= 0.9 for each file and that "must return nothing" rows (expected: []) return
 * nothing. Skips with a message when the shared data is absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCountedTaxonomy } from '../../ingest/counted-taxonomy.ts';
import { CategoryTree } from '../../src/catalog/categories.ts';
import { ManufacturerRegistry } from '../../src/catalog/manufacturers.ts';
import { createCategoryMatcher } from '../../src/catalog/match/categories.ts';
import { createManufacturerMatcher } from '../../src/catalog/match/manufacturers.ts';
import { FIXTURES, noteSkip, SHARED_CATALOG } from '../support/fixtures.ts';

const files = {
  parts: path.join(SHARED_CATALOG, 'parts.jsonl.gz'),
  categories: path.join(SHARED_CATALOG, 'categories.json'),
  manufacturers: path.join(SHARED_CATALOG, 'manufacturers.json'),
};
const present = Object.values(files).every((f) => fs.existsSync(f));
if (!present) noteSkip('name matching on the real catalogue', `no data at ${SHARED_CATALOG}`);

interface Row {
  query: string;
  expected: string[];
  note?: string;
}

function readRows(name: string): Row[] {
  const text = fs.readFileSync(path.join(FIXTURES, 'match', name), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

interface Outcome {
  precision: number;
  misses: string[];
  leaks: string[];
}

function evaluate(rows: Row[], match: (q: string, limit: number) => { slug: string; confidence: number }[]): Outcome {
  const scored = rows.filter((r) => r.expected.length > 0);
  const misses: string[] = [];
  const leaks: string[] = [];
  let hits = 0;
  for (const r of rows) {
    const got = match(r.query, 5);
    if (r.expected.length === 0) {
      if (got.length > 0) leaks.push(`${JSON.stringify(r.query)} -> ${got.map((g) => `${g.slug}(${g.confidence})`).join(', ')}`);
    } else if (got[0] && r.expected.includes(got[0].slug)) hits++;
    else
      misses.push(
        `${JSON.stringify(r.query)} -> ${
          got
            .slice(0, 3)
            .map((g) => `${g.slug}(${g.confidence})`)
            .join(', ') || '(nothing)'
        }; expected ${r.expected.slice(0, 3).join(' | ')}`,
      );
  }
  return { precision: scored.length ? hits / scored.length : 1, misses, leaks };
}

function report(name: string, rows: Row[], o: Outcome): void {
  const n = rows.filter((r) => r.expected.length > 0).length;
  const lines = [`[match] ${name}: precision@1 ${o.precision.toFixed(3)} (${Math.round(o.precision * n)}/${n})`];
  for (const m of o.misses) lines.push(`  miss: ${m}`);
  for (const l of o.leaks) lines.push(`  should be empty: ${l}`);
  console.log(lines.join('\n'));
}

describe.skipIf(!present)('name matching on the real catalogue', () => {
  let tree = new CategoryTree();
  let registry = ManufacturerRegistry.from([]);

  beforeAll(async () => {
    ({ tree, registry } = await loadCountedTaxonomy(files));
  });

  /** One judged file: enough judged rows, every expected slug known, no leaks on nonsense, precision@1 >= 0.9. */
  const checkFile = (file: string, minJudged: number, known: (slug: string) => boolean, match: Parameters<typeof evaluate>[1]) => {
    const rows = readRows(file);
    expect(rows.filter((r) => r.expected.length > 0).length).toBeGreaterThanOrEqual(minJudged);
    expect(rows.flatMap((r) => r.expected).filter((s) => !known(s))).toEqual([]);
    const o = evaluate(rows, match);
    report(file, rows, o);
    expect(o.leaks).toEqual([]);
    expect(o.precision).toBeGreaterThanOrEqual(0.9);
  };

  it('categories: precision@1 >= 0.9, nonsense returns nothing', () => {
    const known = new Set(tree.flatten().map((c) => c.slug));
    const matcher = createCategoryMatcher(tree.toJSON());
    checkFile(
      'categories.jsonl',
      45,
      (s) => known.has(s),
      (q, n) => matcher.match(q, n),
    );
  });

  it('manufacturers: precision@1 >= 0.9, nonsense returns nothing', () => {
    const matcher = createManufacturerMatcher(registry.all());
    checkFile(
      'manufacturers.jsonl',
      35,
      (s) => Boolean(registry.get(s)),
      (q, n) => matcher.match(q, n),
    );
  });

  it('keeps near-duplicate categories adjacent, by part count', () => {
    const matcher = createCategoryMatcher(tree.toJSON());
    const top = matcher.match('mosfet', 4).map((m) => m.slug);
    expect(new Set(top)).toEqual(
      new Set(['transistors/mosfets', 'triode-mos-tube-transistor/mosfets', 'transistors-thyristors/mosfets', 'transistors/mosfet']),
    );
    const counts = top.map((s) => tree.get(s)!.part_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});
