import { describe, expect, it } from 'vitest';
import { buildKicadSuite, type KicadPart, type KicadSymbol } from '../../src/relevance/kicad-suite.ts';

const part = (slug: string, sourceId: string, description: string, leaf: string, active = true): KicadPart => ({
  slug,
  active,
  sourceId,
  description,
  category: { slug: `logic/${leaf.toLowerCase().replace(/\W+/g, '-')}`, name: leaf },
  package: null,
  specs: [],
});
const sym = (name: string, description: string | null, matches: string[], type = 'exact'): KicadSymbol => ({
  name,
  description,
  lcsc_match_type: type,
  lcsc_matches: matches,
});

describe('KiCad symbol suite builder (kicad-suite.ts)', () => {
  const parts = [
    part('nexperia/74LVC1G00GW', 'lcsc:C1', 'Single 2-input NAND gate SOT-353', 'Gates'),
    part('ti/SN74LVC1G00DBVR', 'lcsc:C2', 'NAND gate', 'Gates'),
    part('ti/SN74LVC1G02DBVR', 'lcsc:C3', 'NOR gate', 'Gates'),
    part('ti/OLD1G00', 'lcsc:C4', 'NAND gate', 'Gates', false),
    part('x/4056', 'lcsc:C5', 'Li-ion battery charger', 'Battery Management ICs'),
  ];

  it('asks each usable symbol description once, judging its exact matches 3 and their category 1', () => {
    const qs = buildKicadSuite(
      [
        sym('74LVC1G00', 'Single NAND Gate, Low-Voltage CMOS', ['C1', 'C4']),
        sym('74LVC1G00_copy', 'Single NAND Gate, Low-Voltage CMOS', ['C2']), // same description: asked once
        sym('4056', 'BCD to 7-Segment Decoder/Driver', ['C5']), // a name collision: no word in common
        sym('74LVC1G02', 'Single NOR Gate', ['C3'], 'prefix'), // not an exact match
        sym('blank', null, ['C2']),
      ],
      parts,
      { suite: 't', queries: 10, seed: 1 },
    );
    expect(qs).toHaveLength(1);
    expect(qs[0]).toMatchObject({
      id: 't-001',
      kind: 'nl',
      endpoint: 'agentic',
      query: 'Single NAND Gate, Low-Voltage CMOS',
      params: { part_status: ['active'] },
    });
    expect(qs[0]!.judgments).toEqual({ 'nexperia/74LVC1G00GW': 3, 'ti/SN74LVC1G00DBVR': 1, 'ti/SN74LVC1G02DBVR': 1 });
  });

  it('is deterministic and stops at the asked number of queries', () => {
    const symbols = Array.from({ length: 6 }, (_, i) => sym(`S${i}`, `NAND gate variant ${i}`, ['C1']));
    const a = buildKicadSuite(symbols, parts, { suite: 't', queries: 4, seed: 7 });
    expect(a).toHaveLength(4);
    expect(buildKicadSuite(symbols, parts, { suite: 't', queries: 4, seed: 7 })).toEqual(a);
  });
});
