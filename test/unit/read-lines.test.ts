/**
 * The dump line reader (ingest/read-lines.ts): lines split on the newline byte, each checked as UTF-8 on
 * its own, a byte order mark and CR line ends dropped, over-long lines rejected in constant memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openLines, type Line } from '../../ingest/read-lines.ts';
import { tempDir } from '../support/fixtures.ts';

async function read(content: Buffer, opts: { gzip?: boolean; maxLineBytes?: number } = {}): Promise<Line[]> {
  const file = path.join(tempDir(), 'dump.jsonl');
  fs.writeFileSync(file, opts.gzip ? gzipSync(content) : content);
  const out: Line[] = [];
  for await (const l of (await openLines(file, opts.maxLineBytes)).lines) out.push(l);
  return out;
}

describe('openLines', () => {
  it('rejects a line that is not UTF-8, saying where, and reads the others', async () => {
    const latin1 = Buffer.from('{"mpn":"R\xe9S-1"}', 'latin1');
    const lines = await read(Buffer.concat([Buffer.from('{"mpn":"Ω1"}\n'), latin1, Buffer.from('\n{"mpn":"B"}')]));
    expect(lines.map((l) => [l.n, l.text.startsWith('{'), l.unreadable ?? null])).toEqual([
      [1, true, null],
      [2, true, 'not UTF-8: byte 10 of the line'],
      [3, true, null],
    ]);
    expect(lines[0]!.text).toBe('{"mpn":"Ω1"}');
  });

  it('drops a byte order mark and CR line ends, and reads the last line without a newline, plain or gzip', async () => {
    for (const gzip of [false, true]) {
      const lines = await read(Buffer.from('\ufeff{"a":1}\r\n{"b":"µ"}\r\n{"c":3}'), { gzip });
      expect(lines.map((l) => l.text)).toEqual(['{"a":1}', '{"b":"µ"}', '{"c":3}']);
    }
  });

  it("reads a character split across the reader's 1 MiB chunks", async () => {
    const pad = 'x'.repeat((1 << 20) - 2); // Ω's two bytes straddle the first chunk's end
    const lines = await read(Buffer.from(`"${pad}Ωµ"\n"end"\n`));
    expect(lines.map((l) => [l.text.length, l.unreadable ?? null])).toEqual([
      [pad.length + 4, null],
      [5, null],
    ]);
    expect(lines[0]!.text.endsWith('Ωµ"')).toBe(true);
  });

  it('rejects a line over the limit inside one chunk too, and points at a bad byte within its line', async () => {
    const lines = await read(Buffer.from(`{"a":1}\n${'z'.repeat(100)}\n{"b":2}\n`), { maxLineBytes: 50 });
    expect(lines.map((l) => [l.n, l.unreadable ?? null])).toEqual([
      [1, null],
      [2, 'line longer than 50 bytes (100 bytes)'],
      [3, null],
    ]);
    // a surrogate encoded in UTF-8 (ED A0 80) is not UTF-8: its first byte is the bad one
    const [bad] = await read(Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]));
    expect(bad!.unreadable).toBe('not UTF-8: byte 2 of the line');
  });

  it('rejects a line longer than the limit without keeping it, and goes on with the next', async () => {
    const long = 'y'.repeat(3 << 20);
    const lines = await read(Buffer.from(`{"a":1}\n${long}\n{"b":2}\n${long}`), { maxLineBytes: 1 << 20 });
    expect(lines.map((l) => [l.n, l.unreadable ?? null, l.text.length])).toEqual([
      [1, null, 7],
      [2, `line longer than ${1 << 20} bytes (${3 << 20} bytes)`, 10_000],
      [3, null, 7],
      [4, `line longer than ${1 << 20} bytes (${3 << 20} bytes)`, 10_000],
    ]);
  });

  it('says how far into the file the lines read so far reach: exactly for a plain file, within 3% of the file for gzip', async () => {
    // 4 MB of lines of random hex (3-4 MB compressed: several of the reader's 1 MiB chunks), of varied lengths.
    const text = Array.from({ length: 6000 }, (_, i) => JSON.stringify({ i, v: randomBytes(100 + (i % 7) * 100).toString('hex') })).join('\n');
    const lineEnds: number[] = [];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineEnds.push(i + 1);
    lineEnds.push(text.length);
    for (const gzip of [false, true]) {
      const file = path.join(tempDir(), 'dump.jsonl');
      fs.writeFileSync(file, gzip ? gzipSync(text) : text);
      const src = await openLines(file);
      let k = 0;
      let worst = 0;
      for await (const _ of src.lines) {
        const share = lineEnds[k++]! / text.length;
        if (!gzip) expect(src.bytesRead()).toBe(lineEnds[k - 1]);
        worst = Math.max(worst, Math.abs(src.bytesRead() / src.size - share));
      }
      expect(k).toBe(6000);
      expect(src.bytesRead()).toBe(src.size);
      expect(worst).toBeLessThan(gzip ? 0.03 : 1e-9);
    }
  });
});
