/**
 * Issue 32, failed authentications throttled per client address: a flood of random keys from one client
 * is refused after the default limit, before the keys are judged; a key already in use from that address
 * keeps its own window; X-Forwarded-For is read only from a trusted proxy.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddresses } from '../../src/http/middleware/client-address.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

const randomKey = () => `psk_${randomBytes(32).toString('base64url')}`;

describe('failed authentications, per client address', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => api?.close());

  it('a flood of random keys is refused once the address has used its failures, unjudged; a key in use keeps working', async () => {
    const { secret } = await api.key({ rateLimit: 100 });
    expect((await api.get('/v1/usage', secret)).status).toBe(200);
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 7; i++) {
      // Random keys, a missing one, a malformed one: one budget.
      const res = i === 2 ? await api.get('/v1/usage') : i === 3 ? await api.get('/v1/usage', 'nonsense') : await api.get('/v1/usage', randomKey());
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
        expect(((await res.json()) as { error: { type: string } }).error.type).toBe('rate_limit_exceeded');
      } else await res.body?.cancel();
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(remaining).toEqual(['4', '3', '2', '1', '0', '0', '0']);
    // The key in use is counted in its own window.
    const ok = await api.get('/v1/usage', secret);
    expect([ok.status, ok.headers.get('x-ratelimit-limit')]).toEqual([200, '100']);
    // GraphQL and paths no route takes draw from the same budget.
    expect((await api.post('/graphql', { query: '{ supCategories { slug } }' }, randomKey())).status).toBe(429);
    expect((await api.get('/v1/no-such-route', randomKey())).status).toBe(429);
  });

  it('POST /connect/token shares the budget: random client ids from a spent address are refused unjudged', async () => {
    const { keyId, secret } = await api.key();
    const token = (id: string, key: string) =>
      fetch(`${api.url}/connect/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: key }).toString(),
      });
    const res = await token(`key_${randomBytes(8).toString('hex')}`, randomKey());
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: 'rate_limit_exceeded', error_description: 'Too many token requests. Try again later.' });
    // Its credentials are not judged: a right pair is refused alike.
    expect((await token(keyId, secret)).status).toBe(429);
  });

  it('X-Forwarded-For from a client that is not a trusted proxy moves nothing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await api.get('/v1/usage', randomKey(), { 'X-Forwarded-For': `198.51.100.${i}` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([429, 429]);
  });
});

describe('behind a trusted proxy', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ RATE_LIMIT_PER_MINUTE: '2', TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' });
  });
  afterAll(async () => api?.close());

  it('a failed token request counts against the forwarded client too', async () => {
    const token = async (xff: string) =>
      (
        await fetch(`${api.url}/connect/token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': xff },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: `key_${randomBytes(8).toString('hex')}`,
            client_secret: randomKey(),
          }).toString(),
        })
      ).status;
    expect([await token('203.0.113.50'), await token('203.0.113.50')]).toEqual([401, 401]);
    // The API refuses that client's next unknown key unjudged.
    expect((await api.get('/v1/usage', randomKey(), { 'X-Forwarded-For': '203.0.113.50' })).status).toBe(429);
  });

  it('each forwarded client has its own budget; a client cannot pick its address by prepending hops', async () => {
    const from = async (xff: string) => (await api.get('/v1/usage', randomKey(), { 'X-Forwarded-For': xff })).status;
    expect([await from('203.0.113.1'), await from('203.0.113.1'), await from('203.0.113.1')]).toEqual([401, 401, 429]);
    expect(await from('203.0.113.2')).toBe(401);
    // The proxy appends the address it saw: what the client wrote before it is not believed.
    expect(await from('192.0.2.77, 203.0.113.1')).toBe(429);
    // Past another trusted hop (10.1.2.3), the first untrusted one is the client.
    expect(await from('203.0.113.1, 10.1.2.3')).toBe(429);
  });
});

describe('client addresses', () => {
  const ctx = (peer: string, xff = '') => ({ req: { socket: { remoteAddress: peer } }, get: () => xff }) as unknown as Context;

  it('reads the peer, an IPv4-mapped one as IPv4, and IPv6 by its /64', () => {
    const of = clientAddresses([]);
    expect(of(ctx('203.0.113.9', '1.2.3.4'))).toBe('203.0.113.9');
    expect(of(ctx('::ffff:203.0.113.9'))).toBe('203.0.113.9');
    expect(of(ctx('2001:db8:1:2:aaaa:bbbb:cccc:dddd'))).toBe('2001:db8:1:2::/64');
    expect(of(ctx('2001:db8:1:2::1'))).toBe('2001:db8:1:2::/64');
    expect(of(ctx('2001:db8::1'))).toBe('2001:db8:0:0::/64');
    expect(of(ctx('::1'))).toBe('0:0:0:0::/64');
  });

  it('reads X-Forwarded-For from trusted proxies only, from its right end, ports and brackets aside', () => {
    const of = clientAddresses(['10.0.0.0/8', '2001:db8:ffff::/48']);
    expect(of(ctx('10.0.0.5', '198.51.100.7'))).toBe('198.51.100.7');
    expect(of(ctx('10.0.0.5', '198.51.100.7:5711'))).toBe('198.51.100.7');
    expect(of(ctx('10.0.0.5', '1.1.1.1, [2001:db8:5:6::9]:443'))).toBe('2001:db8:5:6::/64');
    expect(of(ctx('2001:db8:ffff::1', '198.51.100.7, 10.9.9.9'))).toBe('198.51.100.7');
    // No header, or a hop that is no address: the last address the proxies vouch for.
    expect(of(ctx('10.0.0.5'))).toBe('10.0.0.5');
    expect(of(ctx('10.0.0.5', 'unknown, 10.0.0.6'))).toBe('10.0.0.6');
    expect(of(ctx('203.0.113.9', '198.51.100.7'))).toBe('203.0.113.9');
  });

  it('refuses a TRUSTED_PROXIES entry that is no address or block at start-up', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config.ts');
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUSTED_PROXIES: 'proxy.example' })).toThrow(/TRUSTED_PROXIES must list IP addresses or CIDR blocks/);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).trustedProxies).toEqual(['10.0.0.0/8', '::1']);
  });
});
