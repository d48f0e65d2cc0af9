/**
 * Streams the lines of a JSON Lines file, plain or gzip (by magic bytes, whatever the name), in
 * constant memory, with 1-based line numbers and how far into the file the lines read so far reach
 * (for progress: see `bytesRead`).
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { createGunzip } from 'node:zlib';

export interface Line {
  n: number;
  text: string;
  /**
   * Why the line cannot be read as text, when it cannot: bytes that are not UTF-8 (`text` then holds
   * them decoded with replacement characters), or a line over MAX_LINE_BYTES (`text` then holds its
   * first 10,000 bytes). Such a line is rejected as it is, never repaired.
   */
  unreadable?: string;
}

export interface LineSource {
  lines: AsyncIterable<Line>;
  /**
   * How many bytes of the file the lines handed out so far span: exact for a plain file; for gzip, the
   * compressed bytes the decompressor has consumed scaled by the share of its output those lines used
   * (the decompressor runs ahead of the reader by a whole read chunk, 1 MiB of compressed input, often
   * thousands of records, so the bytes it consumed alone would jump ahead and then stall).
   */
  bytesRead(): number;
  size: number;
}

/** Longest line read (64 MiB; the real dumps' longest record is under 3 KB): beyond it a line is rejected unread, in constant memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const SHOWN_BYTES = 10_000;
const NEWLINE = 0x0a;

export async function openLines(file: string, maxLineBytes = MAX_LINE_BYTES): Promise<LineSource> {
  const stat = await fs.promises.stat(file);
  if (!stat.isFile()) throw new Error(`${file} is not a file`);
  const fh = await fs.promises.open(file, 'r');
  const head = Buffer.alloc(2);
  await fh.read(head, 0, 2, 0);
  await fh.close();
  const gz = head[0] === 0x1f && head[1] === 0x8b;
  const raw = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  const gunzip = gz ? createGunzip() : null;
  const input = gunzip ? raw.pipe(gunzip) : raw;
  raw.on('error', (e) => input.destroy(e));
  /** Bytes of (decompressed) input pulled from the stream, and the part of them spanned by the lines handed out. */
  let pulled = 0;
  let taken = 0;
  /** The file's bytes; a read or gunzip error names the file and the last line read ("unexpected end of file"). */
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        pulled += chunk.length;
        yield chunk;
      }
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message} after line ${n}`, { cause: e });
    }
  }
  let n = 0;
  /**
   * Lines are split on the newline byte (never part of a multi-byte UTF-8 sequence), then each checked
   * and decoded on its own: a bad byte rejects its line only. Splitting by hand is several times cheaper
   * than readline on large dumps; a chunk whose lines are all valid UTF-8 (the usual case) is checked once.
   */
  async function* lines(): AsyncGenerator<Line> {
    /** The unfinished line's bytes, chunk by chunk (joined once its end arrives: no copy per chunk). */
    let pending: Buffer[] = [];
    let pendingLen = 0;
    /** Bytes of an over-long line skipped so far (its first SHOWN_BYTES kept in `shown`), or -1. */
    let skipping = -1;
    let shown = '';
    let first = true;
    const tooLong = (bytes: number, text: string): Line => ({ n: ++n, text, unreadable: `line longer than ${maxLineBytes} bytes (${bytes} bytes)` });
    const line = (buf: Buffer, start: number, end: number, valid: boolean): Line => {
      if (end > start && buf[end - 1] === 13) end--;
      if (end - start > maxLineBytes) return tooLong(end - start, buf.toString('utf8', start, start + SHOWN_BYTES));
      n++;
      if (valid || isUtf8(buf.subarray(start, end))) return { n, text: buf.toString('utf8', start, end) };
      const text = buf.toString('utf8', start, end);
      return { n, text, unreadable: `not UTF-8: byte ${badByteOffset(buf.subarray(start, end)) + 1} of the line` };
    };
    /** Keeps `b` as the start of an unfinished line, or starts skipping it once it is over the limit. */
    const hold = (b: Buffer) => {
      if (b.length === 0) return;
      pending.push(b);
      pendingLen += b.length;
      if (pendingLen > maxLineBytes) {
        skipping = pendingLen;
        shown = Buffer.concat(pending).toString('utf8', 0, SHOWN_BYTES);
        pending = [];
        pendingLen = 0;
      }
    };
    for await (let chunk of chunks()) {
      if (first) {
        first = false;
        // A byte order mark is no part of the first record.
        if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
      }
      let i = chunk.indexOf(NEWLINE);
      if (skipping >= 0) {
        // The rest of an over-long line: counted, not kept.
        if (i === -1) {
          skipping += chunk.length;
          continue;
        }
        taken = pulled - chunk.length + i + 1;
        yield tooLong(skipping + i, shown);
        skipping = -1;
        chunk = chunk.subarray(i + 1);
        i = chunk.indexOf(NEWLINE);
      }
      if (i === -1) {
        hold(chunk);
        continue;
      }
      // The unfinished line ends in this chunk: joined with it once. Like the chunk, it ends at `pulled`.
      const buf = pendingLen ? Buffer.concat([...pending, chunk]) : chunk;
      const offset = pulled - buf.length;
      i += pendingLen;
      pending = [];
      pendingLen = 0;
      let start = 0;
      const last = buf.lastIndexOf(NEWLINE);
      const valid = isUtf8(buf.subarray(0, last));
      for (; i !== -1; i = buf.indexOf(NEWLINE, start)) {
        taken = offset + i + 1;
        yield line(buf, start, i, valid);
        start = i + 1;
      }
      // The unfinished line alone, not the chunk it lies in.
      if (start < buf.length) hold(Buffer.from(buf.subarray(start)));
    }
    taken = pulled;
    if (skipping >= 0) yield tooLong(skipping, shown);
    else if (pendingLen > 0) {
      const rest = Buffer.concat(pending);
      yield line(rest, 0, rest.length, false);
    }
  }
  const bytesRead = (): number => {
    if (!gunzip) return taken;
    const produced = pulled + gunzip.readableLength;
    return produced > 0 ? Math.round((gunzip.bytesWritten * taken) / produced) : 0;
  };
  return { lines: lines(), bytesRead, size: stat.size };
}

/** Offset of the first byte of the first sequence in `b` that is not UTF-8 (for the report). */
function badByteOffset(b: Buffer): number {
  for (let i = 0; i < b.length;) {
    const c = b[i]!;
    const more = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (more < 0 || i + more >= b.length + (more === 0 ? 1 : 0)) return i;
    // The second byte's narrower ranges: no overlong forms, no surrogates, nothing above U+10FFFF.
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    if (more > 0 && (b[i + 1]! < lo || b[i + 1]! > hi)) return i;
    for (let k = 2; k <= more; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    i += more + 1;
  }
  return Math.max(0, b.length - 1);
}
