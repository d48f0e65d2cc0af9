/**
 * What `partsearch start`, `serve` and `worker` run (serve.ts holds the commands).
 *
 * Start-up, each step said on stderr as it happens: the data dir and engine; the embedding model (or
 * lexical-only, and why); the sample catalogue's ingest with its progress when `start` finds the store
 * empty; the development key (`start`, `serve --dev-key`) or how to create a key when the store has no
 * account; the warm-up; then the banner on stdout (banner.ts). Stop: the first SIGINT or SIGTERM
 * (signals.ts) lets requests in progress finish, workers finish their jobs (whose streams then end with
 * their result), closes the connections still open after a grace period and closes every store, so
 * queued writes (request counts, debits, job events) are on disk before the process ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import type { Config } from '../config.ts';
import { closeServices, createServices, createVectorCache, workerDeps } from '../composition.ts';
import { startBackgroundFill, type BackgroundFill } from '../embeddings/background-fill.ts';
import { createApp } from '../http/app.ts';
import type { AppServices } from '../service/app-services.ts';
import { IngestInterrupted, runIngest } from '../../ingest/pipeline.ts';
import { createProgress, duration } from '../../ingest/progress.ts';
import type { EngineInfo } from '../engines/port.ts';
import { startRunner } from '../jobs/runner.ts';
import { SERVICE_VERSION } from '../version.ts';
import { banner, clientBaseUrl, exampleQueries, shownPath } from './banner.ts';
import { ensureDevKey, type DevKey } from './dev-key.ts';
import { printSummary } from './ingest-summary.ts';
import { signalStatus, type Shutdown } from './signals.ts';

const say = (line: string) => process.stderr.write(`partsearch: ${line}\n`);

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

/** Loads the project's generated sample catalogue when the store is empty. */
async function ensureSample(s: AppServices, config: Config, signal: AbortSignal): Promise<void> {
  const info = await s.engine.info();
  if (info.parts > 0) return;
  const { writeSampleCatalogue } = await import('../sample/generate.ts');
  const dir = path.join(config.dataDir, 'sample');
  fs.mkdirSync(dir, { recursive: true });
  const files = await writeSampleCatalogue(dir);
  say(`the store is empty: loading the generated sample catalogue (${files.parts.toLocaleString('en-US')} parts, ${shownPath(dir)})`);
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
    signal,
  }).finally(() => vectorCache?.close());
  printSummary(summary);
}

/** What the key lines of the start-up say, and the banner's hint when there is no development key. */
function describeDevKey(k: DevKey): void {
  if (k.outcome === 'kept') return;
  const where = shownPath(k.file);
  if (k.accountCreated) say('created account "local" (5 USD of credit, subscription on) for the development key');
  say(
    k.outcome === 'replaced'
      ? `the key in ${where} no longer authenticates (revoked, or the accounts now live in another store): created a new development key there`
      : `created a development API key, saved in ${where} (mode 600; the store keeps only its hash)`,
  );
}

function noAccountHint(config: Config): string[] {
  const where = config.redisUrl ? `Redis (${config.redisPrefix}*)` : shownPath(path.join(config.dataDir, 'accounts.db'));
  return [
    `No account yet in ${where}: every /v1 request answers 401. Create an account and a key in one command`,
    '(run it with the same environment as this server):',
    '',
    '    npx partsearch accounts create --name local --subscription --key',
    '',
    `or start with \`partsearch serve --dev-key\` (a development key, saved in ${shownPath(path.join(config.dataDir, 'dev-key'))}).`,
  ];
}

/** How often the start-up's background vector fill is reported while it runs. */
const FILL_REPORT_MS = 10_000;

