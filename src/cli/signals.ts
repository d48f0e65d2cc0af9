/**
 * Graceful stop for long-running commands (start, serve, worker): the first SIGINT or SIGTERM aborts
 * `signal`, and the command finishes what is in hand (requests, job streams, queued writes) and closes
 * its stores; a second one ends the process at once. Installed before anything is loaded, so a Ctrl-C
 * during start-up (the sample ingest, the model load) is handled the same way.
 *
 * `npm start` runs the CLI with `exec`, so npm's forwarding of SIGINT and SIGTERM reaches this process.
 * SIGHUP keeps Node's default: a handler would override the ignore that `nohup` sets.
 */
export interface Shutdown {
  /** Aborted by the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The signal received, once one has been. */
  received(): NodeJS.Signals | null;
  /** Resolves with the first signal. */
  wait(): Promise<NodeJS.Signals>;
  /** Removes the handlers (the process's defaults apply again). */
  dispose(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Exit status of a process ended by `sig`: 128 + its number, as a shell reports it. */
export function signalStatus(sig: NodeJS.Signals): number {
  return sig === 'SIGTERM' ? 143 : 130;
}

export function trapShutdown(opts: { name: string; out?: NodeJS.WritableStream } = { name: 'partsearch' }): Shutdown {
  const out = opts.out ?? process.stderr;
  const controller = new AbortController();
  let first: NodeJS.Signals | null = null;
  let resolveWait: (s: NodeJS.Signals) => void = () => {};
  const waiting = new Promise<NodeJS.Signals>((resolve) => (resolveWait = resolve));
  const onSignal = (sig: NodeJS.Signals) => {
    if (first) {
      out.write(`${opts.name}: ${sig} again: stopping now, without finishing what is in hand\n`);
      process.exit(signalStatus(sig));
    }
    first = sig;
    out.write(`${opts.name}: ${sig} received: finishing requests in progress, then stopping (send it again to stop at once)\n`);
    controller.abort(sig);
    resolveWait(sig);
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  return {
    signal: controller.signal,
    received: () => first,
    wait: () => waiting,
    dispose() {
      for (const s of SIGNALS) process.off(s, onSignal);
    },
  };
}
