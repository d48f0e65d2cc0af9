// The SQLite load core: FTS tables filled in chunks while the load streams must end up exactly as a
// one-pass rebuild would leave them, duplicates included (a later record replacing one whose FTS
// entries were already added).
import { describe, expect, it } from 'vitest';
import { CategoryTree } from '../../src/catalog/categories.ts';
import { ManufacturerRegistry } from '../../src/catalog/manufacturers.ts';
import { PartNormaliser } from '../../src/catalog/normalise.ts';
import type { DumpPart } from '../../src/catalog/part.ts';
import { openSqliteDb } from '../../src/engines/sqlite/db.ts';
import { createLoadCore, toLoadRow } from '../../src/engines/sqlite/load-core.ts';
import { versionTables } from '../../src/engines/sqlite/schema.ts';

const normaliser = new PartNormaliser(ManufacturerRegistry.from([{ name: 'Texas Instruments', aliases: ['TI'] }]), new CategoryTree());
const row = (mpn: string, description: string, extra: Partial<DumpPart> = {}) =>
  toLoadRow({ record: normaliser.normalise({ mpn, manufacturer: 'Texas Instruments', description, ...extra } as DumpPart), embedding: null });

describe('SQLite load core', () => {
  it('indexes FTS chunks during the load, replaces already-indexed duplicates, and matches a rebuild', () => {
    const db = openSqliteDb(':memory:');
    const core = createLoadCore(db, 'v1', null, { ftsChunkRows: 3 });
    const t = versionTables('v1');
    core.write([row('LM358DR', 'dual opamp alpha'), row('TL072CP', 'jfet opamp bravo'), row('NE555P', 'timer charlie')]);
    core.catchUp(); // 3 rows pending: indexed now
    expect((db.prepare(`SELECT count(*) AS n FROM ${t.fts} WHERE ${t.fts} MATCH 'bravo'`).get() as { n: number }).n).toBe(1);
    // A later record for TL072CP replaces the indexed one; one for LM358DR in the same batch as a new part.
    core.write([row('TL072CP', 'jfet opamp delta', { package: 'DIP-8' }), row('LMV321', 'single opamp echo')]);
    core.catchUp(); // 2 pending < 3: waits
    core.write([row('LMV321', 'single opamp foxtrot')]); // replaces a row not yet in the FTS tables
    core.countsBy('category'); // last chunk + B-tree indexes
    const match = (tbl: string, q: string) => (db.prepare(`SELECT count(*) AS n FROM ${tbl} WHERE ${tbl} MATCH ?`).get(q) as { n: number }).n;
    expect([match(t.fts, 'bravo'), match(t.fts, 'delta'), match(t.fts, 'echo'), match(t.fts, 'foxtrot'), match(t.fts, 'opamp')]).toEqual([0, 1, 0, 1, 3]);
    expect(match(t.tri, '"072"')).toBe(1);
    // The FTS indexes agree with their content table (external content: checked row by row).
    for (const tbl of [t.fts, t.tri]) db.prepare(`INSERT INTO ${tbl}(${tbl}, rank) VALUES ('integrity-check', 1)`).run();
    // Same answers as a one-pass rebuild from the content table.
    const terms = (tbl: string) =>
      db
        .prepare(`SELECT rowid FROM ${tbl} WHERE ${tbl} MATCH ? ORDER BY rowid`)
        .all('opamp OR timer OR dip OR texas OR instruments')
        .map((r) => (r as { rowid: number }).rowid);
    const before = terms(t.fts);
    db.prepare(`INSERT INTO ${t.fts}(${t.fts}) VALUES ('rebuild')`).run();
    expect(terms(t.fts)).toEqual(before);
    expect(core.finish('{}', 4)).toEqual({ version: 'v1', count: 4 });
    db.close();
  });

  it('stores each record as ASCII JSON (non-ASCII escaped) that parses back to the same record', async () => {
    const db = openSqliteDb(':memory:');
    const core = createLoadCore(db, 'v1', null, {});
    const record = normaliser.normalise({
      mpn: 'RC0603FR-0710KL',
      manufacturer: 'Texas Instruments',
      description: '10kΩ ±1% 100mW, -55°C~+155°C, µ-size 😀',
    } as DumpPart);
    core.write([toLoadRow({ record, embedding: null })]);
    const stored = (db.prepare(`SELECT record FROM ${versionTables('v1').parts}`).get() as { record: string }).record;
    expect([...stored].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
    expect(stored).toContain('\\u03a9');
    expect(JSON.parse(stored)).toEqual(JSON.parse(JSON.stringify(record)));
    expect(JSON.parse(stored).description).toBe('10kΩ ±1% 100mW, -55°C~+155°C, µ-size 😀');
  });
});
