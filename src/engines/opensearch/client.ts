/**
 * A small JSON-over-HTTP client for OpenSearch, with retries, over keep-alive node:http connections
 * (transport.ts: the platform `fetch` cost several times the CPU a call).
 *
 * Transient failures (connection refused/reset, timeouts, HTTP 429 and 5xx) are retried with
 * exponential backoff with jitter, honouring Retry-After. Every request this adapter sends is
 * safe to repeat (index by _id, scripted updates that check before they change, alias swaps whose
 * `remove` action fails when already applied), so the policy is the same for all of them.
 * What still fails after the retries becomes `engine_unavailable` (detail in `cause`); a 4xx answer becomes an
 * OpenSearchError carrying OpenSearch's error type and reason.
 */
import { ApiError } from '../../errors.ts';
import { createTransport } from './transport.ts';

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
}

export interface OsClient {
  readonly url: string;
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

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

/** Network-level failures (no HTTP answer) worth another attempt. */
export function isTransientError(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    const err = c as { code?: unknown; name?: unknown };
    if (typeof err.code === 'string' && TRANSIENT_CODES.has(err.code)) return true;
    if (err.name === 'TimeoutError') return true;
  }
  return false;
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

function describe(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    const err = c as { message?: string; code?: string };
    parts.push([err.code, err.message].filter(Boolean).join(' '));
  }
  return parts.filter(Boolean).join(' <- ');
}

export function createClient(baseUrl: string, opts: OsClientOptions = {}): OsClient {
  const u = new URL(baseUrl);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (u.username || u.password) {
    const cred = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
    headers.authorization = `Basic ${Buffer.from(cred).toString('base64')}`;
    u.username = '';
    u.password = '';
  }
  const root = u.toString().replace(/\/+$/, '');
  const transport = createTransport(root);
  const policy: RetryPolicy = {
    retries: opts.retries ?? 5,
    baseDelayMs: opts.baseDelayMs ?? 200,
    maxDelayMs: opts.maxDelayMs ?? 8000,
  };
  const defaultTimeout = opts.timeoutMs ?? 120_000;

  async function request<T>(req: OsRequest): Promise<T | null> {
    const qs = Object.entries(req.query ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    const target = `${root}${req.path}${qs ? `?${qs}` : ''}`;
    const label = `${req.method} ${req.path}`;
    const h = { ...headers };
    let body: string | undefined;
    if (req.ndjson !== undefined) {
      h['content-type'] = 'application/x-ndjson';
      body = req.ndjson;
    } else if (req.body !== undefined) {
      h['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    const retries = req.retries ?? policy.retries;
    let lastProblem = '';
    // The message reaches API clients: the detail goes in `cause` (logs, CLI).
    const unavailable = (attempt: number) =>
      Object.assign(new ApiError('engine_unavailable', 'The search engine is unavailable; retry later.', { headers: { 'Retry-After': '5' } }), {
        cause: new Error(`${label}: ${lastProblem} (after ${attempt + 1} attempt${attempt ? 's' : ''})`),
      });
    for (let attempt = 0; ; attempt++) {
      let wait: number | null = null;
      try {
        const res = await transport.exchange(target, { method: req.method, headers: h, body, timeoutMs: req.timeoutMs ?? defaultTimeout });
        const { text } = res;
        let parsed: unknown = text;
        if (text && (res.header('content-type') ?? '').includes('json')) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
        }
        if (res.status >= 200 && res.status < 300) return (text ? parsed : {}) as T;
        if (req.allow?.includes(res.status)) return null;
        const info = errorInfo(parsed);
        if (!isTransientStatus(res.status)) throw new OpenSearchError(res.status, info.type, info.reason, parsed, label);
        lastProblem = `${res.status} ${info.type}: ${info.reason}`;
        const retryAfter = Number(res.header('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) wait = Math.min(retryAfter * 1000, policy.maxDelayMs);
      } catch (e) {
        if (e instanceof OpenSearchError) throw e;
        lastProblem = describe(e);
        // Any other failure to get an answer (a TLS mismatch, a closed client) is the engine being
        // unavailable too, without retries when retrying cannot help.
        if (!isTransientError(e) || transport.closed) throw unavailable(attempt);
        // A kept-alive connection the node had closed meanwhile: again at once, on a new one.
        if ((e as { staleConnection?: boolean }).staleConnection) wait = 0;
      }
      if (attempt >= retries) throw unavailable(attempt);
      await sleep(wait ?? backoffDelay(attempt, policy));
    }
  }

  return {
    url: root,
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
