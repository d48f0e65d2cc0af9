import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import { IngestInputError } from '../../ingest/catalog-files.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { partId } from '../../src/catalog/normalise.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { SMALL, tempDir } from '../support/fixtures.ts';

const good = (mpn: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ mpn, manufacturer: 'Texas Instruments', description: `${mpn} regulator`, ...extra });

function readReport(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('ingest pipeline (SQLite)', () => {
  const engines: SearchEngine[] = [];
  const open = () => {
    const dir = tempDir();
    const e = createSqliteEngine({ file: path.join(dir, 'p.db') });
    engines.push(e);
    return { dir, engine: e };
  };
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
  });

  it('indexes every valid line of a corrupt dump and reports every bad one with its line number', async () => {
    const { dir, engine } = open();
    const file = path.join(dir, 'dump.jsonl');
    fs.writeFileSync(
      file,
      [
        good('TPS7A0233PDBVR'),
        '{"mpn": "BROKEN", "manufacturer": ',
        JSON.stringify({ manufacturer: 'TI', description: 'no mpn' }),
        good('LP5907MFX-3.3', { specs: 'not-an-array' }),
        JSON.stringify({ mpn: 42, manufacturer: 'TI', description: 'numeric mpn' }),
        '',
        good('TLV75533PDBVR', { status: 'NRND', weird_field: 'kept' }),
        JSON.stringify({ mpn: 'X1', manufacturer: null, description: 'null manufacturer' }),
        'not json at all',
        good('TPS7A0233PDBVR', { description: 'a later duplicate' }),
      ].join('\n'),
    );
    const report = path.join(dir, 'report.jsonl');
    const s = await runIngest({ engine, embedder: null, parts: [file], reportFile: report });
    expect(s).toMatchObject({ read: 9, indexed: 2, rejected: 6, duplicates: 1, failed: 0, embedded: false, reportFile: report });
    const entries = readReport(report);
    expect(entries.map((e) => [e.kind, e.line])).toEqual([
      ['rejected', 2],
      ['rejected', 3],
      ['rejected', 4],
      ['rejected', 5],
      ['rejected', 8],
      ['rejected', 9],
      ['duplicate', 10],
    ]);
    expect(entries[1]).toMatchObject({ reason: 'mpn: is required', record: { manufacturer: 'TI', description: 'no mpn' } });
    expect(entries[2]!.reason).toBe('specs: must be array,null');
    expect(entries[3]!.reason).toBe('mpn: must be string');
    expect(entries[0]!.reason).toMatch(/^invalid JSON/);
    expect(entries[0]!.record).toBe('{"mpn": "BROKEN", "manufacturer": ');
    const [dup] = await engine.getParts((await engine.mpnLookup({ key: 'TPS7A0233PDBVR', mode: 'exact', limit: 1 })).map((h) => h.id));
    expect(dup!.description).toBe('a later duplicate');
    const [nrnd] = await engine.getParts((await engine.mpnLookup({ key: 'TLV75533PDBVR', mode: 'exact', limit: 1 })).map((h) => h.id));
    expect(nrnd).toMatchObject({ status: 'nrnd', attributes: { weird_field: 'kept' } });
  });

  it('tells parts apart by the MPN as written: punctuation counts, case and whitespace do not', async () => {
    const { dir, engine } = open();
    const file = path.join(dir, 'dump.jsonl');
    // SMF6.0CA (6 V) and SMF60CA (60 V) share the search key SMF60CA; the last three are one relay
    fs.writeFileSync(file, [good('SMF6.0CA'), good('SMF60CA'), good('G5V-1 DC5'), good('g5v-1-dc5'), good('G5V-1  DC5 ')].join('\n') + '\n');
    const report = path.join(dir, 'report.jsonl');
    const s = await runIngest({ engine, embedder: null, parts: [file], reportFile: report });
    expect(s).toMatchObject({ read: 5, indexed: 3, duplicates: 2 });
    const hits = await engine.mpnLookup({ key: 'SMF60CA', mode: 'exact', limit: 10 });
    expect((await engine.getParts(hits.map((h) => h.id))).map((p) => p.mpn).sort()).toEqual(['SMF6.0CA', 'SMF60CA']);
    // each duplicate names the line of the record it repeats
    expect(readReport(report).map((e) => [e.kind, e.line, String(e.reason).includes(`${file}:3`)])).toEqual([
      ['duplicate', 4, true],
      ['duplicate', 5, true],
    ]);
  });

  it('indexes a record with a status it cannot read, or a category the categories file lacks, and reports it as amended', async () => {
    const { dir, engine } = open();
    const file = path.join(dir, 'dump.jsonl');
    const categories = path.join(dir, 'categories.json');
    fs.writeFileSync(categories, JSON.stringify([{ name: 'Capacitors', children: [{ name: 'Tantalum Capacitors' }] }]));
    fs.writeFileSync(
      file,
      [
        good('A1', { status: 'bogus-status', category: ['Capacitors', 'Tantalum Capacitors'] }),
        good('A2', { status: 'NRND', category: ['Capacitors', 'Tantalum Capacitorz'] }),
        good('A3', { status: 'Unknown', category: ['Capacitors', 'Tantalum Capacitorz'] }),
      ].join('\n'),
    );
    const report = path.join(dir, 'report.jsonl');
    const s = await runIngest({ engine, embedder: null, parts: [file], categoriesFile: categories, reportFile: report });
    expect(s).toMatchObject({ read: 3, indexed: 3, rejected: 0, amended: 2 });
    expect(readReport(report).map((e) => [e.kind, e.line, e.reason])).toEqual([
      ['amended', 1, 'status "bogus-status" is no lifecycle status (active, engineering_sample, nrnd, ltb, obsolete, unknown): indexed as unknown'],
      ['amended', 2, 'category path "Capacitors > Tantalum Capacitorz" is not in the categories file: added as capacitors/tantalum-capacitorz'],
    ]);
  });

  it('keeps the lists of a version with legacy ids (before mpn_identity) when re-ingesting without a lists file', async () => {
    const { dir, engine } = open();
    const file = path.join(dir, 'dump.jsonl');
    fs.writeFileSync(file, [good('SMF6.0CA'), good('LM358DR'), good('TPS7A0233PDBVR')].join('\n'));
    await runIngest({ engine, embedder: null, parts: [file], reportFile: path.join(dir, 'r1.jsonl') });
    // The snapshot as an index ingested before the feature holds it: legacy ids in the list, no feature.
    const meta = (await engine.meta())!;
    const legacy = (mpn: string) => partId('texas-instruments', mpn, true);
    const list = {
      list_id: 'lst_test',
      name: 'Approved',
      kind: 'curated' as const,
      slug: 'approved',
      description: null,
      account: null,
      unmatched: [],
      updated_at: meta.created_at,
    };
    await engine.saveMeta({
      ...meta,
      features: ['price_bands'],
      lists: [{ ...list, member_ids: [legacy('SMF6.0CA'), legacy('LM358DR')], member_count: 2 }],
    });
    // SMF60CA now shares SMF6.0CA's legacy id: both keep the membership
    fs.writeFileSync(file, [good('SMF6.0CA'), good('SMF60CA'), good('LM358DR'), good('TPS7A0233PDBVR')].join('\n'));
    await runIngest({ engine, embedder: null, parts: [file], reportFile: path.join(dir, 'r2.jsonl') });
    const after = (await engine.meta())!;
    const ids = ['SMF6.0CA', 'SMF60CA', 'LM358DR'].map((m) => partId('texas-instruments', m));
    expect(after.lists).toMatchObject([{ list_id: 'lst_test', member_count: 3 }]);
    expect([...after.lists[0]!.member_ids].sort()).toEqual([...ids].sort());
    const parts = await engine.getParts([...ids, partId('texas-instruments', 'TPS7A0233PDBVR')]);
    expect(parts.map((p) => [p.mpn, p.lists])).toEqual([
      ['SMF6.0CA', ['lst_test']],
      ['SMF60CA', ['lst_test']],
      ['LM358DR', ['lst_test']],
      ['TPS7A0233PDBVR', []],
    ]);
  });

  it('writes the whole report before the swap: a report that fails at the end leaves the live version', async () => {
    const { dir, engine } = open();
    const file = path.join(dir, 'dump.jsonl');
    fs.writeFileSync(file, [good('TPS7A0233PDBVR'), 'not json'].join('\n'));
    // /dev/full takes the open and fails the writes (ENOSPC): the failure shows at close
    await expect(runIngest({ engine, embedder: null, parts: [file], reportFile: '/dev/full' })).rejects.toThrow('cannot write the ingest report /dev/full');
    expect(await engine.meta()).toBeNull();
  });

  it('stops, leaving the live version untouched, when its report cannot be written', async () => {
    const { dir, engine } = open();
    const file = path.join(dir, 'dump.jsonl');
    fs.writeFileSync(file, [good('TPS7A0233PDBVR'), 'not json'].join('\n'));
    await expect(runIngest({ engine, embedder: null, parts: [file], reportFile: dir })).rejects.toThrow(`cannot write the ingest report ${dir}: EISDIR`);
    expect(await engine.meta()).toBeNull();
  });

  it('reads gzip dumps whatever their name, and is idempotent across re-runs', async () => {
    const { dir, engine } = open();
    const file = path.join(dir, 'dump.data');
    fs.writeFileSync(file, gzipSync(fs.readFileSync(SMALL.parts)));
    const run = () =>
      runIngest({
        engine,
        embedder: null,
        parts: [file],
        manufacturersFile: SMALL.manufacturers,
        categoriesFile: SMALL.categories,
        reportFile: path.join(dir, 'r.jsonl'),
      });
    const a = await run();
    const idsA = (await engine.textSearch({ text: null, filters: {}, limit: 100, offset: 0 })).hits.map((h) => h.id).sort();
    const metaA = await engine.meta();
    const b = await run();
    const idsB = (await engine.textSearch({ text: null, filters: {}, limit: 100, offset: 0 })).hits.map((h) => h.id).sort();
    const metaB = await engine.meta();
    expect(a.indexed).toBe(12);
    expect(b.indexed).toBe(12);
    expect(idsB).toEqual(idsA);
    expect(metaB!.categories).toEqual(metaA!.categories);
    expect(metaB!.manufacturers).toEqual(metaA!.manufacturers);
    expect(a.reportFile).toBeNull();
  });

  it('fails, leaving the live version untouched, when nothing was indexed', async () => {
    const { dir, engine } = open();
    await runIngest({ engine, embedder: null, parts: [SMALL.parts], reportFile: path.join(dir, 'r0.jsonl') });
    const before = await engine.info();
    const file = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(file, 'nope\n{"mpn": ""}\n');
    await expect(runIngest({ engine, embedder: null, parts: [file], reportFile: path.join(dir, 'r.jsonl') })).rejects.toThrow(IngestInputError);
    expect(await engine.info()).toEqual(before);
    expect(readReport(path.join(dir, 'r.jsonl'))).toHaveLength(2);
  });

  it('records which spec names hold plain numbers only (ranges without a unit compare with them)', async () => {
    const { dir, engine } = open();
    const file = path.join(dir, 'dump.jsonl');
    const specs = (pairs: [string, string][]) => ({ specs: pairs.map(([name, value]) => ({ name, value })) });
    fs.writeFileSync(
      file,
      [
        good(
          'A1',
          specs([
            ['Number of channels', '2'],
            ['Height', '1.08cm'],
            ['Output Voltage', '3.3V'],
            ['Color', 'Red'],
          ]),
        ),
        good(
          'A2',
          specs([
            ['Number of channels', '1~4'],
            ['Height', '2.5'],
            ['Operating force', '55gf'],
          ]),
        ),
      ].join('\n'),
    );
    await runIngest({ engine, embedder: null, parts: [file], reportFile: path.join(dir, 'r.jsonl') });
    const byName = new Map((await engine.meta())!.specs!.map((x) => [x.name, x]));
    // plain numbers only: unitless; a number in a unit the parser does not read ("cm", "gf") spoils it
    expect(byName.get('Number of channels')).toMatchObject({ unit: null, unitless: true });
    expect(byName.get('Height')).toMatchObject({ unitless: false });
    expect(byName.get('Operating force')).toMatchObject({ unitless: false });
    expect(byName.get('Output Voltage')).toMatchObject({ unit: 'V', unitless: false });
    expect(byName.get('Color')).toMatchObject({ unit: null, unitless: false });
  });

  it('names a file it cannot read', async () => {
    const { dir, engine } = open();
    await expect(runIngest({ engine, embedder: null, parts: [path.join(dir, 'missing.jsonl')], reportFile: path.join(dir, 'r.jsonl') })).rejects.toThrow(
      /cannot read .*missing\.jsonl: ENOENT/,
    );
    await expect(
      runIngest({ engine, embedder: null, parts: [SMALL.parts], manufacturersFile: SMALL.parts, reportFile: path.join(dir, 'r.jsonl') }),
    ).rejects.toThrow(/is not valid JSON/);
  });
});
