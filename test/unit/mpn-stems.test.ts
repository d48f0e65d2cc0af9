/**
 * MPN search lists the catalogue MPN a query extends by a packaging suffix (src/search/mpn.ts with
 * stems; src/search/packaging-stems.ts), on the real HTTP server over each engine: with the packaging
 * variants when the query is an MPN itself or nothing starts with it, never for a prefix query.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ENGINES, useTestApi } from '../support/api.ts';
import { tempDir } from '../support/fixtures.ts';

const MPNS = [
  'LM358D',
  'LM358DR',
  'LM358DR2G',
  'STM32F103C8T6',
  'XYZ1234',
  'XYZ1234R5',
  'OPA2333',
  '2N7002',
  '2N7002T',
  'IRLML6344',
  'IRLML6344T',
  'SMF6.0CA',
  'SMF60CA',
  'SMBJ6.0A',
  'SMBJ60A',
];
/** Stock per MPN (more stock ranks first within a tier): 2N7002 is the better stocked. */
const STOCK: Record<string, number> = { LM358D: 5000, '2N7002': 100000, '2N7002T': 10, SMF60CA: 1000, 'SMBJ6.0A': 1000 };
function catalogue() {
  const file = path.join(tempDir(), 'parts.jsonl');
  const offers = (mpn: string) => [{ distributor: 'D', currency: 'USD', stock: STOCK[mpn] ?? 1, price_breaks: [[1, 0.1]] }];
  fs.writeFileSync(
    file,
    MPNS.map((mpn) => JSON.stringify({ mpn, manufacturer: 'Acme Semi', description: `part ${mpn}`, offers: offers(mpn) })).join('\n') + '\n',
  );
  return { parts: file };
}

describe.each(API_ENGINES)('MPN search and packaging suffixes on %s', (engineKind) => {
  const t = useTestApi(engineKind, {}, catalogue);
  const mpns = async (q: string) => {
    const res = await t.api.get(`/v1/parts/search?mpn=${encodeURIComponent(q)}`, t.secret);
    expect(res.status).toBe(200);
    return ((await res.json()) as { results: { mpn: string }[] }).results.map((r) => r.mpn);
  };

  it('lists the MPN a full MPN extends by a packaging suffix after the exact match and its own variants', async () => {
    expect(await mpns('LM358DR')).toEqual(['LM358DR', 'LM358DR2G', 'LM358D']);
  });

  it('lists the stem that strips least first, whatever their stock ("2N7002TR": 2N7002T, then 2N7002)', async () => {
    expect(await mpns('2N7002TR')).toEqual(['2N7002T', '2N7002']);
  });

  it('puts it first when the catalogue lacks the suffixed MPN (a BOM line), in any writing', async () => {
    expect((await mpns('STM32F103C8T6TR'))[0]).toBe('STM32F103C8T6');
    expect((await mpns('stm32f103c8t6-tr'))[0]).toBe('STM32F103C8T6');
  });

  it('strips two stacked packaging suffixes, the one that strips least first ("LM358DRE4": LM358DR, then LM358D)', async () => {
    // then the packaging variants of the stem found first
    expect(await mpns('LM358DRE4')).toEqual(['LM358DR', 'LM358D', 'LM358DR2G']);
    expect((await mpns('STM32F103C8T6TRE4'))[0]).toBe('STM32F103C8T6');
  });

  it('reads a "TR" under another suffix as the reel mark: no bare-T stem ("IRLML6344TRPBF" is IRLML6344)', async () => {
    // not IRLML6344T (its T a package code), which a second strip of a bare "R" would list first
    expect(await mpns('IRLML6344TRPBF')).toEqual(['IRLML6344']);
  });

  it('gives match confidence 86 to the stem that strips least and 2 less to each shorter one', async () => {
    const res = await t.api.post('/v1/parts/match', { query: 'LM358DRE4' }, t.secret);
    const body = (await res.json()) as { results: { part: { mpn: string }; confidence: number; exact: boolean }[] };
    expect(body.results.slice(0, 2).map((r) => [r.part.mpn, r.confidence, r.exact])).toEqual([
      ['LM358DR', 86, false],
      ['LM358D', 84, false],
    ]);
  });

  it('leaves a prefix query to the MPNs that start with it', async () => {
    // "XYZ1234R" is no MPN but starts XYZ1234R5; its stem XYZ1234 is an MPN that does not start with it
    expect(await mpns('XYZ1234R')).toEqual(['XYZ1234R5']);
  });

  it('lists the MPN as the query writes it first among parts sharing its search key, whatever their stock', async () => {
    expect(await mpns('SMF6.0CA')).toEqual(['SMF6.0CA', 'SMF60CA']);
    expect(await mpns('smf60ca')).toEqual(['SMF60CA', 'SMF6.0CA']);
    // the other way round, against stock: SMBJ6.0A is the better stocked
    expect(await mpns('smbj60a')).toEqual(['SMBJ60A', 'SMBJ6.0A']);
  });

  it('matches the MPN as written exactly, and another part sharing its search key below it, not exact', async () => {
    const match = async (query: string) => {
      const res = await t.api.post('/v1/parts/match', { query }, t.secret);
      const body = (await res.json()) as { ambiguous: boolean; results: { part: { mpn: string }; confidence: number; exact: boolean }[] };
      return [body.ambiguous, body.results.slice(0, 2).map((r) => [r.part.mpn, r.confidence, r.exact])];
    };
    // SMF60CA is better stocked: without the as-written reading it came first, exact at 100
    expect(await match('SMF6.0CA')).toEqual([
      false,
      [
        ['SMF6.0CA', 100, true],
        ['SMF60CA', 95, false],
      ],
    ]);
    expect(await match('smf60ca')).toEqual([
      false,
      [
        ['SMF60CA', 100, true],
        ['SMF6.0CA', 95, false],
      ],
    ]);
    // written neither way: both parts, exact, and the line is ambiguous
    expect((await match('SMF60-CA'))[0]).toBe(true);
    // a part alone with its key stays exact, punctuation aside
    expect(await match('LM-358D')).toEqual([false, [['LM358D', 100, true], expect.anything()]]);
  });

  it('adds nothing when the query ends in no packaging suffix', async () => {
    expect(await mpns('OPA2333')).toEqual(['OPA2333']);
  });
});
