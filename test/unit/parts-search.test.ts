/** MPN search, parametric search and facets over the real HTTP server and the small fixture catalogue. */
import { describe, expect, it } from 'vitest';
import { answerJson, PartsJson, presentPart } from '../../src/search/present.ts';
import { API_ENGINES, useTestApi } from '../support/api.ts';

describe.each(API_ENGINES)('part search on %s', (engineKind) => {
  const t = useTestApi(engineKind);
  const mpnSearch = async (q: string) => {
    const res = await t.api.get(`/v1/parts/search?mpn=${encodeURIComponent(q)}`, t.secret);
    return { status: res.status, body: (await res.json()) as any };
  };
  const post = async (p: string, body: unknown) => {
    const res = await t.api.post(p, body, t.secret);
    return { status: res.status, body: (await res.json()) as any };
  };

  describe('GET /v1/parts/search?mpn=', () => {
    it('ranks the exact MPN first, then packaging variants, then other prefixes', async () => {
      const { status, body } = await mpnSearch('LM358D');
      expect(status).toBe(200);
      expect(body.results.map((r: any) => r.mpn)).toEqual(['LM358D', 'LM358DR', 'LM358DR2G']);
      expect(body.hits).toBe(3);
    });

    it('is case- and punctuation-insensitive and finds alternate MPNs', async () => {
      expect((await mpnSearch('lm-358 dr')).body.results[0].mpn).toBe('LM358DR');
      expect((await mpnSearch('LM358DRG4')).body.results[0].mpn).toBe('LM358DR');
    });

    it('shows an unknown lifecycle status as null (SPEC.md: "Null if unknown")', async () => {
      const id = (await mpnSearch('LM358D')).body.results[0].id;
      const [p] = await t.api.services.engine.getParts([id]);
      expect([presentPart({ ...p!, status: 'unknown' }).part_status, presentPart({ ...p!, status: 'nrnd' }).part_status]).toEqual([null, 'nrnd']);
    });

    it('writes answers as JSON.stringify would, each part once while its record is cached, a changed copy afresh', async () => {
      const ids = (await mpnSearch('LM358')).body.results.map((r: any) => r.id);
      const parts = await t.api.services.engine.getParts(ids);
      const fields = { hits: parts.length, skipped: undefined, results: parts.map(presentPart), note: 'x"y' };
      const text = answerJson({ ...fields, results: new PartsJson(parts) });
      expect(text).toBe(JSON.stringify(fields));
      expect(answerJson({ ...fields, results: new PartsJson(parts) })).toBe(text); // again: kept texts where the records are cached
      const changed = { ...parts[0]!, description: 'changed' };
      expect(JSON.parse(new PartsJson([changed]).text)[0].description).toBe('changed');
      // Answers written as JSON text go out as JSON, like the answers Koa serialises (http/route.ts JsonText).
      for (const res of [
        await t.api.get('/v1/parts/search?mpn=LM358', t.secret),
        await t.api.get('/v1/parts/agentic-search?search_query=op%20amp', t.secret),
        await t.api.post('/v1/parts/search', { query: 'op amp', limit: 2 }, t.secret),
      ]) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(await res.text()));
      }
    });

    it('returns fully enriched results: every PartSearchResult field present', async () => {
      const r = (await mpnSearch('TLV70033DDCR')).body.results[0];
      expect(Object.keys(r).sort()).toEqual(
        [
          'canonical_id',
          'categories',
          'description',
          'documents',
          'id',
          'images',
          'long_description',
          'manufacturer',
          'mpn',
          'offers',
          'package',
          'part_status',
          'series',
          'slug',
          'specs',
        ].sort(),
      );
      expect(r).toMatchObject({
        mpn: 'TLV70033DDCR',
        slug: 'texas-instruments/TLV70033DDCR',
        package: 'SOT-23-5',
        part_status: 'active',
        canonical_id: null,
        series: null,
        manufacturer: { name: 'Texas Instruments', slug: 'texas-instruments' },
        categories: [{ slug: 'power-management-ics/linear-voltage-regulators-ldo', name: 'Linear Voltage Regulators (LDO)' }],
        specs: [
          { spec_name: 'Output Voltage', spec_value: '3.3V', spec_type: 'number' },
          { spec_name: 'Output Current', spec_value: '200mA', spec_type: 'number' },
        ],
      });
      expect(r.offers[0]).toMatchObject({ distributor: 'LCSC', sku: 'C15012', currency: 'USD' });
    });

    it('finds infixes and one-character typos', async () => {
      expect((await mpnSearch('0710K')).body.results.map((r: any) => r.mpn)).toEqual(['RC0603FR-0710KL']);
      expect((await mpnSearch('AO3401A')).body.results[0].mpn).toBe('AO3400A');
    });

    it('answers no match with hits 0, and a missing mpn with 422', async () => {
      expect((await mpnSearch('ZZZZZZZZZZ')).body).toEqual({ hits: 0, results: [] });
      const res = await t.api.get('/v1/parts/search', t.secret);
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ detail: [{ loc: ['query', 'mpn'], msg: 'Field required', type: 'missing' }] });
    });
  });

  describe('POST /v1/parts/search', () => {
    it('filters by spec ranges in SI units whatever unit the request uses', async () => {
      const { status, body } = await post('/v1/parts/search', { filters: { specs: { 'Output Current': { lte: 0.5, unit: 'A' } } } });
      expect(status).toBe(200);
      expect(body.results.map((r: any) => r.mpn)).toEqual(['TLV70033DDCR']);
      const mA = await post('/v1/parts/search', { filters: { specs: { Resistance: { gte: 5, lte: 20, unit: 'kΩ' } } } });
      expect(mA.body.results.map((r: any) => r.mpn).sort()).toEqual(['0603WAF1002T5E', 'RC0603FR-0710KL']);
    });

    it('filters by canonical attribute, by id or shortname, over every spec of it whatever its name', async () => {
      const rated = await post('/v1/parts/search', { filters: { specs: { voltage_rating: { gte: 16, unit: 'V' } } } });
      expect(rated.status).toBe(200);
      expect(rated.body.results.map((r: any) => r.mpn).sort()).toEqual(['GRM188R71H104KA93D', 'T491A106K016AT']);
      const byShortname = await post('/v1/parts/search', { filters: { specs: { voltagerating: ['10V'] } } });
      expect(byShortname.body.results.map((r: any) => r.mpn)).toEqual(['CL10A106KP8NNNC']);
      const supply = await post('/v1/parts/search', { filters: { specs: { supply_voltage: { lte: 31 } }, status: ['active', 'nrnd'] } });
      expect(supply.body.results.map((r: any) => r.mpn)).toEqual(['LM2904DT']);
      // an attribute the catalogue holds no spec of is no key, as an unknown name is not
      const none = await post('/v1/parts/search', { filters: { specs: { inductance: { gte: 1e-6 } } } });
      expect([none.status, none.body.detail[0].type]).toEqual([422, 'unknown_spec']);
    });

    it('combines text, categories, manufacturers, status and value lists', async () => {
      const { body } = await post('/v1/parts/search', { query: 'amplifier', filters: { manufacturers: ['texas-instruments'] } });
      expect(body.total).toBe(2);
      expect(body.results.map((r: any) => r.mpn).sort()).toEqual(['LM358D', 'LM358DR']);
      const nrnd = await post('/v1/parts/search', { filters: { categories: ['amplifiers'], status: ['nrnd'] } });
      expect(nrnd.body.results.map((r: any) => r.mpn)).toEqual(['LM2904DT']);
      const obsoleteHidden = await post('/v1/parts/search', { query: 'mosfet' });
      expect(obsoleteHidden.body.total).toBe(0);
    });

    it('answers unknown spec names, unit mismatches and empty ranges with a 422 naming each', async () => {
      const { status, body } = await post('/v1/parts/search', {
        filters: { specs: { Resistence: { lte: 1 }, Capacitance: { lte: 1, unit: 'V' }, Resistance: { gte: 10, lte: 1 } }, categories: ['nope'] },
      });
      expect(status).toBe(422);
      expect(body.detail).toEqual([
        { loc: ['body', 'filters', 'categories', 0], msg: 'Unknown category "nope"', type: 'unknown_category', input: 'nope' },
        { loc: ['body', 'filters', 'specs', 'Resistence'], msg: 'Unknown spec name or attribute "Resistence"', type: 'unknown_spec', input: 'Resistence' },
        {
          loc: ['body', 'filters', 'specs', 'Capacitance', 'unit'],
          msg: 'Unit "V" does not measure "Capacitance" (stored in F)',
          type: 'unit_mismatch',
          input: 'V',
          ctx: { expected: 'F' },
        },
        {
          loc: ['body', 'filters', 'specs', 'Resistance'],
          msg: 'The range is empty: its lower bound is above its upper bound',
          type: 'range_invalid',
          input: { gte: 10, lte: 1 },
        },
      ]);
    });

    it('filters a spec stored as bare numbers by a range without a unit, and refuses a unit there', async () => {
      const ok = await post('/v1/parts/search', { filters: { specs: { 'Number of channels': { gte: 2, lte: 2 } } } });
      expect(ok.status).toBe(200);
      expect(ok.body.results.map((r: any) => r.mpn).sort()).toEqual(['LM358D', 'LM358DR', 'LM358DR2G']);
      const withUnit = await post('/v1/parts/search', {
        filters: { specs: { 'Number of channels': { gte: 2, unit: 'V' }, 'Temperature Coefficient': { gte: 1 } } },
      });
      expect(withUnit.status).toBe(422);
      expect(withUnit.body.detail).toEqual([
        {
          loc: ['body', 'filters', 'specs', 'Number of channels', 'unit'],
          msg: '"Number of channels" is stored without a unit; give the range without "unit"',
          type: 'unit_mismatch',
          input: 'V',
          ctx: { expected: null },
        },
        {
          loc: ['body', 'filters', 'specs', 'Temperature Coefficient'],
          msg: '"Temperature Coefficient" has no values a range can compare (text, or numbers in units the catalogue does not read); give a list of accepted values',
          type: 'not_numeric',
          input: { gte: 1 },
        },
      ]);
    });

    it('filters by the unit price at an order quantity (price.min_quantity), and by the lowest price without it', async () => {
      const search = async (price: unknown) => {
        const { status, body } = await post('/v1/parts/search', { filters: { price }, limit: 50 });
        expect(status).toBe(200);
        return new Set(body.results.map((r: any) => r.mpn));
      };
      // The resistors cost 0.0011 and 0.0009 per unit below 100 units, 0.00066 and 0.00054 from 100 on.
      expect(await search({ max: 0.001, min_quantity: 10 })).toEqual(new Set(['0603WAF1002T5E']));
      expect(await search({ max: 0.001, min_quantity: 100, currency: 'USD' })).toEqual(new Set(['RC0603FR-0710KL', 'RC0603FR-074K7L', '0603WAF1002T5E']));
      expect(await search({ max: 0.001 })).toEqual(new Set(['RC0603FR-0710KL', 'RC0603FR-074K7L', '0603WAF1002T5E']));
      const facets = await post('/v1/parts/search/facets', { filters: { price: { max: 0.001, min_quantity: 10 } } });
      expect(facets.body.total).toBe(1);
    });

    it('accepts a listed spec value in any writing of the same quantity in the spec unit', async () => {
      const search = async (specs: unknown) => {
        const { status, body } = await post('/v1/parts/search', { filters: { specs }, limit: 50 });
        expect(status).toBe(200);
        return new Set(body.results.map((r: any) => r.mpn));
      };
      expect(await search({ Capacitance: ['0.1uF'] })).toEqual(new Set(['GRM188R71H104KA93D']));
      expect(await search({ Capacitance: ['10µF', '1F'] })).toEqual(new Set(['CL10A106KP8NNNC', 'T491A106K016AT']));
      // the spec's unit is taken when the value has none ("10k" Ω), as for the catalogue's own values
      expect(await search({ Resistance: ['10k'] })).toEqual(new Set(['RC0603FR-0710KL', '0603WAF1002T5E']));
      // another unit, and text-only specs, match as written only
      expect(await search({ Resistance: ['10kV'] })).toEqual(new Set());
      expect(await search({ 'Temperature Coefficient': ['X7R', 'x5r'] })).toEqual(new Set(['GRM188R71H104KA93D']));
      // only an entry that is one number and its unit: a condition, a list, a count or a bound is text
      const textOnly: [string, string][] = [
        ['Capacitance', '0.1uF@1kHz'],
        ['Capacitance', '0.1uF, 10uF'],
        ['Resistance', '2x10k'],
        ['Voltage Rated', '16V max'],
        ['Voltage Rated', '<16V'],
        ['Voltage Rated', '16V/V'],
      ];
      for (const [spec, entry] of textOnly) expect(await search({ [spec]: [entry] }), entry).toEqual(new Set());
      expect(await search({ 'Voltage Rated': ['16 V'] })).toEqual(new Set(['T491A106K016AT'])); // the same, read as one quantity
      const facets = await post('/v1/parts/search/facets', { filters: { specs: { Capacitance: ['0.1uF'] } } });
      expect(facets.body.total).toBe(1);
    });

    it.each([
      [1e19, 'Input should be less than or equal to 1000000000', 'less_than_equal', 1e9],
      [0, 'Input should be greater than or equal to 1', 'greater_than_equal', 1],
    ])('refuses min_quantity %s (a whole number from 1 to 10^9), naming the field', async (quantity, msg, type, limit) => {
      const { status, body } = await post('/v1/parts/search', { filters: { price: { max: 1, min_quantity: quantity } } });
      expect(status).toBe(422);
      expect(body.detail).toEqual([{ loc: ['body', 'filters', 'price', 'min_quantity'], msg, type, input: quantity, ctx: { limit } }]);
    });

    it('refuses a list the caller cannot see', async () => {
      const { status, body } = await post('/v1/parts/search', { filters: { list_filter: 'lst_doesnotexist' } });
      expect(status).toBe(422);
      expect(body.detail[0]).toMatchObject({ loc: ['body', 'filters', 'list_filter'], type: 'unknown_list' });
    });

    it('says once what is wrong with a malformed list id (not also that it is no array)', async () => {
      const one = await post('/v1/parts/search', { filters: { list_filter: 'bogus' } });
      expect(one.status).toBe(422);
      expect(one.body.detail).toHaveLength(1);
      expect(one.body.detail[0]).toMatchObject({ loc: ['body', 'filters', 'list_filter'], type: 'string_pattern_mismatch', input: 'bogus' });
      const wrongType = await post('/v1/parts/search', { filters: { list_filter: 5 } });
      expect(wrongType.body.detail.map((d: any) => d.type)).toEqual(['string_type', 'array_type']);
      // The array branch's own error is inside the value: the string branch's type mismatch goes too.
      const inArray = await post('/v1/parts/search', { filters: { list_filter: ['bogus'] } });
      expect(inArray.body.detail.map((d: any) => [d.loc, d.type])).toEqual([[['body', 'filters', 'list_filter', 0], 'string_pattern_mismatch']]);
    });

    it('pages without overlap or gaps', async () => {
      const all = (await post('/v1/parts/search', { query: '0603', limit: 10 })).body.results.map((r: any) => r.id);
      const p1 = (await post('/v1/parts/search', { query: '0603', limit: 2 })).body.results.map((r: any) => r.id);
      const p2 = (await post('/v1/parts/search', { query: '0603', limit: 2, offset: 2 })).body.results.map((r: any) => r.id);
      expect([...p1, ...p2]).toEqual(all.slice(0, 4));
    });
  });

  describe('POST /v1/parts/search/facets', () => {
    it('counts spec values, numeric extents, manufacturers and categories over the filtered set', async () => {
      const { status, body } = await post('/v1/parts/search/facets', { filters: { categories: ['capacitors'] }, specs: ['Capacitance'] });
      expect(status).toBe(200);
      expect(body.total).toBe(3);
      expect(body.specs.Capacitance).toMatchObject({
        parts: 3,
        unit: 'F',
        values: [
          { value: '10uF', count: 2 },
          { value: '100nF', count: 1 },
        ],
      });
      expect(body.specs.Capacitance.min).toBeCloseTo(1e-7);
      expect(body.available_specs).toEqual({ Capacitance: 3, 'Voltage Rated': 3, 'Temperature Coefficient': 2 });
      expect(body.manufacturers).toHaveLength(3);
      expect(body.categories[0]).toEqual({
        slug: 'capacitors/multilayer-ceramic-capacitors-mlcc-smd-smt',
        name: 'Multilayer Ceramic Capacitors MLCC - SMD/SMT',
        count: 2,
      });
      expect(body.available_attributes).toEqual({ capacitance: 3, voltage_rating: 3, temperature_coefficient: 2 });
      expect(body.attributes).toBeUndefined();
    });

    it('counts facets by attribute, asked by id or shortname, and refuses an unknown attribute', async () => {
      const { status, body } = await post('/v1/parts/search/facets', {
        filters: { categories: ['capacitors'] },
        attributes: ['voltage_rating', 'capacitance'],
      });
      expect(status).toBe(200);
      expect(body.attributes.voltage_rating).toEqual({
        parts: 3,
        values: [
          { value: '10V', count: 1 },
          { value: '16V', count: 1 },
          { value: '50V', count: 1 },
        ],
        min: 10,
        max: 50,
        unit: 'V',
      });
      expect(body.attributes.capacitance.parts).toBe(3);
      const short = await post('/v1/parts/search/facets', { filters: { categories: ['capacitors'] }, attributes: ['voltagerating'] });
      expect(Object.keys(short.body.attributes)).toEqual(['voltage_rating']);
      const bad = await post('/v1/parts/search/facets', { attributes: ['capacitance', 'flux_capacitance'] });
      expect(bad.status).toBe(422);
      expect(bad.body.detail).toEqual([
        {
          loc: ['body', 'attributes', 1],
          msg: 'Unknown attribute "flux_capacitance" (GET /v1/attributes lists them)',
          type: 'unknown_attribute',
          input: 'flux_capacitance',
        },
      ]);
    });
  });

  describe('GET /v1/attributes', () => {
    it('lists every canonical attribute with its unit and the spec names this catalogue stores it under', async () => {
      const res = await t.api.get('/v1/attributes', t.secret);
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      const byId = new Map(body.attributes.map((a: any) => [a.id, a]));
      expect(byId.get('voltage_rating')).toEqual({
        id: 'voltage_rating',
        name: 'Voltage Rating',
        shortname: 'voltagerating',
        group: 'Technical',
        value_type: 'number',
        unit: { symbol: 'V', name: 'volt' },
        spec_names: ['Voltage Rated'],
      });
      expect(byId.get('case_package')).toMatchObject({ unit: null, value_type: 'text', spec_names: [] });
      expect(body.attributes.length).toBeGreaterThan(200);
    });
  });
});
