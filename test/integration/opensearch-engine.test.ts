/**
 * The OpenSearch adapter against a real OpenSearch (OPENSEARCH_URL, e.g. `scripts/opensearch.sh start`
 * then OPENSEARCH_URL=http://127.0.0.1:9200). Every run owns a random index prefix and deletes its
 * indices afterwards. What is specific to this adapter lives here (alias swaps, rollback, the count
 * check, bulk failures and retries); behaviour shared with SQLite is the contract suite's job, with
 * a few spot checks below.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryTree } from '../../src/catalog/categories.ts';
import { ManufacturerRegistry } from '../../src/catalog/manufacturers.ts';
import type { CatalogMeta } from '../../src/catalog/meta.ts';
import { PartNormaliser } from '../../src/catalog/normalise.ts';
import type { DumpPart, IndexedPart, PartRecord } from '../../src/catalog/part.ts';
import { createClient } from '../../src/engines/opensearch/client.ts';
import { createOpenSearchEngine } from '../../src/engines/opensearch/engine.ts';
import { mergeSegments } from '../../src/engines/opensearch/loader.ts';
import { partDocument } from '../../src/engines/opensearch/documents.ts';
import { partsIndexBody, RECORD_FIELD } from '../../src/engines/opensearch/mappings.ts';
import type { SearchEngine } from '../../src/engines/port.ts';

const OPENSEARCH_URL = process.env.OPENSEARCH_URL;
if (!OPENSEARCH_URL) {
  console.log(
    '[opensearch-engine.test] OPENSEARCH_URL is not set: skipping the OpenSearch integration tests ' +
      '(scripts/opensearch.sh start, then OPENSEARCH_URL=http://127.0.0.1:9200).',
  );
}

const T = 60_000;

function offer(stock: number, price: number) {
  return { distributor: 'Test Distributor', stock, currency: 'USD', price_breaks: [[1, price]] as [number, number][] };
}

const OP_AMPS = ['Integrated Circuits', 'Amplifiers', 'Op Amps'];
const RESISTORS = ['Passive Components', 'Resistors', 'Chip Resistors'];
const CERAMIC = ['Passive Components', 'Capacitors', 'Ceramic Capacitors'];
const TANTALUM = ['Passive Components', 'Capacitors', 'Tantalum Capacitors'];
const MCUS = ['Integrated Circuits', 'Microcontrollers'];

/** Ten parts, each with a 4-dim embedding along its family's axis. */
const DUMP: { part: DumpPart; vec: number[] }[] = [
  {
    part: {
      mpn: 'LM358DR',
      manufacturer: 'Texas Instruments',
      description: 'Dual operational amplifier, 3 V to 32 V',
      category: OP_AMPS,
      package: 'SOIC-8',
      aliases: ['LM358-DR-TI'],
      status: 'Active',
      specs: [
        { name: 'Channels', value: '2' },
        { name: 'Supply Voltage', value: '3 V to 32 V' },
      ],
      offers: [offer(1200, 0.21)],
    },
    vec: [1, 0.1, 0, 0],
  },
  {
    part: {
      mpn: 'LM358P',
      manufacturer: 'TI',
      description: 'Dual operational amplifier in DIP package',
      category: OP_AMPS,
      package: 'PDIP-8',
      status: 'Active',
      specs: [{ name: 'Channels', value: '2' }],
      offers: [offer(40, 0.45)],
    },
    vec: [0.95, 0, 0.1, 0],
  },
  {
    part: {
      mpn: 'LM324N',
      manufacturer: 'Texas Instruments',
      description: 'Quad operational amplifier',
      category: OP_AMPS,
      package: 'PDIP-14',
      status: 'NRND',
      specs: [{ name: 'Channels', value: '4' }],
      offers: [offer(0, 0.5)],
    },
    vec: [0.9, 0, 0, 0.2],
  },
  {
    part: {
      mpn: 'LM358',
      manufacturer: 'onsemi',
      description: 'Low power dual op amp',
      category: OP_AMPS,
      package: 'SOIC-8',
      status: 'Active',
      aliases: ['LM358XYZ'],
      specs: [{ name: 'Channels', value: '2' }],
      offers: [offer(500, 0.3)],
    },
    vec: [0.97, 0.05, 0.05, 0],
  },
  {
    part: {
      mpn: 'RC0603FR-0710KL',
      manufacturer: 'Yageo',
      description: 'Thick film chip resistor 10 kOhm 1%',
      category: RESISTORS,
      package: '0603',
      status: 'Active',
      specs: [
        { name: 'Resistance', value: '10 kΩ' },
        { name: 'Tolerance', value: '±1%' },
      ],
      offers: [offer(100000, 0.002)],
    },
    vec: [0, 1, 0, 0],
  },
  {
    part: {
      mpn: 'RC0603FR-071KL',
      manufacturer: 'Yageo',
      description: 'Thick film chip resistor 1 kOhm 1%',
      category: RESISTORS,
      package: '0603',
      status: 'Active',
      specs: [
        { name: 'Resistance', value: '1 kΩ' },
        { name: 'Tolerance', value: '±1%' },
      ],
      offers: [offer(80000, 0.002)],
    },
    vec: [0.05, 0.98, 0, 0],
  },
  {
    part: {
      mpn: 'GRM188R71H104KA93D',
      manufacturer: 'Murata',
      description: 'Multilayer ceramic capacitor 0.1uF 50V X7R',
      category: CERAMIC,
      package: '0603',
      status: 'Active',
      specs: [
        { name: 'Capacitance', value: '100nF' },
        { name: 'Voltage Rating', value: '50V' },
      ],
      offers: [offer(250000, 0.004)],
    },
    vec: [0, 0, 1, 0],
  },
  {
    part: {
      mpn: 'T491A106K010AT',
      manufacturer: 'KEMET',
      description: 'Tantalum capacitor 10uF 10V',
      category: TANTALUM,
      package: '1206',
      status: 'Obsolete',
      specs: [
        { name: 'Capacitance', value: '10µF' },
        { name: 'Voltage Rating', value: '10V' },
      ],
      offers: [offer(0, 0.12)],
    },
    vec: [0, 0.1, 0.95, 0],
  },
  {
    part: {
      mpn: 'MCP6002T-I/SN',
      manufacturer: 'Microchip Technology',
      description: 'Dual 1 MHz rail-to-rail op amp',
      category: OP_AMPS,
      package: 'SOIC-8',
      status: 'Active',
      aliases: ['MCP6002T-I/SN-ND'],
      specs: [
        { name: 'Channels', value: '2' },
        { name: 'Supply Voltage', value: '1.8 V to 6 V' },
      ],
      offers: [offer(3000, 0.28)],
    },
    vec: [0.9, 0.1, 0, 0.1],
  },
  {
    part: {
      mpn: 'STM32F103C8T6',
      manufacturer: 'STMicroelectronics',
      description: 'ARM Cortex-M3 microcontroller 64 KB flash',
      category: MCUS,
      package: 'LQFP-48',
      status: 'Active',
      specs: [{ name: 'Core', value: 'ARM Cortex-M3' }],
      offers: [offer(900, 2.5)],
    },
    vec: [0, 0, 0, 1],
  },
];

