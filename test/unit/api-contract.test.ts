/**
 * The API contract layer end to end over the real HTTP server: authentication, capabilities,
 * throttle and its headers, metering and credit, error body forms, OpenAPI coverage.
 */
import http from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, createApp } from '../../src/http/app.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ PRICES_USD: 'part_records=0.5' });
});
afterAll(async () => api?.close());

const body = async (res: Response) => {
  const b = (await res.json()) as any;
  if (b?.error?.request_id) b.error.request_id = '<request id>';
  return b;
};

describe('authentication', () => {
  it('answers a missing key with 401 missing_api_key', async () => {
    const res = await api.get('/v1/usage');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await body(res)).toEqual({
      error: { type: 'missing_api_key', message: 'Authentication required: send Authorization: Bearer <API key>.', request_id: '<request id>' },
    });
  });

  it.each([
    ['malformed', 'not-a-key'],
    ['unknown', `psk_${'A'.repeat(43)}`],
  ])('answers a %s key with 401 invalid_api_key', async (_what, secret) => {
    const res = await api.get('/v1/usage', secret);
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({
      error: { type: 'invalid_api_key', message: 'The API key is malformed, unknown or revoked.', request_id: '<request id>' },
    });
  });

  it('refuses a revoked key on its next request', async () => {
    const { secret, keyId } = await api.key();
    expect((await api.get('/v1/usage', secret)).status).toBe(200);
    await api.services.accounts.revokeKey(keyId);
    expect((await api.get('/v1/usage', secret)).status).toBe(401);
  });

  it('judges every request on one keep-alive connection by its own key (the guard remembers derived values only)', async () => {
    const a = await api.key({ capabilities: ['parts:read'] });
    const b = await api.key({ capabilities: ['ai:run'] });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (path: string, authorization: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(`${api.url}${path}`, { agent, headers: { Authorization: authorization } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('socket', (sock) => sockets.add(sock));
        req.on('error', reject);
      });
    try {
      const part = '/v1/parts/texas-instruments/LM358DR';
      expect(await get(part, `Bearer ${a.secret}`)).toBe(200);
      expect(await get(part, `Bearer ${b.secret}`)).toBe(403); // b lacks parts:read
      expect(await get(part, `Bearer ${a.secret}`)).toBe(200);
      expect(await get(part, `Bearer ${a.secret.slice(0, -1)}`)).toBe(401); // malformed
      expect(await get(part, `Bearer ${a.secret.slice(0, -1)}${a.secret.endsWith('A') ? 'B' : 'A'}`)).toBe(401); // same length, unknown
      expect(await get(part, `bearer ${a.secret}`)).toBe(200);
      await api.services.accounts.revokeKey(a.keyId);
      expect(await get(part, `Bearer ${a.secret}`)).toBe(401); // the same header as before: still judged
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('throttles a key by its keyed hash: the spelling of the scheme does not make a new bucket', async () => {
    const { secret } = await api.key({ rateLimit: 3 });
    const statuses = [];
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'Bearer'])
      statuses.push((await api.get('/v1/usage', null, { Authorization: `${scheme} ${secret}` })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('leaves /health public and unthrottled', async () => {
    const res = await api.get('/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('capabilities and payment', () => {
  it('answers a key without the route capability with 403 insufficient_scope', async () => {
    const { secret } = await api.key({ capabilities: ['ai:run'] });
    const res = await api.get('/v1/parts/texas-instruments/LM358DR', secret);
    expect(res.status).toBe(403);
    expect(await body(res)).toEqual({
      error: {
        type: 'insufficient_scope',
        message: 'This API key lacks the "parts:read" capability that GET /v1/parts/:manufacturer/:mpn needs.',
        request_id: '<request id>',
      },
    });
  });

  it('answers a paid route without a subscription with 403 subscription_required', async () => {
    const { secret } = await api.key({ subscription: false });
    const res = await api.get('/v1/parts/texas-instruments/LM358DR', secret);
    expect(res.status).toBe(403);
    expect((await body(res)).error.type).toBe('subscription_required');
  });

  it('charges one part record per detail call, and answers 402 once the credit is spent', async () => {
    const { secret } = await api.key({ creditUsd: 1 });
    for (let i = 0; i < 2; i++) expect((await api.get('/v1/parts/texas-instruments/LM358DR', secret)).status).toBe(200);
    const res = await api.get('/v1/parts/texas-instruments/LM358DR', secret);
    expect(res.status).toBe(402);
    expect(await body(res)).toEqual({
      error: { type: 'insufficient_credit', message: 'The account has no credit left; add credit to continue.', request_id: '<request id>' },
    });
    const usage = await body(await api.get('/v1/usage', secret));
    expect(usage.usage.part_records).toEqual({ units: 2, amount_usd: 1 });
    expect(usage.balance_usd).toBe(0);
    // Free routes keep answering at a zero balance (README, Metering).
    expect((await api.get('/v1/parts/search?mpn=LM358', secret)).status).toBe(200);
  });

  it('does not charge a failed operation or a redirect', async () => {
    const { secret } = await api.key({ creditUsd: 1 });
    expect((await api.get('/v1/parts/texas-instruments/NOPE', secret)).status).toBe(404);
    const redirect = await api.get('/v1/parts/TI/lm358dr', secret);
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/v1/parts/texas-instruments/LM358DR');
    // The MPN as written, not as its slug (spaces, "/" URL-encoded): redirected to the slug's URL.
    const asWritten = await api.get('/v1/parts/texas-instruments/LM358DR%20', secret);
    expect([asWritten.status, asWritten.headers.get('location')]).toEqual([308, '/v1/parts/texas-instruments/LM358DR']);
    // HEAD shows no record
    const head = await fetch(`${api.url}/v1/parts/texas-instruments/LM358DR`, { method: 'HEAD', headers: { Authorization: `Bearer ${secret}` } });
    expect(head.status).toBe(200);
    const usage = await body(await api.get('/v1/usage', secret));
    expect(usage.usage.part_records.units).toBe(0);
    expect(usage.balance_usd).toBe(1);
  });

  it('answers GET on a path declared for POST only with 405, not as a part, category or maker lookup', async () => {
    const { secret } = await api.key({ subscription: false });
    for (const p of ['/v1/parts/search/facets', '/v1/parts/match/batch', '/v1/categories/match', '/v1/manufacturers/match']) {
      const res = await api.get(p, secret);
      expect([p, res.status, res.headers.get('allow'), (await body(res)).error.type]).toEqual([p, 405, 'POST', 'method_not_allowed']);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    }
  });

  it('throttles OPTIONS on /v1 paths like any request, with the rate-limit headers', async () => {
    const { secret } = await api.key();
    const res = await fetch(`${api.url}/v1/categories`, { method: 'OPTIONS', headers: { Authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('allow')).toBe('HEAD, GET');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('never overdraws under parallel paid requests', async () => {
    const { secret, accountId } = await api.key({ creditUsd: 2.5 });
    const statuses = await Promise.all(Array.from({ length: 20 }, () => api.get('/v1/parts/yageo/RC0603FR-0710KL', secret).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
    expect((await api.services.accounts.getAccount(accountId))!.balance_micros).toBe(0);
  });

  it('answers a paid request over the monthly quota with 402 usage_limit_exceeded', async () => {
    const quotaApi = await startTestApi({ MONTHLY_QUOTAS: 'part_records=1' });
    try {
      const { secret } = await quotaApi.key();
      expect((await quotaApi.get('/v1/parts/yageo/RC0603FR-0710KL', secret)).status).toBe(200);
      const res = await quotaApi.get('/v1/parts/yageo/RC0603FR-0710KL', secret);
      expect(res.status).toBe(402);
      expect((await body(res)).error).toEqual({
        type: 'usage_limit_exceeded',
        message: 'The monthly usage quota for part records is exhausted.',
        request_id: '<request id>',
      });
    } finally {
      await quotaApi.close();
    }
  });
});

describe('throttle', () => {
  it('admits exactly 60 requests a minute per key; the 61st is 429 with Retry-After; headers on every response', async () => {
    const { secret } = await api.key();
    const before = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 60; i++) {
      const res = await api.get('/v1/usage', secret);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(59 - i));
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(before + 60);
      expect(reset).toBeLessThanOrEqual(before + 62);
      await res.body?.cancel();
    }
    const res = await api.get('/v1/usage', secret);
    expect(res.status).toBe(429);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await body(res)).toEqual({ error: { type: 'rate_limit_exceeded', message: 'Rate limit exceeded. Try again later.', request_id: '<request id>' } });
  });

  it('throttles invalid keys too, before judging them', async () => {
    // An API of its own: the failures count against the client address (test/unit/auth-throttle.test.ts),
    // which the other tests share.
    const own = await startTestApi();
    try {
      const bad = `psk_${'B'.repeat(43)}`;
      for (let i = 0; i < 60; i++) expect((await own.get('/v1/usage', bad)).status).toBe(401);
      const res = await own.get('/v1/usage', bad);
      expect(res.status).toBe(429);
    } finally {
      await own.close();
    }
  });

  it("applies a key's own limit", async () => {
    const { secret } = await api.key({ rateLimit: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get('/v1/usage', secret)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('answers the monthly request cap with its own message', async () => {
    const capped = await startTestApi({ MONTHLY_REQUEST_CAP: '2' });
    try {
      const { secret } = await capped.key();
      expect((await capped.get('/v1/usage', secret)).status).toBe(200);
      expect((await capped.get('/v1/usage', secret)).status).toBe(200);
      const res = await capped.get('/v1/usage', secret);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0'); // "0 on a 429", though the minute's window has room
      expect((await body(res)).error).toEqual({ type: 'rate_limit_exceeded', message: 'Monthly API request limit reached.', request_id: '<request id>' });
    } finally {
      await capped.close();
    }
  });
});

describe('error forms', () => {
  it('names the bad field in the 422 validation form', async () => {
    const { secret } = await api.key();
    const res = await api.get(`/v1/parts/yageo/${'X'.repeat(2401)}`, secret);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        {
          loc: ['path', 'mpn'],
          msg: 'String should have at most 2400 characters',
          type: 'string_too_long',
          input: `${'X'.repeat(1000)}…`,
          ctx: { limit: 2400 },
        },
      ],
    });
  });

  it('answers a method a route does not have with 405 in the envelope, with Allow and the rate-limit headers', async () => {
    const { secret } = await api.key();
    const res = await api.post('/v1/usage', {}, secret);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect((await body(res)).error).toEqual({
      type: 'method_not_allowed',
      message: 'POST is not allowed here; allowed: HEAD, GET.',
      request_id: '<request id>',
    });
  });

  it('throttles /v1 requests no route takes, with the headers, and refuses them once the window is full', async () => {
    const { secret } = await api.key({ rateLimit: 2 });
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.get('/v1/no-such-route', secret);
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(statuses).toEqual([404, 404, 429]);
    expect(remaining).toEqual(['1', '0', '0']);
    // In any case, as the router matches paths.
    expect((await api.get('/V1/no-such-route', secret)).status).toBe(429);
    // Outside /v1 nothing is throttled.
    const other = await api.get('/no-such-route', secret);
    expect([other.status, other.headers.get('x-ratelimit-limit')]).toEqual([404, null]);
  });

  it('answers a method the API does not know with 405 (never a 5xx), and counts a request once when its admission fails', async () => {
    const res = await fetch(`${api.url}/v1/usage`, { method: 'PROPFIND' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('HEAD, GET');
    expect((await body(res)).error).toEqual({
      type: 'method_not_allowed',
      message: 'PROPFIND is not allowed here; allowed: HEAD, GET.',
      request_id: '<request id>',
    });
    // An admission that fails after the throttle counted the request (a store error): one count, a 500.
    const { secret } = await api.key({ rateLimit: 10 });
    // The embedded gate counts through the store's synchronous countRequestNow, other gates through countRequest.
    const accounts = api.services.accounts as unknown as Record<string, unknown>;
    const method = 'countRequestNow' in accounts ? 'countRequestNow' : 'countRequest';
    const original = accounts[method];
    accounts[method] = () => {
      accounts[method] = original;
      throw new Error('SQLITE_BUSY (simulated)');
    };
    expect((await api.get('/v1/usage', secret)).status).toBe(500);
    expect((await api.get('/v1/usage', secret)).headers.get('x-ratelimit-remaining')).toBe('8');
  });

  it('answers a body that is not JSON with 415, and JSON that is not an object with 422', async () => {
    const { secret } = await api.key();
    const send = (body: string, type: string) =>
      fetch(`${api.url}/v1/categories/match`, { method: 'POST', body, headers: { Authorization: `Bearer ${secret}`, 'Content-Type': type } });
    const text = await send('{"query":"capacitor"}', 'text/plain');
    expect(text.status).toBe(415);
    expect(text.headers.get('x-ratelimit-limit')).toBe('60');
    expect((await body(text)).error).toEqual({
      type: 'unsupported_media_type',
      message: 'Request body must be JSON: send Content-Type: application/json (got text/plain).',
      request_id: '<request id>',
    });
    // Other JSON media types are read as JSON; a chunked text body is refused too.
    expect((await send('{"query":"capacitor"}', 'application/vnd.api+json')).status).toBe(200);
    const chunked = await fetch(`${api.url}/v1/categories/match`, {
      method: 'POST',
      body: new Blob(['{"query":"capacitor"}']).stream(),
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'text/plain' },
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(415);
    const nul = await send('null', 'application/json');
    expect(nul.status).toBe(422);
    expect(await nul.json()).toEqual({
      detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type' }],
    });
    // Text that is no JSON at all, even when it does not start like an object, is json_invalid.
    for (const text of ['not json', 'nul', '{"query": "x",']) {
      const bad = await send(text, 'application/json');
      expect(bad.status, text).toBe(422);
      expect(await bad.json(), text).toEqual({ detail: [{ loc: ['body'], msg: 'Request body is not valid JSON.', type: 'json_invalid' }] });
    }
  });

  it('echoes at most 1,000 characters of a rejected value', async () => {
    const { secret } = await api.key();
    const res = await api.post('/v1/categories/match', { query: 'x'.repeat(5_000) }, secret);
    expect(res.status).toBe(422);
    const [d] = ((await res.json()) as { detail: { input: string; type: string }[] }).detail;
    expect(d!.type).toBe('string_too_long');
    expect(d!.input).toBe(`${'x'.repeat(1_000)}…`);
  });
});

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, version 0.1.0, with bearer security', async () => {
    const res = await api.get('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    // headers a client reads: where a redirect goes, which search mode answered
    expect(Object.keys(doc.paths['/v1/parts/{manufacturer}/{mpn}'].get.responses['308'].headers)).toContain('Location');
    expect(doc.paths['/v1/parts/agentic-search'].get.responses['200'].headers['X-Search-Mode'].schema.enum).toEqual(['hybrid', 'lexical-only']);
  });

  it('describes every mounted route', async () => {
    const doc = (await (await api.get('/openapi.json')).json()) as any;
    const app = createApp(api.services);
    const mounted = app.router.stack
      .filter((l) => l.path !== '/openapi.json')
      .flatMap((l) => l.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(l.path).replace(/[:*]([A-Za-z_]+)/g, '{$1}')}`));
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(new Set(documented)).toEqual(new Set(mounted));
    expect(mounted.length).toBe(apiRoutes(api.services).length);
  });
});
