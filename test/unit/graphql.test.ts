/**
 * POST /graphql over the real HTTP server, SQLite accounts and the small fixture catalogue, on each
 * engine: every query answers what its REST counterpart answers, paid fields are metered per part and
 * refused without a subscription or credit, and every error keeps GraphQL's form with the catalogue code.
 */
import { getIntrospectionQuery } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { MAX_EXPENSIVE } from '../../src/graphql/route.ts';
import { PART_SELECTION } from '../../src/graphql/sdl.ts';
import { API_ENGINES, useTestApi } from '../support/api.ts';

describe.each(API_ENGINES)('GraphQL on %s', (engineKind) => {
  const t = useTestApi(engineKind);
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
  /** REST parts as GraphQL shows them: ids as strings, `moq` present (null) in every offer. */
  const asGraphQL = (p: any) => ({
    ...p,
    id: String(p.id),
    manufacturer: p.manufacturer && { ...p.manufacturer, id: p.manufacturer.id === null ? null : String(p.manufacturer.id) },
    offers: p.offers?.map((o: any) => ({ moq: null, sku: null, stock: null, ...o })) ?? null,
  });
  const usageOf = async (secret: string) => (await rest('/v1/usage', undefined, secret)).usage.graphql_parts;

  it('supSearchMpn answers what GET /v1/parts/search answers, every field, and charges one unit per part', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const r = await gql(`{ supSearchMpn(mpn: "LM358D") { hits results { ${PART_SELECTION} } } }`, undefined, secret);
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const expected = await rest('/v1/parts/search?mpn=LM358D');
    expect(r.body.data.supSearchMpn.hits).toBe(3);
    expect(r.body.data.supSearchMpn.results).toEqual(expected.results.map(asGraphQL));
    expect(r.headers.get('x-ratelimit-limit')).toBe('60');
    expect(await usageOf(secret)).toMatchObject({ units: 3 });
  });

  it("answers the same query text again with each request's own variables (its document is kept); an invalid one fails every time", async () => {
    const q = 'query($m: String!) { supSearchMpn(mpn: $m) { results { mpn } } }';
    const first = await gql(q, { m: 'LM358D' });
    const second = await gql(q, { m: 'AO3400A' });
    expect(first.body.data.supSearchMpn.results[0].mpn).toBe('LM358D');
    expect(second.body.data.supSearchMpn.results).toEqual([{ mpn: 'AO3400A' }]);
    for (let i = 0; i < 2; i++) expect((await gql('{ supSearchMpn(mpn: "X") { nope } }')).body.errors[0].extensions.code).toBe('graphql_validation_failed');
  });

  it('answers the standard introspection query (GraphQL tooling and code generators send it), within the size limits', async () => {
    const r = await gql(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const query = r.body.data.__schema.types.find((x: any) => x.name === 'Query');
    expect(query.fields.map((f: any) => f.name).sort()).toEqual([
      'supCategories',
      'supManufacturers',
      'supMultiMatch',
      'supParts',
      'supSearch',
      'supSearchMpn',
    ]);
  });

  it('supSearch pages like POST /v1/parts/search and aggregates like the facets route, over the whole set', async () => {
    const filters = { categories: ['resistors'] };
    const r = await gql(
      `query($f: JSON) { supSearch(filters: $f, limit: 2) { total hits offset results { mpn }
          aggregations(size: 5) { total manufacturers { slug name count } categories { slug count } specs { name parts values { value count } min max unit } available_specs { name count } } } }`,
      { f: filters },
    );
    expect(r.body.errors).toBeUndefined();
    const page = await rest('/v1/parts/search', { filters, limit: 2 });
    const facets = await rest('/v1/parts/search/facets', { filters, size: 5 });
    const s = r.body.data.supSearch;
    expect({ total: s.total, hits: s.hits, offset: s.offset, mpns: s.results.map((p: any) => p.mpn) }).toEqual({
      total: page.total,
      hits: page.hits,
      offset: 0,
      mpns: page.results.map((p: any) => p.mpn),
    });
    expect(s.aggregations.total).toBe(facets.total);
    expect(s.aggregations.manufacturers).toEqual(facets.manufacturers);
    expect(s.aggregations.specs).toEqual(Object.entries(facets.specs).map(([name, v]: [string, any]) => ({ name, ...v })));
    expect(Object.fromEntries(s.aggregations.available_specs.map((x: any) => [x.name, x.count]))).toEqual(facets.available_specs);
  });

  it('charges the parts in results only: counts and aggregations are free, and an aggregations error leaves results', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const counts = await gql(
      `{ supSearch(q: "resistor", limit: 2) { total hits aggregations { total } } supSearchMpn(mpn: "LM358D") { hits } }`,
      undefined,
      secret,
    );
    expect(counts.body.errors).toBeUndefined();
    expect([counts.body.data.supSearch.hits, counts.body.data.supSearchMpn.hits]).toEqual([2, 3]);
    expect(await usageOf(secret)).toMatchObject({ units: 0 });
    const r = await gql(`{ supSearch(q: "resistor", limit: 2) { results { mpn } aggregations(size: 1000) { total } } }`, undefined, secret);
    expect(r.body.data.supSearch.results).toHaveLength(2);
    expect(r.body.data.supSearch.aggregations).toBeNull();
    expect(r.body.errors[0]).toMatchObject({ path: ['supSearch', 'aggregations'], extensions: { code: 'validation_error' } });
    expect(await usageOf(secret)).toMatchObject({ units: 2 });
  });

  it('charges nothing for results that @skip/@include leave out, or candidates shown without their part', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const skipped = await gql(
      `query($s: Boolean!) { a: supSearchMpn(mpn: "LM358D") { hits results @skip(if: $s) { mpn } }
         b: supSearchMpn(mpn: "LM358D") { ...R @include(if: false) } c: supSearchMpn(mpn: "LM358D") { ... @skip(if: true) { results { mpn } } }
         d: supMultiMatch(queries: [{query: "LM358DR"}]) { results { confidence } } }
       fragment R on SupSearchMpnResult { results { mpn } }`,
      { s: true },
      secret,
    );
    expect(skipped.body.errors).toBeUndefined();
    expect(skipped.body.data.a).toEqual({ hits: 3 });
    expect(skipped.body.data.d[0].results.length).toBeGreaterThan(0);
    expect(await usageOf(secret)).toMatchObject({ units: 0 });
    const shown = await gql(`query($s: Boolean!) { supSearchMpn(mpn: "LM358D") { results @skip(if: $s) { mpn } } }`, { s: false }, secret);
    expect(shown.body.data.supSearchMpn.results).toHaveLength(3);
    expect(await usageOf(secret)).toMatchObject({ units: 3 });
  });

  it('caps paid results to what the credit covers, with warnings (SPEC.md Errors 4), and charges what it returned', async () => {
    // 0.005 USD covers two parts at the default 0.002.
    const { secret } = await t.api.key({ capabilities: ['parts:read'], creditUsd: 0.005 });
    const r = await gql(`{ supSearchMpn(mpn: "LM358D") { hits results { mpn } warnings } }`, undefined, secret);
    expect(r.body.data.supSearchMpn).toEqual({ hits: 2, results: [{ mpn: 'LM358D' }, { mpn: 'LM358DR' }], warnings: [expect.stringMatching(/2 of 3 parts/)] });
    expect(r.body.extensions.warnings).toEqual(r.body.data.supSearchMpn.warnings);
    expect(await usageOf(secret)).toMatchObject({ units: 2 });
    const m = await t.api.key({ capabilities: ['parts:read'], creditUsd: 0.003 });
    const lines = await gql(
      `{ supMultiMatch(queries: [{query: "LM358DR", limit: 1}, {query: "GRM188R71H104KA93D"}]) { index results { part { mpn } } errorString } }`,
      undefined,
      m.secret,
    );
    expect(lines.body.data.supMultiMatch[0]).toEqual({ index: 0, results: [{ part: { mpn: 'LM358DR' } }], errorString: null });
    expect(lines.body.data.supMultiMatch[1]).toEqual({ index: 1, results: [], errorString: expect.stringMatching(/0 of 1 parts/) });
    expect(await usageOf(m.secret)).toMatchObject({ units: 1 });
  });

  it('limits part references and BOM lines per request, across aliases', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => String(i + 1));
    const r = await gql(`query($ids: [ID!]) { a: supParts(ids: $ids) { mpn } b: supParts(ids: $ids) { mpn } }`, { ids });
    expect(r.body.data.a).toHaveLength(30);
    expect(r.body.data.b).toBeNull();
    expect(r.body.errors[0]).toMatchObject({ path: ['b'], extensions: { code: 'validation_error', detail: [{ loc: ['ids'], type: 'too_long' }] } });
  });

  it('supMultiMatch answers each line as POST /v1/parts/match/batch, a blank line as its own error', async () => {
    const lines = [{ query: 'LM358DR', manufacturer: 'TI' }, { query: ' ' }, { query: 'GRM188R71H104KA93D' }];
    const r = await gql(
      `query($q: [MatchQuery!]!) { supMultiMatch(queries: $q) { index query ambiguous results { confidence exact part { mpn manufacturer { slug } } } error { type message } } }`,
      { q: lines },
    );
    expect(r.body.errors).toBeUndefined();
    const batch = await rest('/v1/parts/match/batch', { lines });
    const slim = (x: any) =>
      'error' in x
        ? { index: x.index, query: x.query, ambiguous: null, results: null, error: x.error }
        : {
            index: x.index,
            query: x.query,
            ambiguous: x.ambiguous,
            results: x.results.map((c: any) => ({
              confidence: c.confidence,
              exact: c.exact,
              part: { mpn: c.part.mpn, manufacturer: { slug: c.part.manufacturer.slug } },
            })),
            error: null,
          };
    expect(r.body.data.supMultiMatch).toEqual(batch.results.map(slim));
    expect(r.body.data.supMultiMatch[1].error.type).toBe('validation_error');
  });

  it('supParts finds parts by id and by slug (any case, an alias), in order, null when unknown, charging the found', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'] });
    const [lm] = (await rest('/v1/parts/search?mpn=LM358DR')).results;
    const r = await gql(
      `query($ids: [ID!], $slugs: [String!]) { supParts(ids: $ids, slugs: $slugs) { id mpn slug } }`,
      { ids: [String(lm.id), '12345'], slugs: [lm.slug, lm.slug.toLowerCase(), 'texas-instruments/NOPE', 'no-slash'] },
      secret,
    );
    expect(r.body.errors).toBeUndefined();
    const one = { id: String(lm.id), mpn: 'LM358DR', slug: lm.slug };
    expect(r.body.data.supParts).toEqual([one, null, one, one, null, null]);
    expect(await usageOf(secret)).toMatchObject({ units: 3 });
  });

  it('supManufacturers and supCategories answer as the REST lookups, and are free', async () => {
    const { secret } = await t.api.key({ capabilities: ['parts:read'], subscription: false });
    const r = await gql(
      `{ m: supManufacturers(q: "TI", limit: 1) { slug name confidence } d: supManufacturers(slugs: ["texas-instruments", "nope"]) { slug part_count aliases }
         roots: supCategories { slug has_children } c: supCategories(slugs: ["resistors"]) { slug description path { slug } children { slug part_count } }
         cm: supCategories(q: "mlcc", limit: 1) { slug confidence } }`,
      undefined,
      secret,
    );
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const m = await rest('/v1/manufacturers/match', { query: 'TI', limit: 1 }, secret);
    expect(r.body.data.m).toEqual([{ slug: m.results[0].manufacturer.slug, name: m.results[0].manufacturer.name, confidence: m.results[0].confidence }]);
    const ti = (await rest('/v1/manufacturers/texas-instruments', undefined, secret)).manufacturer;
    expect(r.body.data.d).toEqual([{ slug: ti.slug, part_count: ti.part_count, aliases: ti.aliases }, null]);
    const roots = (await rest('/v1/categories', undefined, secret)).categories;
    expect(r.body.data.roots).toEqual(roots.map((c: any) => ({ slug: c.slug, has_children: c.has_children })));
    const cat = (await rest('/v1/categories/resistors', undefined, secret)).category;
    expect(r.body.data.c).toEqual([
      {
        slug: cat.slug,
        description: cat.description,
        path: cat.path.map((p: any) => ({ slug: p.slug })),
        children: cat.children.map((c: any) => ({ slug: c.slug, part_count: c.part_count })),
      },
    ]);
    const cm = await rest('/v1/categories/match', { query: 'mlcc', limit: 1 }, secret);
    expect(r.body.data.cm).toEqual([{ slug: cm.results[0].category.slug, confidence: cm.results[0].confidence }]);
    expect(await usageOf(secret)).toMatchObject({ units: 0 });
  });

  describe('refusals keep the GraphQL form with the catalogue code and status', () => {
    const errorOf = (r: { body: any }) => ({
      message: expect.any(String),
      extensions: { code: r.body.errors[0].extensions.code, request_id: expect.any(String) },
    });

    it('no key: 401; a key without parts:read: 403; both throttled like REST', async () => {
      const none = await gql('{ supCategories { slug } }', undefined, null);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'missing_api_key', request_id: expect.any(String) } }] });
      expect(none.headers.get('x-ratelimit-remaining')).not.toBeNull();
      const { secret } = await t.api.key({ capabilities: ['ai:run'] });
      const scoped = await gql('{ supCategories { slug } }', undefined, secret);
      expect(scoped.status).toBe(403);
      expect(scoped.body.errors[0]).toEqual(errorOf(scoped));
      expect(scoped.body.errors[0].extensions.code).toBe('insufficient_scope');
    });

    it('the per-key throttle counts GraphQL requests: over the limit, 429 rate_limit_exceeded with Retry-After', async () => {
      const { secret } = await t.api.key({ capabilities: ['parts:read'], rateLimit: 2 });
      for (let i = 0; i < 2; i++) expect((await gql('{ supCategories { slug } }', undefined, secret)).status).toBe(200);
      const r = await gql('{ supCategories { slug } }', undefined, secret);
      expect(r.status).toBe(429);
      expect(r.body.errors[0].extensions.code).toBe('rate_limit_exceeded');
      expect([r.headers.get('x-ratelimit-remaining'), Number(r.headers.get('retry-after')) > 0]).toEqual(['0', true]);
    });

    it('a paid field without a subscription: 403 subscription_required, a free one still answers', async () => {
      const { secret } = await t.api.key({ capabilities: ['parts:read'], subscription: false });
      const r = await gql('{ supSearchMpn(mpn: "LM358D") { hits } }', undefined, secret);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'subscription_required', request_id: expect.any(String) } }] });
      // Through a fragment too.
      const f = await gql('{ ...F } fragment F on Query { supParts(ids: ["1"]) { mpn } }', undefined, secret);
      expect([f.status, f.body.errors[0].extensions.code]).toEqual([403, 'subscription_required']);
      expect((await gql('{ supCategories { slug } }', undefined, secret)).status).toBe(200);
    });

    it('no credit: 402 insufficient_credit before execution', async () => {
      const broke = await t.api.key({ capabilities: ['parts:read'], creditUsd: 0 });
      const r = await gql('{ supSearchMpn(mpn: "LM358D") { hits } }', undefined, broke.secret);
      expect([r.status, r.body.errors[0].extensions.code, r.body.data]).toEqual([402, 'insufficient_credit', undefined]);
    });

    it("a bad argument is that field's validation_error with detail naming it; the other fields still answer", async () => {
      const r = await gql('{ a: supSearch(limit: 0) { hits } b: supCategories(limit: 1) { slug } c: supSearch(filters: {specs: {Nope: ["1"]}}) { hits } }');
      expect(r.status).toBe(200);
      expect(r.body.data.a).toBeNull();
      expect(r.body.data.b).toHaveLength(1);
      const [a, c] = r.body.errors;
      expect(a).toMatchObject({ path: ['a'], extensions: { code: 'validation_error', detail: [{ loc: ['limit'], type: 'greater_than_equal' }] } });
      expect(c.path).toEqual(['c']);
      expect(c.extensions.code).toBe('validation_error');
      expect(c.extensions.detail[0].loc.slice(0, 2)).toEqual(['filters', 'specs']);
    });

    it('an unknown parent category is not_found; an unknown field or a syntax error is a GraphQL request error', async () => {
      const nf = await gql('{ supCategories(parent: "nope") { slug } }');
      expect(nf.body.errors[0].extensions.code).toBe('not_found');
      const bad = await gql('{ supNothing { x } }');
      expect(bad.body.errors[0].message).toMatch(/supNothing/);
      expect(bad.body.data).toBeUndefined();
      const syntax = await gql('{ supCategories { slug ');
      expect(syntax.body.errors[0].message).toMatch(/Syntax Error/);
    });

    it(`more than ${MAX_EXPENSIVE} root and aggregations fields (aliases count, through fragments) is refused before anything runs`, async () => {
      const many = Array.from({ length: MAX_EXPENSIVE + 1 }, (_, i) => `f${i}: supCategories { slug }`).join(' ');
      const r = await gql(`{ ${many} }`);
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/at most 10 root and aggregations fields/),
        extensions: { code: 'graphql_validation_failed' },
      });
      // Two root fields, but a fragment spreading 5 aggregations into each: 12 searches.
      const aggs = Array.from({ length: 5 }, (_, i) => `a${i}: aggregations { total }`).join(' ');
      const f = await gql(`{ x: supSearch { ...A } y: supSearch { ...A } } fragment A on SupSearchResult { ${aggs} }`);
      expect(f.body.errors[0].message).toMatch(/it selects 12/);
      // Fragments spreading each other twice, 22 deep (a 2^22-field expansion in under 1 KB): refused at once.
      const nested = Array.from({ length: 22 }, (_, i) => `fragment F${i + 1} on Query { ...F${i} ...F${i} }`).join(' ');
      const started = Date.now();
      const deep = await gql(`{ ...F22 } fragment F0 on Query { __typename } ${nested}`);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(deep.body.errors[0]).toMatchObject({ message: expect.stringMatching(/at most 1000 fields/), extensions: { code: 'graphql_validation_failed' } });
    });

    it('refused before routing, or by graphql-http, still in GraphQL form with the catalogue code, throttled', async () => {
      const badJson = await fetch(`${t.api.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"query": ' });
      expect(badJson.status).toBe(422);
      expect(badJson.headers.get('x-ratelimit-limit')).not.toBeNull();
      expect(((await badJson.json()) as any).errors[0].extensions).toMatchObject({ code: 'validation_error', detail: [{ type: 'json_invalid' }] });
      const text = await fetch(`${t.api.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${t.secret}` },
        body: '{ supCategories { slug } }',
      });
      expect(text.status).toBe(415);
      expect(((await text.json()) as any).errors[0].extensions.code).toBe('unsupported_media_type');
      const put = await fetch(`${t.api.url}/graphql`, { method: 'PUT', headers: { Authorization: `Bearer ${t.secret}` } });
      expect(put.status).toBe(405);
      expect(((await put.json()) as any).errors[0].extensions.code).toBe('method_not_allowed');
      const noQuery = await gql(undefined as unknown as string);
      expect(noQuery.status).toBe(400);
      expect(noQuery.body.errors[0].extensions.code).toBe('graphql_validation_failed');
      const syntax = await gql('{ supCategories { slug ');
      expect(syntax.body.errors[0].extensions.code).toBe('graphql_parse_failed');
    });

    it('GET /graphql: 404 not_found in GraphQL form (no explorer, no GET queries)', async () => {
      const res = await t.api.get('/graphql?query={supCategories{slug}}', t.secret);
      expect(res.status).toBe(404);
      const body = (await res.json()) as any;
      expect(body.errors[0].extensions.code).toBe('not_found');
    });
  });
});

describe('GraphQL against a monthly graphql_parts quota', () => {
  const t = useTestApi('sqlite', { MONTHLY_QUOTAS: 'graphql_parts=4' });
  it('caps results at the quota left with a warning, then refuses with 402 usage_limit_exceeded', async () => {
    const gql = async (query: string) => {
      const res = await t.api.post('/graphql', { query }, t.secret);
      return { status: res.status, body: (await res.json()) as any };
    };
    expect((await gql('{ supSearchMpn(mpn: "LM358D") { results { mpn } warnings } }')).body.data.supSearchMpn.warnings).toEqual([]);
    const capped = await gql('{ supSearchMpn(mpn: "LM358D") { results { mpn } warnings } }');
    expect(capped.body.data.supSearchMpn.results).toEqual([{ mpn: 'LM358D' }]);
    expect(capped.body.data.supSearchMpn.warnings).toEqual([expect.stringMatching(/1 of 3 parts/)]);
    const over = await gql('{ supSearchMpn(mpn: "LM358D") { results { mpn } } }');
    expect([over.status, over.body.errors[0].extensions.code]).toEqual([402, 'usage_limit_exceeded']);
    // Free fields still answer.
    expect((await gql('{ supCategories { slug } }')).status).toBe(200);
  });
});
