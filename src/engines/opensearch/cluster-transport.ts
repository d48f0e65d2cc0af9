/**
 * One attempt of a request to some node of the cluster, through the official client
 * (@opensearch-project/opensearch): its connection pool picks the node (round-robin over the living
 * ones), marks a node that fails to answer as dead (tried again after a ping, 60 s later and then
 * backing off), learns the cluster's nodes when sniffing is on, speaks TLS with the given CA and
 * client certificate, and signs requests with Basic auth or AWS SigV4 (the client's AwsSigv4Signer).
 *
 * The client's own retries are off: client.ts retries (another node after a connection failure,
 * backoff for load and 5xx answers), so one policy governs every request. An answer is returned
 * whatever its status; only a failure to get one throws (a NodeFailure, `transient` when another
 * attempt may get an answer). This is the only module that imports the client.
 */
import fs from 'node:fs';
import { Client, errors, type ClientOptions } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws';
import type { OpenSearchConnection } from './options.ts';

export interface NodeRequest {
  method: string;
  path: string;
  /** Already encoded, without `?`. */
  querystring: string;
  /** JSON or NDJSON text. */
  body?: string;
  ndjson: boolean;
  timeoutMs: number;
}

export interface NodeAnswer {
  status: number;
  /** Parsed JSON for a JSON answer, else the text (true/false for HEAD). */
  body: unknown;
  header(name: string): string | undefined;
}

export interface NodeTransport {
  send(req: NodeRequest): Promise<NodeAnswer>;
  /** Whether a node other than the ones that just failed is there to try. */
  hasLivingNode(): boolean;
  /** Ends every connection: requests in flight fail, new ones are refused. */
  close(): void;
  readonly closed: boolean;
}

/** No answer: a connection refused, reset or cut, a time limit, TLS refused, or the client closed. */
export class NodeFailure extends Error {
  constructor(
    message: string,
    /** Another attempt (on another node, or later) may get an answer. */
    readonly transient: boolean,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'NodeFailure';
  }
}

// A TLS handshake that failed (certificate not trusted, wrong host, TLS to a plain-HTTP port) fails
// the same way on every attempt.
const TLS_FAILURE =
  /certificate|CERT_|self[- ]signed|wrong version number|EPROTO|ERR_SSL|SSL routines|handshake|unable to verify|altnames|Hostname\/IP does not match/i;

function failureOf(e: unknown, closed: boolean, timeoutMs: number): NodeFailure {
  if (closed) return new NodeFailure('the OpenSearch client is closed', false, 'CLOSED');
  const err = e as Error & { meta?: { meta?: { connection?: { url?: URL } | null } } };
  const node = err?.meta?.meta?.connection?.url?.host;
  const at = node ? `${node}: ` : '';
  if (err instanceof errors.TimeoutError) return new NodeFailure(`${at}no answer within ${timeoutMs} ms`, true, 'TIMEOUT');
  if (err instanceof errors.NoLivingConnectionsError) return new NodeFailure(err.message, true, 'NO_LIVING_NODE');
  if (err instanceof errors.ConnectionError) {
    const code = /\b(E[A-Z]{3,})\b/.exec(err.message)?.[1];
    return new NodeFailure(`${at}${err.message}`, !TLS_FAILURE.test(err.message), code);
  }
  return new NodeFailure(`${err?.name ?? 'Error'}: ${err?.message ?? String(e)}`, false);
}

function readPem(file: string | null): Buffer | undefined {
  return file === null ? undefined : fs.readFileSync(file);
}

export function clientOptions(c: OpenSearchConnection): ClientOptions {
  const opts: ClientOptions = {
    nodes: c.nodes,
    maxRetries: 0,
    requestTimeout: c.requestTimeoutMs,
    // The pool's ping of a dead node goes out beside the requests; its own limit.
    pingTimeout: Math.min(c.requestTimeoutMs, 3000),
    ssl: { ca: readPem(c.tls.caFile), cert: readPem(c.tls.certFile), key: readPem(c.tls.keyFile), rejectUnauthorized: c.tls.verify },
  };
  if (c.sniff) {
    opts.sniffOnStart = true;
    opts.sniffOnConnectionFault = true;
    if (c.sniff.intervalMs !== null) opts.sniffInterval = c.sniff.intervalMs;
  }
  if (c.auth?.kind === 'basic') opts.auth = { username: c.auth.username, password: c.auth.password };
  if (c.auth?.kind === 'aws') {
    const creds = c.auth.credentials;
    Object.assign(
      opts,
      AwsSigv4Signer({
        region: c.auth.region,
        service: c.auth.service,
        // Static credentials; else the signer loads the AWS SDK's default provider chain.
        ...(creds ? { getCredentials: () => Promise.resolve(creds) } : {}),
      }),
    );
  }
  return opts;
}

export function createClusterTransport(c: OpenSearchConnection): NodeTransport {
  const client = new Client(clientOptions(c));
  const pool = client.connectionPool as unknown as { size: number; dead: string[] };
  const inFlight = new Set<{ abort(): unknown }>();
  let closed = false;
  return {
    get closed() {
      return closed;
    },
    hasLivingNode: () => pool.dead.length < pool.size,
    async send(r) {
      if (closed) throw failureOf(null, true, r.timeoutMs);
      const params = {
        method: r.method,
        path: r.path,
        querystring: r.querystring,
        ...(r.body === undefined ? {} : r.ndjson ? { bulkBody: r.body } : { body: r.body }),
      };
      const pending = client.transport.request(params, { requestTimeout: r.timeoutMs, maxRetries: 0 });
      inFlight.add(pending);
      try {
        const res = await pending;
        return { status: res.statusCode ?? 0, body: res.body, header: (name) => headerOf(res.headers, name) };
      } catch (e) {
        if (e instanceof errors.ResponseError && !closed) {
          const meta = e.meta;
          return { status: meta.statusCode ?? 0, body: meta.body, header: (name) => headerOf(meta.headers, name) };
        }
        throw failureOf(e, closed, r.timeoutMs);
      } finally {
        inFlight.delete(pending);
      }
    },
    close() {
      if (closed) return;
      closed = true;
      for (const p of inFlight) p.abort();
      void client.close().catch(() => undefined);
    },
  };
}

function headerOf(headers: Record<string, unknown> | null | undefined, name: string): string | undefined {
  const v = headers?.[name];
  return Array.isArray(v) ? v.join(', ') : v === undefined || v === null ? undefined : String(v);
}
