/**
 * How deep a parsed JSON value nests. JSON.parse itself takes any depth, but the recursive code
 * after it (JSON.stringify, schema validation, record normalisation, GraphQL input coercion) runs
 * out of stack near a few thousand levels and throws a RangeError that no caller expects. Request
 * bodies and dump records are refused beyond MAX_JSON_DEPTH levels instead, with a reason that says so.
 */

/**
 * Deepest nesting of arrays and objects accepted in a request body or a dump record. The deepest
 * the API or the dump format defines is 5 (a dump offer's price break pair); free-form fields (dump
 * `attributes`, deep-dive `context`, GraphQL variables) get room beyond that.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests arrays and objects more than `max` levels deep (a scalar is 0
 * levels, `{}` and `[]` are 1). Recursion stops at `max`, so checking never exhausts the stack;
 * it visits each array and object once (on the real 29k-part dump, about a fifth of JSON.parse's
 * time; a scan of the text skipping strings costs as much as parsing it).
 */
export function jsonDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  return value !== null && typeof value === 'object' && (max < 1 || deeper(value, max - 1));
}

/** Whether `v` (an array or object at one level) holds containers more than `left` further levels deep. */
function deeper(v: object, left: number): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object' && (left === 0 || deeper(x, left - 1))) return true;
    }
    return false;
  }
  for (const k in v) {
    const x: unknown = (v as Record<string, unknown>)[k];
    if (x !== null && typeof x === 'object' && (left === 0 || deeper(x, left - 1))) return true;
  }
  return false;
}
