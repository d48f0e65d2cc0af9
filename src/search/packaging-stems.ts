/**
 * Packaging stems: a catalogue MPN that a query or BOM line extends by a packaging or ordering suffix
 * ("STM32F103C8T6TR" for STM32F103C8T6, "LM358DR" for LM358D). Match ranks them as candidates of their
 * own (match.ts); MPN search lists them with the packaging variants (mpn.ts).
 */
import type { EngineFilters, SearchReader } from '../engines/port.ts';

/**
 * Packaging and ordering suffixes a BOM line may add to a catalogue MPN (normalised: no punctuation),
 * longest first: tape and reel, cut tape, lead-free and RoHS marks, distributor suffixes.
 * Not a bare "T": it is as often a package code (2N7002T is SOT-523, 2N7002 SOT-23).
 */
const PACKAGING_SUFFIXES = ['TRPBF', 'REEL13', 'REEL7', 'REEL', 'TR13', 'TR7', 'PBF', 'NOPB', 'GE3', 'TR', 'RL', 'CT', 'ND', 'E3', 'E4', 'G4', 'R'];
/** Shortest MPN key a stem may be: shorter ones are generic prefixes ("LM35" of "LM358"). */
const STEM_MIN_KEY = 6;

/** Packaging suffixes stripped one after another at most: "LM358DRE4" (E4, then R) is LM358DR, then LM358D. */
const STEM_DEPTH = 2;

/**
 * The keys `key` extends by one or two packaging suffixes (TI's lead-finish marks follow the reel mark:
 * "TPS7A4901DGNRG4"), the one that strips least first ("2N7002TR": 2N7002T, then 2N7002).
 */
function stemKeys(key: string): string[] {
  const stems = new Set<string>();
  let level = [key];
  for (let depth = 0; depth < STEM_DEPTH; depth++) {
    // Under another suffix a "TR" is the reel mark: its "R" alone is not stripped (IRLML6344TRPBF is not
    // an IRLML6344T, whose bare T would be a package code).
    const strips = (k: string, x: string) => k.endsWith(x) && !(depth > 0 && x === 'R' && k.endsWith('TR'));
    level = level
      .flatMap((k) => PACKAGING_SUFFIXES.filter((x) => strips(k, x)).map((x) => k.slice(0, -x.length)))
      .filter((stem) => stem.length >= STEM_MIN_KEY);
    for (const stem of level) stems.add(stem);
  }
  return [...stems].sort((a, b) => b.length - a.length);
}

/**
 * Parts whose MPN key (or alias) is a stem of `key`, each once: with the stem that strips least of those
 * finding it, and `order`, that stem's place among the stems that found parts (0 first).
 */
export async function packagingStemHits(
  engine: SearchReader,
  key: string,
  opts: { limit?: number; filters?: EngineFilters } = {},
): Promise<{ id: number; stem: string; order: number }[]> {
  // A handful of stems at most (TR and R, TRPBF and PBF, GE3 and E3, and each one's own): looked up together.
  const keys = stemKeys(key);
  const found = await Promise.all(keys.map((stem) => engine.mpnLookup({ key: stem, mode: 'exact', limit: opts.limit ?? 10, filters: opts.filters })));
  const out: { id: number; stem: string; order: number }[] = [];
  const seen = new Set<number>();
  let order = 0;
  keys.forEach((stem, i) => {
    if (!found[i]!.length) return;
    for (const h of found[i]!) {
      if (seen.has(h.id)) continue;
      seen.add(h.id);
      out.push({ id: h.id, stem, order });
    }
    order++;
  });
  return out;
}
