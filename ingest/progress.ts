/**
 * Ingest progress: a redrawn bar on a terminal, a periodic one-line status otherwise, and the final
 * summary line. Writes to stderr so stdout stays clean for piping.
 */
export interface ProgressState {
  read: number;
  indexed: number;
  rejected: number;
  bytes: number;
  totalBytes: number;
}

export interface Progress {
  update(s: ProgressState): void;
  done(): void;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

export function createProgress(opts: { stream?: NodeJS.WriteStream; intervalMs?: number; quiet?: boolean } = {}): Progress {
  const out = opts.stream ?? process.stderr;
  const tty = Boolean(out.isTTY);
  const interval = opts.intervalMs ?? (tty ? 100 : 5000);
  const started = Date.now();
  let last = 0;
  let drawn = false;
  const line = (s: ProgressState) => {
    const secs = (Date.now() - started) / 1000;
    const rate = secs > 0 ? Math.round(s.indexed / secs) : 0;
    const pct = s.totalBytes > 0 ? Math.min(100, (100 * s.bytes) / s.totalBytes) : 0;
    return { pct, text: `${fmt(s.read)} read, ${fmt(s.indexed)} indexed, ${fmt(s.rejected)} rejected, ${fmt(rate)} parts/s` };
  };
  return {
    update(s) {
      if (opts.quiet) return;
      const now = Date.now();
      if (now - last < interval) return;
      last = now;
      const { pct, text } = line(s);
      if (tty) {
        const width = 30;
        const full = Math.round((pct / 100) * width);
        out.write(`\r[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${pct.toFixed(0).padStart(3)}% ${text}\x1b[K`);
        drawn = true;
      } else {
        out.write(`ingest: ${pct.toFixed(0)}% ${text}\n`);
      }
    },
    done() {
      if (drawn) out.write('\n');
    },
  };
}
