/**
 * The SQLite engine's cache of parsed records (records.ts RecordCache): least recently used evicted,
 * records frozen (callers share them), and never stale: a list edit in this process or another
 * process's commit on the same file shows at once.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PartRecord } from '../../src/catalog/part.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { RecordCache } from '../../src/engines/sqlite/records.ts';
import { tempDir } from '../support/fixtures.ts';
import { ingestSmallFixture } from '../support/small-engine.ts';

const text = (id: number) => JSON.stringify({ id, mpn: `P${id}`, specs: [{ name: 'x', value: '1' }], lists: [] });

describe('RecordCache', () => {
  it('keeps the most recently used records, at most max', () => {
    const c = new RecordCache(2);
    c.parse(1, text(1));
    c.parse(2, text(2));
    expect(c.get(1)?.mpn).toBe('P1'); // 1 is now the most recent
    c.parse(3, text(3));
    expect([c.get(1)?.mpn, c.get(2), c.get(3)?.mpn]).toEqual(['P1', undefined, 'P3']);
    expect(c.size).toBe(2);
    const none = new RecordCache(0);
    expect(none.parse(1, text(1)).mpn).toBe('P1');
    expect(none.size).toBe(0);
  });

  it('freezes what it keeps, deeply', () => {
    const r = new RecordCache(5).parse(1, text(1)) as PartRecord;
    expect(() => ((r as { mpn: string }).mpn = 'x')).toThrow(TypeError);
    expect(() => (r.specs as unknown as unknown[]).push({})).toThrow(TypeError);
    expect(() => ((r.specs[0] as { value: string }).value = '2')).toThrow(TypeError);
  });
});

describe('the SQLite engine with cached records', () => {
  it('answers the same records from the cache, and a list edit (here or in another process) at once', async () => {
    const file = path.join(tempDir(), 'p.db');
    const a = createSqliteEngine({ file });
    await ingestSmallFixture(a, true);
    const other = createSqliteEngine({ file, recordCacheSize: 0 });
    const hits = (await a.textSearch({ text: 'resistor', filters: {}, limit: 3, offset: 0, records: true })).hits;
    const [first] = await a.getParts([hits[0]!.id]);
    // A second read returns the cached object itself, equal to what an uncached engine reads.
    expect((await a.getParts([first!.id]))[0]).toBe(first);
    expect(hits[0]!.record).toBe(first);
    expect((await other.getParts([first!.id]))[0]).toEqual(first);

    await a.setListMembership('lst_cache_here', [first!.id]);
    expect((await a.getParts([first!.id]))[0]!.lists).toContain('lst_cache_here');
    await new Promise((r) => setImmediate(r)); // another process's commit is looked for once per turn
    await other.setListMembership('lst_cache_there', [first!.id]);
    await new Promise((r) => setImmediate(r));
    const after = (await a.getParts([first!.id]))[0]!;
    expect(after.lists).toEqual(expect.arrayContaining(['lst_cache_here', 'lst_cache_there']));
    expect((await a.getPartBySlug(after.manufacturer.slug, after.mpn_slug))?.part.lists).toEqual(after.lists);
    await a.close();
    await other.close();
  });
});
