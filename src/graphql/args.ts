/** Checks of GraphQL arguments beyond their types: a bad one is a validation_error naming it (its field's error). */
import { validationError } from '../errors.ts';

/** An integer argument within bounds; `dflt` when absent or null. */
export function intArg(name: string | (string | number)[], value: number | null | undefined, dflt: number, min: number, max: number): number {
  if (value === null || value === undefined) return dflt;
  if (value < min || value > max) {
    throw validationError([
      { loc: Array.isArray(name) ? name : [name], msg: `must be between ${min} and ${max}`, type: 'value_error', input: value, ctx: { ge: min, le: max } },
    ]);
  }
  return value;
}

/** A list argument of at most `max` items. */
export function listArg<T>(name: string, value: readonly T[] | null | undefined, max: number): readonly T[] {
  const list = value ?? [];
  if (list.length > max) throw validationError([{ loc: [name], msg: `must hold at most ${max} items`, type: 'value_error', ctx: { max_items: max } }]);
  return list;
}

/** The deepest page a search answers: start + limit at most this. */
export const MAX_WINDOW = 1000;

/** start and limit of a search: limit 0-100 (default 10), start + limit at most MAX_WINDOW. */
export function page(args: { start?: number | null; limit?: number | null }): { start: number; limit: number } {
  const limit = intArg('limit', args.limit, 10, 0, 100);
  const start = intArg('start', args.start, 0, 0, MAX_WINDOW - limit);
  return { start, limit };
}
