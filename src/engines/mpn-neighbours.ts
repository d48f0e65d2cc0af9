/**
 * Every MPN key one edit from a key: a character deleted, two adjacent ones swapped, one replaced or
 * one inserted (optimal string alignment distance 1, catalog/edit-distance.ts). The fuzzy MPN tier looks
 * these keys up exactly (both adapters), so a typo is found whatever it did to the key's trigrams:
 * `LM538` shares none with `LM358` (a transposition inside a five-character key breaks all three), and a
 * short key has too few for a one-edit match to keep one. Replacements and insertions draw from the
 * characters keys are made of (normaliseMpn: digits, A-Z) and the key's own.
 *
 * About 72 keys per character (a 5-character key: 389; 7: 533), each an exact probe of the key
 * index: a millisecond or two, paid only by the fuzzy tier (a key that matched nothing exactly, by
 * prefix or inside another).
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Keys up to this long are looked up this way: an edit inside a key of 7 characters or fewer (5
 * trigrams) can leave it at most one trigram in common with its target, often none. A longer key's typo
 * keeps trigrams enough to be found through them, in less time than its 500-odd neighbours are probed.
 */
export const NEIGHBOURS_MAX_KEY = 7;

export function oneEditNeighbours(key: string): string[] {
  const chars = [...key];
  const alphabet = [...new Set([...ALPHABET, ...chars])];
  const out = new Set<string>();
  const at = (i: number, j: number) => chars.slice(i, j).join('');
  for (let i = 0; i <= chars.length; i++) {
    const head = at(0, i);
    for (const c of alphabet) out.add(head + c + at(i, chars.length));
    if (i === chars.length) break;
    const tail = at(i + 1, chars.length);
    out.add(head + tail);
    for (const c of alphabet) out.add(head + c + tail);
    if (i + 1 < chars.length) out.add(head + chars[i + 1]! + chars[i]! + at(i + 2, chars.length));
  }
  out.delete(key);
  out.delete('');
  return [...out];
}
