/** The engines' hits with records read on first use (src/engines/lazy-record-hit.ts). */
import { describe, expect, it } from 'vitest';
import type { PartRecord } from '../../src/catalog/part.ts';
import { withRecord } from '../../src/engines/lazy-record-hit.ts';

describe('withRecord', () => {
  it('reads the record only when it is first asked for, and once', () => {
    const record = { id: 7, mpn: 'LM358DR' } as unknown as PartRecord;
    let reads = 0;
    const hit = withRecord({ id: 7, score: 1.5, category: 'amplifiers' }, () => (reads++, record));
    expect(reads).toBe(0);
    expect('record' in hit).toBe(true); // what agentic search checks before it reads
    expect([hit.id, hit.score, hit.category]).toEqual([7, 1.5, 'amplifiers']);
    expect(reads).toBe(0);
    expect(hit.record).toBe(record);
    expect(hit.record).toBe(record);
    expect(reads).toBe(1);
  });

  it('keeps category only when the hit has one, and leaves a hit without a record as it is', () => {
    const vectorHit = withRecord({ id: 1, score: 0.9 }, () => ({}) as PartRecord);
    expect('category' in vectorHit).toBe(false);
    const bare = { id: 2, score: 0.5, category: null };
    expect(withRecord(bare, undefined)).toBe(bare);
  });
});
