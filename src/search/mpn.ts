/**
 * MPN search: up to `limit` candidates in relevance tiers, engine-neutral over the port's lookups.
 *
 *   1. exact: the normalised key equals the MPN key (every manufacturer of that MPN);
 *   2. variants: alternate MPNs (aliases) equal to the key, and MPNs that extend the key by a short
 *      packaging/ordering suffix of at most 4 characters (LM358D -> LM358DR, LM358DR2G);
 *   3. prefix: every other MPN starting with the key (shortest first);
 *   4. infix: MPNs containing the key (keys of 3+ characters);
 *   5. fuzzy: one or two edits (one for short keys), only when the tiers above found nothing (a
 *      typo): the candidate scan is the one expensive lookup, and an MPN that matches exactly or by
 *      prefix needs no guesses.
 *
 * Every result of tiers 1-3 starts with the key (or is an alias of it).
 */
import { normaliseMpn } from '../catalog/mpn.ts';
import type { EngineFilters, MpnHit, SearchEngine } from '../engines/port.ts';

export type MpnTier = 'exact' | 'variant' | 'prefix' | 'infix' | 'fuzzy';

export interface MpnCandidate {
  id: number;
  tier: MpnTier;
  /** The key that matched (the part's MPN key or an alias key). */
  matched: string;
}

const VARIANT_SUFFIX_MAX = 4;

export async function searchMpn(engine: SearchEngine, query: string, opts: { limit?: number; filters?: EngineFilters } = {}): Promise<MpnCandidate[]> {
  const limit = opts.limit ?? 10;
  const key = normaliseMpn(query);
  if (!key) return [];
  const filters = opts.filters;
  const out = new Map<number, MpnCandidate>();
  const add = (hits: readonly MpnHit[], tier: MpnTier) => {
    for (const h of hits) if (!out.has(h.id)) out.set(h.id, { id: h.id, tier, matched: h.matched });
  };

  const [exact, prefix] = await Promise.all([
    engine.mpnLookup({ key, mode: 'exact', limit, aliases: true, filters }),
    engine.mpnLookup({ key, mode: 'prefix', limit: limit * 5, aliases: true, filters }),
  ]);
  add(exact.filter((h) => !h.alias), 'exact');
  add(exact.filter((h) => h.alias), 'variant');
  const longer = prefix.filter((h) => h.matched !== key);
  add(longer.filter((h) => h.matched.length - key.length <= VARIANT_SUFFIX_MAX), 'variant');
  add(longer, 'prefix');
  if (out.size < limit && key.length >= 3) add(await engine.mpnLookup({ key, mode: 'infix', limit, filters }), 'infix');
  if (out.size === 0 && key.length >= 4) add(await engine.mpnLookup({ key, mode: 'fuzzy', limit, filters }), 'fuzzy');
  return [...out.values()].slice(0, limit);
}
