/** Part matching (single and batch) over the real HTTP server and the small fixture catalogue. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ PRICES_USD: 'match_lines=0.01' });
});
afterAll(async () => api?.close());

describe('POST /v1/parts/match', () => {
  it('matches an exact MPN with confidence 100 and says when several manufacturers make it', async () => {
    const { secret } = await api.key({ capabilities: ['parts:read'] });
    const res = await api.post('/v1/parts/match', { query: 'lm358dr' }, secret);
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ query: 'lm358dr', ambiguous: false });
    expect(body.results[0]).toMatchObject({ part: { mpn: 'LM358DR' }, confidence: 100, exact: true });
    expect(body.results[1].exact).toBe(false);
    expect(body.results[1].confidence).toBeLessThan(100);
  });

  it('finds the catalogue MPN a line extends by a packaging suffix (-TR, /TR, T&R marks)', async () => {
    const { secret } = await api.key();
    for (const query of ['AO3400A-TR', 'ao3400a tr', 'TLV70033DDCRPBF']) {
      const body = (await (await api.post('/v1/parts/match', { query }, secret)).json()) as any;
      expect([query, body.results[0]?.part.mpn, body.results[0]?.confidence, body.results[0]?.exact]).toEqual([
        query,
        query.startsWith('TLV') ? 'TLV70033DDCR' : 'AO3400A',
        86,
        false,
      ]);
    }
    // A stem shorter than 6 characters is a generic prefix, not the part: no stem reading.
    const short = (await (await api.post('/v1/parts/match', { query: 'LM35T' }, secret)).json()) as any;
    expect(short.results.every((r: any) => r.confidence !== 86)).toBe(true);
    // A bare trailing T is as often a package code (2N7002T is SOT-523): no stem, only the fuzzy reading.
    const t = (await (await api.post('/v1/parts/match', { query: 'AO3400AT' }, secret)).json()) as any;
    expect(t.results[0]).toMatchObject({ confidence: 50, exact: false });
    // Punctuation only: nothing to match.
    const dash = await api.post('/v1/parts/match', { query: ' - ' }, secret);
    expect([dash.status, ((await dash.json()) as any).detail[0].type]).toEqual([422, 'value_error']);
  });

  it('prefers the named manufacturer, resolving aliases', async () => {
    const { secret } = await api.key({ capabilities: ['parts:read'] });
    const body = (await (await api.post('/v1/parts/match', { query: 'LM358', manufacturer: 'ON Semi' }, secret)).json()) as any;
    expect(body.results[0].part.manufacturer.slug).toBe('onsemi');
  });

  it('is free and answers bad lines with 422', async () => {
    const { secret, accountId } = await api.key({ capabilities: ['parts:read'], subscription: false });
    expect((await api.post('/v1/parts/match', { query: 'AO3400A' }, secret)).status).toBe(200);
    const bad = await api.post('/v1/parts/match', { query: '' }, secret);
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as any).detail[0]).toMatchObject({ loc: ['body', 'query'], type: 'string_too_short' });
    expect((await api.services.accounts.getAccount(accountId))!.balance_micros).toBe(5_000_000);
  });
});

describe('POST /v1/parts/match/batch', () => {
  it('answers every line in order and meters one match line per line', async () => {
    const { secret, accountId } = await api.key({ capabilities: ['parts:read'] });
    const lines = [{ query: 'GRM188R71H104KA93D' }, { query: 'NOPE-0000' }, { query: 'T491A106K016AT', manufacturer: 'KEMET' }];
    const res = await api.post('/v1/parts/match/batch', { lines }, secret);
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.results.map((r: any) => [r.index, r.query, r.results[0]?.part.mpn ?? null])).toEqual([
      [0, 'GRM188R71H104KA93D', 'GRM188R71H104KA93D'],
      [1, 'NOPE-0000', null],
      [2, 'T491A106K016AT', 'T491A106K016AT'],
    ]);
    const usage = (await (await api.get('/v1/usage', secret)).json()) as any;
    expect(usage.usage.match_lines).toEqual({ units: 3, amount_usd: 0.03 });
    expect((await api.services.accounts.getAccount(accountId))!.balance_micros).toBe(5_000_000 - 30_000);
  });

  it('answers a blank line with an error of its own, uncharged, and the other lines as usual', async () => {
    const { secret } = await api.key({ capabilities: ['parts:read'] });
    const lines = [{ query: 'GRM188R71H104KA93D' }, { query: '' }, { query: '   ' }, { query: '-' }];
    const res = await api.post('/v1/parts/match/batch', { lines }, secret);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.results.slice(1)).toEqual([
      { index: 1, query: '', error: { type: 'validation_error', message: 'The line has no MPN to match.' } },
      { index: 2, query: '   ', error: { type: 'validation_error', message: 'The line has no MPN to match.' } },
      { index: 3, query: '-', error: { type: 'validation_error', message: 'The line has no MPN to match.' } },
    ]);
    const usage = (await (await api.get('/v1/usage', secret)).json()) as any;
    expect(usage.usage.match_lines.units).toBe(1);
  });

  it('caps a batch at 250 lines', async () => {
    const { secret } = await api.key({ capabilities: ['parts:read'] });
    const res = await api.post('/v1/parts/match/batch', { lines: Array.from({ length: 251 }, () => ({ query: 'AO3400A' })) }, secret);
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).detail[0]).toMatchObject({ loc: ['body', 'lines'], type: 'too_long', ctx: { limit: 250 } });
  });

  it('needs a subscription', async () => {
    const { secret } = await api.key({ capabilities: ['parts:read'], subscription: false });
    expect((await api.post('/v1/parts/match/batch', { lines: [{ query: 'AO3400A' }] }, secret)).status).toBe(403);
  });
});
