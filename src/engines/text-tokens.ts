/**
 * Text as both engines see it. Query words: runs of letters and digits with inner dots ("0.1uF",
 * "3.3V" stay whole), lower case, de-duplicated, at most 32. The SQLite FTS5 tokenizer and the
 * OpenSearch analyzers are configured to cut indexed text the same way.
 */
import type { PartRecord } from '../catalog/part.ts';

/** A query word (global: use with String.prototype.match). */
export const TOKEN = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu;

export function textTokens(text: string): string[] {
  return [...new Set((text.toLowerCase().match(TOKEN) ?? []).slice(0, 32))];
}

/**
 * A part's full-text fields, as both engines index them (SQLite: one FTS5 column each, sqlite/text.ts;
 * OpenSearch: mpn_text, manufacturer.name, description, long_description, category.names, package,
 * specs_text, opensearch/documents.ts).
 */
export function partTextFields(r: PartRecord) {
  return {
    mpn: [r.mpn, r.mpn_norm, ...r.aliases].join(' '),
    manufacturer: r.manufacturer.name,
    description: r.description,
    longDescription: r.long_description ?? '',
    category: r.category ? r.category.path.map((p) => p.name).join(' ') : '',
    package: r.package ?? '',
    specs: r.specs.map((s) => `${s.name} ${s.value}`).join(' '),
  };
}
