/**
 * How deep a GraphQL document nests, read from its text before it is parsed. graphql-js parses by
 * recursive descent and runs out of stack near a few thousand levels (a 3,000-deep selection fits in
 * the token limit); its RangeError then reached the client as "Maximum call stack size exceeded".
 * Documents nesting braces, brackets and parentheses beyond MAX_DOCUMENT_NESTING are refused first.
 */

/** Deepest nesting of `{`, `[` and `(` read: field depth is capped at 12 (limits.ts), input values get room beyond. */
export const MAX_DOCUMENT_NESTING = 64;

/**
 * Whether the document nests more than `max` levels. Strings, block strings and comments do not count;
 * the text need not be valid (the parser judges that). Linear, stops at the first level over `max`.
 */
export function documentNestedDeeperThan(text: string, max: number = MAX_DOCUMENT_NESTING): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) depth--;
    else if (c === 0x23) {
      // A comment, to the end of the line.
      const end = text.indexOf('\n', i);
      if (end === -1) return false;
      i = end;
    } else if (c === 0x22) {
      if (text.startsWith('"""', i)) {
        // A block string: to the next """ not escaped as \""".
        let end = text.indexOf('"""', i + 3);
        while (end !== -1 && text.charCodeAt(end - 1) === 0x5c) end = text.indexOf('"""', end + 3);
        if (end === -1) return false;
        i = end + 2;
      } else {
        // A string: to the next quote not escaped by an odd run of backslashes (strings end at a line's end too).
        let j = i + 1;
        for (; j < text.length; j++) {
          const d = text.charCodeAt(j);
          if (d === 0x5c) j++;
          else if (d === 0x22 || d === 0x0a) break;
        }
        i = j;
      }
    }
  }
  return false;
}
