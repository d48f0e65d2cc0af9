/**
 * How the adapter reaches a cluster through the official client: several nodes (round-robin, another
 * node after a connection failure), TLS (a CA of its own, no verification, a client certificate),
 * Basic auth and AWS SigV4. The peers are loopback servers standing in for OpenSearch nodes at the
 * HTTP level, checking what arrives (the integ-test distribution serves neither TLS nor auth nor SigV4;
 * failover and sniffing on a real cluster: test/cluster/). Certificates come from openssl, made per run.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type OsClient } from '../../src/engines/opensearch/client.ts';
import { connectionFromUrl, DEFAULT_TLS, type OpenSearchConnection } from '../../src/engines/opensearch/options.ts';
import { loadConfig } from '../../src/config.ts';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Subject CN of the client certificate, when one was presented. */
  clientCn?: string;
}

type Answer = (seen: Seen, res: http.ServerResponse) => void;
const ok: Answer = (s, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true, url: s.url }));
};

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A loopback node (HTTP, or HTTPS with `tls`) recording every request. */
async function node(answer: Answer = ok, tls?: https.ServerOptions) {
  const seen: Seen[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const peer = (req.socket as { getPeerCertificate?: () => { subject?: { CN?: string } } }).getPeerCertificate?.();
      const s: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), clientCn: peer?.subject?.CN };
      seen.push(s);
      answer(s, res);
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  cleanup.push(close);
  return { url, seen, close };
}

function client(c: OpenSearchConnection): OsClient {
  const cl = createClient(c, { baseDelayMs: 1, maxDelayMs: 5 });
  cleanup.push(() => cl.close());
  return cl;
}

describe('several nodes', () => {
  it('sends requests round-robin over the nodes', async () => {
    const [a, b] = [await node(), await node()];
    const cl = client(connectionFromUrl(`${a.url}, ${b.url}/`));
    for (let i = 0; i < 6; i++) await cl.send({ method: 'GET', path: '/' });
    expect([a.seen.length, b.seen.length]).toEqual([3, 3]);
  });

  it('sends a request to another node at once when its node refuses or drops the connection, then leaves that node out', async () => {
    const down = await node();
    const downUrl = down.url;
    await down.close();
    const live = await node();
    // A node that resets every connection as soon as a request arrives.
    const resetter = http.createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => resetter.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => resetter.close(() => resolve())));
    const resetUrl = `http://127.0.0.1:${(resetter.address() as AddressInfo).port}`;
    const cl = createClient(connectionFromUrl([downUrl, resetUrl, live.url].join(',')), { baseDelayMs: 5000, maxDelayMs: 5000 });
    cleanup.push(() => cl.close());
    const started = Date.now();
    for (let i = 0; i < 6; i++) expect(await cl.send({ method: 'GET', path: `/n${i}` })).toMatchObject({ ok: true });
    expect(Date.now() - started).toBeLessThan(2000); // no 2.5-5 s backoff: straight to the next node
    expect(live.seen.map((s) => s.url)).toEqual(['/n0', '/n1', '/n2', '/n3', '/n4', '/n5']);
  });

  it('fails with engine_unavailable naming the last node problem when no node answers', async () => {
    const gone = [await node(), await node()];
    const urls = gone.map((n) => n.url);
    for (const n of gone) await n.close();
    const cl = createClient(connectionFromUrl(urls.join(',')), { retries: 3, baseDelayMs: 1, maxDelayMs: 2 });
    cleanup.push(() => cl.close());
    const e = await cl.send({ method: 'GET', path: '/' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'engine_unavailable' });
    expect(String((e as Error).cause)).toMatch(/GET \/: ECONNREFUSED .*127\.0\.0\.1:\d+.*\(after 4 attempts\)/);
  });
});

describe('authentication', () => {
  it('sends Basic auth from credentials in the URL, and from OPENSEARCH_USERNAME/PASSWORD, to every node', async () => {
    const [a, b] = [await node(), await node()];
    const inUrl = client(connectionFromUrl(`${a.url.replace('//', '//ps%40user:s%3Acret@')},${b.url}`));
    await inUrl.send({ method: 'GET', path: '/' });
    await inUrl.send({ method: 'GET', path: '/' });
    const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
    expect([a.seen[0]!.headers.authorization, b.seen[0]!.headers.authorization]).toEqual([basic('ps@user', 's:cret'), basic('ps@user', 's:cret')]);

    const config = loadConfig({ EMBEDDING_MODEL_DIR: 'none', OPENSEARCH_URL: a.url, OPENSEARCH_USERNAME: 'reader', OPENSEARCH_PASSWORD: 'pw' });
    await client(config.opensearch!.connection).send({ method: 'GET', path: '/' });
    expect(a.seen[1]!.headers.authorization).toBe(basic('reader', 'pw'));
  });

  it('signs each request with AWS SigV4 (service es, and aoss for Serverless), which the node verifies', async () => {
    const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token-1' };
    const verdicts: string[] = [];
    const n = await node((s, res) => {
      verdicts.push(verifySigV4(s, creds.secretAccessKey));
      ok(s, res);
    });
    for (const service of ['es', 'aoss'] as const) {
      const config = loadConfig({
        EMBEDDING_MODEL_DIR: 'none',
        OPENSEARCH_URL: n.url,
        OPENSEARCH_AWS_REGION: 'eu-west-1',
        OPENSEARCH_AWS_SERVICE: service,
        AWS_ACCESS_KEY_ID: creds.accessKeyId,
        AWS_SECRET_ACCESS_KEY: creds.secretAccessKey,
        AWS_SESSION_TOKEN: creds.sessionToken,
      });
      const cl = client(config.opensearch!.connection);
      await cl.send({ method: 'POST', path: '/parts-v1/_search', query: { size: 3, q: 'a b*' }, body: { query: { term: { mpn: 'LM358' } } } });
      await cl.send({ method: 'POST', path: '/_bulk', ndjson: '{"index":{"_index":"x","_id":"1"}}\n{"a":1}\n' });
      await cl.send({ method: 'HEAD', path: '/parts-meta' });
    }
    expect(verdicts).toEqual(Array(6).fill('valid'));
    expect(n.seen[0]!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/es\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$/,
    );
    expect(n.seen[3]!.headers.authorization).toMatch(/\/eu-west-1\/aoss\/aws4_request/);
    expect(n.seen[0]!.headers['x-amz-security-token']).toBe(creds.sessionToken);
    // A wrong secret would not pass the same check.
    expect(verifySigV4(n.seen[0]!, 'another-secret')).toBe('signature mismatch');
  });
});

