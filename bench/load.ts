/**
 * A small closed-loop HTTP load generator for benchmarks: `concurrency` keep-alive connections, each
 * sending the next request when the previous answer arrives, for `seconds`; reports requests/s and
 * latency percentiles. Run it in its own process (bench/load-worker.ts) so it does not share the
 * server's event loop.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

/** The median of some figures (the upper one of an even count). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50ms: number;
  p99ms: number;
  statuses: Record<number, number>;
  /** Requests that got no answer, by error code (a reset or refused connection); the run goes on. */
  errors: Record<string, number>;
}

export async function runLoad(opts: {
  url: string;
  paths?: string[];
  /** JSON bodies: each request POSTs the next one (in turn, like `paths`) instead of a GET. */
  bodies?: string[];
  headers?: Record<string, string>;
  concurrency: number;
  seconds: number;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const u = new URL(opts.url);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const errors: Record<string, number> = {};
  const end = performance.now() + opts.seconds * 1000;
  const paths = opts.paths?.length ? opts.paths : [u.pathname + u.search];
  let next = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const i = next++;
      const path = paths[i % paths.length]!;
      const body = opts.bodies?.length ? opts.bodies[i % opts.bodies.length]! : null;
      const headers = body === null ? opts.headers : { ...opts.headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };
      const req = http.request({ agent, host: u.hostname, port: u.port, path, method: body === null ? 'GET' : 'POST', headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
          resolve();
        });
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        const code = e.code ?? e.message;
        errors[code] = (errors[code] ?? 0) + 1;
        resolve();
      });
      req.end(body ?? undefined);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => +(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0).toFixed(3);
  return {
    requests: latencies.length,
    seconds: +seconds.toFixed(2),
    rps: Math.round(latencies.length / seconds),
    p50ms: pct(50),
    p99ms: pct(99),
    statuses,
    errors,
  };
}

/** A load generator in its own process that stays up between runs (no process start per phase). */
export interface LoadWorker {
  run(opts: Parameters<typeof runLoad>[0], anyStatus?: boolean): Promise<LoadResult>;
  close(): void;
}

/**
 * Starts bench/load-worker.ts as a child process, so that the load does not share the server's event
 * loop; each `run` sends it one runLoad's options and gets its LoadResult back. Requests without an
 * answer stop the benchmark with what failed (a figure over failures would measure the failures); so
 * do answers other than 200 unless `anyStatus`.
 */
export function startLoadWorker(): LoadWorker {
  const child = fork(path.join(import.meta.dirname, 'load-worker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let waiting: { resolve: (r: LoadResult) => void; reject: (e: Error) => void } | null = null;
  child.on('message', (m) => {
    const w = waiting;
    waiting = null;
    if (m && typeof m === 'object' && 'error' in m) w?.reject(new Error(`load worker: ${String(m.error)}`));
    else w?.resolve(m as LoadResult);
  });
  child.on('error', (e) => {
    const w = waiting;
    waiting = null;
    w?.reject(e);
  });
  child.on('exit', (code) => {
    const w = waiting;
    waiting = null;
    w?.reject(new Error(`load worker exited with ${code}`));
  });
  return {
    async run(opts, anyStatus = false) {
      if (waiting) throw new Error('load worker: one run at a time');
      const r = await new Promise<LoadResult>((resolve, reject) => {
        waiting = { resolve, reject };
        child.send(opts);
      });
      if (Object.keys(r.errors).length || (!anyStatus && Object.keys(r.statuses).some((k) => k !== '200'))) {
        throw new Error(`${opts.url}: answers ${JSON.stringify(r.statuses)}, connection errors ${JSON.stringify(r.errors)}`);
      }
      return r;
    },
    close() {
      if (child.connected) child.disconnect();
    },
  };
}

/** One run in a load worker of its own (see startLoadWorker). */
export async function runLoadInChild(opts: Parameters<typeof runLoad>[0], anyStatus = false): Promise<LoadResult> {
  const worker = startLoadWorker();
  try {
    return await worker.run(opts, anyStatus);
  } finally {
    worker.close();
  }
}