function build() {
  const mfrs = ManufacturerRegistry.from([{ name: 'Texas Instruments', aliases: ['TI'] }]);
  const tree = new CategoryTree();
  const normaliser = new PartNormaliser(mfrs, tree);
  const parts: IndexedPart[] = DUMP.map((d) => ({ record: normaliser.normalise(d.part), embedding: Float32Array.from(d.vec) }));
  const meta = (n: number): CatalogMeta => ({
    version: '',
    created_at: new Date().toISOString(),
    parts: n,
    embedding: { model: 'test-4d', dims: 4 },
    categories: tree.toJSON(),
    manufacturers: mfrs.toJSON(),
    lists: [],
  });
  return { parts, meta };
}

/** Deletes every index of a test prefix. */
async function dropIndices(prefix: string): Promise<void> {
  const r = await os<{ indices: { name: string }[] }>('GET', `/_resolve/index/${prefix}-*`);
  for (const i of r.indices) await os('DELETE', `/${i.name}`);
}

async function os<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${OPENSEARCH_URL}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

async function versionIndices(prefix: string): Promise<string[]> {
  const r = await os<{ indices: { name: string }[] }>('GET', `/_resolve/index/${prefix}-parts-v*`);
  return r.indices.map((i) => i.name).sort();
}

async function aliasTarget(prefix: string): Promise<string[]> {
  const r = await os<Record<string, unknown>>('GET', `/_alias/${prefix}-parts`);
  return 'error' in r ? [] : Object.keys(r);
}

/**
 * A proxy in front of OpenSearch that misbehaves on `_bulk` requests as scripted:
 * '429' answers Too Many Requests, 'reset' drops the connection, 'item429' answers with every
 * item rejected (es_rejected_execution_exception); anything else is forwarded.
 */
