/**
 * Values derived per record (search/record-memo.ts): across requests for frozen (cached, shared) records
 * only; within one request (perObject: a query's ranking keys) for any record.
 */
import { describe, expect, it } from 'vitest';
import { recordKeysFor } from '../../src/search/ranking-keys.ts';
import { perObject, perRecord } from '../../src/search/record-memo.ts';
import { understandQuery } from '../../src/search/understand.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';

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

describe('perObject and one query’s ranking keys', () => {
  it('keeps any object’s value, frozen or not', () => {
    let calls = 0;
    const upper = perObject((r: { description: string }) => (calls++, r.description.toUpperCase()));
    const open = { description: 'dual op amp' };
    expect([upper(open), upper(open), upper({ description: 'led' })]).toEqual(['DUAL OP AMP', 'DUAL OP AMP', 'LED']);
    expect(calls).toBe(2);
  });

  it('computes a record’s keys once for the query (agentic search reads them again after kNN)', async () => {
    const engine = await smallSqliteEngine();
    try {
      const hits = (await engine.textSearch({ text: 'resistor', filters: {}, limit: 2, offset: 0, records: true })).hits;
      const [a, b] = hits.map((h) => h.record!);
      const keysOf = recordKeysFor(understandQuery('10k 0603 1% resistor'), new Map(), []);
      const first = keysOf(a!);
      expect(keysOf(a!)).toBe(first); // the same object: not computed again
      expect(first.checks.length).toBeGreaterThan(0);
      expect(keysOf(b!)).not.toBe(first);
      // Another query's keys are its own.
      expect(recordKeysFor(understandQuery('resistor'), new Map(), [])(a!)).not.toBe(first);
    } finally {
      await engine.close();
    }
  });
});
