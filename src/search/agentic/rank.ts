/**
 * Agentic search, stage 4: ranking. Each block of the fusion (fuse.ts) is ordered by the ranking rules
 * (ranking-rules.ts) on its own, the second appended to the first: one deterministic order, so pages
 * are slices of it and page 2 continues page 1 at any depth. The rules' context is decided once, from
 * the first block, so every block and page ranks alike.
 */
import type { PartRecord } from '../../catalog/part.ts';
import { constraintCount, constraintWeights, type RecordKeys } from '../ranking-keys.ts';
import type { Blocks } from './fuse.ts';
import type { SearchPlan } from './plan.ts';
import { orderByRules, RANKING_RULES, type Candidate, type RankContext, type RankingRule } from './ranking-rules.ts';

/** Named categories holding fewer candidates that meet every constraint than this let family parts that do rank with them (the default page size). */
export const WIDEN_BELOW = 5;

/**
 * The rank context of a query's candidates, from its first block:
 *  - widen: the named categories' parts rank first. When the query says nothing beyond its constraints
 *    and families (every word read) and those categories hold fewer than WIDEN_BELOW candidates meeting
 *    every constraint, a part of the query's family meeting every constraint ranks with them: the
 *    category was named by words the family already carries ("pnp transistor sot-23" names the 8-part
 *    leaf "Transistors (NPN/PNP)", one of them a PNP in SOT-23, while 52 of the leaf "Bipolar
 *    Transistors - BJT" are). A word left unread ("through hole resistors") may be what the category's
 *    name adds, so then the tier stays as named.
 *  - weights: of the constraints met in the strict reading (spec and value constraints under known
 *    spec names, the package), each weighing more the fewer of the first block meet it.
 */
export function rankContext(plan: Pick<SearchPlan, 'u'>, first: readonly Candidate[]): RankContext {
  const constrained = constraintCount(plan.u) > 0;
  const widen = constrained && plan.u.unread.length === 0 && first.filter((x) => x.keys.cat > 0 && x.keys.c === 1).length < WIDEN_BELOW;
  return { widen, weights: constraintWeights(first.map((x) => x.keys.strict)) };
}

export interface Ranked {
  /** Every ranked part, best first: block 1, then block 2. */
  parts: PartRecord[];
  /** Block 1 ranked (the first 100-odd results, the same for every page). */
  first: PartRecord[];
}

export function rank(
  plan: SearchPlan,
  blocks: Blocks,
  recordOf: (id: number) => PartRecord | undefined,
  keysOf: (p: PartRecord) => RecordKeys,
  rules: readonly RankingRule[] = RANKING_RULES,
): Ranked {
  const candidates = (ids: readonly number[], scores: ReadonlyMap<number, number>): Candidate[] =>
    ids
      .map((id) => recordOf(id))
      .filter((p) => p !== undefined)
      .map((p) => ({ p, keys: keysOf(p), mpnRank: blocks.mpnRank.get(p.id), fused: scores.get(p.id) ?? 0 }));
  const first = candidates(blocks.first, blocks.firstScores);
  const ctx = rankContext(plan, first);
  const top = orderByRules(first, ctx, rules).map((c) => c.p);
  if (!blocks.second.length) return { parts: top, first: top };
  return { parts: [...top, ...orderByRules(candidates(blocks.second, blocks.secondScores), ctx, rules).map((c) => c.p)], first: top };
}
