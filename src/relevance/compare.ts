/**
 * Side-by-side comparison of two relevance reports (A = before/baseline, B = after/candidate):
 * per query nDCG@10 of both and the delta, wins (B better), losses (B worse) and ties per suite, and the
 * mean delta of every metric. Queries are matched by suite and id; unmatched ones are listed.
 */
import fs from 'node:fs';
import { METRIC_LABELS, METRIC_NAMES, type Metrics } from './metrics.ts';
import type { QueryResult, RelevanceReport } from './runner.ts';

/** nDCG differences smaller than this are ties (reports round to 4 decimals). */
export const TIE_EPSILON = 1e-4;

export interface QueryDelta {
  suite: string;
  id: string;
  query: string;
  a: number;
  b: number;
  delta: number;
  /** Top result in A and B (slug), for eyeballing. */
  topA: string | null;
  topB: string | null;
}

export interface SuiteComparison {
  suite: string;
  queries: number;
  wins: number;
  losses: number;
  ties: number;
  meanA: Metrics;
  meanB: Metrics;
  meanDelta: Metrics;
  deltas: QueryDelta[];
  /** Top-5 constraint satisfaction of A and B (null when a report has none: MPN suites, older reports). */
  constraintsA: { satisfied: number; queries: number; share: number | null } | null;
  constraintsB: { satisfied: number; queries: number; share: number | null } | null;
  onlyInA: string[];
  onlyInB: string[];
}

export function readReport(file: string): RelevanceReport {
  const r = JSON.parse(fs.readFileSync(file, 'utf8')) as RelevanceReport;
  if (!Array.isArray(r?.suites)) throw new Error(`${file} is not a relevance report (no "suites")`);
  return r;
}

export function compareReports(a: RelevanceReport, b: RelevanceReport): SuiteComparison[] {
  const out: SuiteComparison[] = [];
  const suiteNames = [...new Set([...a.suites.map((s) => s.suite), ...b.suites.map((s) => s.suite)])];
  for (const name of suiteNames) {
    const sa = a.suites.find((s) => s.suite === name);
    const sb = b.suites.find((s) => s.suite === name);
    if (!sa || !sb) continue;
    const bIndex = new Map<string, QueryResult>(sb.results.map((r) => [r.id, r]));
    const aIds = new Set(sa.results.map((r) => r.id));
    const deltas: QueryDelta[] = [];
    for (const ra of sa.results) {
      const rb = bIndex.get(ra.id);
      if (!rb) continue;
      deltas.push({
        suite: name,
        id: ra.id,
        query: ra.query,
        a: ra.metrics.ndcg10,
        b: rb.metrics.ndcg10,
        delta: rb.metrics.ndcg10 - ra.metrics.ndcg10,
        topA: ra.results[0]?.slug ?? null,
        topB: rb.results[0]?.slug ?? null,
      });
    }
    const wins = deltas.filter((d) => d.delta > TIE_EPSILON).length;
    const losses = deltas.filter((d) => d.delta < -TIE_EPSILON).length;
    const meanDelta = Object.fromEntries(METRIC_NAMES.map((k) => [k, round(sb.mean[k] - sa.mean[k])])) as unknown as Metrics;
    out.push({
      suite: name,
      queries: deltas.length,
      wins,
      losses,
      ties: deltas.length - wins - losses,
      meanA: sa.mean,
      meanB: sb.mean,
      meanDelta,
      deltas: deltas.sort((x, y) => x.delta - y.delta || (x.id < y.id ? -1 : 1)),
      constraintsA: sa.constraints ? { satisfied: sa.constraints.satisfied, queries: sa.constraints.queries, share: sa.constraints.share } : null,
      constraintsB: sb.constraints ? { satisfied: sb.constraints.satisfied, queries: sb.constraints.queries, share: sb.constraints.share } : null,
      onlyInA: [...aIds].filter((id) => !bIndex.has(id)),
      onlyInB: sb.results.map((r) => r.id).filter((id) => !aIds.has(id)),
    });
  }
  return out;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
const f = (x: number) => x.toFixed(3);
const signed = (x: number) => (x > 0 ? '+' : x < 0 ? '' : ' ') + x.toFixed(3);

/** Text rendering: per suite, changed queries (losses first), then wins/losses/ties and mean deltas. */
export function formatComparison(cmp: readonly SuiteComparison[], opts: { labelA?: string; labelB?: string; all?: boolean } = {}): string {
  const A = opts.labelA ?? 'A';
  const B = opts.labelB ?? 'B';
  const lines: string[] = [];
  for (const c of cmp) {
    lines.push(`suite ${c.suite}: ${c.queries} queries compared (A = ${A}, B = ${B})`);
    const shown = opts.all ? c.deltas : c.deltas.filter((d) => Math.abs(d.delta) > TIE_EPSILON);
    if (shown.length) {
      const qw = Math.min(40, Math.max(5, ...shown.map((d) => d.query.length)));
      const iw = Math.max(2, ...shown.map((d) => d.id.length));
      lines.push(`  ${'id'.padEnd(iw)}  ${'query'.padEnd(qw)}  nDCG A  nDCG B   delta  top A -> top B`);
      for (const d of shown) {
        const q = d.query.length > qw ? `${d.query.slice(0, qw - 1)}…` : d.query;
        const tops = d.topA === d.topB ? '(same top)' : `${d.topA ?? '-'} -> ${d.topB ?? '-'}`;
        lines.push(`  ${d.id.padEnd(iw)}  ${q.padEnd(qw)}  ${f(d.a).padStart(6)}  ${f(d.b).padStart(6)}  ${signed(d.delta).padStart(6)}  ${tops}`);
      }
    } else lines.push('  no per-query nDCG@10 changes');
    lines.push(`  wins ${c.wins}, losses ${c.losses}, ties ${c.ties}`);
    lines.push(`  ${'metric'.padEnd(8)}  ${'A'.padStart(6)}  ${'B'.padStart(6)}   delta`);
    for (const k of METRIC_NAMES)
      lines.push(`  ${METRIC_LABELS[k].padEnd(8)}  ${f(c.meanA[k]).padStart(6)}  ${f(c.meanB[k]).padStart(6)}  ${signed(c.meanDelta[k]).padStart(6)}`);
    if (c.constraintsA && c.constraintsB) {
      const cs = (x: NonNullable<SuiteComparison['constraintsA']>) => `${x.satisfied}/${x.queries}${x.share === null ? '' : ` = ${f(x.share)}`}`;
      lines.push(`  top 5 satisfy every parsed constraint: A ${cs(c.constraintsA)}, B ${cs(c.constraintsB)}`);
    }
    if (c.onlyInA.length) lines.push(`  only in A: ${c.onlyInA.join(', ')}`);
    if (c.onlyInB.length) lines.push(`  only in B: ${c.onlyInB.join(', ')}`);
    lines.push('');
  }
  return lines.join('\n');
}
