/** Issue 32: a dump line nested thousands deep is rejected into the report; the rest of the dump is indexed. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { MAX_JSON_DEPTH } from '../../src/util/json-depth.ts';
import { tempDir } from '../support/fixtures.ts';

const good = (mpn: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ mpn, manufacturer: 'Texas Instruments', description: `${mpn} regulator`, ...extra });

describe('ingest of hostile records', () => {
  const engines: SearchEngine[] = [];
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
  });

  it('rejects a record nested 5,000 deep with its reason and indexes the others', async () => {
    const dir = tempDir();
    const engine = createSqliteEngine({ file: path.join(dir, 'p.db') });
    engines.push(engine);
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const file = path.join(dir, 'dump.jsonl');
    fs.writeFileSync(
      file,
      [
        good('TPS7A0233PDBVR'),
        // In a free-form field the schema accepts, and as the whole line.
        `{"mpn":"DEEP1","manufacturer":"Texas Instruments","description":"d","attributes":${deep(5_000)}}`,
        `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
        // Deep but within the limit: indexed (the record holds the attributes as given).
        good('SHALLOW1', { attributes: JSON.parse(deep(MAX_JSON_DEPTH - 2)) }),
        good('TLV75533PDBVR'),
      ].join('\n'),
    );
    const report = path.join(dir, 'report.jsonl');
    const s = await runIngest({ engine, embedder: null, parts: [file], reportFile: report });
    expect(s).toMatchObject({ read: 5, indexed: 3, rejected: 2 });
    const entries = fs
      .readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.kind, e.line, e.reason])).toEqual([
      ['rejected', 2, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`],
      ['rejected', 3, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`],
    ]);
    // The line as read (its first 10,000 characters), since the parsed record cannot be written back.
    expect(entries[0]!.record).toBe(`{"mpn":"DEEP1","manufacturer":"Texas Instruments","description":"d","attributes":${deep(5_000)}`.slice(0, 10_000));
    const [shallow] = await engine.getParts((await engine.mpnLookup({ key: 'SHALLOW1', mode: 'exact', limit: 1 })).map((h) => h.id));
    expect(shallow!.mpn).toBe('SHALLOW1');
  });
});
