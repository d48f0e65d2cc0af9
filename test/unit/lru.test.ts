import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/util/lru.ts';

describe('Lru', () => {
  it('keeps the most recently used entries, a read counting as a use', () => {
    const l = new Lru<string, number>(2);
    l.set('a', 1);
    l.set('b', 2);
    expect(l.get('a')).toBe(1); // a is now the most recently used
    l.set('c', 3);
    expect(l.has('b')).toBe(false);
    expect([l.get('a'), l.get('c'), l.size]).toEqual([1, 3, 2]);
  });

  it('weighs entries: drops the least recently used until a new one fits, keeps one heavier than the budget alone', () => {
    const l = new Lru<string, number[]>(5, (v) => v.length);
    l.set('a', [1, 2]);
    l.set('b', [1, 2]);
    expect(l.used).toBe(4);
    l.set('c', [1, 2]); // a goes
    expect([l.has('a'), l.has('b'), l.has('c'), l.used]).toEqual([false, true, true, 4]);
    l.set('b', [1]); // replacing an entry counts its new weight only
    expect(l.used).toBe(3);
    l.set('big', [1, 2, 3, 4, 5, 6, 7]);
    expect([l.size, l.used, l.has('big')]).toEqual([1, 7, true]);
    expect(l.delete('big')).toBe(true);
    expect([l.size, l.used, l.delete('big')]).toEqual([0, 0, false]);
  });

  it('keeps nothing with a budget of 0, and has() does not count as a use', () => {
    const none = new Lru<string, number>(0);
    expect(none.set('a', 1)).toBe(1);
    expect(none.size).toBe(0);
    const l = new Lru<string, number>(2);
    l.set('a', 1);
    l.set('b', 2);
    expect(l.has('a')).toBe(true);
    l.set('c', 3); // a was not used by has(): it goes
    expect(l.has('a')).toBe(false);
    l.clear();
    expect([l.size, l.used]).toEqual([0, 0]);
  });
});
