import { describe, expect, it } from 'vitest';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../src/util/json-depth.ts';

const nested = (n: number, open = '[', close = ']') => JSON.parse(`${open.repeat(n)}${close.repeat(n)}`) as unknown;

describe('jsonDeeperThan', () => {
  it('counts arrays and objects, not scalars', () => {
    expect([0, 'x', null, true].map((v) => jsonDeeperThan(v, 0))).toEqual([false, false, false, false]);
    expect(jsonDeeperThan([], 0)).toBe(true);
    expect(jsonDeeperThan([], 1)).toBe(false);
    expect(jsonDeeperThan({ a: { b: [1, { c: 2 }] } }, 4)).toBe(false);
    expect(jsonDeeperThan({ a: { b: [1, { c: 2 }] } }, 3)).toBe(true);
  });

  it('finds the deep branch among shallow ones, at the limit exactly', () => {
    const v = { shallow: [1, 2], deep: nested(MAX_JSON_DEPTH - 1) };
    expect(jsonDeeperThan(v)).toBe(false);
    expect(jsonDeeperThan({ ...v, deeper: nested(MAX_JSON_DEPTH) })).toBe(true);
  });

  it('checks a value nested a million deep without exhausting the stack', () => {
    expect(jsonDeeperThan(nested(1_000_000))).toBe(true);
    const objects = JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`) as unknown;
    expect(jsonDeeperThan(objects)).toBe(true);
  });
});
