/**
 * The ingest report: one JSON line for every record that did not go in as written, so nothing is
 * lost silently. Kinds: `rejected` (invalid JSON or schema), `duplicate` (same identity as an
 * earlier record: the later one wins), `failed` (the engine refused it), `unmatched_list_member`.
 */
import fs from 'node:fs';
import path from 'node:path';

export type ReportKind = 'rejected' | 'duplicate' | 'failed' | 'unmatched_list_member';

export interface ReportEntry {
  kind: ReportKind;
  file?: string;
  line?: number;
  reason: string;
  errors?: string[];
  /** The original record (parsed), or the raw line when it was not JSON. */
  record?: unknown;
}

export class IngestReport {
  private stream: fs.WriteStream | null = null;
  readonly counts: Record<ReportKind, number> = { rejected: 0, duplicate: 0, failed: 0, unmatched_list_member: 0 };

  constructor(readonly file: string) {}

  add(entry: ReportEntry): void {
    if (!this.stream) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      this.stream = fs.createWriteStream(this.file, { flags: 'w' });
    }
    this.counts[entry.kind]++;
    this.stream.write(`${JSON.stringify(entry)}\n`);
  }

  /** Whether anything was written (no file is created for a clean ingest). */
  get written(): boolean {
    return this.stream !== null;
  }

  async close(): Promise<void> {
    const s = this.stream;
    if (!s) return;
    await new Promise<void>((resolve, reject) => s.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
}
