/**
 * Query words as both engines see them: runs of letters and digits with inner dots ("0.1uF",
 * "3.3V" stay whole), lower case, de-duplicated, at most 32. The SQLite FTS5 tokenizer and the
 * OpenSearch analyzers are configured to cut indexed text the same way.
 */
/** A query word (global: use with String.prototype.match). */
export const TOKEN = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu;

export function textTokens(text: string): string[] {
  return [...new Set((text.toLowerCase().match(TOKEN) ?? []).slice(0, 32))];
}
