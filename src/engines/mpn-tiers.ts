/**
 * The MPN search tiers, shared by both adapters (the SearchEngine.mpnSearch contract):
 *
 *   1. exact: the normalised key equals the MPN key (every manufacturer of that MPN);
 *   2. variant: alternate MPNs (aliases) equal to the key, and MPNs or aliases that extend the key by
 *      a short packaging/ordering suffix of at most VARIANT_SUFFIX_MAX characters (LM358D -> LM358DR);
 *   3. prefix: every other MPN or alias starting with the key (shortest first);
 *   4. infix: MPNs containing the key (keys of INFIX_MIN_KEY+ characters), only to fill up `limit`;
 *   5. fuzzy: one or two edits (one for keys of 4 characters), keys of FUZZY_MIN_KEY+ characters, only
 *      when the tiers above found nothing (a typo): an MPN that matches exactly or by prefix needs no
 *      guesses.
 *
 * Every result of tiers 1-3 starts with the key (or is an alias of it). `tieredMpnSearch` composes
 * the tiers from single-mode lookups (the SQLite adapter); the OpenSearch adapter gets the same
 * candidates from one bool query (queries.ts mpnSearchQuery).
 */
import type { MpnCandidate, MpnHit, MpnLookupRequest, MpnSearchRequest, MpnTier } from './port.ts';

export const VARIANT_SUFFIX_MAX = 4;
export const INFIX_MIN_KEY = 3;
export const FUZZY_MIN_KEY = 4;
/** Edits the fuzzy tier allows for a key. */
export const fuzzyEdits = (key: string) => (key.length <= 4 ? 1 : 2);

export async function tieredMpnSearch(lookup: (req: MpnLookupRequest) => Promise<MpnHit[]>, req: MpnSearchRequest): Promise<MpnCandidate[]> {
  const { key, limit, filters } = req;
  if (!key || limit <= 0) return [];
  const out = new Map<number, MpnCandidate>();
  const add = (hits: readonly MpnHit[], tier: MpnTier) => {
    for (const h of hits) if (!out.has(h.id)) out.set(h.id, { id: h.id, tier, matched: h.matched });
  };
  const [exact, prefix] = await Promise.all([
    lookup({ key, mode: 'exact', limit, aliases: true, filters }),
    lookup({ key, mode: 'prefix', limit: limit * 5, aliases: true, filters }),
  ]);
  add(
    exact.filter((h) => !h.alias),
    'exact',
  );
  add(
    exact.filter((h) => h.alias),
    'variant',
  );
  const longer = prefix.filter((h) => h.matched !== key);
  add(
    longer.filter((h) => h.matched.length - key.length <= VARIANT_SUFFIX_MAX),
    'variant',
  );
  add(longer, 'prefix');
  if (out.size < limit && key.length >= INFIX_MIN_KEY) add(await lookup({ key, mode: 'infix', limit, filters }), 'infix');
  if (out.size === 0 && key.length >= FUZZY_MIN_KEY) add(await lookup({ key, mode: 'fuzzy', limit, filters }), 'fuzzy');
  return [...out.values()].slice(0, limit);
}