/** Says how the background vector fill goes (done, rate, time left) every 10 s, and when it ends. */
function watchFill(fill: BackgroundFill): { stop(): void } {
  const n = (x: number) => x.toLocaleString('en-US');
  let reported = Date.now();
  const timer = setInterval(() => {
    const p = fill.status();
    if (!p) return;
    if (p.state === 'embedding') {
      if (Date.now() - reported < FILL_REPORT_MS || p.done === 0) return;
      reported = Date.now();
      const seconds = (reported - Date.parse(p.started_at)) / 1000;
      const rate = p.done / seconds;
      say(
        `vectors: ${n(p.done)} of ${n(p.total)} (${Math.floor((100 * p.done) / p.total)}%), ${n(Math.round(rate))} parts/s, about ${duration((p.total - p.done) / rate)} left`,
      );
      return;
    }
    clearInterval(timer);
    if (p.state === 'complete') say(`vectors complete (${n(p.embedded)} computed, ${n(p.done - p.embedded)} reused): agentic search is hybrid now`);
    else say(`vectors ${n(p.done)} of ${n(p.total)}, ${p.state} (${p.reason}): search stays lexical-only until a fill completes them`);
  }, 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

export interface RunOptions {
  /** Load the generated sample catalogue when the store is empty (`start`). */
  sample: boolean;
  /** Make sure of a development key and show it (`start`, `serve --dev-key`). */
  devKey: boolean;
  shutdown: Shutdown;
}

/** Start-up, serving until the first signal, and a clean stop. Returns the exit status. */
export async function runApi(config: Config, o: RunOptions): Promise<number> {
  const store = config.engine === 'opensearch' ? `OpenSearch at ${config.opensearchUrl} (indexes ${config.opensearchIndexPrefix}-*)` : 'SQLite';
  say(`${SERVICE_VERSION}: data dir ${shownPath(config.dataDir)}, search engine ${store}${config.redisUrl ? ', accounts and jobs in Redis' : ''}`);
  const s = await createServices(config);
  try {
    say(s.embedderMessage);
    if (o.sample && !o.shutdown.signal.aborted) {
      try {
        await ensureSample(s, config, o.shutdown.signal);
      } catch (e) {
        if (!(e instanceof IngestInterrupted)) throw e;
        say(`sample catalogue not loaded: ${e.message}`);
        return signalStatus(o.shutdown.received() ?? 'SIGINT');
      }
    }
    let devKey: DevKey | null = null;
    if (o.devKey) {
      devKey = await ensureDevKey(s.accounts, config);
      describeDevKey(devKey);
    }
    const noAccount = !devKey && (await s.accounts.listAccounts()).length === 0;
    const info = await s.engine.info();
    if (o.shutdown.signal.aborted) return 0;
    await warmUp(s, info);
    const server = await listen(s);
    const runner = s.config.jobWorkers > 0 ? startRunner(workerDeps(s), { concurrency: s.config.jobWorkers }) : null;
    // Vectors of a version that went live without them are filled while serving (search turns hybrid after).
    const fill = s.embedder ? startBackgroundFill({ engine: s.engine, embedder: s.embedder, openCache: () => createVectorCache(s.config), log: s.log }) : null;
    if (fill) s.vectorFill = fill;
    const pending = fill ? ((await s.engine.meta())?.embedding.pending ?? 0) : 0;
    const watch = pending > 0 ? watchFill(fill!) : null;
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : s.config.port;
    const search =
      s.embedder && info.vectors
        ? 'hybrid'
        : pending > 0
          ? `lexical-only until the vectors of ${pending.toLocaleString('en-US')} parts are computed in the background, then hybrid`
          : 'lexical-only';
    s.log.info('partsearch ready', {
      url: `http://${s.config.host}:${port}`,
      engine: info.kind,
      index_version: info.version,
      parts: info.parts,
      search,
      embeddings: s.embedderMessage,
      ai_provider: s.aiProvider.name,
      job_workers: s.config.jobWorkers,
      // Where stream_url and citation links point (http/public-url.ts).
      links: s.config.publicBaseUrl ?? 'the address each connection reached (PUBLIC_BASE_URL unset)',
    });
    if (s.config.jobWorkers === 0 && !s.config.redisUrl) {
      s.log.warn('JOB_WORKERS=0 without REDIS_URL: AI jobs wait for a `partsearch worker` process on this data dir');
    }
    if (!s.embedder || (!info.vectors && pending === 0))
      s.log.warn(
        `search runs lexical-only: ${s.embedderMessage}${s.embedder && !info.vectors ? '; the index holds no vectors (ingest again with a model)' : ''}`,
      );
    process.stdout.write(
      banner({
        baseUrl: clientBaseUrl(s.config.host, port),
        engine: info.kind === 'sqlite' ? 'SQLite' : 'OpenSearch',
        parts: info.parts,
        search,
        devKey,
        examples: info.parts > 0 ? await exampleQueries(s.engine) : null,
        keyHint: noAccount ? noAccountHint(config) : undefined,
      }),
    );
    await o.shutdown.wait();
    s.log.info('shutting down');
    // Requests in progress finish; event streams of jobs still running would hold the server open for as
    // long as their jobs run, so after a grace period every connection is closed (an SSE client resumes
    // elsewhere with Last-Event-ID). Workers take no new job and finish the ones in hand.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    watch?.stop();
    await Promise.all([closed, runner?.stop(), fill?.stop()]);
    clearTimeout(grace);
    return 0;
  } finally {
    await closeServices(s);
    if (o.shutdown.received()) say('stopped');
  }
}

/** `partsearch worker`: job workers until the first signal; the jobs in hand are finished. */
export async function runWorker(config: Config, concurrency: number, shutdown: Shutdown): Promise<number> {
  const s = await createServices(config);
  try {
    const runner = startRunner(workerDeps(s), { concurrency });
    s.log.info('partsearch worker ready', { concurrency, ai_provider: s.aiProvider.name, store: config.redisUrl ? 'redis' : 'sqlite' });
    await shutdown.wait();
    s.log.info('worker stopping: finishing the jobs in hand');
    await runner.stop();
    return 0;
  } finally {
    await closeServices(s);
  }
}
