/**
 * Spec ranges compare numbers in the range's unit (src/search/filters.ts, the engines' spec filters): a
 * number the catalogue stored in another unit under the same spec name is not in the range, while a plain
 * number is (a catalogue writes "3750" for 3750 V). Real HTTP server over each engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ENGINES, useTestApi } from '../support/api.ts';
import { tempDir } from '../support/fixtures.ts';

const PARTS: [string, Record<string, string>][] = [
  ['TOL1', { Tolerance: '1%' }],
  ['TOL5', { Tolerance: '5%' }],
  ['TOL10', { Tolerance: '±10%' }],
  // dirty: a temperature under "Tolerance"
  ['TOLC', { Tolerance: '25℃' }],
  ['ISO5K', { 'Isolation Voltage': '5000V' }],
  ['ISO2K5', { 'Isolation Voltage': '2.5kV' }],
  ['ISOPLAIN', { 'Isolation Voltage': '3750' }],
  // dirty: a current under "Isolation Voltage"
  ['ISOA', { 'Isolation Voltage': '4000A' }],
];

function catalogue() {
  const file = path.join(tempDir(), 'parts.jsonl');
  const lines = PARTS.map(([mpn, specs]) =>
    JSON.stringify({
      mpn,
      manufacturer: 'Acme',
      description: `part ${mpn}`,
      status: 'active',
      specs: Object.entries(specs).map(([name, value]) => ({ name, value })),
    }),
  );
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return { parts: file };
}

describe.each(API_ENGINES)('spec ranges and units on %s', (engineKind) => {
  const t = useTestApi(engineKind, {}, catalogue);
  const mpns = async (specs: Record<string, unknown>) => {
    const res = await t.api.post('/v1/parts/search', { filters: { specs }, limit: 50 }, t.secret);
    expect(res.status).toBe(200);
    return ((await res.json()) as { results: { mpn: string }[] }).results.map((r) => r.mpn).sort();
  };

  it('leaves out a number stored in another unit under the same spec name', async () => {
    expect(await mpns({ Tolerance: { gte: 2, unit: '%' } })).toEqual(['TOL10', 'TOL5']);
    // the stored unit when the range names none
    expect(await mpns({ Tolerance: { gte: 2 } })).toEqual(['TOL10', 'TOL5']);
  });

  it('takes a plain number as one in the range unit', async () => {
    expect(await mpns({ 'Isolation Voltage': { gte: 3, unit: 'kV' } })).toEqual(['ISO5K', 'ISOPLAIN']);
  });
});
