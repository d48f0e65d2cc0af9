/**
 * The function vocabulary (vocabulary/functions.json, src/vocabulary/functions.ts): which function a
 * need's words say, and the categories a function names on a tree (src/catalog/match/functions.ts).
 */
import { describe, expect, it } from 'vitest';
import type { CategoryData } from '../../src/catalog/categories.ts';
import { functionCategories, withFunctions } from '../../src/catalog/match/functions.ts';
import { functionOf, queryWords } from '../../src/vocabulary/functions.ts';

// [query, function id or null]
const QUERIES: [string, string | null][] = [
  ['isolate a microcontroller input from mains with light', 'optical-isolation'],
  ['Optocoupler, Phototransistor Output, Viso 5000V', 'optical-isolation'],
  ['galvanic isolation for a fast SPI bus', 'digital-isolation'],
  ['Low-Power Quad-Channel Digital Isolator, 150Mbps', 'digital-isolation'],
  ['isolated 5V to 5V converter module', 'isolated-supply'],
  ['chip that steps 12V down to 5V at 2 amps', 'step-down'],
  ['run a stepper motor from step and direction signals', 'motor-drive'],
  ['regulate a lithium cell down to 1.8V linearly', 'linear-regulation'],
  ['protect a USB data line from static discharge', 'esd-protection'],
  ['ESD-Protected USB 2.0 multiplexer switch', null],
  ['absorb surges on the 230V mains input', 'mains-surge'],
  ['keep a few settings bytes when the power is removed', 'settings-storage'],
  ['suppress high frequency noise on a supply rail', 'supply-noise'],
  ['capacitor across the mains line for EMI suppression', 'mains-capacitor'],
  ['real-time clock crystal', 'clock-crystal'],
  ['keep the time and date on a coin cell', 'real-time-clock'],
  ['Random Phase Opto-Triac, Vdrm 400V', null],
  ['Full Speed USB Flash MCU Family, 64k flash, ADC, Temperature, VREF', null],
  ['10k 0603 1% resistor', null],
  ['dual op amp', null],
];

describe('function vocabulary', () => {
  it.each(QUERIES)('"%s" says %s', (query, id) => {
    expect(functionOf(query)?.id ?? null).toBe(id);
  });

  it('reads a query as lower-case words, hyphens and commas splitting them', () => {
    expect(queryWords("Step-down, 12V; microcontroller's I/O")).toEqual(['step', 'down', '12v', 'microcontroller', 's', 'i/o']);
  });

  const leaf = (slug: string, name: string, parts: number): CategoryData => ({
    slug,
    name,
    description: null,
    parent: slug.includes('/') ? slug.slice(0, slug.lastIndexOf('/')) : null,
    children: [],
    depth: slug.split('/').length - 1,
    own_count: parts,
    part_count: parts,
  });
  const tree: CategoryData[] = [
    {
      ...leaf('optoelectronics', 'Optoelectronics', 30),
      children: ['optoelectronics/optocouplers-phototransistor-output', 'optoelectronics/optocouplers-logic-output'],
    },
    leaf('optoelectronics/optocouplers-phototransistor-output', 'Optocouplers - Phototransistor Output', 20),
    leaf('optoelectronics/optocouplers-logic-output', 'Optocouplers - Logic Output', 10),
    leaf('optoisolators/logic-output-optoisolators', 'Logic Output Optoisolators', 0),
    leaf('leds/light-emitting-diodes-led', 'Light Emitting Diodes (LED)', 40),
  ];

  it('names the leaf categories holding parts whose names match, most parts first, as one tier below exact names', () => {
    expect(functionCategories(tree).get('optical-isolation')).toEqual([
      { slug: 'optoelectronics/optocouplers-phototransistor-output', confidence: 90, exact: false, function: 'optical-isolation' },
      { slug: 'optoelectronics/optocouplers-logic-output', confidence: 90, exact: false, function: 'optical-isolation' },
    ]);
    const matcher = withFunctions({ match: () => [] }, tree);
    expect(matcher.byFunction!('pass a signal across an isolation barrier with an LED and a phototransistor').map((m) => m.slug)).toHaveLength(2);
    expect(matcher.byFunction!('red led 0603')).toEqual([]);
  });
});
