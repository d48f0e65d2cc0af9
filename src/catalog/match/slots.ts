/**
 * Query -> slots. A slot is one thing the user typed (a word, or a phrase from the synonym tables)
 * with the alternative term sequences that may satisfy it: what was typed (weight 1) and, for a
 * known phrase, its synonyms and expansions (SYNONYM_CREDIT). Phrases are found greedily, longest
 * first, left to right: "smd resistor" -> [smd | smt | surface mount | chip] [resistor].
 */
import { CATEGORY_EXPANSIONS, CATEGORY_SYNONYM_GROUPS, STOPWORDS } from './synonyms.ts';
import { terms } from './text.ts';

/** Credit of an alternative the user did not type, relative to the words typed. */
export const SYNONYM_CREDIT = 0.95;

export interface Alternative {
  terms: string[];
  credit: number;
}

export interface Slot {
  typed: string[];
  alts: Alternative[];
}

export interface PhraseTable {
  map: Map<string, string[][]>;
  longest: number;
}

const toTerms = (s: string) => terms(s, { camel: true, stopwords: STOPWORDS });

export function compilePhrases(
  groups: readonly (readonly string[])[] = CATEGORY_SYNONYM_GROUPS,
  expansions: Readonly<Record<string, readonly string[]>> = CATEGORY_EXPANSIONS,
): PhraseTable {
  const map = new Map<string, string[][]>();
  let longest = 1;
  const add = (from: string, to: string) => {
    const f = toTerms(from);
    const t = toTerms(to);
    if (f.length === 0 || t.length === 0) return;
    const key = f.join(' ');
    if (key === t.join(' ')) return;
    longest = Math.max(longest, f.length);
    let alts = map.get(key);
    if (!alts) map.set(key, (alts = []));
    if (!alts.some((a) => a.join(' ') === t.join(' '))) alts.push(t);
  };
  for (const g of groups) for (const a of g) for (const b of g) if (a !== b) add(a, b);
  for (const [from, tos] of Object.entries(expansions)) for (const to of tos) add(from, to);
  return { map, longest };
}

export function toSlots(query: string, table: PhraseTable): Slot[] {
  const q = toTerms(query);
  const slots: Slot[] = [];
  for (let i = 0; i < q.length; ) {
    let taken = 0;
    for (let n = Math.min(table.longest, q.length - i); n >= 1 && !taken; n--) {
      const typed = q.slice(i, i + n);
      const syn = table.map.get(typed.join(' '));
      if (!syn) continue;
      slots.push({ typed, alts: [{ terms: typed, credit: 1 }, ...syn.map((t) => ({ terms: t, credit: SYNONYM_CREDIT }))] });
      taken = n;
    }
    if (!taken) {
      slots.push({ typed: [q[i]!], alts: [{ terms: [q[i]!], credit: 1 }] });
      taken = 1;
    }
    i += taken;
  }
  return slots;
}
