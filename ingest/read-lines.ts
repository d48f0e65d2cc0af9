/**
 * Streams the lines of a JSON Lines file, plain or gzip (by magic bytes, whatever the name), in
 * constant memory, with 1-based line numbers and the count of file bytes consumed (for progress).
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
  /** Bytes of the file read so far. */
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
  let bytes = 0;
  raw.on('data', (chunk) => (bytes += chunk.length));
  const input = gz ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (e) => input.destroy(e));
  /**
   * Lines are split on the newline byte (never part of a multi-byte UTF-8 sequence), then each checked
   * and decoded on its own: a bad byte rejects its line only. Splitting by hand is several times cheaper
   * than readline on large dumps; a chunk whose lines are all valid UTF-8 (the usual case) is checked once.
   */
  /** The file's bytes; a read or gunzip error names the file and the last line read ("unexpected end of file"). */
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) yield chunk;
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message} after line ${n}`, { cause: e });
    }
  }
  let n = 0;
  async function* lines(): AsyncGenerator<Line> {
    let rest: Buffer = Buffer.alloc(0);
    /** Bytes of an over-long line skipped so far (its first SHOWN_BYTES kept in `shown`), or -1. */
    let skipping = -1;
    let shown = '';
    let first = true;
    const line = (buf: Buffer, start: number, end: number, valid: boolean): Line => {
      if (end > start && buf[end - 1] === 13) end--;
      n++;
      if (valid || isUtf8(buf.subarray(start, end))) return { n, text: buf.toString('utf8', start, end) };
      const text = buf.toString('utf8', start, end);
      return { n, text, unreadable: `not UTF-8: byte ${badByteOffset(buf.subarray(start, end)) + 1} of the line` };
    };
    const tooLong = (): Line => ({ n: ++n, text: shown, unreadable: `line longer than ${maxLineBytes} bytes (${skipping} bytes)` });
    for await (const chunk of chunks()) {
      let buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      if (first) {
        first = false;
        // A byte order mark is no part of the first record.
        if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      }
      let start = 0;
      let i = buf.indexOf(NEWLINE);
      if (skipping >= 0) {
        // The rest of an over-long line: counted, not kept.
        if (i === -1) {
          skipping += buf.length;
          rest = Buffer.alloc(0);
          continue;
        }
        skipping += i;
        yield tooLong();
        skipping = -1;
        start = i + 1;
        i = buf.indexOf(NEWLINE, start);
      }
      const last = buf.lastIndexOf(NEWLINE);
      const valid = last >= start && isUtf8(buf.subarray(start, last));
      for (; i !== -1; i = buf.indexOf(NEWLINE, start)) {
        yield line(buf, start, i, valid);
        start = i + 1;
      }
      rest = buf.subarray(start);
      if (rest.length > maxLineBytes) {
        skipping = rest.length;
        shown = rest.toString('utf8', 0, SHOWN_BYTES);
        rest = Buffer.alloc(0);
      } else if (rest.length > 0) rest = Buffer.from(rest); // the unfinished line alone, not the chunk it lies in
    }
    if (skipping >= 0) yield tooLong();
    else if (rest.length > 0) yield line(rest, 0, rest.length, false);
  }
  return { lines: lines(), bytesRead: () => bytes, size: stat.size };
}

/** Offset of the first byte of the first sequence in `b` that is not UTF-8 (for the report; lead and continuation bytes checked). */
function badByteOffset(b: Buffer): number {
  for (let i = 0; i < b.length;) {
    const c = b[i]!;
    const more = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (more < 0 || (more > 0 && i + more >= b.length)) return i;
    for (let k = 1; k <= more; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    i += more + 1;
  }
  return b.length;
}
