/**
 * The SQLite engine's cache of parsed records (records.ts RecordCache): least recently used evicted,
 * records frozen (callers share them), and never stale: a list edit in this process or another
 * process's commit on the same file shows at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PartRecord } from '../../src/catalog/part.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import Database from 'better-sqlite3';
import { statementCache } from '../../src/engines/sqlite/db.ts';
import { MAX_CACHED_TEXT, RecordCache, withRecordsOnDemand } from '../../src/engines/sqlite/records.ts';
import { versionTables } from '../../src/engines/sqlite/schema.ts';
import { SMALL, tempDir } from '../support/fixtures.ts';
import { ingestCatalog, ingestSmallFixture, type CatalogFiles } from '../support/small-engine.ts';

/** The small fixture again with every description changed: a new version of the same parts. */
function smallV2(): CatalogFiles {
  const file = path.join(tempDir(), 'v2.jsonl');
  const lines = fs.readFileSync(SMALL.parts, 'utf8').trim().split('\n');
  fs.writeFileSync(file, lines.map((l) => JSON.stringify({ ...JSON.parse(l), description: `V2 ${JSON.parse(l).description}` })).join('\n') + '\n');
  return { parts: file, manufacturers: SMALL.manufacturers, categories: SMALL.categories };
}

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

  it('does not keep a text read before a clear, nor an outlier', () => {
    const c = new RecordCache(5);
    const before = c.generation;
    c.clear();
    expect(c.parse(1, text(1), before).mpn).toBe('P1');
    expect(c.get(1)).toBeUndefined();
    c.parse(2, JSON.stringify({ id: 2, documents: [{ text: 'x'.repeat(MAX_CACHED_TEXT) }] }));
    expect(c.get(2)).toBeUndefined();
  });

  it('freezes what it keeps, deeply', () => {
    const r = new RecordCache(5).parse(1, text(1)) as PartRecord;
    expect(() => ((r as { mpn: string }).mpn = 'x')).toThrow(TypeError);
    expect(() => (r.specs as unknown as unknown[]).push({})).toThrow(TypeError);
    expect(() => ((r.specs[0] as { value: string }).value = '2')).toThrow(TypeError);
  });
});

describe('withRecordsOnDemand (kNN hits)', () => {
  /** A version's parts table in memory, and a statement cache that counts the record reads. */
  function store() {
    const db = new Database(':memory:');
    const t = versionTables('v1');
    db.exec(`CREATE TABLE ${t.parts} (id INTEGER PRIMARY KEY, record TEXT NOT NULL)`);
    for (const id of [1, 2, 3]) db.prepare(`INSERT INTO ${t.parts} VALUES (?, ?)`).run(id, text(id));
    const cached = statementCache(db);
    const reads = { n: 0 };
    const stmt = (sql: string) => {
      if (sql.includes('one_record')) reads.n++;
      return cached(sql);
    };
    return { db, t, stmt, reads };
  }

  it("reads a hit's record only when it is asked for, from the cache when there, and caches what it parses", () => {
    const { db, t, stmt, reads } = store();
    const cache = new RecordCache(10);
    cache.parse(2, text(2));
    const hits = withRecordsOnDemand(
      stmt,
      t,
      [
        { id: 1, score: 0.9 },
        { id: 2, score: 0.8 },
        { id: 3, score: 0.7 },
      ],
      cache,
    );
    expect(hits.map((h) => [h.id, h.score])).toEqual([
      [1, 0.9],
      [2, 0.8],
      [3, 0.7],
    ]);
    expect(reads.n).toBe(0);
    expect(hits[1]!.record).toBe(cache.get(2)); // from the cache, no read
    expect(reads.n).toBe(0);
    expect(hits[0]!.record?.mpn).toBe('P1');
    expect(hits[0]!.record?.mpn).toBe('P1');
    expect(reads.n).toBe(1); // once, and only that hit's
    expect(cache.get(1)).toBe(hits[0]!.record);
    expect(cache.get(3)).toBeUndefined();
    db.close();
  });

  it('gives no record for an unknown part or a dropped version, does not cache across a clear, and throws other errors', () => {
    const { db, t, stmt } = store();
    const cache = new RecordCache(10);
    const [unknown, one, two, three] = withRecordsOnDemand(stmt, t, [{ id: 99 }, { id: 1 }, { id: 2 }, { id: 3 }], cache);
    expect(unknown!.record).toBeUndefined();
    cache.clear(); // the database changed after the hits were found: what is read now is not kept
    expect(one!.record?.mpn).toBe('P1');
    expect(cache.get(1)).toBeUndefined();
    db.exec(`DROP TABLE ${t.parts}`); // two index swaps during one request
    expect(two!.record).toBeUndefined();
    db.close();
    expect(() => three!.record).toThrow(/not open/);
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

  it('a hit read after the cache was cleared (a list edit, another process ingesting) does not put its old record back', async () => {
    const file = path.join(tempDir(), 'p.db');
    const a = createSqliteEngine({ file });
    await ingestSmallFixture(a, true);
    const [hit, otherHit] = (await a.textSearch({ text: 'resistor', filters: {}, limit: 2, offset: 0, records: true })).hits;
    // A list edit here between the search and the first read of its hit's record.
    await a.setListMembership('lst_after_search', [hit!.id]);
    expect(hit!.record!.lists).not.toContain('lst_after_search'); // what the search saw
    expect((await a.getParts([hit!.id]))[0]!.lists).toContain('lst_after_search');

    // Another process ingests a new version (same part ids) while a hit is still unread.
    const [again] = (await a.textSearch({ text: 'resistor', filters: {}, limit: 1, offset: 0, records: true })).hits;
    const b = createSqliteEngine({ file, recordCacheSize: 0 });
    await ingestCatalog(b, smallV2());
    await new Promise((r) => setImmediate(r));
    await a.getParts([otherHit!.id]); // the next turn: the commit is seen, the cache cleared
    expect(again!.record!.description.startsWith('V2 ')).toBe(false);
    await new Promise((r) => setImmediate(r));
    const now = (await a.getParts([again!.id]))[0]!;
    expect(now.description.startsWith('V2 ')).toBe(true);
    await a.close();
    await b.close();
  });
});
