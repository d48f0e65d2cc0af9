/**
 * The ranking rules of agentic search, in order (as Meilisearch's ranking rules): candidates are
 * ordered by the first rule; those it ties are ordered by the next, and so on. Each rule gives a
 * candidate a number, higher first, from the candidate's ranking keys (ranking-keys.ts: what its record
 * meets of the query), its place in the MPN lookups, its fused score and the query's rank context
 * (decided once per query, from the ranking's first block: rank.ts).
 *
 *   mpn               MPN hits first, in the MPN lookups' order ("lm358dr2g")
 *   category          parts of the categories the query names ("... wire to board connector"); with
 *                     `widen`, also parts of the query's family meeting every constraint
 *   family            parts of the family the query names ("mosfets", "ldo": families.ts)
 *   constraints       the share of the parsed constraints met (loose reading: a quantity under a spec
 *                     name the vocabulary does not know counts by its unit)
 *   asked-value       the asked values themselves, not only ratings ("20V mosfet": 20 V before 100 V;
 *                     "1%" before "0.1%"), under the spec names the query was read as
 *   value-by-unit     the asked values under any spec name of their unit
 *   exact-package     the package exactly as named ("TO-252" before "TO-252-2")
 *   exact-category    the category named by its exact name before one it only resembles
 *   rare-constraints  among parts meeting as many constraints, those meeting the rarer ones ("16MHz
 *                     crystal 20pF": many crystals have 20 pF, few run at 16 MHz)
 *   fused-score       the fusion of the candidate lists (fuse.ts)
 *   part-id           the lower id: one deterministic order, so pages are slices of it
 */
import type { PartRecord } from '../../catalog/part.ts';
import { weightMet, type RecordKeys } from '../ranking-keys.ts';

/** A part being ranked: its record, its ranking keys, its place among MPN hits (if one), its fused score. */
export interface Candidate {
  p: PartRecord;
  keys: RecordKeys;
  mpnRank: number | undefined;
  fused: number;
}

/** What the rules know of the query's candidates as a whole, decided once from the first block so that every block and page ranks alike. */
export interface RankContext {
  /** Whether parts of the query's family meeting every constraint rank with the named categories' (rank.ts, WIDEN_BELOW). */
  widen: boolean;
  /** Weight of each parsed constraint (strict reading), the rarer the heavier (ranking-keys.ts constraintWeights). */
  weights: number[];
}

export interface RankingRule {
  readonly name: string;
  /** Higher ranks first. */
  key(c: Candidate, ctx: RankContext): number;
}

export const mpnRule: RankingRule = { name: 'mpn', key: (c) => (c.mpnRank === undefined ? -Infinity : -c.mpnRank) };

export const categoryRule: RankingRule = {
  name: 'category',
  key: ({ keys }, ctx) => (keys.cat > 0 || (ctx.widen && keys.fam === 1 && keys.c === 1) ? 1 : 0),
};

export const familyRule: RankingRule = { name: 'family', key: (c) => c.keys.fam };

export const constraintsRule: RankingRule = { name: 'constraints', key: (c) => c.keys.c };

export const askedValueRule: RankingRule = { name: 'asked-value', key: (c) => c.keys.t };

export const valueByUnitRule: RankingRule = { name: 'value-by-unit', key: (c) => c.keys.v };

export const exactPackageRule: RankingRule = { name: 'exact-package', key: (c) => c.keys.pe };

export const exactCategoryRule: RankingRule = { name: 'exact-category', key: (c) => c.keys.cat };

/** Rounded: a sum of logs equal to another in exact arithmetic may differ from it in the last bit. */
export const rareConstraintsRule: RankingRule = { name: 'rare-constraints', key: (c, ctx) => Math.round(weightMet(c.keys.strict, ctx.weights) * 1e9) };

export const fusedScoreRule: RankingRule = { name: 'fused-score', key: (c) => c.fused };

export const partIdRule: RankingRule = { name: 'part-id', key: (c) => -c.p.id };

export const RANKING_RULES: readonly RankingRule[] = [
  mpnRule,
  categoryRule,
  familyRule,
  constraintsRule,
  askedValueRule,
  valueByUnitRule,
  exactPackageRule,
  exactCategoryRule,
  rareConstraintsRule,
  fusedScoreRule,
  partIdRule,
];

/** The candidates in the rules' order: by the first rule's key, higher first, ties by the next rule's, and so on. */
export function orderByRules<C extends Candidate>(candidates: readonly C[], ctx: RankContext, rules: readonly RankingRule[] = RANKING_RULES): C[] {
  const keyed = candidates.map((c) => ({ c, k: rules.map((r) => r.key(c, ctx)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < rules.length; i++) {
      const x = a.k[i]!;
      const y = b.k[i]!;
      if (x !== y) return y > x ? 1 : -1;
    }
    return 0;
  });
  return keyed.map(({ c }) => c);
}
