import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/catalog/edit-distance.ts';
import { oneEditNeighbours } from '../../src/engines/mpn-neighbours.ts';

describe('keys one edit from a key', () => {
  it('holds the transpositions, deletions, replacements and insertions of the examples', () => {
    const near = new Set(oneEditNeighbours('LM358'));
    for (const k of ['LM538', 'ML358', 'LM385', 'LM35', 'M358', 'LM359', 'LM3588', 'LM3580', 'XLM358']) expect(near.has(k), k).toBe(true);
    expect(new Set(oneEditNeighbours('TL431')).has('TL413')).toBe(true);
    expect(near.has('LM358')).toBe(false);
  });

  it('is exactly every key at edit distance 1 over the key alphabet, each once', () => {
    const key = 'AB12';
    const near = oneEditNeighbours(key);
    expect(new Set(near).size).toBe(near.length);
    for (const k of near) expect(editDistance(key, k, 2), k).toBe(1);
    // Brute force over keys of length 3-5 drawn from a small alphabet that includes the key's characters.
    const alphabet = 'AB12Z';
    const all = (n: number): string[] => (n === 0 ? [''] : all(n - 1).flatMap((p) => [...alphabet].map((c) => p + c)));
    const within = [3, 4, 5].flatMap(all).filter((k) => editDistance(key, k, 2) === 1);
    const got = new Set(near);
    for (const k of within) expect(got.has(k), k).toBe(true);
  });

  it('uses the characters of the key beyond A-Z and 0-9', () => {
    expect(oneEditNeighbours('Ω12')).toContain('Ω1Ω2');
  });
});
