/**
 * Relevance fixtures: one JSON object per line (JSON Lines), one query each.
 *
 *   {"id":"mpn-exact-001","suite":"sample-mpn","kind":"exact","query":"LM358DR","endpoint":"mpn",
 *    "judgments":{"texas-instruments/LM358DR":3,"onsemi/LM358DR":3},"rule":"..."}
 *
 * - endpoint "mpn" runs searchMpn + orderCandidates (GET /v1/parts/search); "agentic" runs agenticSearch
 *   (GET /v1/parts/agentic-search) with `params.part_status` (default active) and `params.retrieval`.
 * - judgments: part slug (`<manufacturer slug>/<mpn slug>`, as in /v1/parts/{slug}) -> grade 0..3
 *   (3 = exactly what was asked, 2 = nearly, 1 = acceptable / on topic, 0 = not relevant). Parts not
 *   listed are grade 0. Slugs, not ids, so fixtures survive re-ingests and engine changes.
 * - kind: optional label for per-kind breakdowns (exact, lower, punct, variant, prefix, typo, nl, ...).
 * - rule: the written rule the judgments were computed from.
 */
import fs from 'node:fs';
import { PART_STATUSES, type PartStatus } from '../catalog/status.ts';
import type { Retrieval } from '../search/agentic.ts';

export type Grade = 0 | 1 | 2 | 3;
export type Endpoint = 'mpn' | 'agentic';
export const RETRIEVALS: readonly Retrieval[] = ['hybrid', 'lexical', 'vector'];

export interface RelevanceQuery {
  id: string;
  suite: string;
  query: string;
  endpoint: Endpoint;
  params?: { part_status?: PartStatus[]; retrieval?: Retrieval };
  judgments: Record<string, Grade>;
  kind?: string;
  rule?: string;
}

export class FixtureError extends Error {
  override name = 'FixtureError';
}

/** A part slug: manufacturer slug / MPN slug ("~" starts the escape of a letter outside ASCII, catalog/mpn.ts). */
const SLUG = /^[a-z0-9-]+\/[A-Za-z0-9._~-]+$/;

/** Checks one parsed line; throws FixtureError naming the line and the problem. */
export function validateQuery(x: unknown, where: string): RelevanceQuery {
  const fail = (why: string): never => {
    throw new FixtureError(`${where}: ${why}`);
  };
  if (typeof x !== 'object' || x === null || Array.isArray(x)) fail('not a JSON object');
  const o = x as Record<string, unknown>;
  for (const k of ['id', 'suite', 'query'] as const) if (typeof o[k] !== 'string' || !(o[k] as string).trim()) fail(`"${k}" must be a non-empty string`);
  if (o.endpoint !== 'mpn' && o.endpoint !== 'agentic') fail('"endpoint" must be "mpn" or "agentic"');
  if (o.kind !== undefined && typeof o.kind !== 'string') fail('"kind" must be a string');
  if (o.rule !== undefined && typeof o.rule !== 'string') fail('"rule" must be a string');
  if (o.params !== undefined) {
    if (typeof o.params !== 'object' || o.params === null) fail('"params" must be an object');
    const p = o.params as Record<string, unknown>;
    for (const k of Object.keys(p)) if (k !== 'part_status' && k !== 'retrieval') fail(`unknown param "${k}"`);
    if (p.part_status !== undefined && !(Array.isArray(p.part_status) && p.part_status.every((s) => (PART_STATUSES as readonly unknown[]).includes(s)))) {
      fail(`"params.part_status" must be a list of ${PART_STATUSES.join(', ')}`);
    }
    if (p.retrieval !== undefined && !(RETRIEVALS as readonly unknown[]).includes(p.retrieval))
      fail(`"params.retrieval" must be one of ${RETRIEVALS.join(', ')}`);
    if (o.endpoint === 'mpn' && Object.keys(p).length) fail('the mpn endpoint takes no params');
  }
  if (typeof o.judgments !== 'object' || o.judgments === null || Array.isArray(o.judgments)) fail('"judgments" must be an object');
  const j = o.judgments as Record<string, unknown>;
  for (const [slug, g] of Object.entries(j)) {
    if (!SLUG.test(slug)) fail(`judgment key "${slug}" is not a part slug (<manufacturer slug>/<mpn slug>)`);
    if (g !== 0 && g !== 1 && g !== 2 && g !== 3) fail(`grade of "${slug}" must be 0, 1, 2 or 3`);
  }
  if (!Object.values(j).some((g) => (g as number) >= 1)) fail('needs at least one judgment with grade >= 1');
  return o as unknown as RelevanceQuery;
}

export function parseSuite(text: string, file = '<suite>'): RelevanceQuery[] {
  const out: RelevanceQuery[] = [];
  const ids = new Set<string>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let x: unknown;
    try {
      x = JSON.parse(line);
    } catch (e) {
      throw new FixtureError(`${file}:${i + 1}: invalid JSON: ${(e as Error).message}`);
    }
    const q = validateQuery(x, `${file}:${i + 1}`);
    const key = `${q.suite}\u0000${q.id}`;
    if (ids.has(key)) throw new FixtureError(`${file}:${i + 1}: duplicate id "${q.id}" in suite "${q.suite}"`);
    ids.add(key);
    out.push(q);
  });
  if (out.length === 0) throw new FixtureError(`${file}: no queries`);
  return out;
}

export function readSuite(file: string): RelevanceQuery[] {
  return parseSuite(fs.readFileSync(file, 'utf8'), file);
}

/** One line per query, keys in a fixed order, judgments best grade first then by slug (stable diffs). */
export function formatSuite(queries: readonly RelevanceQuery[]): string {
  return queries
    .map((q) => {
      const judgments = Object.fromEntries(Object.entries(q.judgments).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
      const line: Record<string, unknown> = {
        id: q.id,
        suite: q.suite,
        kind: q.kind,
        query: q.query,
        endpoint: q.endpoint,
        params: q.params,
        rule: q.rule,
        judgments,
      };
      return JSON.stringify(line);
    })
    .map((l) => `${l}\n`)
    .join('');
}