async function flakyProxy(target: string) {
  const script: ('429' | 'reset' | 'item429')[] = [];
  let bulkRequests = 0;
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        requests.push(`${req.method} ${req.url} ${body.toString('utf8')}`);
        if (req.url?.includes('/_bulk')) {
          bulkRequests++;
          const step = script.shift();
          if (step === 'reset') return req.socket.destroy();
          if (step === '429') {
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
            return res.end(JSON.stringify({ error: { type: 'es_rejected_execution_exception', reason: 'queue full' }, status: 429 }));
          }
          if (step === 'item429') {
            const n = body.toString('utf8').split('\n').filter(Boolean).length / 2;
            const item = { index: { status: 429, error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' } } };
            res.writeHead(200, { 'content-type': 'application/json' });
            return res.end(JSON.stringify({ errors: true, items: Array.from({ length: n }, () => item) }));
          }
        }
        const upstream = await fetch(`${target}${req.url}`, {
          method: req.method,
          headers: req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {},
          body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : body,
        });
        const text = await upstream.text();
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    script,
    bulkRequests: () => bulkRequests,
    /** Every request forwarded or answered, as "METHOD path?query body". */
    requests: () => [...requests],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!OPENSEARCH_URL)('OpenSearch engine against a real cluster', () => {
  const prefix = `pstest-${randomBytes(4).toString('hex')}`;
  const { parts, meta } = build();
  const byMpn = (mpn: string): PartRecord => parts.find((p) => p.record.mpn === mpn)!.record;
  const byId = (id: number): PartRecord => parts.find((p) => p.record.id === id)!.record;
  let engine: SearchEngine;
  let v1 = '';

  beforeAll(async () => {
    engine = createOpenSearchEngine({ url: OPENSEARCH_URL!, prefix });
    await engine.init();
    await engine.init();
    const loader = await engine.beginLoad({ embeddingDims: 4 });
    expect(await loader.write(parts.slice(0, 6))).toEqual([]);
    expect(await loader.write(parts.slice(6))).toEqual([]);
    const counts = await loader.countsBy('manufacturer');
    expect(counts.get('texas-instruments')).toBe(3);
    v1 = (await loader.finish(meta(parts.length), parts.length)).version;
  }, T);

  afterAll(async () => {
    await engine?.close();
    await dropIndices(prefix);
  }, T);

  it("reads search hits' records from its cache once most are there, and afresh after a list edit", async () => {
    const proxy = await flakyProxy(OPENSEARCH_URL!);
    const e = createOpenSearchEngine({ url: proxy.url, prefix });
    const searches = () => proxy.requests().filter((r) => r.includes('/_search'));
    const req = { text: 'amplifier', filters: {}, limit: 5, offset: 0, records: true };
    try {
      const first = await e.textSearch(req);
      expect(first.hits.length).toBeGreaterThan(1);
      for (const h of first.hits) expect(h.record).toEqual(byId(h.id));
      // Few records cached yet: the search asks for them itself (one request).
      expect(searches()).toHaveLength(1);
      expect(searches()[0]).toContain('"stored_fields":["record_json"]');
      // Asked again, the records are found in the cache, and after a few searches they are no longer asked for.
      for (let i = 0; i < 5; i++) await e.textSearch(req);
      const before = searches().length;
      const cached = await e.textSearch(req);
      expect(searches()).toHaveLength(before + 1); // no read of records
      expect(searches().at(-1)).toContain('"stored_fields":"_none_"');
      expect(cached.hits.map((h) => h.record)).toEqual(first.hits.map((h) => h.record));
      expect(Object.isFrozen(cached.hits[0]!.record)).toBe(true); // shared by every caller
      const near = await e.knn(Float32Array.from([1, 0, 0, 0]), 3, {}, { records: true });
      for (const h of near) expect(h.record).toEqual(byId(h.id));
      // A list edit rewrites the document: its record is read again (by id), with the edit.
      const id = first.hits[0]!.id;
      await e.setListMembership('lst_cache_test', [id]);
      const n = searches().length;
      const edited = await e.textSearch(req);
      expect(
        searches()
          .slice(n)
          .map((r) => r.includes('"ids"')),
      ).toEqual([false, true]);
      expect(edited.hits.find((h) => h.id === id)!.record!.lists).toContain('lst_cache_test');
      await e.setListMembership('lst_cache_test', []);
      const restored = await e.textSearch(req);
      expect(restored.hits.find((h) => h.id === id)!.record!.lists).not.toContain('lst_cache_test');
      expect(restored.hits.map((h) => h.record)).toEqual(first.hits.map((h) => h.record));
    } finally {
      await e.close();
      await proxy.close();
    }
  });

  it('makes the first load live behind the alias', async () => {
    expect(v1).toBe(`${prefix}-parts-v1`);
    expect(await aliasTarget(prefix)).toEqual([v1]);
    expect(await engine.info()).toEqual({ kind: 'opensearch', version: v1, previous: null, parts: 10, vectors: true });
    const m = await engine.meta();
    expect(m?.version).toBe(v1);
    expect(m?.parts).toBe(10);
  });

  it('looks MPN keys up exactly, by prefix (shorter key first), by substring and fuzzily', async () => {
    expect(await engine.mpnLookup({ key: 'LM358DR', mode: 'exact', limit: 5 })).toEqual([{ id: byMpn('LM358DR').id, matched: 'LM358DR', alias: false }]);
    expect(await engine.mpnLookup({ key: 'LM358DRTI', mode: 'exact', limit: 5 })).toEqual([{ id: byMpn('LM358DR').id, matched: 'LM358DRTI', alias: true }]);
    expect(await engine.mpnLookup({ key: 'LM358DRTI', mode: 'exact', limit: 5, aliases: false })).toEqual([]);
    const prefixHits = await engine.mpnLookup({ key: 'LM358', mode: 'prefix', limit: 10 });
    expect(prefixHits.map((h) => h.matched)).toEqual(['LM358', 'LM358P', 'LM358DR']);
    expect(await engine.mpnLookup({ key: 'MCP6002TISNN', mode: 'prefix', limit: 10 })).toEqual([
      { id: byMpn('MCP6002T-I/SN').id, matched: 'MCP6002TISNND', alias: true },
    ]);
    const infix = await engine.mpnLookup({ key: '358', mode: 'infix', limit: 10 });
    expect(infix.map((h) => h.matched)).toEqual(['LM358', 'LM358P', 'LM358DR']);
    expect((await engine.mpnLookup({ key: '06', mode: 'infix', limit: 10 })).map((h) => h.matched)).toEqual([
      'RC0603FR071KL',
      'RC0603FR0710KL',
      'T491A106K010AT',
    ]);
    // Keys one edit away are the answer when there are some (LM358P and LM358 are two away).
    const fuzzy = await engine.mpnLookup({ key: 'LM358DT', mode: 'fuzzy', limit: 10 });
    expect(fuzzy.map((h) => h.matched)).toEqual(['LM358DR']);
    const twoAway = await engine.mpnLookup({ key: 'LM358QT', mode: 'fuzzy', limit: 10 });
    expect(twoAway.map((h) => h.matched)).toEqual(['LM358DR', 'LM358P', 'LM358']);
    expect(await engine.mpnLookup({ key: 'LM358DR', mode: 'prefix', limit: 5, filters: { manufacturers: ['onsemi'] } })).toEqual([]);
  });

  it('searches text with OR semantics, exact totals and paging; no text sorts by stock', async () => {
    const r = await engine.textSearch({ text: 'operational amplifier', filters: {}, limit: 2, offset: 0 });
    expect(r.total).toBe(3);
    expect(r.hits).toHaveLength(2);
    const rest = await engine.textSearch({ text: 'operational amplifier', filters: {}, limit: 2, offset: 2 });
    expect(rest.hits).toHaveLength(1);
    const all = await engine.textSearch({ text: null, filters: { inStock: true }, limit: 3, offset: 0 });
    expect(all.total).toBe(8);
    expect(all.hits.map((h) => h.id)).toEqual(['GRM188R71H104KA93D', 'RC0603FR-0710KL', 'RC0603FR-071KL'].map((m) => byMpn(m).id));
    expect((await engine.textSearch({ text: '!!!', filters: {}, limit: 3, offset: 0 })).total).toBe(0);
    // Sentence-final words and dotted values are tokens: "0.1uF", "amplifier".
    expect((await engine.textSearch({ text: '0.1uF', filters: {}, limit: 3, offset: 0 })).hits[0]?.id).toBe(byMpn('GRM188R71H104KA93D').id);
  });

  it('applies category subtrees, spec values and ranges, price and status filters', async () => {
    const count = async (filters: Parameters<SearchEngine['textSearch']>[0]['filters']) =>
      (await engine.textSearch({ text: null, filters, limit: 0, offset: 0 })).total;
    expect(await count({ categories: ['passive-components'] })).toBe(4);
    expect(await count({ categories: ['passive-components/capacitors'], excludeCategories: ['passive-components/capacitors/tantalum-capacitors'] })).toBe(1);
    expect(await count({ specs: [{ name: 'Channels', values: ['2'] }] })).toBe(4);
    expect(await count({ specs: [{ name: 'Supply Voltage', range: { gte: 2, lte: 40 } }] })).toBe(1);
    expect(await count({ specs: [{ name: 'Resistance', range: { gt: 1000 } }] })).toBe(1);
    expect(await count({ status: ['obsolete', 'nrnd'] })).toBe(2);
    expect(await count({ maxPriceUsd: 0.01 })).toBe(3);
    expect(await count({ manufacturers: ['texas-instruments'], inStock: true })).toBe(2);
  });

  it('ranks by cosine similarity with the filters applied inside the kNN search', async () => {
    const hits = await engine.knn(Float32Array.from([1, 0, 0, 0]), 3, {});
    // cos([1,0,0,0], [0.97,0.05,0.05,0]) = 0.9974 beats LM358DR's 0.9950.
    expect(hits.map((h) => h.id)).toEqual(['LM358', 'LM358DR', 'LM358P'].map((m) => byMpn(m).id));
    expect(hits[0]!.score).toBeGreaterThan(0.99);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    const filtered = await engine.knn(Float32Array.from([1, 0, 0, 0]), 5, { categories: ['passive-components/resistors'] });
    expect(filtered.map((h) => h.id).sort()).toEqual([byMpn('RC0603FR-0710KL').id, byMpn('RC0603FR-071KL').id].sort());
    expect(filtered[0]!.score).toBeCloseTo(0.05 / Math.hypot(0.05, 0.98), 4);
  });

  it('computes facets over the whole filtered set', async () => {
    const f = await engine.facets({ text: null, filters: { categories: ['passive-components'] }, specValues: ['Capacitance', 'Resistance'], size: 5 });
    expect(f.total).toBe(4);
    expect(f.specNames).toEqual({ Capacitance: 2, Resistance: 2, Tolerance: 2, 'Voltage Rating': 2 });
    expect(f.specValues.Resistance).toEqual({
      values: [
        { value: '1 kΩ', count: 1 },
        { value: '10 kΩ', count: 1 },
      ],
      min: 1000,
      max: 10000,
      unit: 'Ω',
    });
    expect(f.specValues.Capacitance?.min).toBeCloseTo(1e-7);
    expect(f.manufacturers).toEqual([
      { slug: 'yageo', count: 2 },
      { slug: 'kemet', count: 1 },
      { slug: 'murata', count: 1 },
    ]);
    expect(f.categories).toEqual([
      { slug: 'passive-components/resistors/chip-resistors', count: 2 },
      { slug: 'passive-components/capacitors/ceramic-capacitors', count: 1 },
      { slug: 'passive-components/capacitors/tantalum-capacitors', count: 1 },
    ]);
  });

  it('returns records in the order asked and finds parts by slug, exactly or ignoring case', async () => {
    const a = byMpn('STM32F103C8T6');
    const b = byMpn('LM358P');
    expect((await engine.getParts([a.id, 12345, b.id])).map((p) => p.mpn)).toEqual(['STM32F103C8T6', 'LM358P']);
    const mcp = byMpn('MCP6002T-I/SN');
    expect(await engine.getPartBySlug(mcp.manufacturer.slug, 'MCP6002T-I_SN')).toEqual({ part: mcp, exact: true });
    expect(await engine.getPartBySlug(mcp.manufacturer.slug, 'mcp6002t-i_sn')).toEqual({ part: mcp, exact: false });
    expect(await engine.getPartBySlug('yageo', 'MCP6002T-I_SN')).toBeNull();
  });

  it(
    'updates list memberships in place',
    async () => {
      const ids = ['LM358DR', 'LM358P'].map((m) => byMpn(m).id);
      await engine.setListMembership('lst_test', ids);
      expect((await engine.textSearch({ text: null, filters: { lists: ['lst_test'] }, limit: 10, offset: 0 })).total).toBe(2);
      await engine.setListMembership('lst_test', [ids[1]!]);
      const r = await engine.textSearch({ text: null, filters: { lists: ['lst_test'] }, limit: 10, offset: 0 });
      expect(r.hits.map((h) => h.id)).toEqual([ids[1]]);
      expect((await engine.getParts([ids[0]!, ids[1]!])).map((p) => p.lists)).toEqual([[], ['lst_test']]);
    },
    T,
  );

  it(
    'leaves the alias untouched when the count check fails',
    async () => {
      const loader = await engine.beginLoad({ embeddingDims: 4 });
      await loader.write(parts.slice(0, 3));
      await expect(loader.finish(meta(4), 4)).rejects.toThrow(/holds 3 parts, expected 4/);
      expect(await aliasTarget(prefix)).toEqual([v1]);
      expect((await engine.info()).version).toBe(v1);
      await loader.abort();
      expect(await versionIndices(prefix)).toEqual([v1]);
    },
    T,
  );

  it(
    'reports records OpenSearch rejects by id, MPN and manufacturer, and loads the rest',
    async () => {
      const loader = await engine.beginLoad({ embeddingDims: 4 });
      const bad: IndexedPart = { record: parts[4]!.record, embedding: Float32Array.from([1, 2, 3]) };
      const failures = await loader.write([parts[0]!, bad, parts[1]!]);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ id: bad.record.id, mpn: 'RC0603FR-0710KL', manufacturer: 'Yageo' });
      expect(failures[0]!.reason).toMatch(/mapper_parsing_exception|dimension/i);
      await expect(loader.write([bad])).rejects.toThrow(/RC0603FR-0710KL/);
      await loader.abort();
      expect(await versionIndices(prefix)).toEqual([v1]);
    },
    T,
  );

  it(
    'retries bulk requests on 429 and connection resets, and items rejected with 429',
    async () => {
      const proxy = await flakyProxy(OPENSEARCH_URL!);
      // Loaded from scratch: a version derived from the live one would send none of these unchanged parts.
      const flaky = createOpenSearchEngine({ url: proxy.url, prefix, client: { baseDelayMs: 5, maxDelayMs: 20 }, deriveVersions: false });
      try {
        const loader = await flaky.beginLoad({ embeddingDims: 4 });
        // One part per write: one _bulk request per attempt.
        proxy.script.push('429', 'reset');
        expect(await loader.write(parts.slice(0, 1))).toEqual([]);
        expect(proxy.bulkRequests()).toBe(3);
        proxy.script.push('item429');
        expect(await loader.write(parts.slice(1, 2))).toEqual([]);
        expect(proxy.bulkRequests()).toBe(5);
        expect(await loader.write(parts.slice(2))).toEqual([]);
        const counts = await loader.countsBy('category');
        expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(10);
        await loader.abort();
      } finally {
        await flaky.close();
        await proxy.close();
      }
      expect(await versionIndices(prefix)).toEqual([v1]);
    },
    T,
  );

  it(
    'lets a later record with the same id replace an earlier one, within and across batches',
    async () => {
      const loader = await engine.beginLoad({ embeddingDims: 4 });
      const first = parts[0]!;
      const renamed = (description: string): IndexedPart => ({ record: { ...first.record, description }, embedding: first.embedding });
      expect(await loader.write([renamed('first copy'), ...parts.slice(1, 4), renamed('second copy')])).toEqual([]);
      expect(await loader.write([renamed('third copy')])).toEqual([]);
      await expect(loader.finish(meta(4), 4)).resolves.toMatchObject({ count: 4 });
      expect((await engine.getParts([first.record.id]))[0]?.description).toBe('third copy');
      expect((await engine.textSearch({ text: 'copy', filters: {}, limit: 5, offset: 0 })).total).toBe(1);
      // Back to the full catalogue for the next test.
      await engine.rollback();
      expect((await engine.info()).version).toBe(v1);
    },
    T,
  );

  it(
    'swaps the alias to a new version, keeps one previous version and rolls back',
    async () => {
      // This engine remembers that the live version has vectors; another process (a second engine) then
      // makes a lexical-only version live: kNN answers no hits (the field is unmapped), it does not fail.
      expect(await engine.knn(Float32Array.from([1, 0, 0, 0]), 3, {})).toHaveLength(3);
      const other = createOpenSearchEngine({ url: OPENSEARCH_URL!, prefix });
      const loader = await other.beginLoad({ embeddingDims: null });
      const rest = parts.slice(1);
      expect(await loader.write(rest)).toEqual([]);
      const { version: v2, count } = await loader.finish(meta(rest.length), rest.length);
      await other.close();
      expect(await engine.knn(Float32Array.from([1, 0, 0, 0]), 3, {})).toEqual([]);
      expect(count).toBe(9);
      expect(v2).not.toBe(v1);
      expect(await aliasTarget(prefix)).toEqual([v2]);
      expect(await engine.info()).toEqual({ kind: 'opensearch', version: v2, previous: v1, parts: 9, vectors: false });
      expect((await engine.meta())?.version).toBe(v2);
      expect(await engine.knn(Float32Array.from([1, 0, 0, 0]), 3, {})).toEqual([]);
      expect(await engine.mpnLookup({ key: 'LM358DR', mode: 'exact', limit: 5 })).toEqual([]);
      // A lexical-only version keeps the record in _source (no stored copy); a version with vectors stores it.
      const fields = async (v: string) =>
        Object.keys(
          Object.values(await os<Record<string, { mappings: { properties: Record<string, unknown> } }>>('GET', `/${v}/_mapping`))[0]!.mappings.properties,
        ).filter((f) => f.startsWith('record'));
      expect(await fields(v2)).toEqual(['record']);
      expect(await fields(v1)).toEqual(['record_json']);
      const hits = (await engine.textSearch({ text: 'amplifier', filters: {}, limit: 5, offset: 0, records: true })).hits;
      expect(hits.length).toBeGreaterThan(0);
      for (const h of hits) expect(h.record).toEqual(rest.find((p) => p.record.id === h.id)!.record);

      expect(await engine.rollback()).toEqual({ from: v2, to: v1 });
      expect(await aliasTarget(prefix)).toEqual([v1]);
      expect(await engine.info()).toMatchObject({ version: v1, previous: v2, parts: 10, vectors: true });
      expect(await engine.knn(Float32Array.from([1, 0, 0, 0]), 3, {})).toHaveLength(3); // the rollback forgot "no vectors"
      expect((await engine.meta())?.version).toBe(v1);
      expect(await engine.mpnLookup({ key: 'LM358DR', mode: 'exact', limit: 5 })).toHaveLength(1);

      // A new load replaces v1's successor as "previous": v2 goes, v1 stays for rollback.
      const again = await engine.beginLoad({ embeddingDims: 4 });
      await again.write(parts);
      const { version: v3 } = await again.finish(meta(parts.length), parts.length);
      expect(await versionIndices(prefix)).toEqual([v1, v3].sort());
      expect(await engine.info()).toMatchObject({ version: v3, previous: v1 });
      const saved = { ...meta(parts.length), lists: [] };
      await engine.saveMeta(saved);
      expect((await engine.meta())?.version).toBe(v3);
    },
    T,
  );
});

