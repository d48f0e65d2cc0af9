import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';

describe('HTTP skeleton', () => {
  let api: TestApi;
  let server: { url: string };
  let services: TestApi['services'];
  beforeAll(async () => {
    api = await startTestApi();
    server = { url: api.url };
    services = api.services;
  });
  afterAll(async () => api?.close());

  it('GET /health answers the spec Health object, nothing more', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['status', 'timestamp', 'version']);
    expect(body).toMatchObject({ status: 'ok', version: '0.1.0' });
    expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('echoes a sane client request id', async () => {
    const res = await fetch(`${server.url}/health`, { headers: { 'X-Request-Id': 'client-trace-0001' } });
    expect(res.headers.get('x-request-id')).toBe('client-trace-0001');
  });

  it('says in diagnostics that search runs lexical-only without a model', async () => {
    const account = await services.accounts.createAccount({ name: 'diag' });
    const { secret } = await services.accounts.createKey({ account_id: account.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 60 });
    const res = await fetch(`${server.url}/v1/diagnostics`, { headers: { Authorization: `Bearer ${secret}` } });
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({
      engine: { kind: 'sqlite', parts: 12, index_features: ['price_bands', 'mpn_identity', 'spec_attributes'] },
      search_mode: 'lexical-only',
      embeddings: { model: null, message: expect.stringMatching(/^no embedding model configured .*: lexical-only search/) },
    });
  });

  it('answers an unknown route with the 404 envelope', async () => {
    // Unknown routes are answered before authentication: a 404 leaks nothing a caller could not guess.
    const res = await fetch(`${server.url}/v1/nothing-here`, { headers: { 'X-Request-Id': 'trace-404-abc' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { type: 'not_found', message: 'No route for GET /v1/nothing-here.', request_id: 'trace-404-abc' },
    });
  });
});
