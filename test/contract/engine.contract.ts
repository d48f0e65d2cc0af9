/**
 * The search-engine contract: one suite, run against every adapter (SQLite always, OpenSearch when
 * OPENSEARCH_URL is set). It ingests the small fixture catalogue through the real ingest pipeline,
 * then checks exact/prefix/infix/fuzzy MPN lookups, text search, spec filters in SI units,
 * category subtrees, lists, facets, kNN, enrichment reads, version swap and rollback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { runIngest, type IngestSummary } from '../../ingest/pipeline.ts';
import type { EngineFilters, SearchEngine } from '../../src/engines/port.ts';
import { normaliseMpn } from '../../src/catalog/mpn.ts';
import { priceAtQuantity, priceBands } from '../../src/catalog/prices.ts';
import { PART_STATUSES } from '../../src/catalog/status.ts';
import { tieredMpnSearch } from '../../src/engines/mpn-tiers.ts';
import { SMALL, tempDir } from '../support/fixtures.ts';
import { SMALL_VECTORS, tableEmbedder } from '../support/table-embedder.ts';

export function engineContract(name: string, makeEngine: () => Promise<SearchEngine>, cleanup?: () => Promise<void>): void {
  describe(`search engine contract: ${name}`, () => {
    let engine: SearchEngine;
    let summary: IngestSummary;
    const dir = tempDir();
    const embedder = tableEmbedder(SMALL_VECTORS);
    const ingestSmall = (reportName: string) =>
      runIngest({
        engine,
        embedder,
        parts: [SMALL.parts],
        manufacturersFile: SMALL.manufacturers,
        categoriesFile: SMALL.categories,
        listsFile: SMALL.lists,
        reportFile: path.join(dir, reportName),
      });

    const mpnsOf = async (ids: number[]) => (await engine.getParts(ids)).map((p) => p.mpn);

    beforeAll(async () => {
      engine = await makeEngine();
      summary = await ingestSmall('report-1.jsonl');
    });
    afterAll(async () => {
      await cleanup?.();
      await engine?.close();
    });

    it('indexes every fixture part and reports the unmatched list member', async () => {
      expect(summary).toMatchObject({ read: 12, indexed: 12, rejected: 0, duplicates: 0, failed: 0, unmatchedListMembers: 1 });
      const info = await engine.info();
      expect(info.parts).toBe(12);
      expect(info.vectors).toBe(true);
    });

    it('stores the catalogue snapshot with subtree-inclusive category counts and resolved manufacturers', async () => {
      const meta = (await engine.meta())!;
      const cat = (slug: string) => meta.categories.find((c) => c.slug === slug);
      expect(cat('capacitors')?.part_count).toBe(3);
      expect(cat('capacitors/tantalum-capacitors')?.part_count).toBe(1);
      expect(cat('amplifiers/comparators')?.part_count).toBe(0);
      const ti = meta.manufacturers.find((m) => m.slug === 'texas-instruments');
      expect(ti?.part_count).toBe(3);
      expect(meta.manufacturers.find((m) => m.slug === 'onsemi')?.part_count).toBe(1);
      expect(meta.lists[0]).toMatchObject({ name: 'Test Basic', kind: 'curated', member_count: 2 });
      expect(meta.lists[0]!.list_id).toMatch(/^lst_[a-z2-7]{20}$/);
    });

    it('finds an exact MPN key, and alternate MPNs as aliases', async () => {
      const exact = await engine.mpnLookup({ key: normaliseMpn('lm358-dr'), mode: 'exact', limit: 10 });
      expect(await mpnsOf(exact.map((h) => h.id))).toEqual(['LM358DR']);
      const alias = await engine.mpnLookup({ key: 'LM358DRG4', mode: 'exact', limit: 10 });
      expect(alias).toHaveLength(1);
      expect(alias[0]).toMatchObject({ alias: true, matched: 'LM358DRG4' });
      expect(await mpnsOf([alias[0]!.id])).toEqual(['LM358DR']);
    });

    it('finds prefixes shortest key first, every result starting with the prefix', async () => {
      const hits = await engine.mpnLookup({ key: 'LM358', mode: 'prefix', limit: 10, aliases: false });
      expect(await mpnsOf(hits.map((h) => h.id))).toEqual(['LM358D', 'LM358DR', 'LM358DR2G']);
    });

    it('finds infixes and bounded fuzzy matches', async () => {
      const infix = await engine.mpnLookup({ key: '0710K', mode: 'infix', limit: 10 });
      expect(await mpnsOf(infix.map((h) => h.id))).toEqual(['RC0603FR-0710KL']);
      const fuzzy = await engine.mpnLookup({ key: 'AO3401A', mode: 'fuzzy', limit: 10 });
      expect(await mpnsOf(fuzzy.map((h) => h.id))).toContain('AO3400A');
      const none = await engine.mpnLookup({ key: 'ZZZZZZZZ', mode: 'fuzzy', limit: 10 });
      expect(none).toEqual([]);
      // two edits (no half of the key one edit away): the keys sharing the most trigrams, verified
      const twoEdits = await engine.mpnLookup({ key: 'AX3400B', mode: 'fuzzy', limit: 10 });
      expect(await mpnsOf(twoEdits.map((h) => h.id))).toEqual(['AO3400A']);
      expect(await engine.mpnLookup({ key: 'AX3400B', mode: 'fuzzy', limit: 10, filters: { status: ['active'] } })).toEqual([]); // it is obsolete
    });

    it('finds a key one edit away whatever the edit did to its trigrams: a transposition in a short key, across the middle of a long one', async () => {
      // LM538D shares no trigram with LM358D (the swap breaks all four).
      const swapped = await engine.mpnLookup({ key: 'LM538D', mode: 'fuzzy', limit: 10 });
      expect(await mpnsOf(swapped.map((h) => h.id))).toEqual(['LM358D']);
      // TLV70033DDCR's two middle characters swapped: neither half of the key is left intact.
      const middle = await engine.mpnLookup({ key: 'TLV70303DDCR', mode: 'fuzzy', limit: 10 });
      expect(await mpnsOf(middle.map((h) => h.id))).toEqual(['TLV70033DDCR']);
      const search = async (key: string) =>
        Promise.all((await engine.mpnSearch({ key, limit: 10 })).map(async (c) => `${c.tier}:${(await mpnsOf([c.id]))[0]}`));
      expect(await search('LM538D')).toEqual(['fuzzy:LM358D']);
      expect(await search('AO3040A')).toEqual(['fuzzy:AO3400A']);
    });

    it('answers MPN search in tier order, as the tiers composed from single lookups', async () => {
      const tiers = async (key: string, filters = {}) =>
        Promise.all((await engine.mpnSearch({ key, limit: 10, filters })).map(async (c) => `${c.tier}:${(await mpnsOf([c.id]))[0]}`));
      expect(await tiers('LM358DR')).toEqual(['exact:LM358DR', 'variant:LM358DR2G']);
      expect(await tiers('LM358DRG4')).toEqual(['variant:LM358DR']);
      expect((await tiers('LM358')).slice(0, 3)).toEqual(['variant:LM358D', 'variant:LM358DR', 'variant:LM358DR2G']);
      expect(await tiers('0710K')).toEqual(['infix:RC0603FR-0710KL']);
      expect(await tiers('AO3401A')).toContain('fuzzy:AO3400A');
      // a typo guess only when nothing stronger matched
      expect((await tiers('AO3400A')).every((t) => !t.startsWith('fuzzy'))).toBe(true);
      expect(await tiers('ZZZZZZZZ')).toEqual([]);
      expect(await tiers('LM358DR', { manufacturers: ['onsemi'] })).toEqual(['variant:LM358DR2G']);
      for (const key of ['LM358', 'LM358D', 'LM358DR', 'LM358DRG4', 'AO3400A', 'AO3401A', '0603', '0710K', 'T491A', 'GRM188', 'LM29', 'TLV7003']) {
        const composed = await tieredMpnSearch((r) => engine.mpnLookup(r), { key, limit: 10 });
        expect(await engine.mpnSearch({ key, limit: 10 }), key).toEqual(composed);
      }
    });

    it('ranks text matches by BM25 and counts them exactly', async () => {
      const r = await engine.textSearch({ text: 'dual operational amplifier', filters: {}, limit: 10, offset: 0 });
      expect(r.total).toBe(4);
      const mpns = await mpnsOf(r.hits.map((h) => h.id));
      expect(new Set(mpns)).toEqual(new Set(['LM358DR', 'LM358D', 'LM358DR2G', 'LM2904DT']));
      for (let i = 1; i < r.hits.length; i++) expect(r.hits[i - 1]!.score).toBeGreaterThanOrEqual(r.hits[i]!.score);
    });

    it('without an exact total (exactTotal: false) answers the same hits and a total between what it returned and the exact count', async () => {
      for (const text of ['0603', null]) {
        for (const offset of [0, 1]) {
          const req = { text, filters: { status: ['active'] } as EngineFilters, limit: 2, offset };
          const exact = await engine.textSearch(req);
          const rough = await engine.textSearch({ ...req, exactTotal: false });
          expect(rough.hits.map((h) => h.id)).toEqual(exact.hits.map((h) => h.id));
          expect(rough.total).toBeGreaterThanOrEqual(offset + rough.hits.length);
          expect(rough.total).toBeLessThanOrEqual(exact.total);
          expect(exact.total).toBeGreaterThan(offset + exact.hits.length); // more match than the page: the exact count is a real count
        }
        // A page past the end: nothing to show, and the total still no more than the exact count.
        const past = { text, filters: { status: ['active'] } as EngineFilters, limit: 2, offset: 100_000, exactTotal: false };
        const beyond = await engine.textSearch(past);
        expect(beyond.hits).toEqual([]);
        expect(beyond.total).toBeLessThanOrEqual((await engine.textSearch({ ...past, exactTotal: true })).total);
      }
    });

    it('gives each text hit its category slug, read from the index, on every path (ranked, filtered, no text)', async () => {
      const expectCategories = async (hits: { id: number; category: string | null }[]) => {
        expect(hits.length).toBeGreaterThan(0);
        const parts = await engine.getParts(hits.map((h) => h.id));
        expect(hits.map((h) => h.category)).toEqual(parts.map((p) => p.category?.slug ?? null));
      };
      await expectCategories((await engine.textSearch({ text: '0603', filters: {}, limit: 10, offset: 0, exactTotal: false })).hits);
      await expectCategories((await engine.textSearch({ text: '0603', filters: { categories: ['resistors'] }, limit: 10, offset: 0 })).hits);
      await expectCategories((await engine.textSearch({ text: null, filters: { status: ['active'] }, limit: 20, offset: 0 })).hits);
    });

    it("returns each hit's record when asked, the same as getParts, and none otherwise", async () => {
      for (const text of ['0603', null]) {
        const withRecords = await engine.textSearch({ text, filters: {}, limit: 10, offset: 0, records: true });
        expect(withRecords.hits.length).toBeGreaterThan(0);
        expect(withRecords.hits.map((h) => h.record)).toEqual(await engine.getParts(withRecords.hits.map((h) => h.id)));
        const plain = await engine.textSearch({ text, filters: {}, limit: 10, offset: 0 });
        expect(plain.hits.map((h) => h.id)).toEqual(withRecords.hits.map((h) => h.id));
        expect(plain.hits.every((h) => h.record === undefined)).toBe(true);
      }
    });

    it('pages text results without overlap or gaps', async () => {
      const all = await engine.textSearch({ text: '0603', filters: {}, limit: 10, offset: 0 });
      const p1 = await engine.textSearch({ text: '0603', filters: {}, limit: 2, offset: 0 });
      const p2 = await engine.textSearch({ text: '0603', filters: {}, limit: 2, offset: 2 });
      expect([...p1.hits, ...p2.hits].map((h) => h.id)).toEqual(all.hits.slice(0, 4).map((h) => h.id));
      expect(p1.total).toBe(all.total);
    });

    it('filters by status, manufacturer, list, stock and price', async () => {
      const obsolete = await engine.textSearch({ text: null, filters: { status: ['obsolete'] }, limit: 10, offset: 0 });
      expect(await mpnsOf(obsolete.hits.map((h) => h.id))).toEqual(['AO3400A']);
      const ti = await engine.textSearch({ text: null, filters: { manufacturers: ['texas-instruments'] }, limit: 10, offset: 0 });
      expect(new Set(await mpnsOf(ti.hits.map((h) => h.id)))).toEqual(new Set(['LM358DR', 'LM358D', 'TLV70033DDCR']));
      const listId = (await engine.meta())!.lists[0]!.list_id;
      const listed = await engine.textSearch({ text: null, filters: { lists: [listId] }, limit: 10, offset: 0 });
      expect(new Set(await mpnsOf(listed.hits.map((h) => h.id)))).toEqual(new Set(['LM358DR', 'RC0603FR-0710KL']));
      const stocked = await engine.textSearch({ text: 'amplifier', filters: { inStock: true }, limit: 10, offset: 0 });
      expect(await mpnsOf(stocked.hits.map((h) => h.id))).not.toContain('LM358DR2G');
      const cheap = await engine.textSearch({ text: null, filters: { maxPriceUsd: 0.001 }, limit: 10, offset: 0 });
      expect(new Set(await mpnsOf(cheap.hits.map((h) => h.id)))).toEqual(new Set(['RC0603FR-0710KL', 'RC0603FR-074K7L', '0603WAF1002T5E']));
    });

    it('filters by package as written, in any case, alone or with text and other filters', async () => {
      const sot = await engine.textSearch({ text: null, filters: { packages: ['sot-23', 'SOT-23-5'] }, limit: 10, offset: 0 });
      expect(new Set(await mpnsOf(sot.hits.map((h) => h.id)))).toEqual(new Set(['AO3400A', 'TLV70033DDCR']));
      expect(sot.total).toBe(2);
      const resistors = await engine.textSearch({ text: 'thick film resistor', filters: { packages: ['0603'] }, limit: 10, offset: 0 });
      expect(new Set(await mpnsOf(resistors.hits.map((h) => h.id)))).toEqual(new Set(['RC0603FR-0710KL', 'RC0603FR-074K7L', '0603WAF1002T5E']));
      const inStock = await engine.textSearch({ text: null, filters: { packages: ['SOIC-8'], inStock: true, status: ['active'] }, limit: 10, offset: 0 });
      expect(await mpnsOf(inStock.hits.map((h) => h.id))).not.toContain('LM358DR2G');
      expect((await engine.facets({ text: null, filters: { packages: ['0603'] } })).total).toBe(5);
      expect((await engine.textSearch({ text: null, filters: { packages: ['0402'] }, limit: 10, offset: 0 })).total).toBe(0);
    });

    it('filters by the unit price at an order quantity: the price break holding that quantity', async () => {
      const at = async (quantity: number, maxUsd: number) =>
        new Set(
          await mpnsOf((await engine.textSearch({ text: null, filters: { priceAt: { quantity, maxUsd } }, limit: 20, offset: 0 })).hits.map((h) => h.id)),
        );
      // The resistors cost 0.0011 and 0.0009 per unit below 100 units, 0.00066 and 0.00054 from 100 on.
      expect(await at(1, 0.001)).toEqual(new Set(['0603WAF1002T5E']));
      expect(await at(99, 0.001)).toEqual(new Set(['0603WAF1002T5E']));
      expect(await at(100, 0.001)).toEqual(new Set(['RC0603FR-0710KL', 'RC0603FR-074K7L', '0603WAF1002T5E']));
      expect(await at(1_000_000, 0.0006)).toEqual(new Set(['0603WAF1002T5E']));
      // Every engine answer equals the reference reading of the offers (catalog/prices.ts), with other filters too.
      const all = await engine.getParts(
        (await engine.textSearch({ text: null, filters: { status: [...PART_STATUSES] }, limit: 50, offset: 0 })).hits.map((h) => h.id),
      );
      for (const quantity of [1, 50, 100, 5000])
        for (const maxUsd of [0.0005, 0.001, 0.01, 0.05, 0.1]) {
          const expected = all
            .filter((p) => p.status === 'active' && (priceAtQuantity(priceBands(p.offers), quantity) ?? Infinity) <= maxUsd)
            .map((p) => p.mpn);
          const got = await engine.textSearch({ text: null, filters: { status: ['active'], priceAt: { quantity, maxUsd } }, limit: 50, offset: 0 });
          expect(new Set(await mpnsOf(got.hits.map((h) => h.id))), `${quantity} units at most ${maxUsd} USD`).toEqual(new Set(expected));
        }
      const facets = await engine.facets({ text: null, filters: { priceAt: { quantity: 100, maxUsd: 0.001 } } });
      expect(facets.total).toBe(3);
    });

    it('filters numeric spec ranges in SI units, whether the dump gave num or only a display string', async () => {
      const tenK = await engine.textSearch({
        text: null,
        filters: { specs: [{ name: 'Resistance', range: { gte: 5000, lte: 20000 } }] },
        limit: 10,
        offset: 0,
      });
      expect(new Set(await mpnsOf(tenK.hits.map((h) => h.id)))).toEqual(new Set(['RC0603FR-0710KL', '0603WAF1002T5E']));
      const small = await engine.textSearch({ text: null, filters: { specs: [{ name: 'Capacitance', range: { lt: 1e-6 } }] }, limit: 10, offset: 0 });
      expect(await mpnsOf(small.hits.map((h) => h.id))).toEqual(['GRM188R71H104KA93D']);
      const rated = await engine.textSearch({ text: null, filters: { specs: [{ name: 'Voltage Rated', values: ['16V', '10V'] }] }, limit: 10, offset: 0 });
      expect(new Set(await mpnsOf(rated.hits.map((h) => h.id)))).toEqual(new Set(['CL10A106KP8NNNC', 'T491A106K016AT']));
      const supply = await engine.textSearch({ text: null, filters: { specs: [{ name: 'Supply voltage', range: { lte: 31 } }] }, limit: 10, offset: 0 });
      expect(await mpnsOf(supply.hits.map((h) => h.id))).toEqual(['LM2904DT']);
    });

    it('takes a value list as written or as the same number (nums), whatever the text the part holds', async () => {
      const ids = async (specs: EngineFilters['specs'], text: string | null = null) =>
        new Set(await mpnsOf((await engine.textSearch({ text, filters: { specs }, limit: 10, offset: 0 })).hits.map((h) => h.id)));
      // "0.1uF" is no part's text; 100nF is GRM188R71H104KA93D's (a float of 0.1e-6 and 100e-9 apart)
      expect(await ids([{ name: 'Capacitance', values: ['0.1uF'], nums: [0.1 * 1e-6], numUnit: 'F' }])).toEqual(new Set(['GRM188R71H104KA93D']));
      // the same number in another unit is another value
      expect(await ids([{ name: 'Capacitance', values: [], nums: [1e-7], numUnit: 'H' }])).toEqual(new Set());
      expect(await ids([{ name: 'Capacitance', values: ['0.1uF'] }])).toEqual(new Set());
      // a number the dump gave (RC0603FR-0710KL) and one read from the text alone (0603WAF1002T5E); 4.7k is neither
      expect(await ids([{ name: 'Resistance', values: ['4.7kΩ'], nums: [1e4], numUnit: 'Ω' }])).toEqual(
        new Set(['RC0603FR-0710KL', 'RC0603FR-074K7L', '0603WAF1002T5E']),
      );
      expect(await ids([{ name: ['Voltage Rated', 'Allowable voltage'], values: [], nums: [16, 10], numUnit: 'V' }], 'capacitor')).toEqual(
        new Set(['CL10A106KP8NNNC', 'T491A106K016AT']),
      );
      // a near number is another value
      expect(await ids([{ name: 'Voltage Rated', values: [], nums: [16.0001], numUnit: 'V' }])).toEqual(new Set());
      const facets = await engine.facets({ text: null, filters: { specs: [{ name: 'Capacitance', values: [], nums: [1e-5], numUnit: 'F' }] } });
      expect(facets.total).toBe(2);
    });

    it('accepts several names for one spec condition: any of them', async () => {
      const names = ['Resistance', 'Capacitance', 'No such spec'];
      const either = await engine.textSearch({ text: null, filters: { specs: [{ name: names, range: { gte: 1e-7, lte: 20000 } }] }, limit: 10, offset: 0 });
      // the union of what each name finds alone (an unknown name adds nothing)
      const one = async (name: string) =>
        (await engine.textSearch({ text: null, filters: { specs: [{ name, range: { gte: 1e-7, lte: 20000 } }] }, limit: 10, offset: 0 })).hits.map((h) => h.id);
      expect(new Set(either.hits.map((h) => h.id))).toEqual(new Set([...(await one('Resistance')), ...(await one('Capacitance'))]));
      expect(either.total).toBeGreaterThan(0);
      const values = await engine.textSearch({
        text: null,
        filters: { specs: [{ name: ['Voltage Rated', 'Allowable voltage'], values: ['16V'] }] },
        limit: 10,
        offset: 0,
      });
      expect(await mpnsOf(values.hits.map((h) => h.id))).toEqual(['T491A106K016AT']);
    });

    it('filters category subtrees, inclusive and excluded', async () => {
      const caps = await engine.textSearch({ text: null, filters: { categories: ['capacitors'] }, limit: 10, offset: 0 });
      expect(caps.total).toBe(3);
      const tant = await engine.textSearch({ text: null, filters: { categories: ['capacitors/tantalum-capacitors'] }, limit: 10, offset: 0 });
      expect(await mpnsOf(tant.hits.map((h) => h.id))).toEqual(['T491A106K016AT']);
      const noCaps = await engine.textSearch({ text: '0603', filters: { excludeCategories: ['capacitors'] }, limit: 10, offset: 0 });
      expect(new Set(await mpnsOf(noCaps.hits.map((h) => h.id)))).toEqual(new Set(['RC0603FR-0710KL', 'RC0603FR-074K7L', '0603WAF1002T5E']));
      const prefixOnly = await engine.textSearch({ text: null, filters: { categories: ['capacitor'] }, limit: 10, offset: 0 });
      expect(prefixOnly.total).toBe(0);
    });

    it('counts facets over the whole filtered set, not the page', async () => {
      const f = await engine.facets({ text: null, filters: { categories: ['capacitors'] }, specValues: ['Voltage Rated', 'Capacitance'] });
      expect(f.total).toBe(3);
      expect(f.specNames).toMatchObject({ Capacitance: 3, 'Voltage Rated': 3, 'Temperature Coefficient': 2 });
      expect(f.specValues['Voltage Rated']!.values).toEqual([
        { value: '10V', count: 1 },
        { value: '16V', count: 1 },
        { value: '50V', count: 1 },
      ]);
      expect(f.specValues['Capacitance']!.min).toBeCloseTo(1e-7);
      expect(f.specValues['Capacitance']!.max).toBeCloseTo(1e-5);
      expect(f.specValues['Capacitance']!.unit).toBe('F');
      expect(f.manufacturers).toHaveLength(3);
      expect(f.categories).toEqual([
        { slug: 'capacitors/multilayer-ceramic-capacitors-mlcc-smd-smt', count: 2 },
        { slug: 'capacitors/tantalum-capacitors', count: 1 },
      ]);
      const text = await engine.facets({ text: 'resistor', filters: {} });
      expect(text.total).toBe(3);
      expect(text.specNames).toEqual({ Resistance: 3, Tolerance: 3, 'Power(Watts)': 3 });
    });

    it('returns nearest neighbours by cosine similarity, filters applied first', async () => {
      const q = Float32Array.from([0.1, 0, 0.05, 1]);
      const nn = await engine.knn(q, 3, {});
      expect((await mpnsOf(nn.map((h) => h.id)))[0]).toBe('TLV70033DDCR');
      expect(nn[0]!.score).toBeGreaterThan(0.9);
      expect(nn[0]!.score).toBeLessThanOrEqual(1.0001);
      const filtered = await engine.knn(q, 3, { categories: ['capacitors'] });
      expect((await mpnsOf(filtered.map((h) => h.id)))[0]).toBe('T491A106K016AT');
      expect(filtered).toHaveLength(3);
      // with records: the same neighbours, each with its record as getParts reads it
      const withRecords = await engine.knn(q, 3, { categories: ['capacitors'] }, { records: true });
      expect(withRecords.map((h) => h.id)).toEqual(filtered.map((h) => h.id));
      expect(withRecords.map((h) => h.record)).toEqual(await engine.getParts(filtered.map((h) => h.id)));
      expect(filtered.every((h) => h.record === undefined)).toBe(true);
    });

    it('reads full records in the order asked and by slug, exact then case-insensitive', async () => {
      const [a, b] = (await engine.mpnLookup({ key: 'AO3400A', mode: 'exact', limit: 1 })).concat(
        await engine.mpnLookup({ key: 'T491A106K016AT', mode: 'exact', limit: 1 }),
      );
      const parts = await engine.getParts([b!.id, 123, a!.id]);
      expect(parts.map((p) => p.mpn)).toEqual(['T491A106K016AT', 'AO3400A']);
      expect(parts[1]).toMatchObject({
        manufacturer: { name: 'Alpha & Omega Semiconductor', slug: 'alpha-and-omega-semiconductor' },
        status: 'obsolete',
        category: {
          slug: 'transistors/mosfets',
          name: 'MOSFETs',
          path: [
            { slug: 'transistors', name: 'Transistors' },
            { slug: 'transistors/mosfets', name: 'MOSFETs' },
          ],
        },
      });
      const exact = await engine.getPartBySlug('yageo', 'RC0603FR-0710KL');
      expect(exact).toMatchObject({ exact: true, part: { mpn: 'RC0603FR-0710KL' } });
      const loose = await engine.getPartBySlug('yageo', 'rc0603fr-0710kl');
      expect(loose).toMatchObject({ exact: false, part: { mpn: 'RC0603FR-0710KL' } });
      expect(await engine.getPartBySlug('yageo', 'nope')).toBeNull();
    });

    it('re-ingesting the same dump gives the same index; rollback returns to the previous version', async () => {
      const before = await engine.info();
      const again = await ingestSmall('report-2.jsonl');
      expect(again.indexed).toBe(12);
      const after = await engine.info();
      expect(after.version).not.toBe(before.version);
      expect(after.previous).toBe(before.version);
      const hits = await engine.textSearch({ text: 'dual operational amplifier', filters: {}, limit: 10, offset: 0 });
      expect(hits.total).toBe(4);
      const r = await engine.rollback();
      expect(r).toEqual({ from: after.version, to: before.version });
      expect((await engine.info()).version).toBe(before.version);
      expect((await engine.info()).parts).toBe(12);
    });
  });
}
