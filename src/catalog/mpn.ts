/**
 * MPN normalisation and URL slugs.
 *
 * - normaliseMpn: the lookup key: upper case, every character that is not a letter or digit removed
 *   ("LM358-DR", "lm358 dr", "LM358/DR" -> "LM358DR"). Exact, prefix and infix MPN search compare keys.
 * - mpnSlug: the URL segment of a part: the MPN as stored with whitespace runs turned into "-" and
 *   every character outside [A-Za-z0-9._-] turned into "_" ("MCP6002T-I/SN" -> "MCP6002T-I_SN"). Case is
 *   kept; lookups also accept any case and redirect to this canonical form.
 * - slugify: lower-case kebab slugs for manufacturers and categories ("Würth Elektronik" -> "wurth-elektronik").
 */

const NON_ALNUM = /[^\p{L}\p{N}]+/gu;

export function normaliseMpn(mpn: string): string {
  return mpn.normalize('NFKC').replace(NON_ALNUM, '').toUpperCase();
}

export function mpnSlug(mpn: string): string {
  return mpn
    .trim()
    .normalize('NFKC')
    .replace(/\s+/g, '-')
    .replace(/[^A-Za-z0-9._-]/g, '_');
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
