/** `npm start` (or another npm script) of this checkout as a real process tree: npm, then the node it runs. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * This process's environment without what would point the service elsewhere (the CI's REDIS_URL,
 * SEARCH_ENGINE, a data dir) or carry an outer npm's settings, with `env` on top.
 */
export function cleanEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const drop = /^(npm_|REDIS_|OPENSEARCH_|SEARCH_ENGINE$|PARTSEARCH_|EMBEDDING_|PORT$|HOST$|LOG_LEVEL$|JOB_WORKERS$)/;
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !drop.test(k)) out[k] = v;
  return { ...out, ...env };
}

export interface Started {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once `pattern` appears in the output (stdout and stderr); rejects on exit or timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit status (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
  /** The pid of the node process npm runs (npm `exec`s it, so it is npm's child). */
  nodePid(): number;
}

export function npmRun(script: string, env: Record<string, string>, cwd = ROOT): Started {
  const proc = spawn('npm', ['run', '--silent', script], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const poke = () => waiters.forEach((w) => w());
  proc.stdout!.on('data', (d: Buffer) => ((out += d.toString()), poke()));
  proc.stderr!.on('data', (d: Buffer) => ((err += d.toString()), poke()));
  const exited = new Promise<number | string>((resolve) => proc.once('exit', (code, sig) => (resolve(code ?? sig ?? -1), poke())));
  let done: number | string | null = null;
  void exited.then((c) => (done = c));
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = (out + err).match(pattern);
          if (m) return finish(() => resolve(m));
          if (done !== null) finish(() => reject(new Error(`exited (${done}) before ${pattern}:\n${out}\n${err}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`))), timeoutMs);
        const finish = (f: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          f();
        };
        waiters.add(check);
        check();
      });
    },
    nodePid() {
      const r = spawnSync('ps', ['-o', 'pid=', '--ppid', String(proc.pid)], { encoding: 'utf8' });
      const pid = Number(r.stdout.trim().split('\n')[0]);
      if (!pid) throw new Error(`npm (${proc.pid}) has no child process`);
      return pid;
    },
  };
}

/** Whether a process with this pid still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
