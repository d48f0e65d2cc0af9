/** What the relevance gates share (test/integration/relevance.test.ts, real-catalog.test.ts). */
import { METRIC_NAMES, type Metrics } from '../../src/relevance/metrics.ts';

/** Absolute drop allowed on every mean metric (and the top-5 constraint share) below a baseline. */
export const TOLERANCE = 0.02;
/** RELEVANCE_UPDATE_BASELINES=1: the gates rewrite their baseline files instead of checking. */
export const UPDATE_BASELINES = process.env.RELEVANCE_UPDATE_BASELINES === '1';

/** The metrics of `got` (per suite) that fell below `baseline` - `tol`, as readable lines; [] when none. */
export function metricDrops(
  got: Record<string, Metrics & { constraint_share?: number | null }>,
  baseline: Record<string, Metrics & { constraint_share?: number | null }> | undefined,
  tol: number,
  label = '',
): string[] {
  const drops: string[] = [];
  for (const [suite, m] of Object.entries(got)) {
    const b = baseline?.[suite];
    if (!b) {
      drops.push(`${suite}: no baseline`);
      continue;
    }
    const at = label ? `${suite} ${label}` : suite;
    for (const k of METRIC_NAMES) if (m[k] < b[k] - tol) drops.push(`${at} ${k} ${m[k].toFixed(4)} < baseline ${b[k].toFixed(4)} - ${tol}`);
    if (b.constraint_share != null && (m.constraint_share ?? 0) < b.constraint_share - tol) {
      drops.push(`${at} top-5 constraint share ${m.constraint_share} < baseline ${b.constraint_share} - ${tol}`);
    }
  }
  return drops;
}
