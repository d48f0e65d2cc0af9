/**
 * Part matching for BOM lines: an MPN (and optionally a manufacturer name) -> candidate parts with
 * a 0-100 confidence and whether the MPN matched exactly. Every lifecycle status is searched (a
 * BOM may name obsolete parts). A given manufacturer is a preference, not a filter: its parts come
 * first, and an exact MPN of another manufacturer loses confidence.
 */
import type { PartRecord } from '../catalog/part.ts';
import type { CatalogView } from '../catalog/view.ts';
import type { SearchEngine } from '../engines/port.ts';
import { editDistance } from '../catalog/edit-distance.ts';
import { normaliseMpn } from '../catalog/mpn.ts';
import { searchMpn, type MpnTier } from './mpn.ts';

export interface MatchLine {
  query: string;
  manufacturer?: string;
  limit?: number;
}

export interface MatchCandidate {
  part: PartRecord;
  confidence: number;
  exact: boolean;
}

export interface MatchResult {
  query: string;
  ambiguous: boolean;
  results: MatchCandidate[];
}

function tierConfidence(tier: MpnTier, key: string, matched: string): number {
  switch (tier) {
    case 'exact':
      return 100;
    case 'variant':
      return matched.length <= key.length ? 92 : 90 - 2 * (matched.length - key.length);
    case 'prefix':
      return Math.max(55, 78 - 2 * (matched.length - key.length));
    case 'infix':
      return Math.max(35, 60 - 2 * Math.abs(matched.length - key.length));
    case 'fuzzy':
      return 65 - 15 * editDistance(key, matched, 2);
  }
}

export async function matchPart(engine: SearchEngine, view: CatalogView | null, line: MatchLine): Promise<MatchResult> {
  const limit = line.limit ?? 5;
  const key = normaliseMpn(line.query);
  const wanted = line.manufacturer ? (view?.manufacturerMatcher().match(line.manufacturer, 1)[0] ?? null) : null;
  const wantedSlug = wanted && wanted.confidence >= 60 ? wanted.slug : null;
  const cands = await searchMpn(engine, line.query, { limit: Math.max(limit, 10), filters: {} });
  const parts = new Map((await engine.getParts(cands.map((c) => c.id))).map((p) => [p.id, p]));
  const scored: MatchCandidate[] = [];
  for (const c of cands) {
    const part = parts.get(c.id);
    if (!part) continue;
    let confidence = tierConfidence(c.tier, key, c.matched);
    if (wantedSlug && part.manufacturer.slug !== wantedSlug) confidence = Math.round(confidence * 0.7);
    scored.push({ part, confidence: Math.max(1, Math.min(100, confidence)), exact: c.tier === 'exact' });
  }
  scored.sort(
    (a, b) => b.confidence - a.confidence || (a.part.status === 'active' ? -1 : 0) - (b.part.status === 'active' ? -1 : 0) || b.part.stock - a.part.stock,
  );
  const results = scored.slice(0, limit);
  const top = results[0];
  const exactMakers = new Set(results.filter((r) => r.exact && r.confidence === 100).map((r) => r.part.manufacturer.slug));
  const ambiguous =
    exactMakers.size > 1 || (top !== undefined && results[1] !== undefined && results[1].confidence === top.confidence && top.confidence < 100 ? true : false);
  return { query: line.query, ambiguous, results };
}
