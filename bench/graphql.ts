/**
 * GraphQL's supSearchMpn against REST's MPN search on the same index, in one run (the goal: p50 of a
 * supSearchMpn of 10 parts with sellers and specs within 1.5x the REST search's).
 *
 * The queries are MPN prefixes of parts sampled across the index for which GET /v1/parts/search answers
 * its full 10 parts. REST: GET /v1/parts/search?mpn=<prefix> (10 full records). GraphQL: POST /graphql
 * supSearchMpn(q: <prefix>, limit: 10) selecting each part's identity, description, specs with their
 * attributes, and sellers with offers and price breaks. One client, warm, from a load process of its
 * own; the two alternate in rounds of --round-seconds each and the ratio is the median of the rounds'
 * own ratios (this host's speed moves from one few-second stretch to the next). The server process's CPU
 * time per request is reported beside the latencies: on a host shared with other work it says what each
 * costs when the latencies mostly say how long it waited for a core.
 *
 *   PARTSEARCH_DATA_DIR=/tmp/idx EMBEDDING_MODEL_DIR=none npx tsx bench/graphql.ts [--rounds 9] [--round-seconds 2]
 *   SEARCH_ENGINE=opensearch OPENSEARCH_URL=http://127.0.0.1:9200 OPENSEARCH_INDEX_PREFIX=<prefix> npx tsx bench/graphql.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeServices, createServices } from '../src/composition.ts';
import { loadConfig } from '../src/config.ts';
import { createApp } from '../src/http/app.ts';
import { silentLogger } from '../src/log.ts';
import { median, startLoadWorker } from './load.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '9' }, 'round-seconds': { type: 'string', default: '2' }, queries: { type: 'string', default: '40' } },
});

const config = loadConfig({ ...process.env, MONTHLY_REQUEST_CAP: '1000000000' });
const s = await createServices(config, { log: silentLogger, embedder: false });
await s.engine.warmUp?.();
const info = await s.engine.info();
if (info.parts === 0) throw new Error('the configured index is empty: ingest first');
const account = await s.accounts.createAccount({ name: `bench-graphql-${Date.now()}`, subscription: true, credit_micros: 1e12 });
const { secret } = await s.accounts.createKey({ account_id: account.id, name: 'bench', capabilities: ['parts:read'], rate_limit_per_minute: 1_000_000_000 });
const headers = { Authorization: `Bearer ${secret}` };
const server = createApp(s).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const PART =
  'id mpn manufacturer { name } shortDescription specs { attribute { shortname name } displayValue value units } sellers { company { name } offers { sku inventoryLevel moq packaging prices { quantity price currency } } }';
const QUERY = `query($q: String!) { supSearchMpn(q: $q, limit: 10) { hits results { part { ${PART} } } } }`;

// MPN prefixes with 10 REST answers, from parts sampled across the index.
const sample = await s.engine.textSearch({ text: null, filters: {}, limit: 3000, offset: 0 });
const prefixes: string[] = [];
for (const p of await s.engine.getParts(sample.hits.filter((_, i) => i % 7 === 0).map((h) => h.id))) {
  const q = p.mpn.slice(0, Math.max(3, Math.ceil(p.mpn.length / 2)));
  if (prefixes.includes(q)) continue;
  const rest = (await (await fetch(`${base}/v1/parts/search?mpn=${encodeURIComponent(q)}`, { headers })).json()) as { hits: number };
  if (rest.hits < 10) continue;
  const g = (await (
    await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: QUERY, variables: { q } }),
    })
  ).json()) as { data?: { supSearchMpn: { results: unknown[] } }; errors?: unknown };
  if (g.errors || g.data?.supSearchMpn.results.length !== 10) throw new Error(`GraphQL did not answer 10 parts for ${q}: ${JSON.stringify(g).slice(0, 300)}`);
  prefixes.push(q);
  if (prefixes.length >= Number(values.queries)) break;
}
if (prefixes.length < 10) throw new Error(`only ${prefixes.length} prefixes answer 10 parts`);
const restPaths = prefixes.map((q) => `/v1/parts/search?mpn=${encodeURIComponent(q)}`);
const bodies = prefixes.map((q) => JSON.stringify({ query: QUERY, variables: { q } }));

const worker = startLoadWorker();
const seconds = Number(values['round-seconds']);
/** A phase's load result and the server process's CPU time per request (user + system; the load runs elsewhere). */
const timed = async (run: () => ReturnType<typeof worker.run>) => {
  const c0 = process.cpuUsage();
  const r = await run();
  const c = process.cpuUsage(c0);
  return { ...r, cpuMs: (c.user + c.system) / 1000 / r.requests };
};
const rest = () => timed(() => worker.run({ url: base, paths: restPaths, headers, concurrency: 1, seconds }));
const graphql = () => timed(() => worker.run({ url: `${base}/graphql`, bodies, headers, concurrency: 1, seconds }));
await rest(); // warm-up: records cached, documents parsed
await graphql();
const loadBefore = os.loadavg().map((x) => +x.toFixed(2));
const rounds: { rest_p50_ms: number; graphql_p50_ms: number; ratio: number; rest_cpu_ms: number; graphql_cpu_ms: number; cpu_ratio: number }[] = [];
for (let i = 0; i < Number(values.rounds); i++) {
  // Alternate which goes first, so neither always runs in the same stretch of the host's speed.
  let r, g;
  if (i % 2 === 0) {
    r = await rest();
    g = await graphql();
  } else {
    g = await graphql();
    r = await rest();
  }
  rounds.push({
    rest_p50_ms: r.p50ms,
    graphql_p50_ms: g.p50ms,
    ratio: +(g.p50ms / r.p50ms).toFixed(3),
    rest_cpu_ms: +r.cpuMs.toFixed(3),
    graphql_cpu_ms: +g.cpuMs.toFixed(3),
    cpu_ratio: +(g.cpuMs / r.cpuMs).toFixed(3),
  });
}
worker.close();
const result = {
  date: new Date().toISOString(),
  engine: info.kind,
  parts: info.parts,
  cpus: os.cpus().length,
  load_average_1_5_15: { before: loadBefore, after: os.loadavg().map((x) => +x.toFixed(2)) },
  queries: prefixes.length,
  round_seconds: seconds,
  rounds,
  rest_p50_ms: median(rounds.map((r) => r.rest_p50_ms)),
  graphql_p50_ms: median(rounds.map((r) => r.graphql_p50_ms)),
  graphql_over_rest_p50: median(rounds.map((r) => r.ratio)),
  // The server's CPU time per request: what the two cost whatever else the host runs.
  rest_cpu_ms_per_request: median(rounds.map((r) => r.rest_cpu_ms)),
  graphql_cpu_ms_per_request: median(rounds.map((r) => r.graphql_cpu_ms)),
  graphql_over_rest_cpu: median(rounds.map((r) => r.cpu_ratio)),
  goal: 1.5,
};
console.log(JSON.stringify(result, null, 2));
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results', `graphql-${info.kind}-${info.parts}.json`), `${JSON.stringify(result, null, 2)}\n`);
server.close();
await closeServices(s);
