import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import type { EngineFilters } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { SMALL, tempDir } from '../support/fixtures.ts';
import { attributesContract } from './attributes.contract.ts';
import { engineContract } from './engine.contract.ts';
import { priceContract } from './prices.contract.ts';
import { vectorFillContract } from './vector-fill.contract.ts';

engineContract('sqlite', async () => createSqliteEngine({ file: path.join(tempDir(), 'partsearch.db') }));
priceContract('sqlite', async () => createSqliteEngine({ file: path.join(tempDir(), 'prices.db') }));
vectorFillContract('sqlite', async () => createSqliteEngine({ file: path.join(tempDir(), 'fill.db') }));
attributesContract('sqlite', async () => createSqliteEngine({ file: path.join(tempDir(), 'attributes.db') }));
// Each part checked against its own bands (the correlated form), wherever a filter-only search or a text search could.
priceContract('sqlite, row-by-row plans', async () =>
  createSqliteEngine({ file: path.join(tempDir(), 'prices-probe.db'), plans: { broadSets: 'always', textRank: 'windows', facetCounts: 'scan' } }),
);

describe('sqlite engine: a version from before the price bands', () => {
  it('answers a price-at-quantity filter with no parts, not an error, after a rollback to it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'partsearch.db');
    const engine = createSqliteEngine({ file });
    const ingest = (n: number) => runIngest({ engine, embedder: null, parts: [SMALL.parts], reportFile: path.join(dir, `report-${n}.jsonl`) });
    await ingest(1);
    await ingest(2);
    // v1 as an older release left it: no prices table
    const other = new Database(file);
    other.exec('DROP TABLE prices_v1');
    other.close();
    await engine.rollback();
    const filters = { priceAt: { quantity: 100, maxUsd: 1 } };
    expect((await engine.textSearch({ text: null, filters, limit: 10, offset: 0 })).hits).toEqual([]);
    expect((await engine.textSearch({ text: 'resistor', filters, limit: 10, offset: 0 })).hits).toEqual([]);
    expect((await engine.facets({ text: null, filters })).total).toBe(0);
    // and the version with bands still answers once it is live again
    await engine.rollback();
    expect((await engine.textSearch({ text: null, filters, limit: 10, offset: 0 })).hits.length).toBeGreaterThan(0);
    await engine.close();
  });
});

describe('sqlite engine: a version from before spec attributes', () => {
  it('matches no part by attribute and counts no attribute facets, not an error; by name as before', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'partsearch.db');
    const engine = createSqliteEngine({ file });
    await runIngest({ engine, embedder: null, parts: [SMALL.parts], reportFile: path.join(dir, 'report.jsonl') });
    await engine.close();
    // v1 as an older release left it: no attribute column in the specs table
    const other = new Database(file);
    other.exec('DROP INDEX specs_v1_attr_num; DROP INDEX specs_v1_part; ALTER TABLE specs_v1 DROP COLUMN attr');
    other.close();
    const old = createSqliteEngine({ file });
    const search = (filters: EngineFilters) => old.textSearch({ text: null, filters, limit: 10, offset: 0 });
    expect((await search({ specs: [{ attribute: 'capacitance', range: { gte: 1e-9 } }] })).hits).toEqual([]);
    expect((await search({ specs: [{ name: 'Capacitance', range: { gte: 1e-9 } }] })).hits).toHaveLength(3);
    const f = await old.facets({ text: null, filters: {}, attributeValues: ['capacitance'] });
    expect([f.total, f.attributes, f.attributeValues, f.specNames.Capacitance]).toEqual([12, {}, {}, 3]);
    await old.close();
  });
});

describe('sqlite engine: changes made by another process', () => {
  it('sees a catalogue snapshot saved through another connection (a list edit while the API runs)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'partsearch.db');
    const api = createSqliteEngine({ file });
    await runIngest({
      engine: api,
      embedder: null,
      parts: [SMALL.parts],
      manufacturersFile: SMALL.manufacturers,
      categoriesFile: SMALL.categories,
      listsFile: SMALL.lists,
      reportFile: path.join(dir, 'report.jsonl'),
    });
    const before = (await api.meta())!;
    expect(before.lists[0]!.member_count).toBe(2);
    // Another process (`partsearch lists add`) rewrites the snapshot of the live version.
    const cli = createSqliteEngine({ file });
    const edited = { ...before, lists: before.lists.map((l, i) => (i === 0 ? { ...l, member_count: 3, updated_at: '2030-01-01T00:00:00.000Z' } : l)) };
    await cli.saveMeta(edited);
    await cli.close();
    await new Promise((r) => setImmediate(r)); // the API notices other connections' commits once per event-loop turn
    const after = (await api.meta())!;
    expect(after.lists[0]).toMatchObject({ member_count: 3, updated_at: '2030-01-01T00:00:00.000Z' });
    // Unchanged text is not parsed again: the same object comes back.
    await new Promise((r) => setImmediate(r));
    expect(await api.meta()).toBe(after);
    await api.close();
  });
});
