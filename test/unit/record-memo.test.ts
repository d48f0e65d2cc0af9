/** Values derived per record (search/record-memo.ts): kept for frozen (cached, shared) records only. */
import { describe, expect, it } from 'vitest';
import { perRecord } from '../../src/search/record-memo.ts';

describe('perRecord', () => {
  it('derives a frozen record’s value once, and an unfrozen record’s every time', () => {
    let calls = 0;
    const upper = perRecord((r: { description: string }) => (calls++, r.description.toUpperCase()));
    const frozen = Object.freeze({ description: 'dual op amp' });
    expect([upper(frozen), upper(frozen)]).toEqual(['DUAL OP AMP', 'DUAL OP AMP']);
    expect(calls).toBe(1);
    const open = { description: 'dual op amp' };
    expect(upper(open)).toBe('DUAL OP AMP');
    open.description = 'quad op amp'; // may still change: not kept
    expect(upper(open)).toBe('QUAD OP AMP');
    expect(calls).toBe(3);
  });
});
