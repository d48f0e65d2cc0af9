/** The no-match floor of agentic search (src/search/agentic/evidence.ts), case by case. */
import { describe, expect, it } from 'vitest';
import { COSINE_FLOOR, COSINE_FLOOR_WITH_WORDS, COVERED_ENOUGH, relates, type Evidence } from '../../src/search/agentic/evidence.ts';

const none: Evidence = { understood: false, coverage: 0, lexicalHits: false, nearest: null };

// [case, evidence, relates]
const CASES: [string, Evidence, boolean][] = [
  ['nothing at all (made-up words, lexical-only)', none, false],
  ['a named category, family, constraint or MPN hit', { ...none, understood: true }, true],
  ['the best BM25 hits hold enough of its words', { ...none, coverage: COVERED_ENOUGH, lexicalHits: true }, true],
  ['BM25 hits holding too few of its words, no vector side', { ...none, coverage: 0.5, lexicalHits: true }, false],
  ['some words found, a part near enough in meaning', { ...none, coverage: 0.2, lexicalHits: true, nearest: COSINE_FLOOR_WITH_WORDS }, true],
  ['some words found, no part near in meaning ("best pizza near me")', { ...none, coverage: 0.2, lexicalHits: true, nearest: 0.236 }, false],
  ['no word found, the nearest part as near as made-up words get ("xyzzy plugh")', { ...none, nearest: 0.449 }, false],
  ['no word found, a part clearly near in meaning', { ...none, nearest: COSINE_FLOOR }, true],
];

describe('agentic search: the no-match floor', () => {
  it.each(CASES)('%s', (_name, e, want) => {
    expect(relates(e)).toBe(want);
  });
});
