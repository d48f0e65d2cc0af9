import { describe, expect, it } from 'vitest';
import type { PartRecord } from '../../src/catalog/part.ts';
import { findMisses, formatMisses } from '../../src/relevance/misses.ts';
import type { RelevanceQuery } from '../../src/relevance/format.ts';

const part = (pkg: string, specs: [string, string, number, string][]): PartRecord =>
  ({
    package: pkg,
    description: '',
    specs: specs.map(([name, value, num, unit]) => ({ name, value, num, min: null, max: null, unit })),
  }) as unknown as PartRecord;

describe('relevance misses (src/relevance/misses.ts)', () => {
  it('lists the parsed constraints each grade-3 part fails, with what it holds, and counts them by name', async () => {
    const parts: Record<string, PartRecord> = {
      'a/R1': part('0603', [['Resistance', '10kΩ', 10_000, 'Ω']]),
      'a/R2': part('0402', [['Resistance', '4.7kΩ', 4_700, 'Ω']]),
    };
    const queries: RelevanceQuery[] = [
      { id: 'q1', suite: 's', query: '10k 0603 resistor', endpoint: 'agentic', judgments: { 'a/R1': 3, 'a/R2': 3, 'a/R3': 3, 'a/R9': 1 } },
      { id: 'm1', suite: 's', query: 'RC0603', endpoint: 'mpn', judgments: { 'a/R1': 3 } },
    ];
    const r = await findMisses(queries, async (slug) => parts[slug] ?? null);
    expect(r.judged).toBe(2); // a/R3 is not in the index; grade 1 and MPN queries are not checked
    expect(r.meetingAll).toBe(1);
    expect(r.misses).toEqual([
      { query: '10k 0603 resistor', id: 'q1', slug: 'a/R2', constraint: 'Resistance equals 10000Ω [10k]', found: 'Resistance=4.7kΩ' },
      { query: '10k 0603 resistor', id: 'q1', slug: 'a/R2', constraint: 'package 0603', found: '0402' },
    ]);
    expect(r.byName).toEqual([
      ['Resistance', 1],
      ['package', 1],
    ]);
    expect(formatMisses(r)).toContain('meeting every parsed constraint of their query: 1');
  });
});
