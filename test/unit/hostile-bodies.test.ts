/**
 * Issue 32, request bodies: JSON nested thousands deep is a 422 in the validation form (GraphQL's form on
 * /graphql), logged as nothing worse than a normal request; every JSON media type is read by the same
 * parser (a body is never silently ignored), anything else is a 415.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/log.ts';
import { MAX_JSON_DEPTH } from '../../src/util/json-depth.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

const logged: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
const log: Logger = {
  debug: (msg, fields) => logged.push({ level: 'debug', msg, fields }),
  info: (msg, fields) => logged.push({ level: 'info', msg, fields }),
  warn: (msg, fields) => logged.push({ level: 'warn', msg, fields }),
  error: (msg, fields) => logged.push({ level: 'error', msg, fields }),
};

let api: TestApi;
let secret: string;
beforeAll(async () => {
  api = await startTestApi({}, 'sqlite', undefined, { log });
  secret = (await api.key()).secret;
});
afterAll(async () => api?.close());

const send = (path: string, body: string, type = 'application/json') =>
  fetch(`${api.url}${path}`, { method: 'POST', body, headers: { Authorization: `Bearer ${secret}`, 'Content-Type': type } });

const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const TOO_DEEP = {
  detail: [{ loc: ['body'], msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, type: 'json_too_deep', ctx: { limit: MAX_JSON_DEPTH } }],
};

describe('JSON nested 5,000 deep', () => {
  it('is a 422 json_too_deep on every route that takes a body, whatever holds the depth, with nothing logged', async () => {
    const bodies: [string, string][] = [
      ['/v1/categories/match', arrays(5_000)],
      ['/v1/categories/match', `{"query":"x","limit":${objects(5_000)}}`],
      ['/v1/parts/search', `{"filters":{"specs":{"Resistance":${arrays(5_000)}}}}`],
      ['/v1/parts/discover', `{"requirements":"ldo","filters":${objects(5_000)}}`],
      ['/v1/parts/match/batch', `{"lines":${arrays(5_000)}}`],
      ['/v1/parts/texas-instruments/LM358D/deep-dive', `{"deliverables":[{"question":"q"}],"context":${objects(5_000)}}`],
    ];
    logged.length = 0;
    for (const [path, body] of bodies) {
      const res = await send(path, body);
      expect(res.status, path).toBe(422);
      expect(res.headers.get('x-ratelimit-limit'), path).toBe('60');
      expect(await res.json(), path).toEqual(TOO_DEEP);
    }
    expect(logged.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });

  it('is a GraphQL error on /graphql', async () => {
    const res = await send('/graphql', `{"query":"{ supCategories { slug } }","variables":{"v":${arrays(5_000)}}}`);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.extensions).toMatchObject({ code: 'validation_error', detail: TOO_DEEP.detail });
  });

  it('takes nesting up to the limit', async () => {
    const context = JSON.parse(objects(MAX_JSON_DEPTH - 1)) as unknown;
    const res = await send('/v1/parts/texas-instruments/LM358D/deep-dive', JSON.stringify({ deliverables: [{ question: 'Supply voltage?' }], context }));
    expect(res.status).toBe(202);
  });
});

describe('GraphQL documents nested thousands deep', () => {
  it('are refused as too complex before the parser runs out of stack, whatever nests', async () => {
    const deep = 3_000;
    for (const query of [
      `{ supCategories ${'{ a '.repeat(deep)}${'}'.repeat(deep)} }`,
      `{ supCategories(q: ${'['.repeat(deep)}"x"${']'.repeat(deep)}) { name } }`,
      `{ supSearch(filters: ${'{a: '.repeat(deep)}1${'}'.repeat(deep)}) { hits } }`,
    ]) {
      const res = await send('/graphql', JSON.stringify({ query }));
      // As any other query refused before execution (GraphQL over HTTP: 200 for application/json).
      expect(res.status).toBe(200);
      const body = (await res.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.message).toBe('The document nests braces, brackets and parentheses more than 64 levels deep; at most 64 are read.');
      expect(body.errors[0]!.extensions).toMatchObject({ code: 'query_too_complex', max_nesting: 64 });
    }
    // Brackets in strings and comments do not nest.
    const fine = await send('/graphql', JSON.stringify({ query: `{ supCategories(q: "${'['.repeat(200)}") { name } } # ${'{'.repeat(200)}` }));
    expect(fine.status).toBe(200);
  });
});

describe('GraphQL variables of another shape than declared', () => {
  it('a single object for a list argument is a GraphQL error, not a 500 (the cost estimate read it as a list)', async () => {
    logged.length = 0;
    const res = await send(
      '/graphql',
      JSON.stringify({
        query: 'query Q($q: [SupPartMatchQuery!]!) { supMultiMatch(queries: $q) { parts { mpn } } }',
        variables: { q: { mpn: 'LM358', limit: 2 } },
      }),
    );
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[]; data?: unknown };
    expect((body.errors ?? []).map((e) => e.extensions?.code)).not.toContain('internal_error');
    expect(logged.filter((l) => l.level === 'error')).toEqual([]);
  });
});

describe('validation entries', () => {
  it('name an object key that looks like a number as the string it is, an array index as a number', async () => {
    const big = '9'.repeat(400);
    const res = await send('/v1/parts/search', JSON.stringify({ filters: { specs: { [big]: { gte: 'x' }, '12': ['a', 3] } } }));
    expect(res.status).toBe(422);
    const locs = ((await res.json()) as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc);
    // A key of 400 nines was read as the number 1e400 and written as null.
    expect(locs).toContainEqual(['body', 'filters', 'specs', big, 'gte']);
    expect(locs).toContainEqual(['body', 'filters', 'specs', '12', 1]);
  });
});

describe('body size', () => {
  it('reads a body up to 2 MB and refuses a larger one with 413, however it is encoded', async () => {
    const { gzipSync } = await import('node:zlib');
    const under = JSON.stringify({ query: 'capacitor', pad: 'x'.repeat(2 * 1024 * 1024 - 100) });
    // Read, then refused by the route's schema (an unknown field), not by the parser.
    expect((await send('/v1/categories/match', under)).status).toBe(422);
    const over = JSON.stringify({ query: 'capacitor', pad: 'x'.repeat(2 * 1024 * 1024) });
    for (const res of [
      await send('/v1/categories/match', over),
      // 2 MB of JSON in a few KB of gzip: the limit applies to the decoded body.
      await fetch(`${api.url}/v1/categories/match`, {
        method: 'POST',
        body: gzipSync(over),
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      }),
    ]) {
      expect(res.status).toBe(413);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(((await res.json()) as { error: { type: string } }).error.type).toBe('payload_too_large');
    }
  });
});

describe('content encodings of a body', () => {
  it('reads a gzip body, and answers one that does not decode with a 422 (it was a 500)', async () => {
    const { gzipSync } = await import('node:zlib');
    const post = (body: Uint8Array | string, encoding: string) =>
      fetch(`${api.url}/v1/categories/match`, {
        method: 'POST',
        body,
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'Content-Encoding': encoding },
      });
    expect((await post(gzipSync('{"query":"capacitor"}'), 'gzip')).status).toBe(200);
    logged.length = 0;
    const bad = await post('{"query":"capacitor"}', 'gzip');
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      detail: [{ loc: ['body'], msg: 'The body is not valid gzip data (Content-Encoding: gzip).', type: 'content_encoding_invalid' }],
    });
    expect(logged.filter((l) => l.level === 'error')).toEqual([]);
    // An encoding the parser does not know is the 415 of RFC 7694.
    expect((await post('{"query":"capacitor"}', 'compress')).status).toBe(415);
  });
});

describe('media types of a body', () => {
  it('reads every JSON media type (application/json, application/*+json) alike', async () => {
    const query = JSON.stringify({ query: 'capacitor', limit: 2 });
    const plain = (await (await send('/v1/parts/search', query)).json()) as { total: number; results: { mpn: string }[] };
    expect(plain.results).toHaveLength(2);
    expect(plain.total).toBeLessThan(12);
    for (const type of ['application/merge-patch+json', 'application/vnd.api+json', 'application/json; charset=utf-8', 'APPLICATION/JSON']) {
      const res = await send('/v1/parts/search', query, type);
      expect(res.status, type).toBe(200);
      const b = (await res.json()) as typeof plain;
      expect([b.total, b.results.map((r) => r.mpn)], type).toEqual([plain.total, plain.results.map((r) => r.mpn)]);
    }
    // Read, so validated: a bad field is a 422, not an empty body's 200.
    const bad = await send('/v1/parts/search', JSON.stringify({ limit: 'many' }), 'application/merge-patch+json');
    expect(bad.status).toBe(422);
  });

  it('refuses a body of any other type with 415, saying which types it takes', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/csp-report', 'text/json', 'application/jsonx']) {
      const res = await send('/v1/parts/search', '{"query":"LM358"}', type);
      expect(res.status, type).toBe(415);
      expect(res.headers.get('accept'), type).toBe('application/json, application/*+json');
      const b = (await res.json()) as { error: { type: string; message: string } };
      expect(b.error.type).toBe('unsupported_media_type');
      expect(b.error.message).toBe(`Request body must be JSON: send Content-Type: application/json (got ${type}).`);
    }
  });
});
