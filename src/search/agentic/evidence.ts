/**
 * Agentic search: whether anything in the catalogue relates to the query at all. BM25 finds parts
 * sharing one stray word ("best pizza near me" in some long description) and kNN always returns its
 * nearest parts, however far ("zzzzzzzz" gave five LEDs), so a floor on the evidence decides, and a
 * query below it answers no match (hits 0). The query relates to the catalogue when it:
 *
 *   - names a category (by name or by function), a part family, or a parsed constraint (a value, a
 *     package), or one of its MPN-like tokens finds a part; or
 *   - is covered by the text of one of the EVIDENCE_HITS best BM25 hits: COVERED_ENOUGH of its words (lexicalCoverage;
 *     a query of function words only has none); or
 *   - is near a part in meaning: the nearest part's cosine is at least COSINE_FLOOR_WITH_WORDS when
 *     BM25 found some of its words, COSINE_FLOOR when it found none (made-up words sit nearer to parts,
 *     in all-MiniLM-L6-v2, than sentences about something else: "xyzzy plugh" 0.449, "weather in
 *     paris tomorrow" 0.260).
 *
 * Calibrated on the 29k real catalogue (bench/results/relevance.md, "No match"): every query of the
 * suites (sample, real-param, real-count, real-nl, need) relates; none of 25 nonsense, off-domain and
 * function-word-only queries does. Without a vector side, only the first two tests apply.
 */
import { lexicalCoverage } from '../fusion.ts';
import { constraintCount } from '../ranking-keys.ts';
import type { SearchPlan } from './plan.ts';
import { head, type Retrieved } from './retrieve.ts';

export const COVERED_ENOUGH = 0.6;
/** BM25 hits whose text the coverage test reads. */
export const EVIDENCE_HITS = 10;
export const COSINE_FLOOR_WITH_WORDS = 0.3;
export const COSINE_FLOOR = 0.5;

/** What the floor reads of a query's plan and lists. */
export interface Evidence {
  /** A named category, family, parsed constraint or MPN hit. */
  understood: boolean;
  /** Share of the query's words the best BM25 hits hold (lexicalCoverage); 0 without hits. */
  coverage: number;
  /** BM25 found any part. */
  lexicalHits: boolean;
  /** The nearest part's cosine; null without a vector side. */
  nearest: number | null;
}

export function evidenceOf(plan: SearchPlan, found: Pick<Retrieved, 'lex' | 'vecHead' | 'mpnHits' | 'records'>): Evidence {
  const understood = plan.named.length > 0 || plan.u.families.length > 0 || constraintCount(plan.u) > 0 || found.mpnHits.some((l) => l.length > 0);
  const best = head(found.lex)
    .slice(0, EVIDENCE_HITS)
    .map((h) => found.records.get(h.id));
  return {
    understood,
    coverage: found.lex.length ? lexicalCoverage(plan.query, best) : 0,
    lexicalHits: found.lex.length > 0,
    nearest: found.vecHead.length ? found.vecHead[0]!.score : null,
  };
}

/** Whether the evidence reaches the floor (see the header). */
export function relates(e: Evidence): boolean {
  if (e.understood || e.coverage >= COVERED_ENOUGH) return true;
  return e.nearest !== null && e.nearest >= (e.lexicalHits ? COSINE_FLOOR_WITH_WORDS : COSINE_FLOOR);
}
