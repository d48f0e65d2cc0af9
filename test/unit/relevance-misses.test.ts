import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine } from '../../src/engines/port.ts';
import type { RelevanceQuery } from '../../src/relevance/format.ts';
import { findMisses, formatMisses } from '../../src/relevance/misses.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';

describe('relevance misses (src/relevance/misses.ts) over the small fixture in SQLite', () => {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await smallSqliteEngine();
  });
  afterAll(async () => engine?.close());

  // As `partsearch relevance misses` looks judged parts up: by their slugs, in the index.
  const bySlug = async (slug: string) => {
    const at = slug.indexOf('/');
    return (await engine.getPartBySlug(slug.slice(0, at), slug.slice(at + 1)))?.part ?? null;
  };

  it('lists the parsed constraints each grade-3 part fails, with what it holds, and counts them by attribute', async () => {
    const queries: RelevanceQuery[] = [
      {
        id: 'q1',
        suite: 's',
        query: '10k 0603 resistor',
        endpoint: 'agentic',
        judgments: { 'yageo/RC0603FR-0710KL': 3, 'yageo/RC0603FR-074K7L': 3, 'yageo/NOT-IN-THE-INDEX': 3, 'yageo/RC0603FR-0710KL-X': 1 },
      },
      { id: 'q2', suite: 's', query: '10k 0402 resistor', endpoint: 'agentic', judgments: { 'yageo/RC0603FR-0710KL': 3 } },
      { id: 'm1', suite: 's', query: 'RC0603', endpoint: 'mpn', judgments: { 'yageo/RC0603FR-0710KL': 3 } },
    ];
    const r = await findMisses(queries, bySlug);
    expect(r.judged).toBe(3); // a part not in the index is skipped; grade 1 and MPN queries are not checked
    expect(r.meetingAll).toBe(1);
    expect(r.misses).toEqual([
      { query: '10k 0603 resistor', id: 'q1', slug: 'yageo/RC0603FR-074K7L', constraint: 'resistance equals 10000Ω [10k]', found: 'Resistance=4.7kΩ' },
      { query: '10k 0402 resistor', id: 'q2', slug: 'yageo/RC0603FR-0710KL', constraint: 'package 0402', found: '0603' },
    ]);
    expect(r.byName).toEqual([
      ['package', 1],
      ['resistance', 1],
    ]);
    expect(formatMisses(r)).toContain('meeting every parsed constraint of their query: 1');
  });
});
