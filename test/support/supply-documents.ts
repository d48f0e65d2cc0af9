/**
 * The Supply API documents of public tools (test/fixtures/supply-api-documents.json) as their clients
 * send them: a token from POST /connect/token (client credentials), then each document verbatim with its
 * variables, authenticated as the tool does (Authorization: Bearer, or a `token` header). Only the URL
 * and the credentials are this service's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './fixtures.ts';
import type { TestApi } from './api.ts';

export interface SupplyDocument {
  id: string;
  tool: string;
  kind: string;
  repository: string;
  path: string;
  commit: string;
  auth: 'bearer' | 'token-header';
  how: string;
  query: string;
  variables: Record<string, unknown> | null;
}

export const SUPPLY_DOCUMENTS: readonly SupplyDocument[] = (
  JSON.parse(fs.readFileSync(path.join(FIXTURES, 'supply-api-documents.json'), 'utf8')) as { documents: SupplyDocument[] }
).documents;

/** Exchange rates the documents' currencies need (the csvDemo asks EUR, the Odoo connector GBP). */
export const DOCUMENT_CURRENCY_RATES = 'EUR=0.92,GBP=0.79';

/** An access token for a new key of `api`, as the clients obtain one. */
export async function clientToken(api: TestApi): Promise<string> {
  const { secret, keyId } = await api.key({ capabilities: ['parts:read'], creditUsd: 1000, rateLimit: 10_000 });
  const res = await fetch(`${api.url}/connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: keyId, client_secret: secret }).toString(),
  });
  if (res.status !== 200) throw new Error(`token request answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Sends a document as its tool does; the status, the body and how long it took. */
export async function sendDocument(api: TestApi, token: string, d: SupplyDocument): Promise<{ status: number; body: any; ms: number }> {
  const auth: Record<string, string> = d.auth === 'token-header' ? { token } : { Authorization: `Bearer ${token}` };
  const t0 = performance.now();
  const res = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...auth },
    body: JSON.stringify(d.variables === null ? { query: d.query } : { query: d.query, variables: d.variables }),
  });
  const body = await res.json();
  return { status: res.status, body, ms: performance.now() - t0 };
}

/** Lists a document's answer must fill wherever they appear: the parts, matches and aggregations asked for. */
const MUST_FILL = new Set(['results', 'parts', 'similarParts', 'specs', 'specAggs', 'buckets', 'manufacturerAgg']);

/**
 * Where an answer lacks data: a root field that is null or an empty list, and every list of MUST_FILL
 * that is empty, by path ("supMultiMatch.1.parts"). Empty: the answer holds what the document asked for.
 */
export function missingData(data: Record<string, unknown> | null | undefined): string[] {
  if (!data) return ['(no data)'];
  const out: string[] = [];
  const walk = (v: unknown, at: string, key: string) => {
    if (Array.isArray(v)) {
      if (v.length === 0 && (MUST_FILL.has(key) || !at.includes('.'))) out.push(at);
      v.forEach((x, i) => walk(x, `${at}.${i}`, ''));
    } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`, k);
    else if (v === null && !at.includes('.')) out.push(at);
  };
  for (const [k, v] of Object.entries(data)) walk(v, k, k);
  return out;
}
