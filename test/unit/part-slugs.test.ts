/**
 * Part detail URLs of MPNs with letters outside ASCII (src/catalog/mpn.ts mpnSlug): every part has a slug
 * of its own, whatever its MPN holds, on the real HTTP server over each engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ENGINES, useTestApi } from '../support/api.ts';
import { tempDir } from '../support/fixtures.ts';

/** Two connectors whose MPNs differ only in Chinese letters (a real pair of the 29k catalogue), and a 42 Ω speaker. */
const MPNS = ['2.54-2*5P简牛', '2.54-2*5P弯针', 'YX-KC9042 42Ω'];
/** Made-up MPNs whose old slugs differ in case only, or equal another part's slug in another case, an emoji, one starting with an escape, and one whose K the Kelvin sign folds to. */
const MORE = ['AB简', 'ab/', 'CD简', 'cd牛', 'GH😀', 'Ω100', 'KB简'];
function catalogue() {
  const file = path.join(tempDir(), 'parts.jsonl');
  fs.writeFileSync(file, [...MPNS, ...MORE].map((mpn) => JSON.stringify({ mpn, manufacturer: 'Acme Connect', description: `part ${mpn}` })).join('\n') + '\n');
  return { parts: file };
}

describe.each(API_ENGINES)('part detail by slug on %s', (engineKind) => {
  const t = useTestApi(engineKind, {}, catalogue);
  const get = (p: string) => t.api.get(p, t.secret);

  it('reaches each part at the slug its search result gives, with no two parts sharing one', async () => {
    const slugs: string[] = [];
    for (const mpn of MPNS) {
      const search = (await (await get(`/v1/parts/search?mpn=${encodeURIComponent(mpn)}`)).json()) as { results: { mpn: string; slug: string }[] };
      const slug = search.results.find((r) => r.mpn === mpn)!.slug;
      slugs.push(slug);
      const res = await get(`/v1/parts/${slug}`);
      expect(res.status, slug).toBe(200);
      expect(((await res.json()) as { part: { mpn: string } }).part.mpn).toBe(mpn);
    }
    expect(slugs).toEqual(['acme-connect/2.54-2_5P~E7~AE~80~E7~89~9B', 'acme-connect/2.54-2_5P~E5~BC~AF~E9~92~88', 'acme-connect/YX-KC9042-42~CE~A9']);
  });

  it('redirects the MPN as written and the slug in another case to the canonical URL', async () => {
    const asWritten = await get(`/v1/parts/acme-connect/${encodeURIComponent('2.54-2*5P弯针')}`);
    expect([asWritten.status, asWritten.headers.get('location')]).toEqual([308, '/v1/parts/acme-connect/2.54-2_5P~E5~BC~AF~E9~92~88']);
    const lower = await get('/v1/parts/acme-connect/yx-kc9042-42~ce~a9');
    expect([lower.status, lower.headers.get('location')]).toEqual([308, '/v1/parts/acme-connect/YX-KC9042-42~CE~A9']);
    // the MPN as written in another case, a letter outside ASCII included: ω is Ω's lower case, other bytes
    for (const written of ['yx-kc9042 42ω', 'YX-KC9042 42Ω']) {
      const res = await get(`/v1/parts/acme-connect/${encodeURIComponent(written)}`);
      expect([res.status, res.headers.get('location')], written).toEqual([308, '/v1/parts/acme-connect/YX-KC9042-42~CE~A9']);
    }
    // and a slug of one part's MPN never answers with a part whose MPN differs in a letter
    expect((await get(`/v1/parts/acme-connect/${encodeURIComponent('2.54-2*5P简')}`)).status).toBe(404);
  });

  it('redirects a slug published before the escapes to the part it named', async () => {
    for (const old of ['YX-KC9042-42_', 'yx-kc9042-42_']) {
      const res = await get(`/v1/parts/acme-connect/${old}`);
      expect([res.status, res.headers.get('location')], old).toEqual([308, '/v1/parts/acme-connect/YX-KC9042-42~CE~A9']);
    }
  });

  it('takes an old slug as given before another case: of its own or of another part', async () => {
    const to = async (slug: string) => {
      const res = await get(`/v1/parts/acme-connect/${slug}`);
      return [res.status, res.headers.get('location')];
    };
    expect(await to('AB_')).toEqual([308, '/v1/parts/acme-connect/AB~E7~AE~80']); // not "ab/", whose slug is "ab_"
    expect(await to('ab_')).toEqual([200, null]);
    expect(await to('CD_')).toEqual([308, '/v1/parts/acme-connect/CD~E7~AE~80']);
    expect(await to('cd_')).toEqual([308, '/v1/parts/acme-connect/cd~E7~89~9B']);
    expect(await to('GH__')).toEqual([200, null]); // an emoji is two "_", as before: the slug did not change
    // an old slug that starts with an escape: no prefix to narrow by, every escaped slug of the maker is read
    expect(await to('_100')).toEqual([308, '/v1/parts/acme-connect/~CE~A9100']);
  });

  it('reads only the escaped slugs that start with the old slug\'s text before its first "_", in any case', async () => {
    const escaped = (prefix: string) => t.api.services.engine.escapedSlugs('acme-connect', prefix, 100).then((xs) => xs.map((x) => x.mpn_slug).sort());
    expect(await escaped('ab')).toEqual(['AB~E7~AE~80']); // not "ab_", which holds no escape
    expect(await escaped('aB')).toEqual(['AB~E7~AE~80']);
    expect(await escaped('yx-kc9042-42')).toEqual(['YX-KC9042-42~CE~A9']);
    // the engines' pattern characters are taken as written
    for (const odd of ['a_', 'a%', 'a?', 'a*', 'a\\']) expect(await escaped(odd), odd).toEqual([]);
    expect((await escaped('')).length).toBe(8);
    // a slug with an escape is no old slug; the Kelvin sign folds to "k" on both engines
    expect((await get('/v1/parts/acme-connect/AB~E7_')).status).toBe(404);
    const kelvin = await get(`/v1/parts/acme-connect/${encodeURIComponent('\u212AB_')}`);
    expect([kelvin.status, kelvin.headers.get('location')]).toEqual([308, '/v1/parts/acme-connect/KB~E7~AE~80']);
  });

  it('answers 404 for the slug both connectors used to share, which names neither', async () => {
    const res = await get('/v1/parts/acme-connect/2.54-2_5P__');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('not_found');
  });
});
