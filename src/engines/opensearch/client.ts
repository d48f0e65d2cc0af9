/**
 * The adapter's JSON client for OpenSearch: one request, its retries, its errors. Requests reach the
 * cluster through the official client (cluster-transport.ts): a list of nodes, sniffing, TLS, Basic
 * auth or AWS SigV4.
 *
 * Retries: a request that got no answer (connection refused, reset or cut, time limit) goes again at
 * once on another node (the failed one is marked dead; with one node, on a new connection to it), and
 * after that with exponential backoff with jitter; answers 429 and 5xx go again with backoff, honouring
 * Retry-After. Every request this adapter sends is safe to repeat (index by _id, scripted updates that
 * check before they change, alias swaps whose `remove` action fails when already applied), so the
 * policy is the same for all of them. What still fails after the retries becomes `engine_unavailable`
 * (detail in `cause`); a 4xx answer becomes an OpenSearchError carrying OpenSearch's error type and
 * reason. A failure that no retry can mend (a TLS handshake refused, the client closed) fails at once.
 */
import { ApiError } from '../../errors.ts';
import { createClusterTransport, NodeFailure, type NodeTransport } from './cluster-transport.ts';
import { connectionFromUrl, type OpenSearchConnection } from './options.ts';

export type Query = Record<string, string | number | boolean | undefined>;

export interface OsRequest {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD';
  path: string;
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Pre-serialised NDJSON body (_bulk, _msearch); ends with a newline. */
  ndjson?: string;
  /** Statuses answered with `null` instead of an error (typically 404). */
  allow?: number[];
  /** Retries after the first attempt; the client default when absent. */
  retries?: number;
  timeoutMs?: number;
}

export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface OsClientOptions extends Partial<RetryPolicy> {
  timeoutMs?: number;
  /** The way to the nodes (default: the official client, cluster-transport.ts); benches swap it. */
  transport?: NodeTransport;
}

export interface OsClient {
  /** The nodes first contacted. */
  readonly nodes: readonly string[];
  readonly policy: RetryPolicy;
  /** The parsed JSON answer; null for an allowed status (see OsRequest.allow). */
  request<T = unknown>(req: OsRequest): Promise<T | null>;
  /** Like request, but an allowed status is an error too: the answer is never null. */
  send<T = unknown>(req: OsRequest): Promise<T>;
  /** Ends every connection: requests in flight and after this fail with engine_unavailable, without retries. */
  close(): void;
}

/** An OpenSearch error answer that retrying will not fix (4xx other than 429). */
export class OpenSearchError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: string,
    readonly body: unknown,
    readonly request: string,
  ) {
    super(`OpenSearch ${request} failed with ${status} ${type}: ${reason}`);
    this.name = 'OpenSearchError';
  }
}

export function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

/** Exponential backoff with equal jitter: a random delay in [c/2, c], c = min(max, base * 2^attempt). */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function errorInfo(body: unknown): { type: string; reason: string } {
  const err = (body as { error?: unknown } | null)?.error;
  if (typeof err === 'string') return { type: 'error', reason: err };
  if (err && typeof err === 'object') {
    const e = err as { type?: string; reason?: string; root_cause?: { type?: string; reason?: string }[]; caused_by?: { reason?: string } };
    const root = e.root_cause?.[0];
    const reason = [e.reason, e.caused_by?.reason].filter(Boolean).join(': ') || root?.reason || JSON.stringify(err);
    return { type: e.type ?? root?.type ?? 'error', reason };
  }
  return { type: 'error', reason: typeof body === 'string' ? body.slice(0, 500) : (JSON.stringify(body)?.slice(0, 500) ?? 'unknown') };
}

export function createClient(target: string | OpenSearchConnection, opts: OsClientOptions = {}): OsClient {
  const connection = typeof target === 'string' ? connectionFromUrl(target) : target;
  const transport = opts.transport ?? createClusterTransport(connection);
  const policy: RetryPolicy = {
    retries: opts.retries ?? connection.retries,
    baseDelayMs: opts.baseDelayMs ?? 200,
    maxDelayMs: opts.maxDelayMs ?? 8000,
  };
  const defaultTimeout = opts.timeoutMs ?? connection.requestTimeoutMs;

  async function request<T>(req: OsRequest): Promise<T | null> {
    const querystring = Object.entries(req.query ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    const label = `${req.method} ${req.path}`;
    const body = req.ndjson ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    const retries = req.retries ?? policy.retries;
    let lastProblem = '';
    let failures = 0;
    // The message reaches API clients: the detail goes in `cause` (logs, CLI).
    const unavailable = (attempt: number) =>
      Object.assign(new ApiError('engine_unavailable', 'The search engine is unavailable; retry later.', { headers: { 'Retry-After': '5' } }), {
        cause: new Error(`${label}: ${lastProblem} (after ${attempt + 1} attempt${attempt ? 's' : ''})`),
      });
    for (let attempt = 0; ; attempt++) {
      let wait: number | null = null;
      try {
        const res = await transport.send({
          method: req.method,
          path: req.path,
          querystring,
          body,
          ndjson: req.ndjson !== undefined,
          timeoutMs: req.timeoutMs ?? defaultTimeout,
        });
        if (res.status >= 200 && res.status < 300) return (req.method === 'HEAD' || res.body === '' ? {} : res.body) as T;
        if (req.allow?.includes(res.status)) return null;
        const info = errorInfo(res.body);
        if (!isTransientStatus(res.status)) throw new OpenSearchError(res.status, info.type, info.reason, res.body, label);
        lastProblem = `${res.status} ${info.type}: ${info.reason}`;
        const retryAfter = Number(res.header('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) wait = Math.min(retryAfter * 1000, policy.maxDelayMs);
      } catch (e) {
        if (!(e instanceof NodeFailure)) throw e;
        lastProblem = [e.code, e.message].filter(Boolean).join(' ');
        if (!e.transient || transport.closed) throw unavailable(attempt);
        // The first failure to get an answer, or one while another node lives: again at once (a
        // kept-alive connection the node had closed meanwhile; a node gone, the request to another).
        if (failures++ === 0 || transport.hasLivingNode()) wait = 0;
      }
      if (attempt >= retries) throw unavailable(attempt);
      await sleep(wait ?? backoffDelay(attempt, policy));
    }
  }

  return {
    nodes: connection.nodes,
    policy,
    request,
    async send<T>(req: OsRequest): Promise<T> {
      const r = await request<T>({ ...req, allow: undefined });
      return r as T;
    },
    close: () => transport.close(),
  };
}

/** Whether an error is OpenSearch saying the index, alias or document does not exist. */
export function isNotFound(e: unknown): boolean {
  return e instanceof OpenSearchError && e.status === 404;
}
