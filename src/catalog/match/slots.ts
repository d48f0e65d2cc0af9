/**
 * Query -> slots. A slot is one thing the user typed (a word, or a phrase from the synonym tables)
 * with the alternative term sequences that may satisfy it: what was typed (weight 1) and, for a
 * known phrase, its synonyms and expansions (SYNONYM_CREDIT). Phrases are found greedily, longest
 * first, left to right: "smd resistor" -> [smd | smt | surface mount | chip] [resistor]. A word
 * that no name holds may still be a misspelt table entry ("potentiometr", "optocupler"): one edit
 * away (two for 8+ letters) it takes that entry's alternatives at TYPO_CREDIT of their credit.
 */
import { editDistance } from '../edit-distance.ts';
import { CATEGORY_EXPANSIONS, CATEGORY_SYNONYM_GROUPS, STOPWORDS } from './synonyms.ts';
import { terms } from './text.ts';

/** Credit of an alternative the user did not type, relative to the words typed. */
const SYNONYM_CREDIT = 0.95;
const TYPO_CREDIT = 0.85;
/** Words of a query looked at; the rest is ignored (names are short, and this bounds the work). */
export const MAX_QUERY_TERMS = 24;

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
  /** Single-word entries of 5+ letters, for typo lookups. */
  words: string[];
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
  const words = [...map.keys()].filter((k) => !k.includes(' ') && k.length >= 5 && !/\d/.test(k));
  return { map, longest, words };
}

function typoEntry(word: string, table: PhraseTable): string[][] | undefined {
  if (word.length < 5) return undefined;
  const max = word.length >= 8 ? 2 : 1;
  for (const k of table.words) {
    if (Math.abs(k.length - word.length) > max) continue;
    if (editDistance(word, k, max) <= max) return [[k], ...table.map.get(k)!];
  }
  return undefined;
}

/** `known`: whether some name holds the word (then it is not looked up as a typo). */
export function toSlots(query: string, table: PhraseTable, known: (term: string) => boolean = () => true): Slot[] {
  const q = toTerms(query).slice(0, MAX_QUERY_TERMS);
  const slots: Slot[] = [];
  for (let i = 0; i < q.length;) {
    let taken = 0;
    for (let n = Math.min(table.longest, q.length - i); n >= 1 && !taken; n--) {
      const typed = q.slice(i, i + n);
      const syn = table.map.get(typed.join(' '));
      if (!syn) continue;
      slots.push({ typed, alts: [{ terms: typed, credit: 1 }, ...syn.map((t) => ({ terms: t, credit: SYNONYM_CREDIT }))] });
      taken = n;
    }
    if (!taken) {
      const typed = [q[i]!];
      const typo = known(q[i]!) ? undefined : typoEntry(q[i]!, table);
      const alts = typo ? typo.map((t) => ({ terms: t, credit: SYNONYM_CREDIT * TYPO_CREDIT })) : [];
      slots.push({ typed, alts: [{ terms: typed, credit: 1 }, ...alts] });
      taken = 1;
    }
    i += taken;
  }
  return slots;
}