describe.skipIf(!OPENSEARCH_URL)('OpenSearch engine: versions loaded before the stored record (record in _source)', () => {
  const prefix = `pstest-${randomBytes(4).toString('hex')}`;
  const { parts } = build();
  let engine: SearchEngine;

  beforeAll(async () => {
    // A version in the old shape: the record as a disabled object in _source, no record_json field.
    const body = partsIndexBody(4);
    delete body.mappings.properties[RECORD_FIELD];
    body.mappings.properties.record = { type: 'object', enabled: false };
    const index = `${prefix}-parts-v1`;
    await os('PUT', `/${index}`, { ...body, settings: { ...body.settings, index: { ...body.settings.index, refresh_interval: '1s' } } });
    const lines = parts.flatMap((p) => {
      const doc = partDocument(p.record, p.embedding, true);
      delete doc[RECORD_FIELD];
      return [JSON.stringify({ index: { _id: String(p.record.id) } }), JSON.stringify({ ...doc, record: p.record })];
    });
    const res = await fetch(`${OPENSEARCH_URL}/${index}/_bulk?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: `${lines.join('\n')}\n`,
    });
    const bulk = (await res.json()) as { errors?: boolean };
    expect(bulk.errors, JSON.stringify(bulk).slice(0, 500)).toBe(false);
    await os('POST', '/_aliases', { actions: [{ add: { index, alias: `${prefix}-parts` } }] });
    engine = createOpenSearchEngine({ url: OPENSEARCH_URL!, prefix });
  }, T);

  afterAll(async () => {
    await engine?.close();
    await dropIndices(prefix);
  }, T);

  it('still reads records from searches, kNN, getParts and by slug', async () => {
    const byId = new Map(parts.map((p) => [p.record.id, p.record]));
    const text = await engine.textSearch({ text: 'amplifier', filters: {}, limit: 5, offset: 0, records: true });
    expect(text.hits.length).toBeGreaterThan(0);
    for (const h of text.hits) expect(h.record).toEqual(byId.get(h.id));
    const near = await engine.knn(Float32Array.from([1, 0, 0, 0]), 3, {}, { records: true });
    expect(near).toHaveLength(3);
    for (const h of near) expect(h.record).toEqual(byId.get(h.id));
    const ids = parts.slice(0, 4).map((p) => p.record.id);
    expect(await engine.getParts(ids)).toEqual(ids.map((id) => byId.get(id)));
    const first = parts[0]!.record;
    expect((await engine.getPartBySlug(first.manufacturer.slug, first.mpn_slug))?.part).toEqual(first);
  });

  it('gives list ids sorted after list edits, as the other shapes do', async () => {
    const id = parts[0]!.record.id;
    await engine.setListMembership('lst_z', [id]);
    await engine.setListMembership('lst_a', [id]);
    expect((await engine.getParts([id]))[0]!.lists).toEqual(['lst_a', 'lst_z']);
    const hit = (await engine.textSearch({ text: null, filters: { lists: ['lst_a'] }, limit: 5, offset: 0, records: true })).hits[0]!;
    expect(hit.record!.lists).toEqual(['lst_a', 'lst_z']);
  });
});

describe.skipIf(!OPENSEARCH_URL)('OpenSearch: a loaded version is merged before it goes live', () => {
  const prefix = `pstest-${randomBytes(4).toString('hex')}`;
  afterAll(() => dropIndices(prefix), T);

  const segments = async (index: string) => (await os<{ segment: string }[]>('GET', `/_cat/segments/${index}?format=json&h=segment`)).length;

  it(
    'merges an index written in several refreshes into one segment, and searches see all of it',
    async () => {
      const index = `${prefix}-merge`;
      await os('PUT', `/${index}`, { settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: -1 } });
      for (let i = 0; i < 4; i++) {
        await os('PUT', `/${index}/_doc/${i}`, { n: i });
        await os('POST', `/${index}/_refresh`);
      }
      expect(await segments(index)).toBe(4);
      const client = createClient(OPENSEARCH_URL!);
      try {
        await mergeSegments(client, index, 1);
      } finally {
        client.close();
      }
      expect(await segments(index)).toBe(1);
      expect((await os<{ count: number }>('GET', `/${index}/_count`)).count).toBe(4);
    },
    T,
  );

  it(
    'merges what a load wrote when it finishes (mergeSegments 1, the default), not with 0',
    async () => {
      const { parts, meta } = build();
      for (const merge of [0, 1]) {
        const p = `${prefix}-m${merge}`;
        const engine = createOpenSearchEngine({ url: OPENSEARCH_URL!, prefix: p, mergeSegments: merge });
        try {
          await engine.init();
          const loader = await engine.beginLoad({ embeddingDims: 4 });
          expect(await loader.write(parts.slice(0, 5))).toEqual([]);
          await os('POST', `/${loader.version}/_refresh`); // a second segment for what follows
          expect(await loader.write(parts.slice(5))).toEqual([]);
          const { version } = await loader.finish(meta(parts.length), parts.length);
          const n = await segments(version);
          if (merge === 0) expect(n).toBeGreaterThan(1);
          else expect(n).toBe(1);
          expect((await engine.info()).parts).toBe(parts.length);
        } finally {
          await engine.close();
          await dropIndices(p);
        }
      }
    },
    T,
  );
});

describe.skipIf(!OPENSEARCH_URL)('OpenSearch: a version name used again after a wipe', () => {
  const prefix = `pstest-${randomBytes(4).toString('hex')}`;
  afterAll(() => dropIndices(prefix), T);

  it(
    "does not answer the old index's cached records for the new index of the same name",
    async () => {
      const { parts, meta } = build();
      const load = async (engine: SearchEngine, ps: IndexedPart[]) => {
        await engine.init();
        const loader = await engine.beginLoad({ embeddingDims: 4 });
        expect(await loader.write(ps)).toEqual([]);
        return (await loader.finish(meta(ps.length), ps.length)).version;
      };
      const api = createOpenSearchEngine({ url: OPENSEARCH_URL!, prefix });
      const loaderEngine = createOpenSearchEngine({ url: OPENSEARCH_URL!, prefix });
      const req = { text: 'amplifier', filters: {}, limit: 5, offset: 0, records: true };
      try {
        const first = await load(loaderEngine, parts);
        // Searched often enough, the API process answers these hits' records from its cache.
        for (let i = 0; i < 8; i++) await api.textSearch(req);
        const before = await api.textSearch(req);
        expect(before.hits.length).toBeGreaterThan(1);
        for (const h of before.hits) expect(h.record!.description).not.toMatch(/^V2 /);
        // Everything deleted (the meta index too), then the same parts loaded again in the same order with new
        // descriptions: the version has the same name, and its documents the same ids and sequence numbers.
        await dropIndices(prefix);
        const v2 = parts.map((p) => ({ ...p, record: { ...p.record, description: `V2 ${p.record.description}` } }));
        expect(await load(loaderEngine, v2)).toBe(first);
        await new Promise((r) => setTimeout(r, 1100)); // the API process reads the indices' UUIDs again at most once a second
        await api.textSearch(req); // notices the new index (beside this search)
        await new Promise((r) => setTimeout(r, 200));
        const after = await api.textSearch(req);
        expect(after.hits.map((h) => h.id)).toEqual(before.hits.map((h) => h.id));
        for (const h of after.hits) expect(h.record!.description).toMatch(/^V2 /);
      } finally {
        await api.close();
        await loaderEngine.close();
      }
    },
    T,
  );
});

describe.skipIf(!OPENSEARCH_URL)('OpenSearch: a version derived from the live one', () => {
  const prefix = `pstest-${randomBytes(4).toString('hex')}`;
  afterAll(() => dropIndices(prefix), T);
  /** Documents OpenSearch indexed into an index since it was created (a clone starts at 0). */
  const indexed = async (index: string) =>
    (await os<{ indices: Record<string, { primaries: { indexing: { index_total: number } } }> }>('GET', `/${index}/_stats/indexing`)).indices[index]!.primaries
      .indexing.index_total;

  it(
    'indexes nothing for the same parts, only the changed ones for a changed dump, and drops the parts the dump lost',
    async () => {
      const { parts, meta } = build();
      const engine = createOpenSearchEngine({ url: OPENSEARCH_URL!, prefix });
      const load = async (ps: IndexedPart[]) => {
        const loader = await engine.beginLoad({ embeddingDims: 4 });
        for (let i = 0; i < ps.length; i += 4) expect(await loader.write(ps.slice(i, i + 4))).toEqual([]);
        return loader.finish(meta(ps.length), ps.length);
      };
      try {
        await engine.init();
        const v1 = await load(parts);
        expect(await indexed(v1.version)).toBe(parts.length);

        const v2 = await load(parts);
        expect(v2).toMatchObject({ count: parts.length });
        expect(await indexed(v2.version)).toBe(0);
        expect((await engine.getParts(parts.map((p) => p.record.id))).map((r) => r.description)).toEqual(parts.map((p) => p.record.description));
        // The live version takes writes again (its write block was lifted after the clone). The list edit
        // voids the part's hash: the next version indexes it again, though its new record equals the old one.
        await engine.setListMembership('lst_derived', [parts[2]!.record.id]);

        // One part changed, one gone: the derived version indexes the one and deletes the other.
        const [changed, gone, ...same] = parts;
        const edited: IndexedPart = {
          record: { ...changed!.record, description: 'Revised description' },
          embedding: Float32Array.from([-0.5, -0.5, -0.5, -0.5]),
        };
        const v3 = await load([edited, ...same]);
        expect(v3).toMatchObject({ count: parts.length - 1 });
        expect(await indexed(v3.version)).toBe(2);
        expect((await engine.getParts([parts[2]!.record.id]))[0]?.lists).toEqual([]);
        expect(await engine.getParts([changed!.record.id, gone!.record.id])).toEqual([expect.objectContaining({ description: 'Revised description' })]);
        const [nearest] = await engine.knn(Float32Array.from([-0.5, -0.5, -0.5, -0.5]), 1, {});
        expect(nearest).toMatchObject({ id: changed!.record.id });
        expect(await engine.rollback()).toEqual({ from: v3.version, to: v2.version });
        expect((await engine.getParts([parts[2]!.record.id]))[0]?.lists).toEqual(['lst_derived']);
        expect(await engine.getParts([gone!.record.id])).toHaveLength(1);
      } finally {
        await engine.close();
      }
    },
    T,
  );
});
