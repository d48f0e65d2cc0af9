/** Rows of the full-text tables, and free text -> FTS5 MATCH expressions. */
import type { PartRecord } from '../../catalog/part.ts';
import { partTextFields, TOKEN } from '../text-tokens.ts';

/**
 * The tokenizer keeps "." inside tokens (so "0.1uF" and "3.3V" stay whole); a dot that does not sit
 * between two letters or digits is punctuation and becomes a space ("amplifier." -> "amplifier").
 */
const LONE_DOT = /\.(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\./gu;
const clean = (s: string) => s.replace(LONE_DOT, ' ');

/** A package as the package column holds it (filters compare with it). */
export const packageText = (p: string) => clean(p.trim());

/** The FTS columns of a part, in FTS_COLUMNS order. */
export function ftsRow(r: PartRecord): string[] {
  const f = partTextFields(r);
  return [f.mpn, f.manufacturer, f.description, f.longDescription, f.category, f.package, f.specs].map(clean);
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

/** Function words that carry no meaning in a part search ("usb to uart bridge"). */
const STOPWORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'to',
  'for',
  'of',
  'in',
  'on',
  'with',
  'at',
  'by',
  'or',
  'from',
  'as',
  'is',
  'it',
  'that',
  'this',
  'be',
  'are',
  'into',
]);

/**
 * Query terms of the FTS match (SQLite only; OpenSearch's analyzers read textTokens): a word, or a
 * phrase of the words of one hyphenated compound ("SOT-23-5" -> "sot 23 5", "n-channel" ->
 * "n channel"), which the indexed text holds as the same words in a row.
 * Lone function words are dropped unless nothing else is left. De-duplicated, at most 32 words.
 */
export function textTerms(text: string): string[][] {
  const terms: string[][] = [];
  const seen = new Set<string>();
  let words = 0;
  // A chunk is a run of words joined only by hyphens or underscores ("sot-23-5", "n_channel"); any other
  // character between words separates them ("10uF+50V", "X7R/X5R", "AT&T").
  for (const chunk of text.toLowerCase().split(/[^\p{L}\p{N}._-]+/u)) {
    const t = chunk.match(TOKEN);
    if (!t || words >= 32) continue;
    const term = t.slice(0, 32 - words);
    const k = term.join(' ');
    if (seen.has(k)) continue;
    seen.add(k);
    words += term.length;
    terms.push(term);
  }
  const meaningful = terms.filter((t) => t.length > 1 || !STOPWORDS.has(t[0]!));
  return meaningful.length > 0 ? meaningful : terms;
}
