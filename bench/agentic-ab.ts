/**
 * Agentic search on two indexes (or two configurations) of the same catalogue, alternating in one
 * process: whether they answer the same (result ids, totals and `available_specs` of pages at offsets 0,
 * 10 and 95), and each side's p50 over rounds in which the two take turns per query (this host's speed
 * moves from one stretch to the next; alternating, both meet it alike). Lexical-only (no model): what an
 * index or plan change does to the engine's reads. How the sixteenth session compared an index built
 * before a change with one built after it (bench/README.md, Search).
 *
 *   npx tsx bench/agentic-ab.ts --a PARTSEARCH_DATA_DIR=/tmp/old --b PARTSEARCH_DATA_DIR=/tmp/new [--queries file] [--rounds 20]
 *   SEARCH_ENGINE=opensearch OPENSEARCH_URL=http://127.0.0.1:9200 npx tsx bench/agentic-ab.ts --a OPENSEARCH_INDEX_PREFIX=x --b OPENSEARCH_INDEX_PREFIX=y
 *
 * `--a` and `--b` are comma-separated NAME=value settings laid over the environment for that side.
 * `--queries` is a file of one query a line (default: the ten of bench/search.ts).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { closeServices, createServices } from '../src/composition.ts';
import { agenticSearch } from '../src/search/agentic.ts';
import { median } from './load.ts';
import { AGENTIC_QUERIES } from './queries.ts';

const { values } = parseArgs({
  options: { a: { type: 'string' }, b: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string', default: '20' } },
});
if (!values.a || !values.b) {
  console.error('usage: npx tsx bench/agentic-ab.ts --a NAME=value[,NAME=value] --b NAME=value[,...] [--queries file] [--rounds 20]');
  process.exit(2);
}
const settings = (s: string) => Object.fromEntries(s.split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const QUERIES = values.queries
  ? fs
      .readFileSync(values.queries, 'utf8')
      .split('\n')
      .map((q) => q.trim())
      .filter(Boolean)
  : AGENTIC_QUERIES;

const sides = await Promise.all(
  [values.a, values.b].map(async (s) => {
    const services = await createServices(loadConfig({ ...process.env, EMBEDDING_MODEL_DIR: 'none', ...settings(s) }), { embedder: false });
    return { services, view: await services.catalog.get() };
  }),
);
const run = (i: number, query: string, offset = 0, limit = 10) => {
  const { services, view } = sides[i]!;
  return agenticSearch(services.engine, null, false, {
    query,
    limit,
    offset,
    filters: { status: ['active'] },
    categories: view?.categoryMatcher(),
    specNames: view?.specNameIndex(),
  });
};

let pages = 0;
const differing: string[] = [];
for (const q of QUERIES)
  for (const [offset, limit] of [
    [0, 10],
    [10, 10],
    [95, 20],
  ] as const) {
    const [a, b] = [await run(0, q, offset, limit), await run(1, q, offset, limit)];
    const key = (r: typeof a) => JSON.stringify([r.total, r.parts.map((p) => p.id), r.availableSpecs]);
    pages++;
    if (key(a) !== key(b)) differing.push(`${q} @${offset}`);
  }
const times: number[][] = [[], []];
for (let r = 0; r < Number(values.rounds); r++)
  for (const q of QUERIES)
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      const t = performance.now();
      await run(i, q);
      times[i]!.push(performance.now() - t);
    }
console.log(
  `queries ${QUERIES.length}, pages compared ${pages}, differing ${differing.length}${differing.length ? `: ${differing.slice(0, 5).join('; ')}` : ''}`,
);
console.log(`agentic p50: a ${median(times[0]!).toFixed(2)} ms, b ${median(times[1]!).toFixed(2)} ms (${times[0]!.length} searches each, alternating)`);
for (const s of sides) await closeServices(s.services);
