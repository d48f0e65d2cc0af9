/**
 * Part matching for BOM lines: an MPN (and optionally a manufacturer name) -> candidate parts with
 * a 0-100 confidence and whether the MPN matched exactly. Every lifecycle status is searched (a
 * BOM may name obsolete parts). A given manufacturer is a preference, not a filter: its parts come
 * first, and an exact MPN of another manufacturer loses confidence.
 */
import type { PartRecord } from '../catalog/part.ts';
import type { CatalogView } from '../catalog/view.ts';
import type { EngineFilters, SearchReader } from '../engines/port.ts';
import { editDistance } from '../catalog/edit-distance.ts';
import { mpnIdentity, normaliseMpn } from '../catalog/mpn.ts';
import { packagingStemHits } from './packaging-stems.ts';
import { searchMpn, type MpnTier } from './mpn.ts';

export interface MatchLine {
  query: string;
  manufacturer?: string;
  limit?: number;
  /** Hard constraints on the candidates (GraphQL supMultiMatch's options); none by default. */
  filters?: EngineFilters;
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

/** Confidence of a part sharing the line's search key when another part is the MPN as the line writes it. */
const KEY_ONLY_CONFIDENCE = 95;
/**
 * Confidence of a catalogue MPN that the line extends by a packaging suffix (packaging-stems.ts): below an
 * exact or variant match; the stem that strips least first ("2N7002TR": 2N7002T + reel before 2N7002 +
 * tape and reel), each further one STEM_STEP lower.
 */
const STEM_CONFIDENCE = 86;
const STEM_STEP = 2;

/** Parts whose MPN key (or alias) is the line's key without a trailing packaging suffix, by id, with their confidence (the longest stem's highest). */
async function packagingStems(engine: SearchReader, key: string, filters?: EngineFilters): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const h of await packagingStemHits(engine, key, { filters })) out.set(h.id, STEM_CONFIDENCE - STEM_STEP * h.order);
  return out;
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

export async function matchPart(engine: SearchReader, view: CatalogView | null, line: MatchLine): Promise<MatchResult> {
  const limit = line.limit ?? 5;
  const key = normaliseMpn(line.query);
  const wanted = line.manufacturer ? (view?.manufacturerMatcher().match(line.manufacturer, 1)[0] ?? null) : null;
  const wantedSlug = wanted && wanted.confidence >= 60 ? wanted.slug : null;
  const cands = await searchMpn(engine, line.query, { limit: Math.max(limit, 10), filters: line.filters ?? {} });
  // A BOM line often carries a packaging suffix the catalogue's MPN lacks ("STM32F103C8T6TR" for
  // STM32F103C8T6): without an exact hit, the MPN the line extends by such a suffix is a candidate too.
  const stems = cands.some((c) => c.tier === 'exact') ? new Map<number, number>() : await packagingStems(engine, key, line.filters);
  // A part found both ways keeps the stem reading: its other tier (infix, fuzzy) undersells it.
  const others = cands.filter((c) => !stems.has(c.id));
  const ids = [...stems.keys(), ...others.map((c) => c.id)];
  const parts = new Map((await engine.getParts(ids)).map((p) => [p.id, p]));
  const base = new Map([...others.map((c) => [c.id, tierConfidence(c.tier, key, c.matched)] as const), ...stems]);
  let exactIds = new Set(others.filter((c) => c.tier === 'exact').map((c) => c.id));
  // Parts sharing the line's search key are exact, punctuation aside ("LM358-DR" is LM358DR), unless the
  // catalogue also holds the MPN as the line writes it: then the others ("SMF60CA" for "SMF6.0CA") are
  // other parts, KEY_ONLY_CONFIDENCE and not exact.
  const written = mpnIdentity(line.query);
  const asWritten = new Set([...exactIds].filter((id) => parts.get(id) && mpnIdentity(parts.get(id)!.mpn) === written));
  if (asWritten.size > 0 && asWritten.size < exactIds.size) {
    for (const id of exactIds) if (!asWritten.has(id)) base.set(id, KEY_ONLY_CONFIDENCE);
    exactIds = asWritten;
  }
  const scored: MatchCandidate[] = [];
  for (const id of ids) {
    const part = parts.get(id);
    if (!part) continue;
    let confidence = base.get(id)!;
    if (wantedSlug && part.manufacturer.slug !== wantedSlug) confidence = Math.round(confidence * 0.7);
    scored.push({ part, confidence: Math.max(1, Math.min(100, confidence)), exact: exactIds.has(id) });
  }
  scored.sort(
    (a, b) => b.confidence - a.confidence || (a.part.status === 'active' ? -1 : 0) - (b.part.status === 'active' ? -1 : 0) || b.part.stock - a.part.stock,
  );
  const results = scored.slice(0, limit);
  const top = results[0];
  const exact = results.filter((r) => r.exact && r.confidence === 100);
  const exactMakers = new Set(exact.map((r) => r.part.manufacturer.slug));
  // Several makers, or several parts of one maker none of which the line writes exactly ("SMF60-CA").
  const ambiguous =
    exactMakers.size > 1 ||
    new Set(exact.map((r) => `${r.part.manufacturer.slug}|${mpnIdentity(r.part.mpn)}`)).size > exactMakers.size ||
    (top !== undefined && results[1] !== undefined && results[1].confidence === top.confidence && top.confidence < 100 ? true : false);
  return { query: line.query, ambiguous, results };
}
