/**
 * Spec attributes in the engines, one suite run against every adapter: each stored spec keeps the
 * canonical attribute ingest assigned (vocabulary/attributes.json), and filters and facets by attribute
 * find a quantity under every name the catalogue stored it, and only where the unit says it is that
 * quantity ("Tolerance" in ℃ is a temperature sensor's accuracy, not a tolerance).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.ts';
import type { EngineFilters, SearchEngine } from '../../src/engines/port.ts';
import { tempDir } from '../support/fixtures.ts';

/** A part of category `category` with specs given as [name, value] pairs. */
const part = (mpn: string, category: string, ...specs: [string, string][]) => ({
  mpn,
  manufacturer: 'Acme',
  description: `${category} ${mpn}`,
  category: [category],
  status: 'active',
  specs: specs.map(([name, value]) => ({ name, value })),
});
const PARTS = [
  part('CAP-A', 'Capacitors', ['Capacitance', '10uF'], ['Voltage Rated', '16V']),
  part('CAP-B', 'Capacitors', ['Capacitance', '10uF'], ['Allowable voltage', '25V']),
  part('CAP-C', 'Capacitors', ['Capacitance', '1uF'], ['Voltage - Rated', '50V']),
  part('RES-A', 'Resistors', ['Resistance', '10kΩ'], ['Tolerance', '±1%']),
  part('SENSOR-A', 'Sensors', ['Tolerance', '±0.5℃'], ['Voltage - supply', '2.5V~5.5V']),
  part('LDO-A', 'Regulators', ['Supply Voltage', '2.5V~6V'], ['Strike gundam', 'Yes']),
];

export function attributesContract(name: string, makeEngine: () => Promise<SearchEngine>, cleanup?: () => Promise<void>): void {
  describe(`spec attributes: ${name}`, () => {
    let engine: SearchEngine;
    const dir = tempDir();
    const mpns = async (filters: EngineFilters, text: string | null = null) => {
      const r = await engine.textSearch({ text, filters, limit: 20, offset: 0 });
      return new Set((await engine.getParts(r.hits.map((h) => h.id))).map((p) => p.mpn));
    };

    beforeAll(async () => {
      engine = await makeEngine();
      const file = path.join(dir, 'parts.jsonl');
      fs.writeFileSync(file, PARTS.map((p) => JSON.stringify(p)).join('\n'));
      await runIngest({ engine, embedder: null, parts: [file], reportFile: path.join(dir, 'report.jsonl') });
    });
    afterAll(async () => {
      await cleanup?.();
      await engine?.close();
    });

    it('keeps the attribute ingest assigned with every spec, and says the version holds them', async () => {
      expect((await engine.meta())?.features).toContain('spec_attributes');
      const [cap] = await engine.getParts((await engine.textSearch({ text: 'CAP-B', filters: {}, limit: 1, offset: 0 })).hits.map((h) => h.id));
      expect(cap!.specs.map((s) => [s.name, s.attribute])).toEqual([
        ['Capacitance', 'capacitance'],
        ['Allowable voltage', 'voltage_rating'],
      ]);
    });

    it('filters by attribute over every name the catalogue stored it under', async () => {
      expect(await mpns({ specs: [{ attribute: 'voltage_rating', range: { gte: 20 }, unit: 'V' }] })).toEqual(new Set(['CAP-B', 'CAP-C']));
      expect(await mpns({ specs: [{ attribute: 'voltage_rating', values: [], nums: [16], numUnit: 'V' }] })).toEqual(new Set(['CAP-A']));
      expect(await mpns({ specs: [{ attribute: ['supply_voltage', 'voltage_rating'], range: { lte: 6 }, unit: 'V' }] })).toEqual(
        new Set(['SENSOR-A', 'LDO-A']),
      );
      expect(await mpns({ specs: [{ attribute: 'supply_voltage', values: ['2.5V~6V'] }] }, 'regulators')).toEqual(new Set(['LDO-A']));
      // "Tolerance" in ℃ is the sensor's accuracy: no tolerance
      expect(await mpns({ specs: [{ attribute: 'tolerance', range: { lte: 1 } }] })).toEqual(new Set(['RES-A']));
      expect(await mpns({ specs: [{ attribute: 'temperature_accuracy', range: { lte: 1 } }] })).toEqual(new Set(['SENSOR-A']));
      expect(await mpns({ specs: [{ attribute: 'no_such_attribute', range: { lte: 1 } }] })).toEqual(new Set());
      // by name, as before
      expect(await mpns({ specs: [{ name: 'Voltage Rated', range: { gte: 10 } }] })).toEqual(new Set(['CAP-A']));
    });

    it('counts facets by attribute, whatever the names, beside the counts by name', async () => {
      const f = await engine.facets({
        text: null,
        filters: { categories: ['capacitors'] },
        attributeValues: ['voltage_rating'],
        specValues: ['Voltage Rated'],
      });
      expect(f.total).toBe(3);
      expect(f.attributes).toEqual({ capacitance: 3, voltage_rating: 3 });
      expect(f.specNames).toEqual({ Capacitance: 3, 'Allowable voltage': 1, 'Voltage - Rated': 1, 'Voltage Rated': 1 });
      expect(f.attributeValues.voltage_rating).toEqual({
        values: [
          { value: '16V', count: 1 },
          { value: '25V', count: 1 },
          { value: '50V', count: 1 },
        ],
        min: 16,
        max: 50,
        unit: 'V',
      });
      expect(f.specValues['Voltage Rated']!.values).toEqual([{ value: '16V', count: 1 }]);
      const all = await engine.facets({ text: null, filters: {} });
      expect(all.attributes).toMatchObject({ supply_voltage: 2, tolerance: 1, temperature_accuracy: 1, resistance: 1 });
      expect(Object.keys(all.attributes)).not.toContain('strikegundam');
      expect(all.specNames['Strike gundam']).toBe(1);
    });
  });
}
