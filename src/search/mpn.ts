/**
 * MPN search: up to `limit` candidates in relevance tiers (exact, variant, prefix, infix, fuzzy;
 * src/engines/mpn-tiers.ts defines them), case- and punctuation-insensitive. The engine answers
 * through SearchEngine.mpnSearch: SQLite composes the tiers from B-tree and trigram lookups,
 * OpenSearch from one bool query.
 */
import { normaliseMpn } from '../catalog/mpn.ts';
import type { EngineFilters, MpnCandidate, SearchEngine } from '../engines/port.ts';

export type { MpnCandidate, MpnTier } from '../engines/port.ts';

export async function searchMpn(engine: SearchEngine, query: string, opts: { limit?: number; filters?: EngineFilters } = {}): Promise<MpnCandidate[]> {
  const key = normaliseMpn(query);
  if (!key) return [];
  return engine.mpnSearch({ key, limit: opts.limit ?? 10, filters: opts.filters });
}
