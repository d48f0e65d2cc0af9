/**
 * BM25 from postings read out of FTS5's index (src/engines/sqlite/postings.ts) is FTS5's bm25(): over a
 * 6,000-part sample catalogue with duplicates replaced during the load (rows deleted from the FTS
 * index), every query's matching rows and scores equal what FTS5 computes (to the last bit but for
 * `log`), with the kept postings bounded or not, and the engine answers the same with the postings and with FTS5.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineFilters, SearchEngine } from '../../src/engines/port.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { createPostingsScorer } from '../../src/engines/sqlite/postings.ts';
import { FTS_COLUMNS, versionTables } from '../../src/engines/sqlite/schema.ts';
import { createTextRanking } from '../../src/engines/sqlite/text-rank.ts';
import { writeSampleCatalogue } from '../../src/sample/generate.ts';
import { ingestCatalog, sampleFiles } from '../support/small-engine.ts';
import { tempDir } from '../support/fixtures.ts';

const QUERIES = [
  'resistor',
  'ceramic capacitor 0603',
  '10k 0603 1% resistor',
  'mosfet',
  'dual op amp',
  'schottky diode',
  'usb to uart bridge',
  'red led 0603',
  '100nf 50v x7r',
  '0.1uf',
  '3.3v',
  'the',
  'zzqqxx resistor',
  // phrases: the words of a hyphenated compound in a row, in one column
  'sot-23-5 ldo',
  'n-channel mosfet sot-23',
  'surface-mount 0603',
  'sot-23 sot-23-5',
];

describe('SQLite BM25 from postings', () => {
  let file = '';
  let live = '';
  const duplicates: string[] = [];

  beforeAll(async () => {
    const dir = tempDir();
    const files = await writeSampleCatalogue(path.join(dir, 'sample'), { parts: 6000 });
    // Every 50th record again with a new description: each replaces its first copy (a delete in the FTS index).
    const lines = fs.readFileSync(files.partsFile, 'utf8').trim().split('\n');
    const again = lines
      .filter((_, i) => i % 50 === 0)
      .map((l) => {
        const r = JSON.parse(l) as { mpn: string; description?: string };
        duplicates.push(r.mpn);
        return JSON.stringify({ ...r, description: `replacement ${r.description ?? ''}` });
      });
    fs.appendFileSync(files.partsFile, `${again.join('\n')}\n`);
    file = path.join(dir, 'p.db');
    const engine = createSqliteEngine({ file });
    await engine.init();
    const summary = await ingestCatalog(engine, sampleFiles(files));
    expect(summary.duplicates).toBe(again.length);
    await engine.close();
    const db = new Database(file, { readonly: true });
    live = db.prepare("SELECT value FROM engine_meta WHERE key = 'live'").pluck().get() as string;
    db.close();
  }, 120_000);

  /** Runs `fn` with the live version's tables, FTS5's textMatch (common words lowered, so the AND form occurs) and a scorer. */
  function withVersion<T>(fn: (a: { db: Database.Database; t: ReturnType<typeof versionTables>; ranking: ReturnType<typeof createTextRanking> }) => T): T {
    const db = new Database(file, { readonly: true });
    try {
      const t = versionTables(live);
      const ranking = createTextRanking(db, (sql) => db.prepare(sql), { parts: 300, share: 0.05 });
      return fn({ db, t, ranking });
    } finally {
      db.close();
    }
  }

  async function withVersionAsync(
    fn: (a: { db: Database.Database; t: ReturnType<typeof versionTables>; ranking: ReturnType<typeof createTextRanking> }) => Promise<void>,
  ) {
    const db = new Database(file, { readonly: true });
    try {
      const t = versionTables(live);
      await fn({ db, t, ranking: createTextRanking(db, (sql) => db.prepare(sql), { parts: 300, share: 0.05 }) });
    } finally {
      db.close();
    }
  }

  it.each([
    ['every posting kept', {}],
    ['a few hundred rows of postings kept (words are read again)', { cacheEntries: 300 }],
    ['marks started afresh every few queries', { stampMax: 3 }],
  ])('scores every matching row as FTS5 bm25() does, in both forms of the match (%s)', (_, limits) => {
    withVersion(({ db, t, ranking }) => {
      const scorer = createPostingsScorer(db, limits);
      const weights = FTS_COLUMNS.map(([, w]) => w).join(', ');
      const forms = new Set<string>();
      let rows = 0;
      for (const q of QUERIES) {
        const match = ranking.textMatch(t, q)!;
        forms.add(match.expr.includes(' AND ') ? 'rare AND any' : 'any');
        const fts = db.prepare(`SELECT rowid AS r, bm25(${t.fts}, ${weights}) AS s FROM ${t.fts} WHERE ${t.fts} MATCH ? ORDER BY s, rowid`).all(match.expr) as {
          r: number;
          s: number;
        }[];
        const scored = scorer.score(t, match)!;
        expect(scored, q).not.toBeNull();
        expect(scored.size, q).toBe(fts.length);
        const mine = scored.top(scored.size);
        expect(
          mine.map((x) => x.r).sort((a, b) => a - b),
          q,
        ).toEqual(fts.map((x) => x.r).sort((a, b) => a - b));
        // Equal but for the last bits of `log` (JavaScript's, not the C library's).
        const byRow = new Map(fts.map((x) => [x.r, x.s]));
        for (const x of mine) expect(Math.abs(x.s - byRow.get(x.r)!), q).toBeLessThanOrEqual(1e-12 * Math.abs(x.s));
        // The same order; the window is FTS5's ORDER BY bm25 LIMIT n with ties by rowid.
        expect(
          scored.top(40).map((x) => x.r),
          q,
        ).toEqual(fts.slice(0, 40).map((x) => x.r));
        const cut = mine[Math.min(39, mine.length - 1)];
        if (cut) expect(scored.tied(cut.s).length, q).toBe(mine.filter((x) => x.s === cut.s).length);
        rows += fts.length;
      }
      expect([...forms].sort()).toEqual(['any', 'rare AND any']);
      expect(rows).toBeGreaterThan(5000);
    });
  });

  it.each([
    ['marks kept', {}],
    ['marks started afresh in between (the stamp comes round again)', { stampMax: 2 }],
  ])("looks a row's score up, for the query just scored and for ones scored before it (%s)", (_, limits) => {
    withVersion(({ db, t, ranking }) => {
      const scorer = createPostingsScorer(db, limits);
      const [a, b, c] = ['resistor', 'ceramic capacitor 0603', 'mosfet'].map((q) => scorer.score(t, ranking.textMatch(t, q)!)!);
      // c is current (the scorer's own sums); a and b were scored before it (their rows' own copy).
      for (const scored of [c!, b!, a!]) {
        const all = scored.top(scored.size);
        expect(all.length).toBeGreaterThan(0);
        for (const x of all) expect(scored.scoreOf(x.r)).toBe(x.s);
        const matched = new Set(all.map((x) => x.r));
        const absent = [0, -1, 1e9, ...Array.from({ length: 50 }, (_, i) => i + 1)].filter((r) => !matched.has(r));
        for (const r of absent) expect(scored.scoreOf(r)).toBeUndefined();
      }
    });
  });

  it('bounds what it keeps, words absent from the index included', () => {
    withVersion(({ db, t, ranking }) => {
      // Words found nowhere keep no rows, but each costs its key: 300 of them cannot all stay under 10,000 entries.
      const scorer = createPostingsScorer(db, { cacheEntries: 10_000 });
      for (let i = 0; i < 300; i++) scorer.score(t, ranking.textMatch(t, `zz${i}qq`)!);
      expect(scorer.kept().entries).toBeLessThanOrEqual(10_000);
      expect(scorer.kept().keys).toBeLessThanOrEqual(Math.floor(10_000 / 64));
    });
  }, 30_000);

  it('leaves a phrase of words occurring more than its bound to FTS5', () => {
    withVersion(({ db, t, ranking }) => {
      const q = ranking.textMatch(t, 'sot-23-5 ldo')!;
      expect(createPostingsScorer(db).score(t, q)!.size).toBeGreaterThan(0);
      expect(createPostingsScorer(db, { phraseOccurrences: 10 }).score(t, q)).toBeNull();
    });
  });

  it('leaves words with other characters than ASCII letters, digits and inner dots to FTS5', () => {
    withVersion(({ db, t, ranking }) => {
      const scorer = createPostingsScorer(db);
      expect(scorer.score(t, ranking.textMatch(t, '10µf')!)).toBeNull();
      expect(scorer.score(t, ranking.textMatch(t, 'sot-23-5 ldo')!)).not.toBeNull();
      expect(scorer.score(t, ranking.textMatch(t, 'ldo')!)).not.toBeNull();
    });
  });

  it('reads a new version in the background, a chunk per turn, FTS5 ranking meanwhile', async () => {
    await withVersionAsync(async ({ db, t, ranking }) => {
      const inline = createPostingsScorer(db);
      const scorer = createPostingsScorer(db, { lengthsInBackground: true, lengthsChunk: 100 });
      const match = ranking.textMatch(t, QUERIES[0]!)!;
      expect(scorer.score(t, match)).toBeNull(); // starts the read; the caller ranks with FTS5
      let turns = 0;
      let counting = true;
      const tick = () => {
        turns++;
        if (counting) setImmediate(tick);
      };
      setImmediate(tick);
      await scorer.ready(t);
      counting = false;
      const rows = (db.prepare(`SELECT count(*) FROM ${t.fts}_docsize`).pluck().get() as number) / 100;
      expect(turns).toBeGreaterThanOrEqual(Math.floor(rows) - 1); // the event loop turned between chunks
      const [a, b] = [scorer.score(t, match)!, inline.score(t, match)!];
      expect(a.top(a.size)).toEqual(b.top(b.size));
      // A version whose tables are gone is left to FTS5, without an error.
      const gone = { ...t, fts: `${t.fts}_gone` };
      await scorer.ready(gone);
      expect(scorer.score(gone, match)).toBeNull();
    });
  });

  it('ends a background read quietly when the connection closes under it', async () => {
    const db = new Database(file, { readonly: true });
    const t = versionTables(live);
    const ranking = createTextRanking(db, (sql) => db.prepare(sql), { parts: 300, share: 0.05 });
    const scorer = createPostingsScorer(db, { lengthsInBackground: true, lengthsChunk: 100 });
    expect(scorer.score(t, ranking.textMatch(t, QUERIES[0]!)!)).toBeNull(); // the read starts
    const stderr = process.stderr.write;
    const said: string[] = [];
    process.stderr.write = ((m: string) => (said.push(String(m)), true)) as typeof process.stderr.write;
    try {
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      db.close(); // the engine closing while the read runs
      await scorer.ready(t); // resolves: no rejection left unhandled, nothing reported
    } finally {
      process.stderr.write = stderr;
    }
    expect(said).toEqual([]);
  });

  it('reads the lengths again, after a pause, once a read failed while the tables are there', async () => {
    await withVersionAsync(async ({ db, t, ranking }) => {
      let failures = 1;
      const stmt = (sql: string) => {
        if (failures > 0 && sql.includes('_docsize WHERE id >')) {
          failures--;
          throw new Error('disk I/O error (test)');
        }
        return db.prepare(sql);
      };
      const scorer = createPostingsScorer(db, { lengthsInBackground: true, lengthsChunk: 100, retryAfterMs: 50 }, stmt);
      const match = ranking.textMatch(t, QUERIES[0]!)!;
      const stderr = process.stderr.write;
      const said: string[] = [];
      process.stderr.write = ((m: string) => (said.push(String(m)), true)) as typeof process.stderr.write;
      try {
        expect(scorer.score(t, match)).toBeNull();
        await scorer.ready(t);
      } finally {
        process.stderr.write = stderr;
      }
      expect(said.join('')).toMatch(/row lengths .* failed .*disk I\/O error/);
      expect(scorer.score(t, match)).toBeNull(); // not tried again within the pause
      await scorer.ready(t);
      expect(scorer.score(t, match)).toBeNull();
      await new Promise((r) => setTimeout(r, 60));
      expect(scorer.score(t, match)).toBeNull(); // tried again, in the background
      await scorer.ready(t);
      expect(scorer.score(t, match)!.size).toBeGreaterThan(0);
    });
  });

  it('gives the engine the same answers as FTS5, with filters', async () => {
    const postings = createSqliteEngine({ file });
    await postings.warmUp!(); // the row lengths read: answers come from the postings
    const fts5 = createSqliteEngine({ file, plans: { bm25: 'fts5' } });
    const filterCases: EngineFilters[] = [{}, { status: ['active'] }, { status: ['obsolete', 'nrnd'] }];
    const answers = async (e: SearchEngine) => {
      const out: unknown[] = [];
      for (const text of [...QUERIES, ...duplicates.slice(0, 5).map((m) => `${m} replacement`)])
        for (const filters of filterCases) {
          const r = await e.textSearch({ text, filters, limit: 30, offset: 10, exactTotal: false });
          out.push(r.hits.map((h) => [h.id, +h.score.toPrecision(12)]));
        }
      return out;
    };
    const expected = await answers(fts5);
    expect(expected.filter((x) => (x as unknown[]).length > 0).length).toBeGreaterThan(20);
    expect(await answers(postings)).toEqual(expected);
    await postings.close();
    await fts5.close();
  }, 60_000);
});
