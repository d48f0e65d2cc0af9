/** `partsearch start`, `serve` and `worker`: the API (and the AI job workers) over the configured data dir. */
import { loadConfig, loadDotEnv, type Config } from '../config.ts';
import { UsageError, type Command } from './args.ts';
import { trapShutdown } from './signals.ts';

const listenOptions = { port: { type: 'string' }, host: { type: 'string' } } as const;

/** The configuration, with --port and --host taking precedence over the environment. */
function configWithListen(v: Record<string, unknown>): Config {
  loadDotEnv();
  return loadConfig({ ...process.env, ...(v.port ? { PORT: String(v.port) } : {}), ...(v.host ? { HOST: String(v.host) } : {}) });
}

/** Runs `fn` with SIGINT/SIGTERM trapped from the start (a signal during start-up stops it cleanly too). */
async function withShutdown(fn: (shutdown: ReturnType<typeof trapShutdown>) => Promise<number>): Promise<number> {
  const shutdown = trapShutdown({ name: 'partsearch' });
  try {
    return await fn(shutdown);
  } finally {
    shutdown.dispose();
  }
}

export const startCommand: Command = {
  name: 'start',
  usage: `partsearch start [--port N] [--host H]

What npm start runs: loads the generated sample catalogue when the store is empty, makes sure of a
development API key (account "local"; the key is kept in <data dir>/dev-key, mode 600), then serves
and prints the URL, the key and two curl lines to try. Ctrl-C (or SIGTERM) stops it cleanly.`,
  options: listenOptions,
  async run(v) {
    const config = configWithListen(v);
    const { runApi } = await import('./server.ts');
    return withShutdown((shutdown) => runApi(config, { sample: true, devKey: true, shutdown }));
  },
};

export const serveCommand: Command = {
  name: 'serve',
  usage: `partsearch serve [--port N] [--host H] [--dev-key]

Serves the configured data dir exactly as it is. Configuration comes from the environment
(.env.example lists every variable). On a store without accounts every /v1 request answers 401:
create an account and key with 'partsearch accounts create --name NAME --key', or pass --dev-key to
make sure of a development key (account "local", kept in <data dir>/dev-key, mode 600) and print it.
SIGINT or SIGTERM stops it cleanly: requests in progress finish, job workers finish their jobs.`,
  options: { ...listenOptions, 'dev-key': { type: 'boolean' } },
  async run(v) {
    const config = configWithListen(v);
    const { runApi } = await import('./server.ts');
    return withShutdown((shutdown) => runApi(config, { sample: false, devKey: Boolean(v['dev-key']), shutdown }));
  },
};

export const workerCommand: Command = {
  name: 'worker',
  usage:
    'partsearch worker [--concurrency N]\n\nTakes queued jobs from the configured job store (Redis with REDIS_URL, else jobs.db in the data dir) until SIGINT or SIGTERM; a job being run is finished first.',
  options: { concurrency: { type: 'string' } },
  async run(v) {
    loadDotEnv();
    const config = loadConfig();
    const n = v.concurrency === undefined ? Math.max(1, config.jobWorkers) : Number(v.concurrency);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--concurrency must be a whole number from 1 to 64, got "${String(v.concurrency)}"`);
    const { runWorker } = await import('./server.ts');
    return withShutdown((shutdown) => runWorker(config, n, shutdown));
  },
};
