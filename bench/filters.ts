/**
 * Parametric filters at the engine (issue 5, POST /v1/parts/search and /facets): p50 of text searches
 * and facets filtered by spec values, spec ranges and an approved list, against the configured index
 * (SEARCH_ENGINE, PARTSEARCH_DATA_DIR / OPENSEARCH_URL + OPENSEARCH_INDEX_PREFIX). The filters come
 * from the index itself: its three spec names held by the most parts that have a unit, the most common
 * value of each (a value filter) and the lower half of its numeric extent (a range filter); its largest
 * approved list. With vectors and a model, also kNN (k = 100, what agentic search asks for) of one
 * query embedding under the status filter alone, that list, the largest category and a category of
 * 50-100 parts. The unit price at an order quantity (price bands), narrow and broad. Free text within the
 * largest maker and the largest category, with the exact total. Writes
 * bench/results/filters-<engine>-<parts>.json.
 *
 *   PARTSEARCH_DATA_DIR=/tmp/idx npx tsx bench/filters.ts [--rounds 20]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/composition.ts';
import { loadConfig } from '../src/config.ts';
import { loadEmbedder } from '../src/embeddings/index.ts';
import type { EngineFilters } from '../src/engines/port.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' } } });
const rounds = Number(values.rounds);
const config = loadConfig();
const engine = await createEngine(config);
await engine.warmUp?.(); // as serve does before it listens (SQLite: the full-text row lengths, for BM25 from the postings)
const info = await engine.info();
const meta = await engine.meta();
if (!meta || info.parts === 0) {
  console.log('[skip] no index configured (set PARTSEARCH_DATA_DIR or the OpenSearch variables)');
  process.exit(0);
}

const active: EngineFilters = { status: ['active'] };
const cases: { name: string; run: () => Promise<unknown> }[] = [];
const specNames = (meta.specs ?? [])
  .filter((s) => s.unit !== null)
  .sort((a, b) => b.parts - a.parts)
  .slice(0, 3);
for (const spec of specNames) {
  const f = (await engine.facets({ text: null, filters: active, specValues: [spec.name], size: 1 })).specValues[spec.name];
  const value = f?.values[0]?.value;
  if (value !== undefined) {
    const filters: EngineFilters = { ...active, specs: [{ name: spec.name, values: [value] }] };
    cases.push({ name: `text null, ${spec.name} = ${value}`, run: () => engine.textSearch({ text: null, filters, limit: 50, offset: 0 }) });
  }
  if (f && f.min !== null && f.max !== null && f.max > f.min) {
    const filters: EngineFilters = { ...active, specs: [{ name: spec.name, range: { gte: f.min, lte: (f.min + f.max) / 2 } }] };
    cases.push({ name: `text null, ${spec.name} in lower half`, run: () => engine.textSearch({ text: null, filters, limit: 50, offset: 0 }) });
    cases.push({ name: `facets, ${spec.name} in lower half`, run: () => engine.facets({ text: null, filters, specValues: [spec.name] }) });
  }
}
const list = [...meta.lists].sort((a, b) => b.member_count - a.member_count)[0];
if (list) {
  const filters: EngineFilters = { ...active, lists: [list.list_id] };
  cases.push({
    name: `text null, list ${list.slug ?? list.list_id} (${list.member_count} parts)`,
    run: () => engine.textSearch({ text: null, filters, limit: 50, offset: 0 }),
  });
  cases.push({ name: `text "resistor", list ${list.slug ?? list.list_id}`, run: () => engine.textSearch({ text: 'resistor', filters, limit: 50, offset: 0 }) });
}

// Free text within the largest maker and the largest category, with the exact total (as parametric search
// asks): a common word and a three-word query whose common words select with it.
const sets = await engine.facets({ text: null, filters: active, size: 2000 });
const maker = [...sets.manufacturers].sort((a, b) => b.count - a.count)[0];
const category = [...sets.categories].sort((a, b) => b.count - a.count)[0];
const within: [string, EngineFilters][] = [];
if (maker) within.push([`maker ${maker.slug} (${maker.count} parts)`, { ...active, manufacturers: [maker.slug] }]);
if (category) within.push([`category ${category.slug} (${category.count} parts)`, { ...active, categories: [category.slug] }]);
for (const [name, filters] of within)
  for (const text of ['resistor', 'chip resistor 1%'])
    cases.push({ name: `text "${text}", ${name}`, run: () => engine.textSearch({ text, filters, limit: 50, offset: 0 }) });

// The unit price at an order quantity (price.min_quantity): a narrow band (cheap parts at one unit) and a
// broad one (most parts at a reel's quantity), alone and with a text query. Indexes ingested before the
// price bands were indexed have no such data: skipped.
if ((meta.features ?? []).includes('price_bands')) {
  for (const [quantity, maxUsd] of [
    [1, 0.001],
    [1000, 0.5],
  ] as const) {
    const filters: EngineFilters = { ...active, priceAt: { quantity, maxUsd } };
    cases.push({
      name: `text null, ${quantity} units at most ${maxUsd} USD each`,
      run: () => engine.textSearch({ text: null, filters, limit: 50, offset: 0 }),
    });
    cases.push({
      name: `text "resistor", ${quantity} units at most ${maxUsd} USD each`,
      run: () => engine.textSearch({ text: 'resistor', filters, limit: 50, offset: 0 }),
    });
    cases.push({ name: `facets, ${quantity} units at most ${maxUsd} USD each`, run: () => engine.facets({ text: null, filters }) });
  }
} else console.log('[skip] price-at-quantity cases: this index was ingested before price bands were indexed');

const embedder = info.vectors ? (await loadEmbedder(config)).embedder : null;
if (info.vectors && !embedder) console.log('[skip] kNN cases: no embedding model configured');
if (embedder) {
  const [q] = await embedder.embed(['low noise operational amplifier']);
  const facets = await engine.facets({ text: null, filters: active, size: 2000 });
  const byCount = [...facets.categories].sort((a, b) => a.count - b.count);
  const largest = byCount[byCount.length - 1];
  const middling = byCount.find((c) => c.count >= 50 && c.count <= 100);
  const knnCases: [string, EngineFilters][] = [['status only', active]];
  if (list) knnCases.push([`list ${list.slug ?? list.list_id} (${list.member_count} parts)`, { ...active, lists: [list.list_id] }]);
  if (largest) knnCases.push([`category ${largest.slug} (${largest.count} parts)`, { ...active, categories: [largest.slug] }]);
  if (middling) knnCases.push([`category ${middling.slug} (${middling.count} parts)`, { ...active, categories: [middling.slug] }]);
  for (const [name, filters] of knnCases) cases.push({ name: `kNN k=100, ${name}`, run: () => engine.knn(q!, 100, filters) });
  await embedder.close();
}

const results: { case: string; p50ms: number }[] = [];
for (const c of cases) {
  await c.run();
  const t: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await c.run();
    t.push(performance.now() - t0);
  }
  const p50 = +t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!.toFixed(3);
  results.push({ case: c.name, p50ms: p50 });
  console.log(`${c.name.padEnd(70)} p50 ${p50} ms`);
}
const out = { date: new Date().toISOString(), engine: info.kind, parts: info.parts, rounds, load_average: os.loadavg().map((x) => +x.toFixed(2)), results };
const file = path.join(import.meta.dirname, 'results', `filters-${info.kind}-${info.parts}.json`);
fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
console.log(`written ${path.relative(process.cwd(), file)}`);
await engine.close();
