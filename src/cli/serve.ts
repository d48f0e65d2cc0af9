/** `partsearch serve` and `partsearch start`: the API over the configured data dir. */
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { loadConfig, loadDotEnv, type Config } from '../config.ts';
import { closeServices, createServices, createVectorCache, workerDeps } from '../composition.ts';
import { startBackgroundFill } from '../embeddings/background-fill.ts';
import { createApp } from '../http/app.ts';
import type { AppServices } from '../service/app-services.ts';
import { runIngest } from '../../ingest/pipeline.ts';
import { createProgress } from '../../ingest/progress.ts';
import { CAPABILITIES } from '../accounts/port.ts';
import { UsageError, type Command } from './args.ts';
import type { EngineInfo } from '../engines/port.ts';
import { printSummary } from './ingest.ts';
import { startRunner } from '../jobs/runner.ts';

export async function listen(s: AppServices): Promise<Server> {
  const app = createApp(s);
  return await new Promise<Server>((resolve, reject) => {
    const server = app.listen(s.config.port, s.config.host, () => resolve(server));
    server.once('error', reject);
  });
}

/**
 * The first query embedding (ONNX session set-up), the first kNN (SQLite reads the version's vectors
 * into memory: about 0.3 s for 29k parts) and the row lengths of the full-text index (about 1.3 s for
 * 578k parts, postings.ts; a version that goes live later has them read in the background while FTS5
 * ranks) are paid before listening, not by the first request.
 */
async function warmUp(s: AppServices, info: EngineInfo): Promise<void> {
  const t = performance.now();
  if (info.parts > 0) {
    await s.engine.warmUp?.();
    await s.engine.textSearch({ text: 'warm up', filters: {}, limit: 1, offset: 0, exactTotal: false });
  }
  if (s.embedder && info.vectors) {
    const [v] = await s.embedder.embed(['warm-up query']);
    if (v) await s.engine.knn(v, 1, {});
  }
  s.log.info('search warmed up', { ms: Math.round(performance.now() - t) });
}

/** How long requests in progress (and job event streams) get to finish at shutdown. */
const SHUTDOWN_GRACE_MS = 5_000;

async function serveUntilSignal(s: AppServices): Promise<number> {
  const info = await s.engine.info();
  await warmUp(s, info);
  const server = await listen(s);
  const runner = s.config.jobWorkers > 0 ? startRunner(workerDeps(s), { concurrency: s.config.jobWorkers }) : null;
  // Vectors of a version that went live without them are filled while serving (search turns hybrid after).
  const fill = s.embedder ? startBackgroundFill({ engine: s.engine, embedder: s.embedder, openCache: () => createVectorCache(s.config), log: s.log }) : null;
  if (fill) s.vectorFill = fill;
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : s.config.port;
  s.log.info('partsearch ready', {
    url: `http://${s.config.host}:${port}`,
    engine: info.kind,
    index_version: info.version,
    parts: info.parts,
    search: s.embedder && info.vectors ? 'hybrid' : 'lexical-only',
    embeddings: s.embedderMessage,
    ai_provider: s.aiProvider.name,
    job_workers: s.config.jobWorkers,
    // Where stream_url and citation links point (http/public-url.ts).
    links: s.config.publicBaseUrl ?? 'the address each connection reached (PUBLIC_BASE_URL unset)',
  });
  if (s.config.jobWorkers === 0 && !s.config.redisUrl) {
    s.log.warn('JOB_WORKERS=0 without REDIS_URL: AI jobs wait for a `partsearch worker` process on this data dir');
  }
  const filling = (await s.engine.meta())?.embedding.pending;
  if (!s.embedder || (!info.vectors && !filling))
    s.log.warn(
      `search runs lexical-only: ${s.embedderMessage}${s.embedder && !info.vectors ? '; the index holds no vectors (ingest again with a model)' : ''}`,
    );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  s.log.info('shutting down');
  // Requests in progress finish; event streams of jobs still running would hold the server open for as
  // long as their jobs run, so after a grace period every connection is closed (an SSE client resumes
  // elsewhere with Last-Event-ID). Workers take no new job and finish the ones in hand.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await Promise.all([closed, runner?.stop(), fill?.stop()]);
  clearTimeout(grace);
  await closeServices(s);
  return 0;
}

