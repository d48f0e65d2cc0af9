/**
 * Two versions of the service side by side on the same index: `partsearch serve` from two code trees
 * (--a, --b: project roots, e.g. a checkout of the old commit and this one) on the configured data dir
 * (SEARCH_ENGINE, PARTSEARCH_DATA_DIR / OPENSEARCH_URL + OPENSEARCH_INDEX_PREFIX), then alternating
 * rounds: one client, keep-alive, for --round-seconds on A, then on B, for each workload (exact MPN
 * search of sampled MPNs, MPN search with a one-character typo in the middle of each, and agentic search
 * of bench/queries.ts). Per workload: the median over the rounds of each side's p50 and of the per-round
 * ratio B/A. Both servers share the host, its load and the index, so the ratio holds where absolute
 * times from two runs a few minutes apart do not.
 *
 *   PARTSEARCH_DATA_DIR=<index dir> npx tsx bench/ab-servers.ts --a <old tree> --b . [--label-a NAME] [--label-b NAME]
 *     [--rounds 15] [--round-seconds 1] [--out FILE]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeServices, createServices } from '../src/composition.ts';
import { loadConfig } from '../src/config.ts';
import { silentLogger } from '../src/log.ts';
import { median, startLoadWorker } from './load.ts';
import { AGENTIC_QUERIES } from './queries.ts';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '15' },
    'round-seconds': { type: 'string', default: '1' },
    'port-a': { type: 'string', default: '18710' },
    'port-b': { type: 'string', default: '18711' },
    'label-a': { type: 'string', default: 'a' },
    'label-b': { type: 'string', default: 'b' },
    out: { type: 'string' },
  },
});
if (!values.a) throw new Error('--a <project root of the old code> is required');
const trees = { a: path.resolve(values.a), b: path.resolve(values.b!) };

// A key both servers accept (the accounts store is the data dir's, or Redis's), and the sampled MPNs.
const config = loadConfig({ ...process.env, MONTHLY_REQUEST_CAP: '1000000000' });
const s = await createServices(config, { log: silentLogger, embedder: false });
const account = await s.accounts.createAccount({ name: `ab-${Date.now()}`, subscription: true, credit_micros: 1e12 });
const { secret } = await s.accounts.createKey({ account_id: account.id, name: 'ab', capabilities: ['parts:read'], rate_limit_per_minute: 1_000_000_000 });
const sample = await s.engine.textSearch({ text: null, filters: {}, limit: 2000, offset: 0 });
const mpns = (await s.engine.getParts(sample.hits.filter((_, i) => i % 10 === 0).map((h) => h.id))).map((p) => p.mpn);
await closeServices(s);
const typo = (mpn: string) => {
  const i = Math.floor(mpn.length / 2);
  return mpn.slice(0, i) + (mpn[i]?.toUpperCase() === 'X' ? '7' : 'X') + mpn.slice(i + 1);
};
const workloads: Record<string, string[]> = {
  mpn: mpns.map((m) => `/v1/parts/search?mpn=${encodeURIComponent(m)}`),
  mpn_typo: mpns.filter((m) => m.length >= 6).map((m) => `/v1/parts/search?mpn=${encodeURIComponent(typo(m))}`),
  agentic: AGENTIC_QUERIES.map((q) => `/v1/parts/agentic-search?search_query=${encodeURIComponent(q)}&limit=10`),
};

let ending = false;
function serve(root: string, port: string): ChildProcess {
  const p = spawn(process.execPath, [path.join(root, 'bin', 'partsearch.js'), 'serve', '--port', port], {
    env: { ...process.env, MONTHLY_REQUEST_CAP: '1000000000', JOB_WORKERS: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  p.on('exit', (code, signal) => {
    if (!ending) console.error(`the server of ${root} ended early (${code ?? signal})`);
  });
  return p;
}
async function up(port: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no server on ${port}`);
}
const servers = [serve(trees.a, values['port-a']!), serve(trees.b, values['port-b']!)];
const worker = startLoadWorker();
try {
  await Promise.all([up(values['port-a']!), up(values['port-b']!)]);
  const headers = { Authorization: `Bearer ${secret}` };
  const url = (port: string) => `http://127.0.0.1:${port}`;
  const seconds = Number(values['round-seconds']);
  const loadBefore = os.loadavg();
  const result: Record<string, unknown> = {};
  for (const [name, paths] of Object.entries(workloads)) {
    // Warm-up on both (the first queries read postings, records, the model's first pass).
    for (const port of [values['port-a']!, values['port-b']!]) await worker.run({ url: url(port), paths, headers, concurrency: 1, seconds: 2 });
    const rounds: { a: number; b: number; ratio: number }[] = [];
    for (let r = 0; r < Number(values.rounds); r++) {
      const a = (await worker.run({ url: url(values['port-a']!), paths, headers, concurrency: 1, seconds })).p50ms;
      const b = (await worker.run({ url: url(values['port-b']!), paths, headers, concurrency: 1, seconds })).p50ms;
      rounds.push({ a, b, ratio: b / a });
    }
    const entry = {
      a_p50_ms: +median(rounds.map((x) => x.a)).toFixed(3),
      b_p50_ms: +median(rounds.map((x) => x.b)).toFixed(3),
      ratio_b_over_a: +median(rounds.map((x) => x.ratio)).toFixed(3),
      rounds: rounds.map((x) => ({ a: +x.a.toFixed(3), b: +x.b.toFixed(3) })),
    };
    result[name] = entry;
    console.log(`${name}: A p50 ${entry.a_p50_ms} ms, B p50 ${entry.b_p50_ms} ms, B/A ${entry.ratio_b_over_a} (median of ${rounds.length} rounds)`);
  }
  const out = {
    date: new Date().toISOString(),
    engine: config.engine,
    a: values['label-a'],
    b: values['label-b'],
    rounds: Number(values.rounds),
    round_seconds: seconds,
    load_average: { before: loadBefore.map((x) => +x.toFixed(2)), after: os.loadavg().map((x) => +x.toFixed(2)) },
    ...result,
  };
  if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(out, null, 2)}\n`);
} finally {
  ending = true;
  worker.close();
  for (const p of servers) p.kill('SIGTERM');
}
