/** Candidates by spec value (src/search/spec-retrieval.ts): constraint attributes on the catalogue's names, ranges by kind. */
import { describe, expect, it } from 'vitest';
import { specFilters, specNameIndex } from '../../src/search/spec-retrieval.ts';
import { understandQuery } from '../../src/search/understand.ts';

const catalogue = specNameIndex(['Resistance', 'Allowable voltage', 'Voltage Rated', 'Capacitance', 'Tolerance', 'Drain to source voltage']);

describe('spec filters of a query', () => {
  it('turns constraint attributes into every spelling the catalogue stores them under', () => {
    expect(specNameIndex(['Voltage Rated', 'voltage rated', 'Voltage  Rated']).names.size).toBe(1);
    const [cap, volts] = specFilters(understandQuery('10uF 25V capacitor'), catalogue);
    expect(cap).toEqual({ name: ['Capacitance'], range: { gte: 9.9e-6, lte: 1.01e-5 }, unit: 'F' });
    expect(volts!.name).toEqual(expect.arrayContaining(['Allowable voltage', 'Voltage Rated']));
    expect((volts as { range: unknown }).range).toEqual({ gte: 25 }); // a rating: from the value up
  });

  it('reads at_most as up to the value, and leaves out what the catalogue does not name', () => {
    const f = specFilters(understandQuery('rds(on) < 10mΩ 30V mosfet'), catalogue);
    expect(f).toEqual([{ name: ['Drain to source voltage'], range: { gte: 30 }, unit: 'V' }]); // no Rds(on) name in this catalogue
    expect(specFilters(understandQuery('dual op amp'), catalogue)).toEqual([]);
    expect(specFilters(understandQuery('10k resistor'), specNameIndex([]))).toEqual([]);
  });

  it('filters by attribute where the index stores them, on the attributes the catalogue holds', () => {
    const stored = specNameIndex(['Allowable voltage', 'Capacitance', 'Voltage - supply'], undefined, true);
    expect(specFilters(understandQuery('10uF 25V capacitor'), stored)).toEqual([
      { attribute: ['capacitance'], range: { gte: 9.9e-6, lte: 1.01e-5 }, unit: 'F' },
      { attribute: ['voltage_rating'], range: { gte: 25 }, unit: 'V' },
    ]);
    expect(specFilters(understandQuery('rds(on) < 10mΩ mosfet'), stored)).toEqual([]);
  });
});
