/**
 * POST /connect/token (OAuth2 client credentials) and the access tokens it issues, over the real HTTP
 * server: as a Supply API client gets one (form body or HTTP Basic), sends it (Authorization: Bearer,
 * or a `token` header) and reads its `exp`; the token is its key's (throttle window, ledger,
 * revocation) within its scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('POST /connect/token', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => api?.close());

  const requestToken = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${api.url}/connect/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body });
  const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

  it('issues a signed JWT with exp and the key capabilities as scope for client_id = key id, client_secret = key', async () => {
    const { secret, keyId, accountId } = await api.key();
    const before = Math.floor(Date.now() / 1000);
    const res = await requestToken(form({ grant_type: 'client_credentials', client_id: keyId, client_secret: secret, scope: 'supply.domain' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number; scope: string };
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 86_400, scope: 'parts:read ai:run' });
    const [header] = body.access_token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = claimsOf(body.access_token);
    expect(claims).toMatchObject({ iss: 'partsearch', sub: keyId, client_id: keyId, acc: accountId, scope: 'parts:read ai:run' });
    expect(claims.exp).toBeGreaterThanOrEqual(before + 86_400);
    expect(claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 86_400);
  });

  it('takes the client credentials as HTTP Basic too, and a JSON body', async () => {
    const { secret, keyId } = await api.key();
    const basic = await requestToken(form({ grant_type: 'client_credentials' }), {
      Authorization: `Basic ${Buffer.from(`${keyId}:${secret}`).toString('base64')}`,
    });
    expect(basic.status).toBe(200);
    const json = await fetch(`${api.url}/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: keyId, client_secret: secret }),
    });
    expect(json.status).toBe(200);
  });

  it('answers OAuth errors: invalid_request, unsupported_grant_type, invalid_client, invalid_scope', async () => {
    const { secret, keyId } = await api.key({ capabilities: ['parts:read'] });
    const other = await api.key();
    const cases: [string, Record<string, string>, number, string][] = [
      ['no grant', { client_id: keyId, client_secret: secret }, 400, 'invalid_request'],
      ['password grant', { grant_type: 'password', client_id: keyId, client_secret: secret }, 400, 'unsupported_grant_type'],
      ['no secret', { grant_type: 'client_credentials', client_id: keyId }, 400, 'invalid_request'],
      ['another key id', { grant_type: 'client_credentials', client_id: other.keyId, client_secret: secret }, 401, 'invalid_client'],
      ['wrong secret', { grant_type: 'client_credentials', client_id: keyId, client_secret: other.secret }, 401, 'invalid_client'],
      ['scope beyond the key', { grant_type: 'client_credentials', client_id: keyId, client_secret: secret, scope: 'ai:run' }, 400, 'invalid_scope'],
    ];
    for (const [what, fields, status, error] of cases) {
      const res = await requestToken(form(fields));
      expect([what, res.status]).toEqual([what, status]);
      expect(await res.json()).toEqual({ error, error_description: expect.any(String) });
    }
    const basic = await requestToken(form({ grant_type: 'client_credentials' }), { Authorization: `Basic ${Buffer.from(`${keyId}:nope`).toString('base64')}` });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toBe('Basic realm="partsearch"');
  });

  it('a token works as Bearer and as a token header, on REST and GraphQL, in its key throttle window', async () => {
    const { secret, keyId } = await api.key({ rateLimit: 10 });
    const token = (
      (await (await requestToken(form({ grant_type: 'client_credentials', client_id: keyId, client_secret: secret }))).json()) as { access_token: string }
    ).access_token;
    const viaKey = await api.get('/v1/parts/search?mpn=LM358', secret);
    expect(viaKey.headers.get('x-ratelimit-remaining')).toBe('9');
    const viaBearer = await api.get('/v1/parts/search?mpn=LM358', token);
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.headers.get('x-ratelimit-remaining')).toBe('8');
    const viaHeader = await api.get('/v1/parts/search?mpn=LM358', null, { token });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.headers.get('x-ratelimit-remaining')).toBe('7');
    const graphql = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', token },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.status).toBe(200);
    expect(await graphql.json()).toEqual({ data: { __typename: 'Query' } });
    expect(graphql.headers.get('x-ratelimit-remaining')).toBe('6');
  });

  it("charges the key's account: a paid part detail through a token is in the key's ledger", async () => {
    const { secret, keyId, accountId } = await api.key();
    const token = api.services.tokens.issue({ id: keyId, account_id: accountId }, ['parts:read']).token;
    expect(secret).toBeTruthy();
    const res = await api.get('/v1/parts/texas-instruments/LM358DR', token);
    expect(res.status).toBe(200);
    const usage = await api.services.accounts.usage(accountId, new Date().toISOString().slice(0, 7));
    expect(usage.by_class.part_records.units).toBe(1);
  });

  it('grants only its scope: a parts:read token of a key that may run AI jobs is refused them', async () => {
    const { secret, keyId } = await api.key({ capabilities: ['parts:read', 'ai:run'] });
    const res = await requestToken(form({ grant_type: 'client_credentials', client_id: keyId, client_secret: secret, scope: 'parts:read openid' }));
    const body = (await res.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe('parts:read');
    const jobs = await api.get('/v1/jobs', body.access_token);
    expect(jobs.status).toBe(403);
    expect(((await jobs.json()) as { error: { type: string } }).error.type).toBe('insufficient_scope');
    expect((await api.get('/v1/jobs', secret)).status).toBe(200);
  });

  it('refuses an expired, tampered or foreign token, and the tokens of a revoked key', async () => {
    const { keyId, accountId } = await api.key();
    const tokens = api.services.tokens;
    const expired = tokens.issue({ id: keyId, account_id: accountId }, ['parts:read'], Date.now() - 86_401_000).token;
    const good = tokens.issue({ id: keyId, account_id: accountId }, ['parts:read']).token;
    const [h, p, sig] = good.split('.') as [string, string, string];
    const widened = Buffer.from(JSON.stringify({ ...claimsOf(good), scope: 'parts:read ai:run' })).toString('base64url');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    for (const bad of [expired, `${h}.${widened}.${sig}`, `${h}.${p}.${sig.slice(0, -2)}AA`, unsigned]) {
      const res = await api.get('/v1/parts/search?mpn=LM358', bad);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { type: string; message: string } }).error).toMatchObject({
        type: 'invalid_api_key',
        message: expect.stringMatching(/access token/),
      });
    }
    expect((await api.get('/v1/parts/search?mpn=LM358', good)).status).toBe(200);
    await api.services.accounts.revokeKey(keyId);
    expect((await api.get('/v1/parts/search?mpn=LM358', good)).status).toBe(401);
    expect((await api.get('/v1/parts/search?mpn=LM358', null, { token: good })).status).toBe(401);
  });
});
