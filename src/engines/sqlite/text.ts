/** Rows of the full-text tables, and free text -> FTS5 MATCH expressions. */
import type { PartRecord } from '../../catalog/part.ts';

/**
 * The tokenizer keeps "." inside tokens (so "0.1uF" and "3.3V" stay whole); a dot that does not sit
 * between two letters or digits is punctuation and becomes a space ("amplifier." -> "amplifier").
 */
const LONE_DOT = /\.(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\./gu;
const clean = (s: string) => s.replace(LONE_DOT, ' ');

/** The FTS columns of a part, in FTS_COLUMNS order. */
export function ftsRow(r: PartRecord): string[] {
  return ftsColumns(r).map(clean);
}

function ftsColumns(r: PartRecord): string[] {
  return [
    [r.mpn, r.mpn_norm, ...r.aliases].join(' '),
    [r.manufacturer.name].join(' '),
    r.description,
    r.long_description ?? '',
    r.category ? r.category.path.map((p) => p.name).join(' ') : '',
    r.package ?? '',
    r.specs.map((s) => `${s.name} ${s.value}`).join(' '),
  ];
}

/** OR of the quoted terms (engines/text-tokens.ts: a word, or the words of a phrase); null when there are none. */
export function orMatch(terms: readonly (readonly string[])[]): string | null {
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.join(' ').replace(/"/g, '""')}"`).join(' OR ');
}

/**
 * The first, middle and last trigram of `s` (3+ letters and digits), ANDed: every key containing `s`
 * contains them, and three trigrams narrow the candidates through the trigram index about as well
 * as all of them, without reading the long doclists of every common trigram ("060").
 */
export function trigramSpread(s: string): string {
  const m = Math.floor(s.length / 2);
  return [...new Set([s.slice(0, 3), s.slice(m - 1, m + 2), s.slice(-3)])].map((g) => `"${g}"`).join(' AND ');
}

/** Any of the key's trigrams, for fuzzy candidates ranked by how many they share; null when too short. */
export function trigramMatch(key: string): string | null {
  if (key.length < 3) return null;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= key.length; i++) grams.add(`"${key.slice(i, i + 3)}"`);
  return [...grams].join(' OR ');
}
