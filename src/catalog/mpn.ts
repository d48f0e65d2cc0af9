/**
 * MPN normalisation and URL slugs.
 *
 * - mpnIdentity: what tells two parts of a manufacturer apart (mpnIdentity's comment).
 * - normaliseMpn: the lookup key: upper case, every character that is not a letter or digit removed
 *   ("LM358-DR", "lm358 dr", "LM358/DR" -> "LM358DR"). Exact, prefix and infix MPN search compare keys;
 *   several parts of a manufacturer may share one ("SMF6.0CA", "SMF60CA").
 * - mpnSlug: the URL segment of a part: the MPN as stored with whitespace runs turned into "-", letters
 *   and digits outside ASCII written as "~" and the hex of each UTF-8 byte ("16Ω" -> "16~CE~A9"), and
 *   every other character outside [A-Za-z0-9._-] turned into "_" ("MCP6002T-I/SN" -> "MCP6002T-I_SN").
 *   Case is kept; lookups also accept any case and redirect to this canonical form. Two parts of one
 *   manufacturer differ in their identity, so in a letter, digit, "." or "-" (which the slug keeps; an
 *   escape starts with "~", which nothing else writes: "2.54-2*5P简牛" and "2.54-2*5P弯针" both read
 *   "2.54-2_5P__" before the escapes) or in other punctuation, which the slug writes "_" alike: such
 *   parts ("AB/C", "AB*C"; none in the real catalogues) share a slug, which names the lower id.
 * - slugify: lower-case kebab slugs for manufacturers and categories ("Würth Elektronik" -> "wurth-elektronik").
 */

const NON_ALNUM = /[^\p{L}\p{N}]+/gu;

/**
 * The MPN as a part's identity reads it (FORMAT.md: the pair of manufacturer and MPN as written):
 * compatibility forms folded (NFKC), upper case, whitespace runs written "-" as slugs write them ("G5V-1
 * DC5" is G5V-1-DC5), nothing else changed. Punctuation counts: SMF6.0CA (6 V) and SMF60CA (60 V) are two
 * parts, though they share the search key SMF60CA.
 */
export function mpnIdentity(mpn: string): string {
  return mpn.normalize('NFKC').trim().replace(/\s+/g, '-').toUpperCase();
}

export function normaliseMpn(mpn: string): string {
  return mpn.normalize('NFKC').replace(NON_ALNUM, '').toUpperCase();
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const escapeUtf8 = (c: string) => [...Buffer.from(c, 'utf8')].map((b) => `~${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

export function mpnSlug(mpn: string): string {
  return (
    mpn
      .trim()
      .normalize('NFKC')
      .replace(/\s+/g, '-')
      // Anything else one "_" per UTF-16 unit, as slugs were written before the escapes (legacySlug).
      .replace(/[^A-Za-z0-9._-]/gu, (c) => (LETTER_OR_DIGIT.test(c) ? escapeUtf8(c) : '_'.repeat(c.length)))
  );
}

/**
 * The MPN slug as it was written before the escapes (every character outside [A-Za-z0-9._-] turned into
 * "_", per UTF-16 unit), read off a slug: URLs published then still find their part (part-detail.ts).
 */
export function legacySlug(slug: string): string {
  return slug.replace(/(?:~[0-9A-F]{2})+/g, (run) => '_'.repeat(Buffer.from(run.replace(/~/g, ''), 'hex').toString('utf8').length));
}

export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\+/g, ' plus ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'x' : s;
}

/** Key used to compare names loosely (manufacturer aliases, category names): letters and digits only. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}
