/**
 * Ingest progress on stderr (stdout stays clean for `--json`): a bar redrawn in place on a terminal,
 * a line every 5 s otherwise (logs, CI). The share done is the share of the input files' bytes that the
 * records read so far span (for gzip, of the compressed bytes: read-lines.ts), so it moves with the
 * records, whatever their sizes; the rate is parts indexed per second since the start, and the time
 * left is the time so far scaled by the share still to read, shown once the estimate means something
 * (2% read and 2 s passed). After the last record the engine still builds its indexes and checks the
 * new version before the swap: `phase` says so, since that step shows no progress of its own.
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
  /** Ends the bar (a newline on a terminal). */
  done(): void;
  /** A step after the records are read, said on a line of its own. */
  phase?(text: string): void;
}

const n = (x: number) => x.toLocaleString('en-US');

function size(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.round(bytes / 1e3)} kB`;
}

export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The figures one progress report shows, from the state and the seconds since the start. */
export function progressFigures(s: ProgressState, seconds: number): { fraction: number | null; rate: number; left: number | null } {
  const fraction = s.totalBytes > 0 ? Math.min(1, s.bytes / s.totalBytes) : null;
  const rate = seconds > 0 ? s.indexed / seconds : 0;
  const left = fraction !== null && fraction >= 0.02 && seconds >= 2 ? (seconds * (1 - fraction)) / fraction : null;
  return { fraction, rate, left };
}

export function createProgress(opts: { stream?: NodeJS.WriteStream; intervalMs?: number; quiet?: boolean; now?: () => number } = {}): Progress {
  const out = opts.stream ?? process.stderr;
  const now = opts.now ?? Date.now;
  const tty = Boolean(out.isTTY);
  const interval = opts.intervalMs ?? (tty ? 200 : 5000);
  const started = now();
  let last = 0;
  let drawn = false;
  /** The latest state, when it has not been shown (the bar shows it once more at the end). */
  let unshown: ProgressState | null = null;
  const show = (s: ProgressState, t: number) => {
    unshown = null;
    const { fraction, rate, left } = progressFigures(s, (t - started) / 1000);
    const pct = fraction === null ? null : `${Math.floor(fraction * 100)}%`;
    const of = s.totalBytes > 0 ? `${size(s.bytes)} of ${size(s.totalBytes)}` : null;
    const eta = left === null ? 'time left: estimating' : `about ${duration(left)} left`;
    if (tty) {
      const width = 24;
      const full = Math.round((fraction ?? 0) * width);
      const bar = fraction === null ? '' : `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${pct!.padStart(4)}  `;
      out.write(`\r${bar}${n(s.read)} records, ${n(Math.round(rate))} parts/s, ${eta}${s.rejected ? `, ${n(s.rejected)} rejected` : ''}\x1b[K`);
      drawn = true;
    } else {
      out.write(
        `ingest: ${pct ? `${pct} (${of} read), ` : ''}${n(s.read)} records read, ${n(s.indexed)} indexed, ${n(s.rejected)} rejected; ${n(Math.round(rate))} parts/s; ${eta}\n`,
      );
    }
  };
  return {
    update(s) {
      if (opts.quiet) return;
      const t = now();
      unshown = s;
      if (t - last < interval) return;
      last = t;
      show(s, t);
    },
    done() {
      if (drawn && unshown) show(unshown, now());
      if (drawn) out.write('\n');
      drawn = false;
    },
    phase(text) {
      if (opts.quiet) return;
      if (drawn) out.write('\n');
      drawn = false;
      out.write(`ingest: ${text}\n`);
    },
  };
}
