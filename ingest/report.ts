/**
 * The ingest report: one JSON line for every record that did not go in as written, so nothing is
 * lost silently. Kinds: `rejected` (invalid JSON or schema), `duplicate` (same identity as an
 * earlier record: the later one wins), `failed` (the engine refused it), `unmatched_list_member`,
 * `amended` (indexed, but not quite as written: a status that is no lifecycle status, read as unknown;
 * a category path the categories file lacks, added to the tree: its first record).
 */
import fs from 'node:fs';
import path from 'node:path';

export type ReportKind = 'rejected' | 'duplicate' | 'failed' | 'unmatched_list_member' | 'amended';

export interface ReportEntry {
  kind: ReportKind;
  file?: string;
  line?: number;
  reason: string;
  errors?: string[];
  /** The original record (parsed), or the raw line when it was not JSON. */
  record?: unknown;
}

/**
 * A report that cannot be written stops the ingest (its records would be lost unreported): the file is
 * opened synchronously on the first entry (a directory, a read-only place: thrown there), and a later
 * write error (a full disk) is thrown by the next `add` or by `close`.
 */
export class IngestReport {
  private stream: fs.WriteStream | null = null;
  private error: Error | null = null;
  readonly counts: Record<ReportKind, number> = { rejected: 0, duplicate: 0, failed: 0, unmatched_list_member: 0, amended: 0 };

  constructor(readonly file: string) {}

  private failure(e: unknown): Error {
    return new Error(`cannot write the ingest report ${this.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
  }

  add(entry: ReportEntry): void {
    if (this.error) throw this.error;
    if (!this.stream) {
      try {
        fs.mkdirSync(path.dirname(this.file), { recursive: true });
        this.stream = fs.createWriteStream(this.file, { fd: fs.openSync(this.file, 'w') });
      } catch (e) {
        throw (this.error = this.failure(e));
      }
      this.stream.on('error', (e) => (this.error ??= this.failure(e)));
    }
    this.counts[entry.kind]++;
    this.stream.write(`${JSON.stringify(entry)}\n`);
  }

  /** Whether the report's buffered lines are over the stream's mark (a slow disk): the ingest then waits for `drained`. */
  get backlogged(): boolean {
    return this.stream?.writableNeedDrain === true && this.error === null;
  }

  /** Resolves once the report's buffered lines are below the stream's mark (at once when they are). */
  async drained(): Promise<void> {
    const s = this.stream;
    if (!s || !this.backlogged) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        s.off('drain', done);
        s.off('error', done);
        resolve();
      };
      s.once('drain', done);
      s.once('error', done);
    });
  }

  /** Whether anything was written (no file is created for a clean ingest). */
  get written(): boolean {
    return this.stream !== null;
  }

  async close(): Promise<void> {
    const s = this.stream;
    if (!s) return;
    await new Promise<void>((resolve, reject) => s.end((e?: Error | null) => (e ? reject(this.failure(e)) : resolve())));
    if (this.error) throw this.error;
  }
}
