/**
 * The OpenSearch client's HTTP behaviour (client.ts over the official client, cluster-transport.ts):
 * keep-alive, retries, time limits and error answers. The peer is a loopback node:http server scripted per test, standing in
 * for OpenSearch only at the HTTP level (the adapter against a real node is
 * test/integration/opensearch-engine.test.ts and the contract suite).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, OpenSearchError, type OsClient } from '../../src/engines/opensearch/client.ts';
import { ApiError } from '../../src/errors.ts';

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

/** A loopback HTTP server answering with `handler`; counts connections and requests. */
async function peer(handler: Handler) {
  const sockets = new Set<Socket>();
  let connections = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    requests: () => requests,
    open: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
};

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});
async function setUp(handler: Handler, opts: Parameters<typeof createClient>[1] = {}) {
  const p = await peer(handler);
  const client: OsClient = createClient(p.url, { baseDelayMs: 1, maxDelayMs: 5, ...opts });
  cleanup.push(p.close, () => client.close());
  return { p, client };
}

describe('OpenSearch client', () => {
  it('sends the JSON body with its length, parses the answer and reuses one connection', async () => {
    const seen: { method?: string; url?: string; type?: string; length?: string; body: string }[] = [];
    const { p, client } = await setUp((req, body, res) => {
      seen.push({ method: req.method, url: req.url, type: req.headers['content-type'], length: req.headers['content-length'], body });
      json(res, 200, { hits: { hits: [{ _id: '7', name: 'Ω résistance' }] } });
    });
    for (let i = 0; i < 5; i++) {
      const r = await client.send<{ hits: { hits: { _id: string; name: string }[] } }>({
        method: 'POST',
        path: '/idx/_search',
        query: { size: 3 },
        body: { q: 'µ' },
      });
      expect(r.hits.hits[0]).toEqual({ _id: '7', name: 'Ω résistance' });
    }
    expect(seen[0]).toEqual({
      method: 'POST',
      url: '/idx/_search?size=3',
      type: 'application/json',
      length: String(Buffer.byteLength('{"q":"µ"}')),
      body: '{"q":"µ"}',
    });
    expect(p.requests()).toBe(5);
    expect(p.connections()).toBe(1);
    client.close();
    await expect.poll(() => p.open()).toBe(0);
  });

  it('decodes a large answer whose multi-byte characters straddle chunks', async () => {
    const big = 'Ω'.repeat(200_000);
    const { client } = await setUp((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const text = Buffer.from(JSON.stringify({ big }));
      // odd-sized writes split the two-byte characters
      for (let i = 0; i < text.length; i += 4095) res.write(text.subarray(i, i + 4095));
      res.end();
    });
    expect((await client.send<{ big: string }>({ method: 'GET', path: '/' })).big).toBe(big);
  });

  it('answers null for an allowed status, and a HEAD request has no body', async () => {
    const { client } = await setUp((req, _body, res) => (req.method === 'HEAD' ? (res.writeHead(200), res.end()) : json(res, 404, { error: 'missing' })));
    expect(await client.request({ method: 'GET', path: '/nope', allow: [404] })).toBeNull();
    expect(await client.request({ method: 'HEAD', path: '/there', allow: [404] })).toEqual({});
  });

  it('turns a 4xx answer into an OpenSearchError with the type and reason, without retrying', async () => {
    const { p, client } = await setUp((_req, _body, res) =>
      json(res, 400, { error: { type: 'parsing_exception', reason: 'unknown query [nope]', root_cause: [] }, status: 400 }),
    );
    const e = await client.send({ method: 'POST', path: '/idx/_search', body: {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OpenSearchError);
    expect(e).toMatchObject({ status: 400, type: 'parsing_exception', reason: 'unknown query [nope]', request: 'POST /idx/_search' });
    expect(p.requests()).toBe(1);
  });

  it('retries 429 and 5xx answers (honouring Retry-After) and then succeeds', async () => {
    let n = 0;
    const { p, client } = await setUp((_req, _body, res) => {
      n++;
      if (n === 1) return json(res, 429, { error: { type: 'es_rejected_execution_exception', reason: 'queue full' } }, { 'retry-after': '0' });
      if (n === 2) return json(res, 503, { error: { type: 'unavailable', reason: 'not ready' } });
      json(res, 200, { ok: true });
    });
    expect(await client.send({ method: 'GET', path: '/' })).toEqual({ ok: true });
    expect(p.requests()).toBe(3);
  });

  it('gives up after the retries with engine_unavailable, the detail in the cause', async () => {
    const { p, client } = await setUp((_req, _body, res) => json(res, 503, { error: { type: 'cluster_block_exception', reason: 'blocked' } }), { retries: 2 });
    const e = await client.send({ method: 'GET', path: '/_cluster/health' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 'engine_unavailable' });
    expect(String((e as Error).cause)).toMatch(/GET \/_cluster\/health: 503 cluster_block_exception: blocked \(after 3 attempts\)/);
    expect(p.requests()).toBe(3);
  });

  it('fails a request that gets no answer within its time limit, and retries it', async () => {
    const { p, client } = await setUp(() => undefined /* never answers */, { retries: 1 });
    const started = Date.now();
    const e = await client.send({ method: 'GET', path: '/slow', timeoutMs: 100 }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'engine_unavailable' });
    expect(String((e as Error).cause)).toMatch(/no answer within 100 ms \(after 2 attempts\)/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(p.requests()).toBe(2);
  });

  it('retries a refused connection, and a connection the peer drops before answering', async () => {
    const dead = await peer(() => undefined);
    const url = dead.url;
    await dead.close();
    const refused = createClient(url, { retries: 1, baseDelayMs: 1, maxDelayMs: 2 });
    cleanup.push(() => refused.close());
    const e = await refused.send({ method: 'GET', path: '/' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'engine_unavailable' });
    expect(String((e as Error).cause)).toMatch(/ECONNREFUSED.*after 2 attempts/);

    let n = 0;
    const { p, client } = await setUp((req, _body, res) => {
      if (++n === 1) return req.socket.destroy();
      json(res, 200, { second: true });
    });
    expect(await client.send({ method: 'GET', path: '/' })).toEqual({ second: true });
    expect(p.requests()).toBe(2);
  });

  it('waits as long as Retry-After says (up to the largest delay)', async () => {
    let n = 0;
    const { client } = await setUp((_req, _body, res) => (++n === 1 ? json(res, 503, { error: 'busy' }, { 'retry-after': '1' }) : json(res, 200, { ok: 1 })), {
      baseDelayMs: 1,
      maxDelayMs: 300,
    });
    const started = Date.now();
    expect(await client.send({ method: 'GET', path: '/' })).toEqual({ ok: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290); // the backoff alone would wait about 1 ms
  });

  it('retries an answer cut off after its headers', async () => {
    let n = 0;
    const { p, client } = await setUp((req, _body, res) => {
      if (++n > 1) return json(res, 200, { whole: true });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => req.socket.destroy(), 20);
    });
    expect(await client.send({ method: 'GET', path: '/' })).toEqual({ whole: true });
    expect(p.requests()).toBe(2);
  });

  it('resends at once a request whose kept-alive connection the peer had closed', async () => {
    let n = 0;
    const { p, client } = await setUp((req, _body, res) => (++n === 2 ? req.socket.destroy() : json(res, 200, { n })), { baseDelayMs: 5000, maxDelayMs: 5000 });
    expect(await client.send({ method: 'GET', path: '/' })).toEqual({ n: 1 });
    const started = Date.now();
    expect(await client.send({ method: 'GET', path: '/' })).toEqual({ n: 3 }); // the second arrived on the first's connection
    expect(Date.now() - started).toBeLessThan(2000); // not the 2.5-5 s backoff
    expect(p.connections()).toBe(2);
  });

  it('leaves no timer behind, answered or not', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const { client } = await setUp((req, _body, res) => (req.url === '/bad' ? json(res, 400, { error: { type: 'x', reason: 'y' } }) : json(res, 200, {})));
    const before = timers();
    await client.send({ method: 'GET', path: '/' });
    await client.send({ method: 'GET', path: '/bad' }).catch(() => undefined);
    // At most as many: a timer of an earlier test's client (its pool closing) may end meanwhile.
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('answers engine_unavailable at once for a failure retrying cannot mend (TLS to a plain-HTTP port)', async () => {
    const { p } = await setUp((_req, _body, res) => json(res, 200, {}));
    const tls = createClient(p.url.replace('http:', 'https:'), { retries: 3, baseDelayMs: 1, maxDelayMs: 2 });
    cleanup.push(() => tls.close());
    const e = await tls.send({ method: 'GET', path: '/' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'engine_unavailable' });
    expect(String((e as Error).cause)).toMatch(/\(after 1 attempt\)/);
  });

  it('after close, fails requests in flight and new ones with engine_unavailable, without retrying', async () => {
    const { p, client } = await setUp(() => undefined /* never answers */, { retries: 3, baseDelayMs: 1, maxDelayMs: 2 });
    const inFlight = client.send({ method: 'GET', path: '/slow' }).catch((x: unknown) => x);
    await expect.poll(() => p.requests()).toBe(1);
    client.close();
    expect(await inFlight).toMatchObject({ code: 'engine_unavailable' });
    expect(await client.send({ method: 'GET', path: '/' }).catch((x: unknown) => x)).toMatchObject({ code: 'engine_unavailable' });
    expect(p.requests()).toBe(1);
  });
});
