/**
 * Overhead of the auth + throttle + metering middleware (issue 3) on a cheap route, per adapter:
 * requests/s of a bare public route and of the same handler behind the guard (valid key,
 * capability, throttle hit, monthly request count, a metered debit of one part record at
 * --price-usd, default 0.002: ledger entries are written; 0 records usage only), measured
 * alternately in the same run against the same server. Each round runs both routes for --seconds,
 * in alternating order, and the ratio is the median of the rounds' own guarded/bare: this host's
 * speed swings from one few-second stretch to the next, so many short rounds (15 of 1.5 s by
 * default) give a steadier ratio than a few long ones. Goals: guarded/bare >= 0.8 with SQLite,
 * >= 0.6 with Redis. Also the server's own CPU time per request in each phase. The load generator
 * is one child process for the whole run (bench/load.ts startLoadWorker), so on 2 cores req/s is
 * partly bound by the client.
 *
 *   npx tsx bench/middleware.ts [--adapter sqlite|redis|all] [--seconds 1.5] [--concurrency 32] [--rounds 15] [--price-usd 0.002]
 *
 * Redis runs need REDIS_URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runIngest } from '../ingest/pipeline.ts';
import { loadConfig } from '../src/config.ts';
import { composeServices, createAccounts, createJobAdapters } from '../src/composition.ts';
import { createSqliteEngine } from '../src/engines/sqlite/engine.ts';
import { createApp } from '../src/http/app.ts';
import type { RouteSpec } from '../src/http/route.ts';
import type { AppServices } from '../src/service/app-services.ts';
import { silentLogger } from '../src/log.ts';
import { purgeRedisPrefix } from '../src/redis/connection.ts';
import { median, startLoadWorker } from './load.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    adapter: { type: 'string', default: 'all' },
    seconds: { type: 'string', default: '1.5' },
    concurrency: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '15' },
    'price-usd': { type: 'string', default: '0.002' },
  },
});
const adapters = values.adapter === 'all' ? ['sqlite', ...(process.env.REDIS_URL ? ['redis'] : [])] : [values.adapter!];
if (values.adapter === 'all' && !process.env.REDIS_URL) console.log('[skip] redis: REDIS_URL is not set');

const handler = () => ({ ok: true });
function benchRoutes(): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/bench/bare',
      operationId: 'benchBare',
      summary: 'bench',
      tags: ['bench'],
      access: 'public',
      responses: { 200: { description: 'ok' } },
      handler,
    },
    {
      method: 'GET',
      path: '/v1/bench/guarded',
      operationId: 'benchGuarded',
      summary: 'bench',
      tags: ['bench'],
      access: 'parts:read',
      paid: true,
      price: { usage_class: 'part_records', units: 1 },
      responses: { 200: { description: 'ok' } },
      handler: async (ctx) => {
        await ctx.state.charge('part_records', 1);
        return handler();
      },
    },
  ];
}

/** The load generator, in a child process that stays up for the whole run (the server shares this event loop). */
const worker = startLoadWorker();
async function load(url: string, headers: Record<string, string>) {
  return worker.run({ url, headers, concurrency: Number(values.concurrency), seconds: Number(values.seconds) });
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores`,
  seconds: Number(values.seconds),
  concurrency: Number(values.concurrency),
  rounds: Number(values.rounds),
  price_usd: Number(values['price-usd']),
};
for (const adapter of adapters) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'psbench-mw-'));
  const prefix = `psbench-mw-${process.pid}:`;
  const config = loadConfig({
    PARTSEARCH_DATA_DIR: dir,
    EMBEDDING_MODEL_DIR: 'none',
    PRICES_USD: `part_records=${values['price-usd']}`,
    MONTHLY_REQUEST_CAP: '1000000000',
    ...(adapter === 'redis' ? { REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: prefix } : {}),
  });
  const engine = createSqliteEngine({ file: path.join(dir, 'p.db') });
  await runIngest({ engine, embedder: null, parts: [path.join(root, 'test', 'fixtures', 'parts-small.jsonl')], reportFile: path.join(dir, 'r.jsonl') });
  const { accounts, throttle, gate, tokens } = await createAccounts(config);
  const s: AppServices = composeServices({
    config,
    engine,
    embedder: null,
    embedderMessage: '',
    log: silentLogger,
    accounts,
    throttle,
    gate,
    tokens,
    ...(await createJobAdapters(config)),
  });
  const account = await accounts.createAccount({ name: 'bench', subscription: true, credit_micros: 1e15 });
  const { secret } = await accounts.createKey({ account_id: account.id, name: 'bench', capabilities: ['parts:read'], rate_limit_per_minute: 1_000_000_000 });
  const app = createApp(s, { extraRoutes: benchRoutes() });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}`;
  await load(`${base}/bench/bare`, {}); // warm-up
  const bare: number[] = [];
  const guarded: number[] = [];
  const bareCpu: number[] = [];
  const guardedCpu: number[] = [];
  const guardedRuns: Awaited<ReturnType<typeof load>>[] = [];
  /** One load phase; also the server's own CPU time per request (this process: the load is a child). */
  const phase = async (url: string, headers: Record<string, string>) => {
    const cpu = process.cpuUsage();
    const r = await load(url, headers);
    const used = process.cpuUsage(cpu);
    return { ...r, cpuUsPerRequest: +((used.user + used.system) / Math.max(1, r.requests)).toFixed(1) };
  };
  // Each round measures both routes back to back, bare first in even rounds and guarded first in odd
  // ones, so that a change of the machine's speed during the run weighs on both alike.
  const runBare = async () => {
    const b = await phase(`${base}/bench/bare`, {});
    bare.push(b.rps);
    bareCpu.push(b.cpuUsPerRequest);
  };
  const runGuarded = async () => {
    const g = await phase(`${base}/v1/bench/guarded`, { Authorization: `Bearer ${secret}` });
    guardedRuns.push(g);
    guarded.push(g.rps);
    guardedCpu.push(g.cpuUsPerRequest);
  };
  for (let i = 0; i < Number(values.rounds); i++) {
    if (i % 2 === 0) {
      await runBare();
      await runGuarded();
    } else {
      await runGuarded();
      await runBare();
    }
  }
  // The median of the rounds' own ratios: a round's two phases ran on the same machine speed.
  const roundRatios = guarded.map((g, i) => +(g / bare[i]!).toFixed(3));
  const ratio = median(roundRatios);
  const ratioOfMedians = +(median(guarded) / median(bare)).toFixed(3);
  const cpuRatio = +(median(bareCpu) / median(guardedCpu)).toFixed(3);
  results[adapter] = {
    bare_rps: bare,
    guarded_rps: guarded,
    round_ratios: roundRatios,
    ratio,
    ratio_of_medians: ratioOfMedians,
    goal: adapter === 'sqlite' ? 0.8 : 0.6,
    server_cpu_us_per_request: { bare: bareCpu, guarded: guardedCpu, bare_over_guarded: cpuRatio },
    guarded_p50ms: guardedRuns.at(-1)?.p50ms,
    guarded_p99ms: guardedRuns.at(-1)?.p99ms,
    load_average: os.loadavg().map((x) => +x.toFixed(2)),
  };
  console.log(
    `${adapter}: bare ${median(bare)} req/s, guarded ${median(guarded)} req/s, ratio ${ratio} (median of the rounds' ${roundRatios.join(', ')}; goal ${adapter === 'sqlite' ? 0.8 : 0.6}); ` +
      `server CPU per request bare ${median(bareCpu)} µs, guarded ${median(guardedCpu)} µs (bare/guarded ${cpuRatio}); load ${os.loadavg()[0]!.toFixed(2)}`,
  );
  await new Promise((r) => server.close(r));
  await gate.close();
  await accounts.close();
  await throttle.close();
  await s.jobStore.close();
  await engine.close();
  if (adapter === 'redis') await purgeRedisPrefix(process.env.REDIS_URL!, prefix);
  fs.rmSync(dir, { recursive: true, force: true });
}
worker.close();
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results', 'middleware.json'), `${JSON.stringify(results, null, 2)}\n`);