const listenOptions = { port: { type: 'string' }, host: { type: 'string' } } as const;

/** The configuration, with --port and --host taking precedence over the environment. */
function configWithListen(v: Record<string, unknown>): Config {
  loadDotEnv();
  return loadConfig({ ...process.env, ...(v.port ? { PORT: String(v.port) } : {}), ...(v.host ? { HOST: String(v.host) } : {}) });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the API over the configured data dir exactly as it is',
  usage: 'partsearch serve [--port N] [--host H]\n\nConfiguration comes from the environment (.env.example lists every variable).',
  options: listenOptions,
  async run(v) {
    return serveUntilSignal(await createServices(configWithListen(v)));
  },
};

export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run AI job workers (discovery, deep dive) beside the API processes sharing REDIS_URL',
  usage:
    'partsearch worker [--concurrency N]\n\nTakes queued jobs from the configured job store (Redis with REDIS_URL, else jobs.db in the data dir) until SIGINT or SIGTERM; a job being run is finished first.',
  options: { concurrency: { type: 'string' } },
  async run(v) {
    loadDotEnv();
    const config = loadConfig();
    const n = v.concurrency === undefined ? Math.max(1, config.jobWorkers) : Number(v.concurrency);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--concurrency must be a whole number from 1 to 64, got "${String(v.concurrency)}"`);
    const s = await createServices(config);
    const runner = startRunner(workerDeps(s), { concurrency: n });
    s.log.info('partsearch worker ready', { concurrency: n, ai_provider: s.aiProvider.name, store: config.redisUrl ? 'redis' : 'sqlite' });
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    s.log.info('worker stopping: finishing the jobs in hand');
    await runner.stop();
    await closeServices(s);
    return 0;
  },
};

/** Loads the project's generated sample catalogue when the store is empty. */
export async function ensureSample(s: AppServices, config: Config): Promise<void> {
  const info = await s.engine.info();
  if (info.parts > 0) return;
  const { writeSampleCatalogue } = await import('../sample/generate.ts');
  const dir = path.join(config.dataDir, 'sample');
  fs.mkdirSync(dir, { recursive: true });
  const files = await writeSampleCatalogue(dir);
  s.log.info('empty store: loading the sample catalogue', { dir, parts: files.parts });
  // Live at once, lexical-only: the vectors are filled once the API listens (startBackgroundFill).
  const vectorCache = s.embedder ? await createVectorCache(config) : null;
  const summary = await runIngest({
    engine: s.engine,
    embedder: s.embedder,
    vectorCache,
    embeddings: 'background',
    parts: [files.partsFile],
    manufacturersFile: files.manufacturersFile,
    categoriesFile: files.categoriesFile,
    listsFile: files.listsFile,
    reportFile: path.join(config.dataDir, 'reports', 'sample-ingest.jsonl'),
    progress: createProgress(),
  }).finally(() => vectorCache?.close());
  printSummary(summary);
}

/** First start of the quick start: a local account and a development key, printed once. */
export async function ensureDevKey(s: AppServices): Promise<void> {
  if ((await s.accounts.listAccounts()).length > 0) return;
  const account = await s.accounts.createAccount({ name: 'local', subscription: true });
  const { secret, key } = await s.accounts.createKey({
    account_id: account.id,
    name: 'development',
    capabilities: [...CAPABILITIES],
    rate_limit_per_minute: s.config.billing.defaultRateLimitPerMinute,
  });
  process.stdout.write(
    `\nCreated account "local" (5 USD credit, subscription on) and a development API key (${key.id}), shown only this once:\n\n    ${secret}\n\n` +
      `Try: curl -s -H "Authorization: Bearer ${secret}" http://${s.config.host}:${s.config.port}/v1/diagnostics\n\n`,
  );
}

export const startCommand: Command = {
  name: 'start',
  summary: 'Load the sample catalogue when the store is empty, then serve (what npm start runs)',
  usage: 'partsearch start [--port N] [--host H]',
  options: listenOptions,
  async run(v) {
    const config = configWithListen(v);
    const s = await createServices(config);
    await ensureSample(s, config);
    await ensureDevKey(s);
    return serveUntilSignal(s);
  },
};
