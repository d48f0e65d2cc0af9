/**
 * /graphql (the Supply schema) over the real HTTP server, SQLite accounts and the small fixture catalogue,
 * on each engine: what the sup* queries answer (the same parts as REST), the filters and aggregations of
 * the Supply API, metering per part returned with capped results and warnings, the depth and cost
 * limits, and every error in GraphQL's form with the catalogue code.
 */
import { getIntrospectionQuery } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { MAX_EXPENSIVE } from '../../src/http/routes/graphql.ts';
import { API_ENGINES, useTestApi } from '../support/api.ts';

describe.each(API_ENGINES)('GraphQL on %s', (engineKind) => {
  const t = useTestApi(engineKind, { CURRENCY_RATES: 'EUR=0.9' });
  const gql = async (query: string, variables?: Record<string, unknown>, secret: string | null = t.secret) => {
    const res = await fetch(`${t.api.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(secret ? { Authorization: `Bearer ${secret}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const rest = async (p: string, body?: unknown, secret = t.secret) => {
    const res = body === undefined ? await t.api.get(p, secret) : await t.api.post(p, body, secret);
    return (await res.json()) as any;
  };
  const usageOf = async (secret: string) => (await rest('/v1/usage', undefined, secret)).usage.graphql_parts;

  it('supSearchMpn finds what GET /v1/parts/search finds, in order, and charges one unit per part in results', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const r = await gql('{ supSearchMpn(q: "LM358D") { hits total results { description part { id mpn } } } }', undefined, secret);
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const expected = await rest('/v1/parts/search?mpn=LM358D');
    const s = r.body.data.supSearchMpn;
    expect(s.results.map((x: any) => x.part)).toEqual(expected.results.map((p: any) => ({ id: String(p.id), mpn: p.mpn })));
    expect([s.hits, s.total]).toEqual([expected.hits, expected.hits]);
    expect(r.headers.get('x-ratelimit-limit')).toBe('60');
    expect(await usageOf(secret)).toMatchObject({ units: expected.hits });
  });

  it('shows a part as the Supply API does: company, category, specs with attributes, sellers, offers and prices', async () => {
    const r = await gql(`{ supSearchMpn(q: "LM358DR", limit: 1) { results { part {
        _cacheId id v3uid name mpn genericMpn slug octopartUrl shortDescription akaMpns totalAvail avgAvail
        manufacturer { id name slug aliases isVerified homepageUrl }
        category { id parentId name path numParts ancestors { name } }
        specs { attribute { shortname name group } displayValue value units }
        bestDatasheet { url mimeType creditString } documentCollections { name documents { url } }
        medianPrice1000 { quantity price currency convertedPrice convertedCurrency }
        sellers { company { name slug } isAuthorized isBroker country offers { sku inventoryLevel moq packaging updated clickUrl prices { quantity price currency } } }
        counts cad { has3dModel } extras { partId } similarParts { mpn } } } } }`);
    expect(r.body.errors).toBeUndefined();
    const p = r.body.data.supSearchMpn.results[0].part;
    const rec = (await rest('/v1/parts/search?mpn=LM358DR')).results[0];
    expect(p).toMatchObject({
      _cacheId: `part:${rec.id}`,
      id: String(rec.id),
      v3uid: String(rec.id),
      name: 'Texas Instruments LM358DR',
      mpn: 'LM358DR',
      genericMpn: 'LM358DR',
      slug: rec.slug,
      octopartUrl: `${t.api.url}/v1/parts/${rec.slug}`,
      shortDescription: rec.description,
      manufacturer: { id: String(rec.manufacturer.id), name: 'Texas Instruments', slug: 'texas-instruments', isVerified: false, homepageUrl: null },
      category: {
        parentId: expect.stringMatching(/^\d+$/),
        name: 'Operational Amplifiers',
        path: 'amplifiers/operational-amplifiers',
        ancestors: [{ name: 'Amplifiers' }],
      },
      cad: null,
      extras: null,
    });
    expect(p.manufacturer.aliases).toContain('TI');
    // Stored specs, then the package and the lifecycle status, as the Supply API has them.
    expect(p.specs.slice(-2)).toEqual([
      { attribute: { shortname: 'case_package', name: 'Case/Package', group: 'Physical' }, displayValue: 'SOIC-8', value: 'SOIC-8', units: '' },
      {
        attribute: { shortname: 'lifecyclestatus', name: 'Lifecycle Status', group: 'Compliance' },
        displayValue: 'Production',
        value: 'Production',
        units: '',
      },
    ]);
    expect(p.specs.length).toBe(rec.specs.length + 2);
    const offer = rec.offers[0];
    expect(p.sellers).toEqual([
      {
        company: { name: offer.distributor, slug: offer.distributor.toLowerCase() },
        isAuthorized: true,
        isBroker: false,
        country: null,
        offers: [
          {
            sku: offer.sku,
            inventoryLevel: offer.stock,
            moq: offer.moq ?? null,
            packaging: offer.packaging ?? null,
            updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
            clickUrl: p.octopartUrl,
            prices: offer.price_breaks.map(([quantity, price]: number[]) => ({ quantity, price, currency: 'USD' })),
          },
        ],
      },
    ]);
    expect(p.totalAvail).toBe(offer.stock);
    expect(p.medianPrice1000).toMatchObject({ quantity: 1000, currency: 'USD', convertedCurrency: 'USD' });
    expect(p.counts).toMatchObject({ specs: rec.specs.length, offers: 1, sellers: 1, similar_parts: p.similarParts.length });
    expect(p.similarParts.map((x: any) => x.mpn)).not.toContain('LM358DR');
  });

  it('converts prices with the configured rate table and says when it cannot', async () => {
    const r =
      await gql(`{ eur: supSearchMpn(q: "LM358DR", limit: 1, currency: "EUR") { warnings results { part { medianPrice1000 { price convertedPrice convertedCurrency conversionRate } } } }
        jpy: supSearchMpn(q: "LM358DR", limit: 1, currency: "JPY") { warnings results { part { sellers { offers { prices { price convertedPrice convertedCurrency } } } } } } }`);
    expect(r.body.errors).toBeUndefined();
    const eur = r.body.data.eur.results[0].part.medianPrice1000;
    expect(eur).toEqual({ price: eur.price, convertedPrice: Math.round(eur.price * 0.9 * 1e6) / 1e6, convertedCurrency: 'EUR', conversionRate: 0.9 });
    expect(r.body.data.eur.warnings).toEqual([]);
    const jpy = r.body.data.jpy.results[0].part.sellers[0].offers[0].prices[0];
    expect(jpy).toEqual({ price: jpy.price, convertedPrice: jpy.price, convertedCurrency: 'USD' });
    expect(r.body.data.jpy.warnings).toEqual([expect.stringMatching(/No exchange rate for JPY/)]);
    expect(r.body.extensions.warnings).toEqual(r.body.data.jpy.warnings);
  });

  it('filters by attribute shortnames (values, SI ranges, the package), manufacturer_id and category_id, and says what it applied', async () => {
    const ids = await gql('{ supManufacturers(slugs: ["yageo"]) { id } supCategories(paths: ["resistors"]) { id } }');
    const yageo = ids.body.data.supManufacturers[0].id;
    const resistors = ids.body.data.supCategories[0].id;
    const r = await gql(
      `query($f: Map) { supSearch(filters: $f) { hits results { part { mpn } } appliedFilters { shortname name values displayValues } appliedCategory { name } warnings } }`,
      { f: { resistance: ['(5000__20000)'], case_package: '0603', category_id: [resistors], nope: ['1'] } },
    );
    expect(r.body.errors).toBeUndefined();
    const s = r.body.data.supSearch;
    expect(new Set(s.results.map((x: any) => x.part.mpn))).toEqual(new Set(['RC0603FR-0710KL', '0603WAF1002T5E']));
    expect(s.appliedFilters).toEqual([
      { shortname: 'resistance', name: 'Resistance', values: ['(5000__20000)'], displayValues: ['(5000__20000)'] },
      { shortname: 'case_package', name: 'Case/Package', values: ['0603'], displayValues: ['0603'] },
      { shortname: 'category_id', name: 'Category', values: [resistors], displayValues: ['Resistors'] },
    ]);
    expect(s.appliedCategory).toEqual({ name: 'Resistors' });
    expect(s.warnings).toEqual([expect.stringMatching(/filters.nope was ignored/)]);
    const byMaker = await gql(`{ supSearch(filters: {manufacturer_id: ["${yageo}"], resistance: ["4700"]}) { results { part { mpn } } } }`);
    expect(byMaker.body.data.supSearch.results).toEqual([{ part: { mpn: 'RC0603FR-074K7L' } }]);
    const unknown = await gql('{ supSearch(filters: {manufacturer_id: ["1"]}) { hits warnings } }');
    expect(unknown.body.data.supSearch).toEqual({ hits: 0, warnings: [expect.stringMatching(/no manufacturer has id 1/)] });
    const bad = await gql('{ supSearch(filters: {resistance: ["(abc__1)"]}) { hits } }');
    expect(bad.body.errors[0]).toMatchObject({ path: ['supSearch'], extensions: { code: 'validation_error', detail: [{ loc: ['filters', 'resistance'] }] } });
  });

  it('aggregates over the whole set, not the page: manufacturers, categories, spec values, stock; free', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const r = await gql(
      `{ supSearch(q: "0603", limit: 1) { hits
          manufacturerAgg(size: 10) { company { id name } count } categoryAgg { category { path } count }
          specAggs(attributeNames: ["resistance", "capacitance"], size: 5) { attribute { shortname } buckets { displayValue floatValue count } min max displayMin displayMax units }
          inStockAgg { isInStock count } suggestedFilters { shortname } allFilters { shortname } suggestedCategories { count } } }`,
      undefined,
      secret,
    );
    expect(r.body.errors).toBeUndefined();
    const s = r.body.data.supSearch;
    const facets = await rest('/v1/parts/search/facets', {
      query: '0603',
      filters: { status: ['active', 'engineering_sample', 'nrnd', 'ltb', 'obsolete', 'unknown'] },
    });
    expect(s.hits).toBe(facets.total);
    expect(s.manufacturerAgg.map((b: any) => [b.company.name, b.count])).toEqual(facets.manufacturers.map((m: any) => [m.name, m.count]));
    expect(s.categoryAgg.reduce((a: number, b: any) => a + b.count, 0)).toBe(facets.total);
    const resistance = s.specAggs.find((a: any) => a.attribute.shortname === 'resistance');
    expect(resistance).toMatchObject({ min: 4700, max: 10000, displayMin: '4.7kΩ', displayMax: '10kΩ', units: 'Ω' });
    expect(resistance.buckets).toContainEqual({ displayValue: '10kΩ', floatValue: 10000, count: 2 });
    expect(s.inStockAgg.reduce((a: number, b: any) => a + b.count, 0)).toBe(s.hits);
    expect(s.allFilters.map((a: any) => a.shortname)).toEqual(expect.arrayContaining(['resistance', 'capacitance']));
    expect(s.suggestedCategories.length).toBeGreaterThan(0);
    expect(await usageOf(secret)).toMatchObject({ units: 0 });
  });

  it('supMultiMatch: one line per query with its reference; a known manufacturer narrows; a SKU-only line says why it matched nothing', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const r = await gql(
      `query($q: [SupPartMatchQuery!]!) { supMultiMatch(queries: $q) { reference hits parts { mpn manufacturer { name } } error errorString } }`,
      {
        q: [
          { mpn: 'LM358DR', reference: 'U1' },
          { mpn: 'lm358-dr', manufacturer: 'TI', reference: 'U2', limit: 1 },
          { sku: 'C7950', reference: 'U3' },
          { mpnOrSku: 'GRM188R71H104KA93D', start: 1, reference: 'C1' },
        ],
      },
      secret,
    );
    expect(r.body.errors).toBeUndefined();
    const [u1, u2, u3, c1] = r.body.data.supMultiMatch;
    expect(u1.reference).toBe('U1');
    expect(u1.parts[0]).toEqual({ mpn: 'LM358DR', manufacturer: { name: 'Texas Instruments' } });
    expect(u1.parts.length).toBe(u1.hits);
    expect(u2).toMatchObject({ reference: 'U2', parts: [{ mpn: 'LM358DR', manufacturer: { name: 'Texas Instruments' } }], error: null });
    expect(u2.hits).toBeGreaterThanOrEqual(1);
    expect(u3).toEqual({ reference: 'U3', hits: 0, parts: [], error: expect.stringMatching(/by MPN, not by seller SKU/), errorString: u3.error });
    expect(c1).toMatchObject({ reference: 'C1', hits: 1, parts: [] });
    expect(await usageOf(secret)).toMatchObject({ units: u1.parts.length + 1 });
  });

  it('supParts: by id, in order, null when unknown, charging the found; the free lookups answer from the catalogue', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const [lm] = (await rest('/v1/parts/search?mpn=LM358DR')).results;
    const r = await gql(`{ supParts(ids: ["${lm.id}", "12345", "${lm.id}"]) { mpn } }`, undefined, secret);
    expect(r.body.data.supParts).toEqual([{ mpn: 'LM358DR' }, null, { mpn: 'LM358DR' }]);
    expect(await usageOf(secret)).toMatchObject({ units: 2 });
    const free = await t.api.key({ capabilities: ['parts:read'], subscription: false });
    const l = await gql(
      `{ roots: supCategories(paths: ["amplifiers", "/resistors/"]) { name path numParts children { name } }
         all: supCategories { id } q: supCategories(q: "mlcc") { path }
         m: supManufacturers(slugs: ["texas-instruments", "nope"]) { id name slug aliases } mq: supManufacturers(q: "TI") { slug }
         attrs: supAttributes { shortname name valueType unitsSymbol } sellers: supSellers { id name slug } }`,
      undefined,
      free.secret,
    );
    expect(l.status).toBe(200);
    expect(l.body.errors).toBeUndefined();
    const cats = (await rest('/v1/categories?all=true', undefined, free.secret)).categories;
    expect(l.body.data.all).toHaveLength(cats.length);
    expect(l.body.data.roots[0]).toEqual({
      name: 'Amplifiers',
      path: 'amplifiers',
      numParts: 4,
      children: [{ name: 'Operational Amplifiers' }, { name: 'Comparators' }],
    });
    expect(l.body.data.roots[1].path).toBe('resistors');
    expect(l.body.data.q[0].path).toMatch(/multilayer-ceramic/);
    expect(l.body.data.m).toEqual([
      { id: expect.stringMatching(/^\d+$/), name: 'Texas Instruments', slug: 'texas-instruments', aliases: expect.arrayContaining(['TI']) },
    ]);
    expect(l.body.data.mq[0].slug).toBe('texas-instruments');
    expect(l.body.data.attrs).toContainEqual({ shortname: 'resistance', name: 'Resistance', valueType: 'number', unitsSymbol: 'Ω' });
    expect(l.body.data.attrs).toContainEqual({ shortname: 'case_package', name: 'Case/Package', valueType: 'text', unitsSymbol: '' });
    expect(l.body.data.sellers).toEqual([{ id: expect.stringMatching(/^\d+$/), name: 'LCSC', slug: 'lcsc' }]);
    expect(await usageOf(free.secret)).toMatchObject({ units: 0 });
  });

  it('charges nothing for counts alone or results @skip leaves out', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const r = await gql(
      `query($s: Boolean!) { a: supSearchMpn(q: "LM358D") { hits results @skip(if: $s) { part { mpn } } } b: supMultiMatch(queries: [{mpn: "LM358DR"}]) { hits } }`,
      { s: true },
      secret,
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.a.results).toBeUndefined();
    expect(r.body.data.b[0].hits).toBeGreaterThan(0);
    expect(await usageOf(secret)).toMatchObject({ units: 0 });
  });

  it('caps paid parts to what the credit covers, with warnings (SPEC.md Errors 4), and charges what it returned', async () => {
    // 0.005 USD covers two parts at the default 0.002.
    const { secret } = await t.api.key({ capabilities: ['parts:read'], creditUsd: 0.005 });
    const r = await gql(`{ supSearchMpn(q: "LM358D") { hits results { part { mpn } } warnings } }`, undefined, secret);
    const s = r.body.data.supSearchMpn;
    expect(s.results).toHaveLength(2);
    expect(s.hits).toBe(3);
    expect(s.warnings).toEqual([expect.stringMatching(/1 of 3 parts left out/)]);
    expect(r.body.extensions.warnings).toEqual(s.warnings);
    expect(await usageOf(secret)).toMatchObject({ units: 2 });
    const m = await t.api.key({ capabilities: ['parts:read'], creditUsd: 0.003 });
    const lines = await gql(
      `{ supMultiMatch(queries: [{mpn: "LM358DR", limit: 1}, {mpn: "GRM188R71H104KA93D"}]) { parts { mpn } error } }`,
      undefined,
      m.secret,
    );
    expect(lines.body.data.supMultiMatch).toEqual([
      { parts: [{ mpn: 'LM358DR' }], error: null },
      { parts: [], error: expect.stringMatching(/line 1: 1 of 1 parts left out/) },
    ]);
    expect(await usageOf(m.secret)).toMatchObject({ units: 1 });
  });

  it('answers the standard introspection query, and the schema has the Supply API root fields', async () => {
    const r = await gql(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const query = r.body.data.__schema.types.find((x: any) => x.name === 'Query');
    expect(query.fields.map((f: any) => f.name).sort()).toEqual([
      'supAttributes',
      'supCategories',
      'supManufacturers',
      'supMultiMatch',
      'supParts',
      'supSearch',
      'supSearchMpn',
      'supSellers',
    ]);
  });

  it('GET /graphql?query= runs a read-only query with a key; from a browser it is the explorer page, no key needed', async () => {
    const q = encodeURIComponent('{ supSearchMpn(q: "LM358DR", limit: 1) { hits } }');
    const run = await t.api.get(`/graphql?query=${q}`, t.secret, { Accept: 'application/json' });
    expect(run.status).toBe(200);
    expect(await run.json()).toEqual({ data: { supSearchMpn: { hits: expect.any(Number) } } });
    const anonymous = await t.api.get(`/graphql?query=${q}`, null, { Accept: 'application/json' });
    expect(anonymous.status).toBe(401);
    const page = await t.api.get('/graphql', null, { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const src of html.match(/\/graphql\/assets\/[\w.-]+/g)!) {
      const asset = await t.api.get(src, null);
      expect([src, asset.status]).toEqual([src, 200]);
    }
    expect((await t.api.get('/graphql/assets/nope.js', null)).status).toBe(404);
  });

  describe('limits and refusals keep the GraphQL form with the catalogue code and status', () => {
    it('a query nested deeper than 12 levels is refused before it runs: query_too_complex with the depth', async () => {
      let nested = 'name';
      for (let i = 0; i < 13; i++) nested = `children { ${nested} }`;
      const r = await gql(`{ supCategories { ${nested} } }`);
      // A request error without data: 200 to a client accepting only application/json (as Supply API clients do).
      expect(r.status).toBe(200);
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/15 deep; at most 12/),
        extensions: { code: 'query_too_complex', depth: 15, max_depth: 12 },
      });
    });

    it('a query whose estimated cost is over the limit is refused with its cost', async () => {
      const lines = Array.from({ length: 250 }, (_, i) => ({ mpn: `X${i}`, limit: 20 }));
      const r = await gql(
        'query($q: [SupPartMatchQuery!]!) { supMultiMatch(queries: $q) { parts { similarParts { specs { displayValue } sellers { offers { prices { price } } } } } } }',
        {
          q: lines,
        },
      );
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'query_too_complex', cost: expect.any(Number), max_cost: 1_000_000 });
      expect(r.body.errors[0].extensions.cost).toBeGreaterThan(1_000_000);
    });

    it(`more than ${MAX_EXPENSIVE} root and aggregation fields (aliases count) is refused before anything runs`, async () => {
      const many = Array.from({ length: MAX_EXPENSIVE + 1 }, (_, i) => `f${i}: supAttributes { shortname }`).join(' ');
      const r = await gql(`{ ${many} }`);
      expect(r.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/at most 10 root and aggregation fields/),
        extensions: { code: 'query_too_complex' },
      });
    });

    it('no key: 401; a key without parts:read: 403; no subscription for a paid field: 403; no credit: 402', async () => {
      const none = await gql('{ supAttributes { shortname } }', undefined, null);
      expect([none.status, none.body.errors[0].extensions.code]).toEqual([401, 'missing_api_key']);
      const ai = await t.api.key({ capabilities: ['ai:run'] });
      expect((await gql('{ supAttributes { shortname } }', undefined, ai.secret)).body.errors[0].extensions.code).toBe('insufficient_scope');
      const unsubscribed = await t.api.key({ capabilities: ['parts:read'], subscription: false });
      const paid = await gql('{ supSearchMpn(q: "LM358D") { hits } }', undefined, unsubscribed.secret);
      expect([paid.status, paid.body.errors[0].extensions.code]).toEqual([403, 'subscription_required']);
      const broke = await t.api.key({ capabilities: ['parts:read'], creditUsd: 0 });
      const r = await gql('{ supParts(ids: ["1"]) { mpn } }', undefined, broke.secret);
      expect([r.status, r.body.errors[0].extensions.code, r.body.data]).toEqual([402, 'insufficient_credit', undefined]);
    });

    it("a bad argument is that field's validation_error naming it (a result set is non-null, as in the Supply schema: data is null)", async () => {
      for (const [args, loc] of [
        ['limit: 500', 'limit'],
        ['q: "x", start: 995, limit: 10', 'start'],
      ]) {
        const r = await gql(`{ supSearch(${args}) { hits } }`);
        expect(r.status).toBe(200);
        expect(r.body.data).toBeNull();
        expect(r.body.errors.map((e: any) => [e.path, e.extensions.code, e.extensions.detail[0].loc])).toEqual([[['supSearch'], 'validation_error', [loc]]]);
      }
      // A nullable field's error leaves its siblings: supParts entries are nullable.
      const ok = await gql('{ supAttributes { shortname } supCategories(paths: ["nope"]) { name } }');
      expect(ok.body).toEqual({ data: { supAttributes: expect.any(Array), supCategories: [] } });
    });

    it('malformed requests: syntax and unknown fields are request errors; other refusals keep the GraphQL form', async () => {
      const bad = await gql('{ supNothing { x } }');
      expect([bad.status, bad.body.errors[0].extensions.code, bad.body.data]).toEqual([200, 'graphql_validation_failed', undefined]);
      const strict = await fetch(`${t.api.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json', Authorization: `Bearer ${t.secret}` },
        body: JSON.stringify({ query: '{ supNothing { x } }' }),
      });
      expect(strict.status).toBe(400);
      const syntax = await gql('{ supAttributes { shortname ');
      expect(syntax.body.errors[0].extensions.code).toBe('graphql_parse_failed');
      const text = await fetch(`${t.api.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${t.secret}` },
        body: '{}',
      });
      expect([text.status, ((await text.json()) as any).errors[0].extensions.code]).toEqual([415, 'unsupported_media_type']);
      const put = await fetch(`${t.api.url}/graphql`, { method: 'PUT', headers: { Authorization: `Bearer ${t.secret}` } });
      expect([put.status, ((await put.json()) as any).errors[0].extensions.code]).toEqual([405, 'method_not_allowed']);
    });
  });
});

describe('GraphQL with the explorer and GET queries turned off', () => {
  const t = useTestApi('sqlite', { GRAPHQL_EXPLORER: 'false', GRAPHQL_GET: 'false' });
  it('answers 404 in GraphQL form to both; POST still works', async () => {
    const page = await t.api.get('/graphql', t.secret, { Accept: 'text/html' });
    expect(page.status).toBe(404);
    const get = await t.api.get('/graphql?query={supAttributes{shortname}}', t.secret, { Accept: 'application/json' });
    expect([get.status, ((await get.json()) as any).errors[0].extensions.code]).toEqual([404, 'not_found']);
    expect((await t.api.get('/graphql/assets/graphiql.min.js', null)).status).toBe(404);
    expect((await t.api.post('/graphql', { query: '{ supAttributes { shortname } }' }, t.secret)).status).toBe(200);
  });
});

describe('GraphQL against a monthly graphql_parts quota', () => {
  const t = useTestApi('sqlite', { MONTHLY_QUOTAS: 'graphql_parts=4' });
  it('caps results at the quota left with a warning, then refuses with 402 usage_limit_exceeded', async () => {
    const gql = async (query: string) => {
      const res = await t.api.post('/graphql', { query }, t.secret);
      return { status: res.status, body: (await res.json()) as any };
    };
    expect((await gql('{ supSearchMpn(q: "LM358D") { results { part { mpn } } warnings } }')).body.data.supSearchMpn.warnings).toEqual([]);
    const capped = await gql('{ supSearchMpn(q: "LM358D") { results { part { mpn } } warnings } }');
    expect(capped.body.data.supSearchMpn.results).toHaveLength(1);
    expect(capped.body.data.supSearchMpn.warnings).toEqual([expect.stringMatching(/2 of 3 parts left out/)]);
    const over = await gql('{ supSearchMpn(q: "LM358D") { results { part { mpn } } } }');
    expect([over.status, over.body.errors[0].extensions.code]).toEqual([402, 'usage_limit_exceeded']);
    expect((await gql('{ supAttributes { shortname } }')).status).toBe(200);
  });
});
