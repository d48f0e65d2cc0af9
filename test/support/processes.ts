/** Real `partsearch` processes for the multi-process suites: spawned on loopback, waited for, stopped. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

/** `bin/partsearch.js <args>` with the environment on top of this process's; stderr is passed through. */
export function spawnPartsearch(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(root, 'bin', 'partsearch.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Resolves once `GET <url>/health` answers 200 (about 30 s at most). */
export async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/** Sends SIGTERM and resolves when the process has exited. */
export async function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });
}

/** The environment of a `partsearch serve` or `worker` on loopback sharing Redis under `prefix`, lexical-only, quiet. */
export function redisProcessEnv(o: { dir: string; prefix: string; pepper: string; port?: number }): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    ...(o.port === undefined ? {} : { PORT: String(o.port) }),
    PARTSEARCH_DATA_DIR: o.dir,
    REDIS_URL: process.env.REDIS_URL!,
    REDIS_KEY_PREFIX: o.prefix,
    PARTSEARCH_KEY_PEPPER: o.pepper,
    EMBEDDING_MODEL_DIR: 'none',
    LOG_LEVEL: 'warn',
  };
}
