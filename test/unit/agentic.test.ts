/** GET /v1/parts/agentic-search over the real HTTP server (lexical-only here; hybrid in integration). */
import { describe, expect, it } from 'vitest';
import { API_ENGINES, useTestApi } from '../support/api.ts';

describe.each(API_ENGINES)('agentic search on %s', (engineKind) => {
  const t = useTestApi(engineKind);
  const search = async (q: string, extra = '') => {
    const res = await t.api.get(`/v1/parts/agentic-search?search_query=${encodeURIComponent(q)}${extra}`, t.secret);
    return { status: res.status, body: (await res.json()) as any, mode: res.headers.get('x-search-mode') };
  };

  it('ranks parts satisfying the parsed constraints above parts that only share words', async () => {
    const { status, body, mode } = await search('10k 0603 1% resistor', '&limit=3');
    expect(status).toBe(200);
    expect(mode).toBe('lexical-only');
    expect(body.hits).toBe(3);
    expect(
      body.results
        .slice(0, 2)
        .map((r: any) => r.mpn)
        .sort(),
    ).toEqual(['0603WAF1002T5E', 'RC0603FR-0710KL']);
    expect(body.results[2].mpn).toBe('RC0603FR-074K7L');
  });

  // [query, expected part, whether it must rank first]
  it.each([
    ['100nF 50V X7R', 'GRM188R71H104KA93D', true],
    ['3.3V LDO SOT-23-5', 'TLV70033DDCR', true],
    ['4u7 16V', 'T491A106K016AT', false],
    ['dual op amp', 'LM358DR', false],
    ['lm358dr2g', 'LM358DR2G', true],
  ])('understands "%s"', async (q, top, first) => {
    const { body } = await search(q);
    expect(body.results.map((r: any) => r.mpn)).toContain(top);
    if (first) expect(body.results[0].mpn).toBe(top);
  });

  it('finds the parts of a category the query names even when none of their texts holds its words', async () => {
    // "op amp" names Operational Amplifiers; no part says "op" or "amp". Best stocked first.
    const { body } = await search('op amp');
    expect(body.results.map((r: any) => r.mpn).sort()).toEqual(['LM358D', 'LM358DR', 'LM358DR2G']); // LM2904DT is nrnd
    expect(body.results.every((r: any) => r.categories[0].name === 'Operational Amplifiers')).toBe(true);
  });

  it('counts available_specs over the whole result set, not the page', async () => {
    const one = (await search('resistor', '&limit=1')).body;
    expect(one.hits).toBe(1);
    expect(one.available_specs).toEqual({ Resistance: 3, Tolerance: 3, 'Power(Watts)': 3 });
  });

  it.each(['zzzzzzzz', 'qwxzv plorbnik frumious', 'the and of', 'recipe for chocolate cake'])(
    'answers no match to "%s", which nothing in the catalogue relates to',
    async (q) => {
      const { status, body } = await search(q);
      expect(status).toBe(200);
      expect(body).toEqual({ hits: 0, results: [], available_specs: {} });
    },
  );

  it('answers a page past the end of the ranking with 200 and no results', async () => {
    const all = (await search('0603', '&limit=50')).body;
    expect(all.hits).toBeGreaterThan(0);
    for (const offset of [all.hits, 451, 100_000]) {
      const { status, body } = await search('0603', `&limit=5&offset=${offset}`);
      expect(status, `offset ${offset}`).toBe(200);
      expect(body.hits).toBe(0);
      expect(body.results).toEqual([]);
    }
    expect((await search('0603', '&offset=-1')).status).toBe(422);
  });

  it('pages consistently: page 2 continues page 1 without overlap or gaps', async () => {
    const all = (await search('0603', '&limit=6')).body.results.map((r: any) => r.id);
    const p1 = (await search('0603', '&limit=3')).body.results.map((r: any) => r.id);
    const p2 = (await search('0603', '&limit=3&offset=3')).body.results.map((r: any) => r.id);
    expect([...p1, ...p2]).toEqual(all);
  });

  it('pages consistently when the query names a category (its parts first, then the rest)', async () => {
    const q = '10uF tantalum capacitors';
    const all = (await search(q, '&limit=6')).body.results.map((r: any) => r.mpn);
    expect(all[0]).toBe('T491A106K016AT'); // Tantalum Capacitors is named
    expect(all.length).toBeGreaterThan(2); // other capacitors sharing words follow
    const pages = [];
    for (let offset = 0; offset < 6; offset += 2) pages.push(...(await search(q, `&limit=2&offset=${offset}`)).body.results.map((r: any) => r.mpn));
    expect(pages).toEqual(all);
  });

  it('filters by lifecycle status before ranking (default active)', async () => {
    expect((await search('AO3400A')).body.results.map((r: any) => r.mpn)).not.toContain('AO3400A');
    const obsolete = await search('mosfet', '&part_status=obsolete&part_status=nrnd');
    expect(obsolete.body.results.map((r: any) => r.mpn)).toContain('AO3400A');
    for (const r of obsolete.body.results) expect(['obsolete', 'nrnd']).toContain(r.part_status);
    // The bracketed spelling of a repeated parameter (axios, PHP-style clients) means the same.
    const bracketed = await search('mosfet', '&part_status[]=obsolete&part_status%5B%5D=nrnd');
    expect(bracketed.body.results.map((r: any) => r.id)).toEqual(obsolete.body.results.map((r: any) => r.id));
    expect((await search('mosfet', '&part_status[]=retired')).body.detail).toMatchObject([
      { loc: ['query', 'part_status', 0], type: 'enum', input: 'retired' },
    ]);
    // A scalar one written so is taken once, refused twice.
    expect((await search('resistor', '&limit[]=2')).body.hits).toBe(2);
    expect((await search('resistor', '&limit[]=2&limit[]=3')).body.detail).toMatchObject([{ loc: ['query', 'limit'], type: 'int_parsing' }]);
  });

  it('answers no match with hits 0 and bad parameters with 422', async () => {
    expect((await search('zzqqxx')).body).toEqual({ hits: 0, results: [], available_specs: {} });
    const bad = await search('resistor', '&part_status=retired&limit=51');
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: any) => d.loc)).toEqual([
      ['query', 'limit'],
      ['query', 'part_status', 0],
    ]);
    expect((await t.api.get('/v1/parts/agentic-search', t.secret)).status).toBe(422);
  });

  it.each(['0x10', '1e1', '', '3.0', 'Infinity', '10abc'])('rejects limit=%j: integers are plain decimal digits', async (limit) => {
    const bad = await search('resistor', `&limit=${encodeURIComponent(limit)}`);
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([{ loc: ['query', 'limit'], msg: 'Input should be of type integer', type: 'int_parsing', input: limit }]);
    expect((await search('resistor', '&limit=-0002')).body.detail[0]).toMatchObject({ loc: ['query', 'limit'], type: 'greater_than_equal', input: -2 });
  });

  it('never fails on odd input', async () => {
    for (const q of ['±±', '~~~', "'; DROP TABLE parts; --", '😀 resistor', '9'.repeat(400), '"unterminated']) {
      expect((await search(q)).status).toBe(200);
    }
  });
});
