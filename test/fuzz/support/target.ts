/**
 * The system under fuzz: the real HTTP server over a real engine (the small fixture), real account and job
 * stores (SQLite, or Redis for the `redis` kind) and in-process job workers, with a key that may do everything (a limit and credit no run
 * exhausts), words of the catalogue and ids of this run to put in requests, and the error lines logged.
 */
import { randomBytes } from 'node:crypto';
import fc, { type Arbitrary } from 'fast-check';
import type { Logger } from '../../../src/log.ts';
import { purgeRedisPrefix } from '../../../src/redis/connection.ts';
import { API_ENGINES, startTestApi, type TestApi } from '../../support/api.ts';

/** What a suite fuzzes: the API on SQLite or OpenSearch, or on SQLite with accounts, throttle and jobs in Redis. */
export type FuzzKind = 'sqlite' | 'opensearch' | 'redis';
/** SQLite always; OpenSearch and Redis when OPENSEARCH_URL / REDIS_URL are set. */
export const FUZZ_KINDS: FuzzKind[] = [...API_ENGINES, ...(process.env.REDIS_URL ? (['redis'] as const) : [])];

export interface FuzzTarget {
  api: TestApi;
  secret: string;
  /** A key of an account without a subscription or credit, and one without capabilities. */
  poorSecret: string;
  scopelessSecret: string;
  /** Catalogue words, slugs and ids, and the ids of jobs created while seeding. */
  words: Arbitrary<string>;
  /** Values of path parameters by name that name real things (manufacturer and MPN slugs of one part together). */
  pathValues: Arbitrary<Record<string, string>>;
  /** Error and warning lines logged since the last call. */
  takeLogged(): { level: string; msg: string; fields?: Record<string, unknown> }[];
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Sends one request; an event stream is read to its first chunk only. Never throws for an HTTP answer. */
export async function send(url: string, init: RequestInit & { timeoutMs?: number }): Promise<Answer> {
  const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(init.timeoutMs ?? 15_000) });
  if (res.body && (res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const reader = res.body.getReader();
    const first = await reader.read();
    await reader.cancel();
    return { status: res.status, headers: res.headers, text: new TextDecoder().decode(first.value ?? new Uint8Array()) };
  }
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export async function startFuzzTarget(kind: FuzzKind = 'sqlite'): Promise<FuzzTarget> {
  let logged: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const keep = (level: string) => (msg: string, fields?: Record<string, unknown>) => void logged.push({ level, msg, fields });
  const log: Logger = { debug: () => undefined, info: () => undefined, warn: keep('warn'), error: keep('error') };
  const redisPrefix = `pstest-harden-fuzz-${randomBytes(4).toString('hex')}:`;
  const redis: Record<string, string> = kind === 'redis' ? { REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: redisPrefix } : {};
  const api = await startTestApi({ MONTHLY_REQUEST_CAP: '100000000', ...redis }, kind === 'opensearch' ? 'opensearch' : 'sqlite', undefined, {
    log,
    workers: 1,
  });
  const secret = (await api.key({ creditUsd: 1_000_000, rateLimit: 10_000_000 })).secret;
  const poorSecret = (await api.key({ subscription: false, creditUsd: 0, rateLimit: 10_000_000 })).secret;
  const scopelessSecret = (await api.key({ capabilities: [], rateLimit: 10_000_000 })).secret;

  // Words of this catalogue and ids of this run: requests that name real things reach deeper code.
  const words = new Set<string>(['LM358', 'resistor', '10k', '0603', 'capacitor', 'ldo', 'active', 'nrnd', 'obsolete', 'Resistance', 'Capacitance']);
  const json = async (p: string, body?: unknown) => {
    const r = body === undefined ? await api.get(p, secret) : await api.post(p, body, secret);
    return (await r.json()) as any;
  };
  for (const c of (await json('/v1/categories?all=true')).categories ?? []) words.add(c.slug);
  const parts = (await json('/v1/parts/search', { limit: 50 })).results ?? [];
  for (const p of parts) {
    words.add(p.mpn);
    if (p.slug) words.add(p.slug);
    if (p.manufacturer?.slug) words.add(p.manufacturer.slug);
    words.add(String(p.id));
    for (const s of p.specs ?? []) words.add(s.spec_name);
  }
  for (const l of (await json('/v1/lists')).lists ?? []) words.add(l.list_id);
  const part = parts[0];
  const jobs = [
    await json('/v1/parts/discover', { requirements: '10k 0603 resistor', limit: 2 }),
    await json(`/v1/parts/${part?.manufacturer?.slug ?? 'x'}/${encodeURIComponent(part?.mpn ?? 'x')}/deep-dive`, {
      deliverables: [{ question: 'Supply voltage?' }],
    }),
  ];
  for (const j of jobs) if (j.job_id) words.add(j.job_id);
  const list = [...words].filter((w) => typeof w === 'string' && w !== '');
  const slugs = ((await json('/v1/categories?all=true')).categories ?? []).map((c: { slug: string }) => c.slug) as string[];
  const real: Record<string, string>[] = parts
    .filter((p: { slug?: string; manufacturer?: { slug?: string } }) => p.slug && p.manufacturer?.slug)
    .map((p: { slug: string; mpn: string; manufacturer: { slug: string } }, i: number) => ({
      manufacturer: p.manufacturer.slug,
      // A part's slug or its MPN as written (the route takes either).
      mpn: i % 2 ? p.slug.split('/').pop()! : p.mpn,
      slug: slugs[i % Math.max(1, slugs.length)] ?? 'x',
      job_id: jobs[i % jobs.length]?.job_id ?? 'job_x',
    }));
  return {
    api,
    secret,
    poorSecret,
    scopelessSecret,
    words: fc.constantFrom(...list),
    pathValues: fc.constantFrom(...(real.length ? real : [{}])),
    takeLogged() {
      const out = logged;
      logged = [];
      return out;
    },
    async close() {
      await api.close();
      if (kind === 'redis') await purgeRedisPrefix(process.env.REDIS_URL!, redisPrefix);
    },
  };
}

/** The fuzz run's seed: FUZZ_SEED when set (to replay a failure), else a new one. */
export function fuzzSeed(): number {
  const given = process.env.FUZZ_SEED;
  return given !== undefined && given !== '' ? Number(given) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

/** Generated requests per run of a suite: FUZZ_SCALE multiplies every suite's count (1 = the CI budget). */
export function fuzzRuns(base: number): number {
  const scale = Number(process.env.FUZZ_SCALE ?? '1');
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}
