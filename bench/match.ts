/**
 * Name-matching latency on the real catalogue: builds the category and manufacturer matchers the
 * way ingest sees the data (tree and registry from the files, part counts from parts.jsonl.gz),
 * then runs every query of test/fixtures/match/*.jsonl 200 times (after one warm-up pass),
 * round-robin, timing each call. Prints p50/p95/p99 in ms per matcher (goal: p50 < 5 ms) and
 * writes bench/results/match.json. Skips with a message when ../shared/data/catalog is absent.
 *
 *   npx tsx bench/match.ts
 */
import { loadCountedTaxonomy } from '../ingest/counted-taxonomy.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCategoryMatcher } from '../src/catalog/match/categories.ts';
import { createManufacturerMatcher } from '../src/catalog/match/manufacturers.ts';

const ROUNDS = 200;
const LIMIT = 10;
const GOAL_P50_MS = 5;

const root = path.resolve(import.meta.dirname, '..');
const catalog = path.resolve(root, '..', 'shared', 'data', 'catalog');
const files = {
  parts: path.join(catalog, 'parts.jsonl.gz'),
  categories: path.join(catalog, 'categories.json'),
  manufacturers: path.join(catalog, 'manufacturers.json'),
};
if (!Object.values(files).every((f) => fs.existsSync(f))) {
  console.log(`[skip] match benchmark: no catalogue at ${catalog}`);
  process.exit(0);
}

const queries = (name: string): string[] =>
  fs
    .readFileSync(path.join(root, 'test', 'fixtures', 'match', name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { query: string }).query);

const { tree, registry } = await loadCountedTaxonomy(files);

interface Figures {
  size: number;
  queries: number;
  calls: number;
  build_ms: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  goal_p50_ms: number;
}

function bench(size: number, build: () => { match(q: string, limit: number): unknown[] }, qs: string[]): Figures {
  const t0 = performance.now();
  const matcher = build();
  const buildMs = performance.now() - t0;
  for (const q of qs) matcher.match(q, LIMIT);
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of qs) {
      const t = performance.now();
      matcher.match(q, LIMIT);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 1000) / 1000;
  return {
    size,
    queries: qs.length,
    calls: times.length,
    build_ms: Math.round(buildMs),
    p50_ms: at(0.5),
    p95_ms: at(0.95),
    p99_ms: at(0.99),
    max_ms: at(1),
    goal_p50_ms: GOAL_P50_MS,
  };
}

const results = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores`,
  rounds: ROUNDS,
  limit: LIMIT,
  categories: bench(tree.size(), () => createCategoryMatcher(tree.toJSON()), queries('categories.jsonl')),
  manufacturers: bench(registry.all().length, () => createManufacturerMatcher(registry.all()), queries('manufacturers.jsonl')),
};

for (const name of ['categories', 'manufacturers'] as const) {
  const f = results[name];
  console.log(
    `${name.padEnd(13)} ${f.size} names, ${f.queries} queries x ${ROUNDS}: p50 ${f.p50_ms} ms, p95 ${f.p95_ms} ms, p99 ${f.p99_ms} ms, max ${f.max_ms} ms (build ${f.build_ms} ms) ${f.p50_ms < GOAL_P50_MS ? 'ok' : 'ABOVE GOAL'}`,
  );
}
const out = path.join(root, 'bench', 'results', 'match.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`results: ${path.relative(root, out)}`);
