/**
 * Request/reply over a worker thread, a `{seq, ...msg}` in, `{seq, ok, value | error}` out protocol.
 * The caller's side (workerClient): every call gets its own answer; once the worker fails or exits,
 * every unanswered call and every later one is refused with that reason (nothing waits forever).
 * The worker's side (serveRequests): requests are handled one at a time, in arrival order.
 */
import { parentPort, type Transferable, type Worker } from 'node:worker_threads';

export interface WorkerReply {
  seq: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface WorkerClient {
  call<T>(msg: Record<string, unknown>, transfer?: readonly Transferable[]): Promise<T>;
  /** Why the worker is gone (null while it runs). */
  readonly dead: Error | null;
}

/** `name` says which worker failed in the errors ("the SQLite load worker"). */
export function workerClient(worker: Worker, name: string): WorkerClient {
  let seq = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let dead: Error | null = null;
  const failAll = (e: Error) => {
    dead ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('message', (m: WorkerReply) => {
    const p = pending.get(m.seq);
    if (!p) return;
    pending.delete(m.seq);
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(m.error));
  });
  worker.on('error', (e) => failAll(e));
  // A reply that cannot be deserialised would leave its call waiting: treat it as the worker failing.
  worker.on('messageerror', (e) => failAll(e));
  worker.on('exit', (code) => failAll(new Error(`${name} exited (code ${code})`)));
  return {
    call<T>(msg: Record<string, unknown>, transfer?: readonly Transferable[]) {
      if (dead) return Promise.reject(dead);
      const id = ++seq;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        worker.postMessage({ ...msg, seq: id }, transfer);
      });
    },
    get dead() {
      return dead;
    },
  };
}

/**
 * The worker's side: each request is handled after the one before it has been answered, and answered
 * `{seq, ok, value | error}`. `transfer` names the buffers of a value to move rather than copy; `after`
 * runs once a successful answer is out (work the caller need not wait for), and a failure there is
 * reported on stderr (its request is already answered).
 */
export function serveRequests<M extends { seq: number }>(
  handle: (m: M) => unknown,
  opts: { transfer?: (value: unknown) => Transferable[]; after?: (m: M) => void } = {},
): void {
  const port = parentPort;
  if (!port) throw new Error('serveRequests runs in a worker thread');
  let queue: Promise<void> = Promise.resolve();
  const answer = async (m: M) => {
    let value: unknown;
    try {
      value = await handle(m);
    } catch (e) {
      port.postMessage({ seq: m.seq, ok: false, error: (e as Error).message } satisfies WorkerReply);
      return;
    }
    port.postMessage({ seq: m.seq, ok: true, value } satisfies WorkerReply, opts.transfer?.(value));
    try {
      opts.after?.(m);
    } catch (e) {
      process.stderr.write(`[worker] after answering request ${m.seq}: ${(e as Error).message}\n`);
    }
  };
  port.on('message', (m: M) => {
    queue = queue.then(() => answer(m));
  });
}
