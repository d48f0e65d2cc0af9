/**
 * SQLite plan choices give the same answers whichever plan runs (engine.ts): filter-only searches over
 * broad list/spec sets scan the parts in index order with the sets probed, or seek each set member's
 * row (broadSets), and read few selected parts directly or walk every part in stock order (fewSelected); facet counts by manufacturer and category seek the matched rows or scan those
 * columns' indexes; ranked text under filters reads ranked windows or joins every match (text-rank.ts). Three engines over one 6,000-part index (each choice forced one way, and the
 * automatic one) must agree on totals, pages and facets, for broad and narrow sets.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestCatalog, sampleFiles } from '../support/small-engine.ts';
import type { EngineFilters, SearchEngine } from '../../src/engines/port.ts';
import { PART_STATUSES, type PartStatus } from '../../src/catalog/status.ts';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { filterSql } from '../../src/engines/sqlite/filters.ts';
import { bestStockedInCategories, countInCategories, fewSelected } from '../../src/engines/sqlite/filter-plans.ts';
import { versionTables } from '../../src/engines/sqlite/schema.ts';
import { writeSampleCatalogue } from '../../src/sample/generate.ts';
import { tempDir } from '../support/fixtures.ts';

describe('SQLite plan choices (broad sets, facet counts)', () => {
  let auto: SearchEngine;
  let probe: SearchEngine;
  let seek: SearchEngine;
  const cases: [string, EngineFilters][] = [];
  let specName = '';
  let dbFile = '';
  /** A copy of the shared index in a file of its own, to change without touching the shared one. */
  const copyIndex = (name: string): string => {
    const copy = path.join(tempDir(), name);
    const src = new Database(dbFile, { readonly: true });
    src.exec(`VACUUM INTO '${copy}'`);
    src.close();
    return copy;
  };
  /** The SQL texts prepared while `fn` runs, on any connection (an engine prepares each statement on first use). */
  async function preparedDuring(fn: () => Promise<void>): Promise<string[]> {
    const seen: string[] = [];
    const prepare = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      seen.push(sql);
      return prepare.call(this, sql);
    } as typeof prepare;
    try {
      await fn();
    } finally {
      Database.prototype.prepare = prepare;
    }
    return seen;
  }

  beforeAll(async () => {
    const dir = tempDir();
    const files = await writeSampleCatalogue(path.join(dir, 'sample'), { parts: 6000 });
    const file = (dbFile = path.join(dir, 'p.db'));
    auto = createSqliteEngine({ file });
    await auto.init();
    await ingestCatalog(auto, sampleFiles(files, true));
    probe = createSqliteEngine({ file, plans: { broadSets: 'always', facetCounts: 'scan', filterOnly: 'stock-order' } });
    seek = createSqliteEngine({ file, plans: { broadSets: 'never', facetCounts: 'seek', textRank: 'join' } });
    // BM25 from the postings (their row lengths read), as a serving process ranks: else FTS5 would rank every text query here.
    await Promise.all([auto.warmUp!(), probe.warmUp!()]);
    const meta = (await auto.meta())!;
    const [spec, other] = [...(meta.specs ?? [])].filter((s) => s.unit !== null).sort((a, b) => b.parts - a.parts);
    specName = spec!.name;
    const facetsOf = async (name: string, filters: EngineFilters = {}) =>
      (await auto.facets({ text: null, filters, specValues: [name], size: 100 })).specValues[name]!;
    const f = await facetsOf(spec!.name);
    // The second spec's rarest value among parts that have the first: a small set meeting a broad one.
    const g = await facetsOf(other!.name, { status: ['active'], specs: [{ name: spec!.name, range: { gte: f.min! } }] });
    const rareOther = g.values[g.values.length - 1]!.value;
    const list = [...meta.lists].sort((a, b) => b.member_count - a.member_count)[0]!;
    const threeCategories = [...meta.categories]
      .filter((c) => c.part_count > 0)
      .sort((a, b) => b.part_count - a.part_count)
      .slice(0, 3)
      .map((c) => c.slug);
    const active: EngineFilters = { status: ['active'] };
    cases.push(
      ['the whole extent of the most-held spec (a broad set)', { ...active, specs: [{ name: spec!.name, range: { gte: f.min!, lte: f.max! } }] }],
      ['above its least value', { ...active, specs: [{ name: spec!.name, range: { gt: f.min! } }] }],
      ['its most common value', { specs: [{ name: spec!.name, values: [f.values[0]!.value] }] }],
      ['a rare value (a small set)', { specs: [{ name: spec!.name, values: [f.values[f.values.length - 1]!.value] }] }],
      ['the largest list', { ...active, lists: [list.list_id] }],
      ['the list and the broad range', { lists: [list.list_id], specs: [{ name: spec!.name, range: { gte: f.min! } }] }],
      ['status only (no sets)', active],
      // Agentic search's read of the parts of the categories a query names: the best stocked, walked in
      // the (status, stock) index, which holds the category (no part row read for the check).
      ['active parts of three categories', { ...active, categories: threeCategories }],
      // Status-only filters are checked on the rows' remembered facts in the ranked windows (text-rank.ts).
      ['rarer statuses only', { status: ['nrnd', 'obsolete'] }],
      ['every status', { status: [...PART_STATUSES] }],
      ['1000 units at any price (a broad set of price bands)', { ...active, priceAt: { quantity: 1000, maxUsd: 1e9 } }],
      ['one unit at a low price (a small set of price bands)', { priceAt: { quantity: 1, maxUsd: 0.01 } }],
      ['the list and a price at 100 units', { lists: [list.list_id], priceAt: { quantity: 100, maxUsd: 0.5 } }],
      // Several sets: the few parts in common read from the smallest, the others checked part by part (FilterSql.drivenBy).
      [
        'a rare value of one spec and the broad range of another',
        {
          ...active,
          specs: [
            { name: spec!.name, range: { gte: f.min! } },
            { name: other!.name, values: [rareOther] },
          ],
        },
      ],
      [
        'a rare value with its number arm, the list and a price',
        {
          lists: [list.list_id],
          specs: [
            { name: other!.name, values: [rareOther], nums: [g.min!], numUnit: other!.unit },
            { name: spec!.name, range: { gte: f.min!, lte: f.max! } },
          ],
          priceAt: { quantity: 1, maxUsd: 1e9 },
        },
      ],
      [
        'two ranges, each broad',
        {
          specs: [
            { name: spec!.name, range: { gte: f.min! } },
            { name: other!.name, range: { gte: g.min! } },
          ],
        },
      ],
    );
  }, 60_000);

  it('leaves planner statistics for the new version, and its (status, stock) index', () => {
    const db = new Database(dbFile, { readonly: true });
    try {
      const live = db.prepare("SELECT value FROM engine_meta WHERE key = 'live'").pluck().get() as string;
      const stats = db.prepare('SELECT idx FROM sqlite_stat1 WHERE tbl = ?').pluck().all(`parts_${live}`) as string[];
      expect(stats).toContain(`parts_${live}_status_stock`);
      // the status column's figure is the parts per status, not the sample's guess
      const [rows, perStatus] = (
        db.prepare('SELECT stat FROM sqlite_stat1 WHERE tbl = ? AND idx = ?').pluck().get(`parts_${live}`, `parts_${live}_status_stock`) as string
      ).split(' ');
      const statuses = db.prepare(`SELECT count(DISTINCT status) FROM parts_${live}`).pluck().get() as number;
      expect(Number(perStatus)).toBe(Math.ceil(Number(rows) / statuses));
      expect(stats).toContain(`parts_${live}_min_price`);
      expect(db.prepare('SELECT count(*) FROM sqlite_stat1 WHERE tbl = ?').pluck().get(`specs_${live}`)).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('walks the best-stocked parts of some categories in the (status, stock) index alone: it holds the category', () => {
    const db = new Database(dbFile, { readonly: true });
    try {
      const live = db.prepare("SELECT value FROM engine_meta WHERE key = 'live'").pluck().get() as string;
      const t = versionTables(live);
      const categories = cases.find(([name]) => name === 'active parts of three categories')![1];
      // The stock-order walk of filter-plans.ts (filterOnlyPage), with the engine's own filter SQL.
      const f = filterSql(categories, t);
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT p.id AS id, 0.0 AS score, p.category AS category FROM ${t.parts} p WHERE ${f.sql} ORDER BY p.stock DESC, p.id LIMIT ? OFFSET ?`,
        )
        .all(...f.params, 100, 0) as { detail: string }[];
      expect(plan.map((r) => r.detail).join('\n')).toContain(`COVERING INDEX ${t.parts}_status_stock`);
    } finally {
      db.close();
    }
  });

  it('reads the best-stocked parts of category subtrees, and counts them, one category at a time, as the stock-order walk and SQL count do', async () => {
    const db = new Database(dbFile, { readonly: true });
    try {
      const live = db.prepare("SELECT value FROM engine_meta WHERE key = 'live'").pluck().get() as string;
      const t = versionTables(live);
      const stmt = (sql: string) => db.prepare(sql);
      const meta = (await auto.meta())!;
      const held = meta.categories.filter((c) => c.part_count > 0).map((c) => c.slug);
      const roots = [...new Set(held.map((s) => s.split('/')[0]!))];
      const leaf = held.find((s) => s.includes('/'))!;
      const rootWithMost = roots.sort((a, b) => held.filter((s) => s.startsWith(`${b}/`)).length - held.filter((s) => s.startsWith(`${a}/`)).length)[0]!;
      expect(held.filter((s) => s.startsWith(`${rootWithMost}/`)).length).toBeGreaterThan(1); // a subtree of several categories
      const cases: [PartStatus[], string[], number, boolean?][] = [
        [['active'], [leaf], 100],
        [['active'], [rootWithMost], 100],
        [['active', 'nrnd', 'obsolete'], [rootWithMost, leaf], 25],
        [['active'], roots.slice(0, 3), 500],
        [['active'], [leaf, rootWithMost, 'no-such-category'], 7],
        // Every part of two categories, to the unstocked ones (stock 0: ordered by id across the categories).
        [['active', 'nrnd'], held.filter((s) => s.includes('/')).slice(-2), 2000],
        // in stock only: the same, without the unstocked ones
        [['active', 'nrnd'], held.filter((s) => s.includes('/')).slice(-2), 2000, true],
        [['active'], [rootWithMost], 100, true],
      ];
      for (const [statuses, categories, n, inStock = false] of cases) {
        const f = filterSql({ status: statuses, categories, ...(inStock ? { inStock } : {}) }, t);
        expect(f.statusInCategories, categories.join()).toEqual({ statuses, categories, inStock });
        const walk = db
          .prepare(`SELECT p.id AS id, p.category AS category FROM ${t.parts} p WHERE ${f.sql} ORDER BY p.stock DESC, p.id LIMIT ?`)
          .all(...f.params, n);
        expect(walk.length, categories.join()).toBeGreaterThan(0);
        if (n === 2000 && !inStock) {
          // unstocked parts of both categories among them: ties that only the id orders
          const unstocked = db
            .prepare(`SELECT count(DISTINCT p.category) FROM ${t.parts} p WHERE ${f.sql} AND p.stock = 0`)
            .pluck()
            .get(...f.params);
          expect(unstocked).toBe(2);
          expect(walk.length).toBeLessThan(n);
        }
        expect(bestStockedInCategories(stmt, t, statuses, categories, n, inStock), `${statuses.join()} ${categories.join()} ${n} ${inStock}`).toEqual(walk);
        // and their number, category by category
        const count = db
          .prepare(`SELECT count(*) FROM ${t.parts} p WHERE ${f.sql}`)
          .pluck()
          .get(...f.params);
        expect(countInCategories(stmt, t, statuses, categories, inStock), `count: ${statuses.join()} ${categories.join()} ${inStock}`).toBe(count);
      }
      // More categories than the reads allow: the other plans answer.
      expect(bestStockedInCategories(stmt, t, ['active'], [rootWithMost], 8000)).toBeNull();
      // Each category's read is a range of the (category, status, stock) index.
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT id, category, stock FROM ${t.parts} INDEXED BY ${t.parts}_cat_stock WHERE category = ? AND status = ? ORDER BY stock DESC, id LIMIT ?`,
        )
        .all(leaf, 'active', 10) as { detail: string }[];
      expect(plan.map((r) => r.detail).join('\n')).toMatch(new RegExp(`^SEARCH .*COVERING INDEX ${t.parts}_cat_stock \\(category=\\? AND status=\\?\\)$`));
      // Other conditions than the status, the categories and in_stock: not read this way.
      expect(filterSql({ status: ['active'], categories: [leaf], manufacturers: ['x'] }, t).statusInCategories).toBeNull();
      expect(filterSql({ status: ['active'], categories: [leaf], inStock: true, maxPriceUsd: 1 }, t).statusInCategories).toBeNull();
      expect(filterSql({ categories: [leaf] }, t).statusInCategories).toBeNull();
    } finally {
      db.close();
    }
  });

  it('looks MPN keys up through their index under a status filter (not the (status, stock) index the sampled statistics favour)', async () => {
    // A copy whose statistics say what sampled ones say of a catalogue of one status (the 578k slim one):
    // that a status selects few parts.
    const copy = copyIndex('stats.db');
    const edit = new Database(copy);
    const live = edit.prepare("SELECT value FROM engine_meta WHERE key = 'live'").pluck().get() as string;
    edit.prepare('UPDATE sqlite_stat1 SET stat = ? WHERE idx = ?').run('6000 6 1 1 1', `parts_${live}_status_stock`);
    edit.close();
    const fresh = createSqliteEngine({ file: copy });
    try {
      await fresh.init();
      const some = (await auto.textSearch({ text: null, filters: { status: ['active'] }, limit: 1, offset: 0, records: true })).hits[0]!.record!;
      const prefix = some.mpn_norm.slice(0, 4);
      let hits: unknown[] = [];
      const seen = await preparedDuring(async () => {
        hits = await fresh.mpnLookup({ key: prefix, mode: 'prefix', limit: 10, filters: { status: ['active'] } });
      });
      expect(hits.length).toBeGreaterThan(0);
      const sql = seen.find((q) => q.includes('p.mpn_norm >= ?'))!;
      expect(sql).toBeDefined();
      const db = new Database(copy, { readonly: true });
      try {
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(prefix, `${prefix}\uffff`, 'active', 10) as { detail: string }[];
        expect(plan.map((r) => r.detail).join('\n')).toMatch(/USING INDEX parts_v\d+_mpn \(mpn_norm>\? AND mpn_norm<\?\)/);
      } finally {
        db.close();
      }
    } finally {
      await fresh.close();
    }
  });

  it('reads category pages, their totals and facet rows through the (category, status, stock) index, and a price few parts are under through the price index', async () => {
    const fresh = createSqliteEngine({ file: dbFile });
    try {
      await fresh.init();
      const leaf = (await auto.meta())!.categories.filter((c) => c.part_count > 0 && c.slug.includes('/'))[0]!.slug;
      const byCategory = { status: ['active'], categories: [leaf] } as EngineFilters;
      const page = await preparedDuring(async () => void (await fresh.textSearch({ text: null, filters: byCategory, limit: 10, offset: 0 })));
      expect(page.filter((q) => q.includes('_cat_stock WHERE category = ? AND status = ?'))).toHaveLength(2); // the page and its count
      const facets = await preparedDuring(async () => void (await fresh.facets({ text: null, filters: byCategory, size: 5 })));
      expect(facets.some((q) => q.includes('_cat_stock WHERE p.category IN'))).toBe(true);
      const price = await preparedDuring(
        async () => void (await fresh.textSearch({ text: null, filters: { status: ['active'], maxPriceUsd: 0 }, limit: 10, offset: 0 })),
      );
      // the few parts under the price, read through it and sorted (not the walk of every part in stock order)
      expect(
        price.some((q) => q.includes('p.rowid IN (SELECT p.rowid FROM') && q.includes('WHERE p.min_price <= ?)') && q.includes('ORDER BY +p.stock DESC')),
      ).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('lets a list of over 512 parts, under the bound, drive the read of the few parts ranked text is read from (cheapOnly)', () => {
    // A copy with a list of 600 parts.
    const db = new Database(copyIndex('list.db'));
    try {
      const live = db.prepare("SELECT value FROM engine_meta WHERE key = 'live'").pluck().get() as string;
      const t = versionTables(live);
      db.prepare(`INSERT INTO ${t.members} (list_id, prow) SELECT 'lst_big', rowid FROM ${t.parts} ORDER BY rowid LIMIT 600`).run();
      const stmt = (sql: string) => db.prepare(sql);
      const f = filterSql({ status: ['active'], lists: ['lst_big'] }, t);
      const few = fewSelected(stmt, t, f, 1000, { cheapOnly: true });
      expect(few).not.toBeNull();
      expect(few!.cheap).toBe(true);
      const rows = db
        .prepare(`SELECT p.rowid AS r FROM ${t.parts} p WHERE ${few!.where} ORDER BY r`)
        .pluck()
        .all(...few!.params);
      const expected = db
        .prepare(`SELECT p.rowid AS r FROM ${t.parts} p WHERE ${f.sql} ORDER BY r`)
        .pluck()
        .all(...f.params);
      expect(rows).toEqual(expected);
      expect(rows.length).toBeGreaterThan(0);
      // over the bound: not read this way
      expect(fewSelected(stmt, t, f, 500, { cheapOnly: true })).toBeNull();
    } finally {
      db.close();
    }
  });

  it('has a broad set to test: the whole extent holds most parts', async () => {
    const broad = await auto.textSearch({ text: null, filters: cases[0]![1], limit: 1, offset: 0 });
    expect(broad.total).toBeGreaterThan(1500);
  });

  it('answers filter-only searches and facets the same with every plan', async () => {
    // Categories and makers small and large: read from the parts they select, or walked in stock order (probe).
    const all = await auto.facets({ text: null, filters: {}, size: 500 });
    const cats = all.categories.sort((a, b) => a.count - b.count);
    const mfrs = all.manufacturers.sort((a, b) => a.count - b.count);
    const more: [string, EngineFilters][] = [
      ['the smallest category', { status: ['active'], categories: [cats[0]!.slug] }],
      ['a middle category', { status: ['active'], categories: [cats[Math.floor(cats.length / 2)]!.slug] }],
      ['the largest category', { status: ['active'], categories: [cats[cats.length - 1]!.slug] }],
      // Read category by category (bestStockedInCategories) by the automatic plan, walked by probe.
      ['three categories, two statuses', { status: ['active', 'nrnd'], categories: [cats[0]!.slug, cats[1]!.slug, cats[cats.length - 1]!.slug] }],
      ['a root category (its subtree)', { status: ['active'], categories: [cats[cats.length - 1]!.slug.split('/')[0]!] }],
      ['a root category, in stock', { status: ['active'], inStock: true, categories: [cats[cats.length - 1]!.slug.split('/')[0]!] }],
      // The lowest unit price, through its index when few parts are under it (none: a catalogue without prices).
      ['a price no part is under', { status: ['active'], maxPriceUsd: 0 }],
      ['a low price', { status: ['active'], maxPriceUsd: 0.002 }],
      ['a price most parts are under', { status: ['active'], maxPriceUsd: 100 }],
      ['a low price in a category', { status: ['active'], maxPriceUsd: 0.01, categories: [cats[cats.length - 1]!.slug] }],
      ['two small makers', { manufacturers: [mfrs[0]!.slug, mfrs[1]!.slug] }],
    ];
    for (const [name, filters] of [...cases, ...more]) {
      const page = (e: SearchEngine) => e.textSearch({ text: null, filters, limit: 30, offset: 5 });
      const [a, p, s] = await Promise.all([page(auto), page(probe), page(seek)]);
      if (name !== 'a price no part is under') expect(a.total, name).toBeGreaterThan(0);
      expect(p, name).toEqual(a);
      expect(s, name).toEqual(a);
      const facets = (e: SearchEngine) => e.facets({ text: null, filters, specValues: [specName], size: 50 });
      const [fa, fp, fs] = await Promise.all([facets(auto), facets(probe), facets(seek)]);
      expect(fa.total, name).toBe(a.total);
      expect(fp, name).toEqual(fa);
      expect(fs, name).toEqual(fa);
      // the counts add up to the set
      expect(
        fa.manufacturers.reduce((n, m) => n + m.count, 0),
        name,
      ).toBeLessThanOrEqual(fa.total);
      expect(fa.specNames[specName] ?? 0, name).toBeLessThanOrEqual(fa.total);
    }
  }, 60_000);

  it('ranks text under filters the same with ranked windows and with the plain join, for broad and selective filters', async () => {
    const meta = (await auto.meta())!;
    const cats = (await auto.facets({ text: null, filters: {}, size: 500 })).categories.sort((a, b) => a.count - b.count);
    const mfrs = (await auto.facets({ text: null, filters: {}, size: 500 })).manufacturers.sort((a, b) => a.count - b.count);
    const textCases: [string, EngineFilters][] = [
      ...cases,
      ['the smallest category', { status: ['active'], categories: [cats[0]!.slug] }],
      ['the largest category', { categories: [cats[cats.length - 1]!.slug] }],
      ['a small manufacturer', { manufacturers: [mfrs[0]!.slug] }],
      ['the smallest list', { lists: [[...meta.lists].sort((a, b) => a.member_count - b.member_count)[0]!.list_id] }],
    ];
    let answered = 0;
    for (const text of ['resistor', 'ceramic capacitor 0603', 'mosfet']) {
      for (const [name, filters] of textCases) {
        const page = (e: SearchEngine) => e.textSearch({ text, filters, limit: 40, offset: 0, exactTotal: false });
        const [a, w, j] = await Promise.all([page(auto), page(probe), page(seek)]);
        expect(w.hits, `${text} / ${name}`).toEqual(j.hits);
        expect(a.hits, `${text} / ${name}`).toEqual(j.hits); // auto and probe both rank windows first
        if (j.hits.length > 0) answered++;
        // With the exact total, which some plans count on the way (the few parts read, a set's rows).
        const exact = (e: SearchEngine) => e.textSearch({ text, filters, limit: 40, offset: 0 });
        const [ea, ej] = await Promise.all([exact(auto), exact(seek)]);
        expect(ea, `${text} / ${name}, exact total`).toEqual(ej);
      }
    }
    expect(answered).toBeGreaterThan(textCases.length); // most cases have hits to compare
  }, 60_000);

  it('ranks text within a large maker or category set from its rows and the postings, with the exact total, as the plain join does', async () => {
    const all = await auto.facets({ text: null, filters: {}, size: 500 });
    const mfrs = all.manufacturers.sort((a, b) => b.count - a.count);
    const cats = all.categories.sort((a, b) => b.count - a.count);
    const sets: [string, EngineFilters][] = [
      ...mfrs.slice(0, 4).map((m): [string, EngineFilters] => [m.slug, { status: ['active'], manufacturers: [m.slug] }]),
      ['the largest category', { status: ['active'], categories: [cats[0]!.slug] }],
      ['two makers, any status', { manufacturers: [mfrs[0]!.slug, mfrs[2]!.slug] }],
      ['a maker, two statuses', { status: ['active', 'nrnd'], manufacturers: [mfrs[1]!.slug] }],
      ['a maker, in stock', { status: ['active'], inStock: true, manufacturers: [mfrs[0]!.slug] }],
      // No indexed condition: the windows rank, the total is the scored rows passing on their facts.
      ['active, in stock', { status: ['active'], inStock: true }],
      ['any status, in stock', { inStock: true }],
      ['a maker, one category excluded', { status: ['active'], manufacturers: [mfrs[0]!.slug], excludeCategories: [cats[0]!.slug] }],
      ['active, a root category excluded', { status: ['active'], excludeCategories: [cats[0]!.slug.split('/')[0]!] }],
    ];
    let matched = 0;
    for (const text of ['resistor', 'capacitor', 'led', 'smd', 'ceramic capacitor 0603']) {
      for (const [name, filters] of sets) {
        for (const offset of [0, 5]) {
          const page = (e: SearchEngine) => e.textSearch({ text, filters, limit: 30, offset });
          const [a, j] = await Promise.all([page(auto), page(seek)]);
          expect(a, `${text} / ${name} / ${offset}`).toEqual(j);
          if (j.total > 0) matched++;
        }
      }
    }
    expect(matched).toBeGreaterThan(20);
    // The plan in use: the maker's rows read through its index alone, and no FTS5 count of the matches.
    const fresh = createSqliteEngine({ file: dbFile });
    try {
      await fresh.init();
      await fresh.warmUp!();
      const filters: EngineFilters = { status: ['active'], manufacturers: [mfrs[0]!.slug] };
      const sql = await preparedDuring(async () => void (await fresh.textSearch({ text: 'resistor', filters, limit: 30, offset: 0 })));
      expect(sql.some((q) => /^SELECT p\.rowid FROM \S+ p WHERE p\.mfr_slug IN \(\?\) LIMIT \?$/.test(q))).toBe(true);
      expect(sql.filter((q) => q.includes('MATCH'))).toEqual([]);
      expect((await fresh.textSearch({ text: 'resistor', filters, limit: 30, offset: 0 })).total).toBeGreaterThan(30);
    } finally {
      await fresh.close();
    }
  }, 60_000);

  it('answers the same while the row facts are read a budget at a time (the SQL plans meanwhile), and once they are all read', async () => {
    const budgeted = createSqliteEngine({ file: dbFile, factsReadMax: 200 });
    try {
      await budgeted.init();
      await budgeted.warmUp!();
      const maker = (await auto.facets({ text: null, filters: {}, size: 500 })).manufacturers.sort((a, b) => b.count - a.count)[0]!.slug;
      const cases: EngineFilters[] = [{ status: ['active'] }, { status: ['active'], inStock: true }, { status: ['active'], manufacturers: [maker] }];
      // Each round reads up to 200 more rows' facts; by the last every row of these queries is read.
      for (let round = 0; round < 40; round++)
        for (const filters of cases)
          for (const text of ['resistor', 'capacitor']) {
            const name = `${round}: ${text} / ${JSON.stringify(filters)}`;
            const page = (e: SearchEngine) => e.textSearch({ text, filters, limit: 20, offset: 0 });
            expect(await page(budgeted), name).toEqual(await page(seek));
            if (round % 13 === 0) expect(await budgeted.facets({ text, filters, size: 20 }), name).toEqual(await seek.facets({ text, filters, size: 20 }));
          }
      // All read by now: the facets come from the postings and the facts, no FTS5 join runs.
      const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<
        'all' | 'get' | 'run' | 'iterate',
        (...a: unknown[]) => unknown
      >;
      const ran: string[] = [];
      const saved = { all: statement.all, get: statement.get, run: statement.run, iterate: statement.iterate };
      for (const m of ['all', 'get', 'run', 'iterate'] as const)
        statement[m] = function (this: { source: string }, ...a: unknown[]) {
          ran.push(this.source);
          return saved[m].apply(this, a);
        };
      try {
        await budgeted.facets({ text: 'resistor', filters: { status: ['active'] }, size: 5 });
      } finally {
        Object.assign(statement, saved);
      }
      expect(ran.length).toBeGreaterThan(0);
      expect(ran.filter((q) => q.includes('MATCH'))).toEqual([]);
    } finally {
      await budgeted.close();
    }
  }, 60_000);

  it('leaves uncategorised parts out when categories are excluded, on the kept facts as in SQL', async () => {
    // A copy where every 7th part has no category: `NOT (category under ...)` is null for them in SQL.
    const file = copyIndex('uncategorised.db');
    const db = new Database(file);
    try {
      const live = db.prepare("SELECT value FROM engine_meta WHERE key = 'live'").pluck().get() as string;
      db.prepare(`UPDATE ${versionTables(live).parts} SET category = NULL WHERE rowid % 7 = 0`).run();
    } finally {
      db.close();
    }
    const a = createSqliteEngine({ file });
    const j = createSqliteEngine({ file, plans: { textRank: 'join', facetCounts: 'seek' } });
    try {
      await Promise.all([a.init(), j.init()]);
      await a.warmUp!();
      const cats = (await a.facets({ text: null, filters: {}, size: 500 })).categories.sort((x, y) => y.count - x.count);
      const maker = (await a.facets({ text: null, filters: {}, size: 500 })).manufacturers.sort((x, y) => y.count - x.count)[0]!.slug;
      for (const filters of [
        { status: ['active'], excludeCategories: [cats[0]!.slug] },
        { manufacturers: [maker], excludeCategories: [cats[1]!.slug] },
      ] as EngineFilters[]) {
        for (const text of ['resistor', 'capacitor']) {
          const name = `${text} / ${JSON.stringify(filters)}`;
          const page = (e: SearchEngine) => e.textSearch({ text, filters, limit: 30, offset: 0 });
          expect(await page(a), name).toEqual(await page(j));
          const facets = (e: SearchEngine) => e.facets({ text, filters, size: 50 });
          expect(await facets(a), name).toEqual(await facets(j));
        }
      }
    } finally {
      await a.close();
      await j.close();
    }
  });

  it('facets with text count the text matches the same way', async () => {
    const all = await auto.facets({ text: null, filters: {}, size: 500 });
    const maker = all.manufacturers.sort((a, b) => b.count - a.count)[0]!.slug;
    const category = all.categories.sort((a, b) => b.count - a.count)[0]!.slug;
    const filterCases: EngineFilters[] = [
      { status: ['active'] },
      {},
      { status: ['active', 'nrnd'] },
      { status: ['active'], manufacturers: [maker] },
      { status: ['active'], categories: [category] },
      { manufacturers: [maker] },
      { status: ['active'], inStock: true },
      { status: ['active'], inStock: true, manufacturers: [maker] },
      { status: ['active'], excludeCategories: [category] },
      { manufacturers: [maker], excludeCategories: [category.split('/')[0]!] },
    ];
    for (const text of ['resistor', 'ceramic capacitor 0603', 'led'])
      for (const filters of filterCases) {
        const req = { text, filters, specValues: [specName], size: 50 };
        const [fa, fp, fs] = await Promise.all([auto.facets(req), probe.facets(req), seek.facets(req)]);
        const name = `${text} / ${JSON.stringify(filters)}`;
        expect(fa.total, name).toBe((await auto.textSearch({ text, filters, limit: 1, offset: 0 })).total);
        expect(fp, name).toEqual(fa);
        expect(fs, name).toEqual(fa);
      }
    // The automatic plan counts from the postings and the rows' facts: no FTS5 match of every row.
    const fresh = createSqliteEngine({ file: dbFile });
    try {
      await fresh.init();
      await fresh.warmUp!();
      for (const filters of [{ status: ['active'] }, { status: ['active'], manufacturers: [maker] }] as EngineFilters[]) {
        const sql = await preparedDuring(async () => void (await fresh.facets({ text: 'resistor', filters, size: 5 })));
        expect(sql.filter((q) => q.includes('MATCH'))).toEqual([]);
      }
    } finally {
      await fresh.close();
    }
  });
});

describe('SQLite ranked windows across versions', () => {
  // Another process's commit reaches this one through I/O, in a later turn of the event loop (util/turn.ts oncePerTurn).
  const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));
  // Statuses moved around in a second load of the same parts (in reverse order, so with other rowids).
  const MOVED: Record<string, string> = {
    active: 'obsolete',
    obsolete: 'active',
    nrnd: 'active',
    ltb: 'nrnd',
    unknown: 'active',
    engineering_sample: 'active',
  };

  it('answers as the plain join after another connection makes a version with other statuses live, and after a rollback', async () => {
    const dir = tempDir();
    const files = await writeSampleCatalogue(path.join(dir, 'sample'), { parts: 1500 });
    const moved = fs
      .readFileSync(files.partsFile, 'utf8')
      .trim()
      .split('\n')
      .reverse()
      .map((line) => {
        const p = JSON.parse(line) as { status?: string | null };
        if (typeof p.status === 'string') p.status = MOVED[p.status.toLowerCase()] ?? p.status;
        return JSON.stringify(p);
      });
    const movedFile = path.join(dir, 'moved.jsonl');
    fs.writeFileSync(movedFile, moved.join('\n') + '\n');
    const file = path.join(dir, 'p.db');
    const serving = createSqliteEngine({ file });
    await serving.init();
    await ingestCatalog(serving, sampleFiles(files));
    await serving.warmUp!();
    const join = createSqliteEngine({ file, plans: { textRank: 'join' } });
    const other = createSqliteEngine({ file }); // another process's connection
    const filters: EngineFilters[] = [{ status: ['active'] }, { status: ['obsolete'] }, { status: ['nrnd', 'ltb'] }];
    const answers = async (label: string) => {
      const out: unknown[] = [];
      for (const text of ['resistor', 'ceramic capacitor 0603', 'mosfet'])
        for (const f of filters) {
          const page = (e: SearchEngine) => e.textSearch({ text, filters: f, limit: 40, offset: 0, exactTotal: false });
          const [w, j] = [await page(serving), await page(join)];
          expect(w.hits, `${label}: ${text} ${JSON.stringify(f)}`).toEqual(j.hits);
          out.push(w.hits.map((h) => h.id));
        }
      return out;
    };
    const first = await answers('first version');
    await ingestCatalog(other, { ...sampleFiles(files), parts: movedFile });
    await nextTurn();
    const second = await answers('the moved statuses, made live by another connection');
    expect(second).not.toEqual(first); // the statuses moved, so the status filters' answers did
    await other.rollback();
    await nextTurn();
    expect(await answers('rolled back')).toEqual(first);
    await Promise.all([serving, join, other].map((e) => e.close()));
  }, 120_000);
});
