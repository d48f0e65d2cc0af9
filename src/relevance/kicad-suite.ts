/**
 * Rule-judged natural-language queries from KiCad's symbol library (../shared/data/kicad_symbols.jsonl,
 * test/relevance/build-real-suites.ts): the prose an engineer's schematic tool already holds, e.g.
 * "Single NAND Gate, Low-Voltage CMOS", "20MHz GBW, RRIO, 2.5..5.5V supply, 820uA single OpAmp, DFN-6".
 * Deterministic: the same files and seed give the same queries.
 *
 * Which symbols: those whose LCSC matches are exact (the symbol's name is the part's MPN) and name
 * at least one active part of the catalogue that shares a word with the symbol's description (a
 * word of 4+ letters, a trailing "s" dropped, in the part's description or category path). The word
 * check drops name collisions (KiCad's 4056 is a BCD decoder; the catalogue's 4056 is a Li-ion
 * charger). Symbols are drawn in turn from the leaf categories of their parts, largest first, at
 * random within each (seeded), one query per distinct description.
 *
 * How it is judged (KICAD_RULE), over active parts only: grade 3 = a part the symbol matched (and
 * that passed the word check); grade 1 = another part of the leaf category of a grade-3 part (or of
 * a same-named leaf under another root, as in param-suite.ts). Every other part is grade 0, so the
 * judgments are incomplete by design: a NAND gate the symbol did not match scores as the category.
 */
import { Rng } from '../sample/rng.ts';
import type { Grade, RelevanceQuery } from './format.ts';
import { activeByCategory, activeQuery, sameKindParts, type ParamPart } from './param-suite.ts';

/** A KiCad symbol as the dump has it (only the fields the suite reads). */
export interface KicadSymbol {
  name: string;
  description: string | null;
  lcsc_match_type: string | null;
  lcsc_matches: string[] | null;
}

/** What the builder needs of a part, beyond ParamPart: its dump identity and its text. */
export interface KicadPart extends ParamPart {
  /** The dump's source_id, e.g. "lcsc:C7950". */
  sourceId: string | null;
  description: string;
}

export const KICAD_RULE =
  "Judged over active parts: grade 3 = a part the KiCad symbol matched exactly by name (lcsc_matches) that shares a word of 4+ letters with the symbol description; grade 1 = another part of such a part's leaf category (or same-named leaf categories under other roots); everything else 0.";

const words = (text: string): Set<string> => new Set((text.toLowerCase().match(/[a-z]{4,}/g) ?? []).map((w) => w.replace(/s$/, '')));

export function buildKicadSuite(
  symbols: readonly KicadSymbol[],
  parts: readonly KicadPart[],
  opts: { suite: string; queries: number; seed: number },
): RelevanceQuery[] {
  const bySource = new Map<string, KicadPart>();
  for (const p of parts) if (p.active && p.sourceId) bySource.set(p.sourceId, p);
  const sameKind = sameKindParts(activeByCategory(parts));

  // Usable symbols and their parts, grouped by the leaf category of their first part.
  const byCategory = new Map<string, { symbol: KicadSymbol; matched: KicadPart[] }[]>();
  const seen = new Set<string>();
  for (const symbol of symbols) {
    const description = symbol.description?.trim() ?? '';
    if (symbol.lcsc_match_type !== 'exact' || description === '' || seen.has(description)) continue;
    const said = words(description);
    const matched = (symbol.lcsc_matches ?? [])
      .map((c) => bySource.get(`lcsc:${c}`))
      .filter((p): p is KicadPart => p !== undefined && p.category !== null)
      .filter((p) => [...words(`${p.description} ${p.category!.name}`)].some((w) => said.has(w)));
    if (matched.length === 0) continue;
    seen.add(description);
    const slug = matched[0]!.category!.slug;
    const list = byCategory.get(slug);
    if (list) list.push({ symbol, matched });
    else byCategory.set(slug, [{ symbol, matched }]);
  }
  const categories = [...byCategory.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

  const rng = new Rng(opts.seed).fork(opts.suite);
  const out: RelevanceQuery[] = [];
  for (let round = 0; out.length < opts.queries && categories.some(([, l]) => l.length > 0); round++) {
    for (const [, list] of categories) {
      if (out.length >= opts.queries) break;
      if (list.length === 0) continue;
      const { symbol, matched } = list.splice(rng.int(0, list.length - 1), 1)[0]!;
      const judgments: Record<string, Grade> = {};
      for (const p of matched) for (const q of sameKind(p.category!.slug, p.category!.name)) judgments[q.slug] ??= 1;
      for (const p of matched) judgments[p.slug] = 3;
      const rule = `KiCad symbol ${symbol.name}: ${matched.map((p) => p.slug).join(', ')}. ${KICAD_RULE}`;
      out.push(activeQuery(opts.suite, out.length + 1, 'nl', symbol.description!.trim(), rule, judgments));
    }
  }
  return out;
}
