/**
 * Query words as both engines see them: runs of letters and digits with inner dots ("0.1uF",
 * "3.3V" stay whole), lower case, de-duplicated, at most 32. The SQLite FTS5 tokenizer and the
 * OpenSearch analyzers are configured to cut indexed text the same way.
 */
const TOKEN = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu;

export function textTokens(text: string): string[] {
  return [...new Set((text.toLowerCase().match(TOKEN) ?? []).slice(0, 32))];
}

/** Function words that carry no meaning in a part search ("usb to uart bridge"). */
const STOPWORDS = new Set(['a', 'an', 'and', 'the', 'to', 'for', 'of', 'in', 'on', 'with', 'at', 'by', 'or', 'from', 'as', 'is', 'it', 'that', 'this', 'be', 'are', 'into']);

/**
 * Query terms: a word, or a phrase of the words of one hyphenated compound ("SOT-23-5" ->
 * "sot 23 5", "n-channel" -> "n channel"), which the indexed text holds as the same words in a row.
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
