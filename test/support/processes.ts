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
