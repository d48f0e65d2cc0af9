import { describe, expect, it } from 'vitest';
import { textTokens } from '../../src/engines/text-tokens.ts';
import { orMatch, textTerms } from '../../src/engines/sqlite/text.ts';

describe('query terms (sqlite/text.ts textTerms, over text-tokens.ts tokens)', () => {
  it('keeps a hyphenated compound together as a phrase of its words', () => {
    expect(textTerms('3.3V LDO SOT-23-5')).toEqual([['3.3v'], ['ldo'], ['sot', '23', '5']]);
    expect(textTerms('n-channel mosfet (SOT-23)')).toEqual([['n', 'channel'], ['mosfet'], ['sot', '23']]);
    // Slashes, commas and brackets separate alternatives; dots inside numbers stay in the word.
    expect(textTerms('X7R/X5R, 0.1uF')).toEqual([['x7r'], ['x5r'], ['0.1uf']]);
    // Only hyphens and underscores join words into a phrase.
    expect(textTerms('10uF+50V AT&T n_channel')).toEqual([['10uf'], ['50v'], ['t'], ['n', 'channel']]); // "at" is a function word
  });

  it('drops lone function words unless nothing else is left, and never inside a phrase', () => {
    expect(textTerms('usb to uart bridge')).toEqual([['usb'], ['uart'], ['bridge']]);
    expect(textTerms('to be')).toEqual([['to'], ['be']]);
    expect(textTerms('plug-and-play')).toEqual([['plug', 'and', 'play']]);
  });

  it('de-duplicates and keeps at most 32 words, like textTokens', () => {
    expect(textTerms('LDO ldo Ldo')).toEqual([['ldo']]);
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(textTerms(many).flat()).toEqual(textTokens(many));
    expect(textTerms('')).toEqual([]);
    expect(textTerms('%%% ---')).toEqual([]);
  });

  it('becomes an FTS5 OR of quoted words and phrases', () => {
    expect(orMatch(textTerms('n-channel "mosfet"'))).toBe('"n channel" OR "mosfet"');
    expect(orMatch([])).toBeNull();
  });
});