describe('TLS', () => {
  let dir: string;
  let pem: (name: string) => Buffer;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pstest-tls-'));
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=partsearch test CA');
    for (const [name, cn, ext] of [
      ['server', 'localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
      ['client', 'partsearch-api', 'extendedKeyUsage=clientAuth'],
    ] as const) {
      run('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
      fs.writeFileSync(path.join(dir, `${name}.ext`), `${ext}\n`);
      run(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.pem`,
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
      );
    }
    pem = (name) => fs.readFileSync(path.join(dir, name));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const tlsNode = (mutual = false) =>
    node(ok, { key: pem('server.key'), cert: pem('server.pem'), ...(mutual ? { ca: pem('ca.pem'), requestCert: true, rejectUnauthorized: true } : {}) });
  const connection = (url: string, tls: Partial<OpenSearchConnection['tls']>) => connectionFromUrl(url, { tls: { ...DEFAULT_TLS, ...tls }, retries: 3 });

  it('trusts a node whose certificate the CA file signed, and refuses it at once without that CA', async () => {
    const n = await tlsNode();
    expect(await client(connection(n.url, { caFile: path.join(dir, 'ca.pem') })).send({ method: 'GET', path: '/' })).toMatchObject({ ok: true });
    const e = await client(connection(n.url, {}))
      .send({ method: 'GET', path: '/' })
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'engine_unavailable' });
    expect(String((e as Error).cause)).toMatch(/certificate.*\(after 1 attempt\)/i);
    expect(n.seen).toHaveLength(1);
  });

  it('accepts any certificate with verification off (OPENSEARCH_TLS_VERIFY=false)', async () => {
    const n = await tlsNode();
    const config = loadConfig({ EMBEDDING_MODEL_DIR: 'none', OPENSEARCH_URL: n.url, OPENSEARCH_TLS_VERIFY: 'false' });
    expect(await client(config.opensearch!.connection).send({ method: 'GET', path: '/' })).toMatchObject({ ok: true });
  });

  it('presents the client certificate to a node that asks for one (mutual TLS)', async () => {
    const n = await tlsNode(true);
    const config = loadConfig({
      EMBEDDING_MODEL_DIR: 'none',
      OPENSEARCH_URL: n.url,
      OPENSEARCH_TLS_CA_FILE: path.join(dir, 'ca.pem'),
      OPENSEARCH_TLS_CERT_FILE: path.join(dir, 'client.pem'),
      OPENSEARCH_TLS_KEY_FILE: path.join(dir, 'client.key'),
    });
    await client(config.opensearch!.connection).send({ method: 'GET', path: '/' });
    expect(n.seen[0]!.clientCn).toBe('partsearch-api');
    const without = await client(connection(n.url, { caFile: path.join(dir, 'ca.pem') }))
      .send({ method: 'GET', path: '/' })
      .catch((x: unknown) => x);
    expect(without).toMatchObject({ code: 'engine_unavailable' });
    expect(n.seen).toHaveLength(1);
  });
});

/**
 * An AWS Signature Version 4 check written from AWS's description of the algorithm (canonical request,
 * string to sign, derived key), independent of the signer under test: 'valid' or what is wrong.
 */
function verifySigV4(s: Seen, secret: string): string {
  const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
    String(s.headers.authorization ?? ''),
  );
  if (!auth) return 'no SigV4 authorization header';
  const [, , date, region, service, signedHeaders, signature] = auth as unknown as string[];
  const amzDate = String(s.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(date!)) return 'x-amz-date does not match the credential scope';
  const at = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!(Math.abs(Date.now() - at) < 5 * 60_000)) return 'x-amz-date too far from now';
  const sha = (x: string) => crypto.createHash('sha256').update(x, 'utf8').digest('hex');
  if (s.headers['x-amz-content-sha256'] !== sha(s.body)) return 'payload hash mismatch';
  const hmac = (key: Buffer | string, x: string) => crypto.createHmac('sha256', key).update(x, 'utf8').digest();
  const rfc3986 = (x: string) => encodeURIComponent(x).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const u = new URL(s.url, 'http://x');
  // Services other than S3 encode each path segment twice.
  const canonicalPath = u.pathname
    .split('/')
    .map((seg) => rfc3986(rfc3986(decodeURIComponent(seg))))
    .join('/');
  const canonicalQuery = [...u.searchParams.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort(([a, x], [b, y]) => (a! < b! ? -1 : a! > b! ? 1 : x! < y! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return 'host or x-amz-date not signed';
  const canonicalHeaders = names
    .map(
      (h) =>
        `${h}:${String(s.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalRequest = [s.method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, s.headers['x-amz-content-sha256']].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region!), service!), 'aws4_request');
  return crypto.createHmac('sha256', key).update(toSign, 'utf8').digest('hex') === signature ? 'valid' : 'signature mismatch';
}
