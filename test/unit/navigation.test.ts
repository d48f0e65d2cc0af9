/** Catalogue navigation over the real HTTP server: category tree, detail, manufacturers, approved lists. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ListError } from '../../src/catalog/lists.ts';
import { createUserList, editMembers, importLists } from '../../src/service/list-admin.ts';
import { NOTICE_NO_LISTS, NOTICE_NO_OWN_LISTS } from '../../src/service/lists.ts';
import { API_ENGINES, startTestApi, useTestApi } from '../support/api.ts';
import { tempDir } from '../support/fixtures.ts';

describe.each(API_ENGINES)('catalogue navigation on %s', (engineKind) => {
  const t = useTestApi(engineKind);
  const get = async (p: string, s = t.secret) => {
    const res = await t.api.get(p, s);
    return { status: res.status, body: (await res.json()) as any };
  };

  describe('GET /v1/categories', () => {
    it('lists the roots with subtree-inclusive counts', async () => {
      const { status, body } = await get('/v1/categories');
      expect(status).toBe(200);
      expect(body.categories).toEqual([
        { slug: 'amplifiers', name: 'Amplifiers', has_children: true, part_count: 4 },
        { slug: 'resistors', name: 'Resistors', has_children: true, part_count: 3 },
        { slug: 'capacitors', name: 'Capacitors', has_children: true, part_count: 3 },
        { slug: 'power-management-ics', name: 'Power Management ICs', has_children: true, part_count: 1 },
        { slug: 'transistors', name: 'Transistors', has_children: true, part_count: 1 },
      ]);
    });

    it('lists the direct children of a parent, and flattens a subtree or the whole tree', async () => {
      expect((await get('/v1/categories?parent=capacitors')).body.categories.map((c: any) => c.slug)).toEqual([
        'capacitors/multilayer-ceramic-capacitors-mlcc-smd-smt',
        'capacitors/tantalum-capacitors',
      ]);
      const all = (await get('/v1/categories?all=true')).body.categories;
      expect(all).toHaveLength(12);
      expect(all[1]).toEqual({ slug: 'amplifiers/operational-amplifiers', name: 'Operational Amplifiers', has_children: false, part_count: 4 });
      expect((await get('/v1/categories?parent=amplifiers&all=true')).body.categories.map((c: any) => c.slug)).toEqual([
        'amplifiers/operational-amplifiers',
        'amplifiers/comparators',
      ]);
    });

    it('answers an unknown parent with 404 not_found', async () => {
      const { status, body } = await get('/v1/categories?parent=nope');
      expect(status).toBe(404);
      expect(body.error).toMatchObject({ type: 'not_found', message: 'Category "nope" was not found.' });
    });

    it('reads all=1, yes, ON as true and 0, no, off as false', async () => {
      for (const v of ['1', 'yes', 'ON', 'True']) expect((await get(`/v1/categories?all=${v}`)).body.categories).toHaveLength(12);
      for (const v of ['0', 'no', 'off', 'FALSE']) expect((await get(`/v1/categories?all=${v}`)).body.categories).toHaveLength(5); // the roots
    });

    it('rejects a non-boolean all with 422', async () => {
      const { status, body } = await get('/v1/categories?all=maybe');
      expect(status).toBe(422);
      expect(body.detail[0]).toMatchObject({ loc: ['query', 'all'], type: 'bool_parsing', input: 'maybe' });
    });
  });

  describe('GET /v1/categories/{slug}', () => {
    it('answers a multi-segment slug with breadcrumb and children', async () => {
      const { status, body } = await get('/v1/categories/capacitors/tantalum-capacitors');
      expect(status).toBe(200);
      expect(body.category).toEqual({
        slug: 'capacitors/tantalum-capacitors',
        name: 'Tantalum Capacitors',
        description: '',
        path: [
          { slug: 'capacitors', name: 'Capacitors' },
          { slug: 'capacitors/tantalum-capacitors', name: 'Tantalum Capacitors' },
        ],
        children: [],
        part_count: 1,
      });
      const root = (await get('/v1/categories/amplifiers')).body.category;
      expect(root.description).toBe('Amplifier ICs');
      expect(root.children.map((c: any) => c.slug)).toEqual(['amplifiers/operational-amplifiers', 'amplifiers/comparators']);
    });

    it('answers an unknown slug with 404 not_found', async () => {
      expect((await get('/v1/categories/capacitors/nope')).status).toBe(404);
    });
  });

  describe('manufacturers', () => {
    it('answers a slug with the manufacturer, its aliases and part count', async () => {
      const { status, body } = await get('/v1/manufacturers/texas-instruments');
      expect(status).toBe(200);
      expect(body.manufacturer).toEqual({
        slug: 'texas-instruments',
        name: 'Texas Instruments',
        logo: null,
        aliases: ['TI', 'TEXAS INSTRUMENTS'],
        part_count: 3,
      });
      expect((await get('/v1/manufacturers/nope')).status).toBe(404);
    });

    it('resolves aliases through match', async () => {
      const res = await t.api.post('/v1/manufacturers/match', { query: 'TI' }, t.secret);
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(body.query).toBe('TI');
      expect(body.results[0].manufacturer.slug).toBe('texas-instruments');
      expect(body.results[0].confidence).toBeGreaterThanOrEqual(80);
    });

    it('validates match requests', async () => {
      const res = await t.api.post('/v1/manufacturers/match', { query: 'TI', limit: 16 }, t.secret);
      expect(res.status).toBe(422);
      expect(((await res.json()) as any).detail).toEqual([
        { loc: ['body', 'limit'], msg: 'Input should be less than or equal to 15', type: 'less_than_equal', input: 16, ctx: { limit: 15 } },
      ]);
    });
  });

  describe('category match', () => {
    it('resolves abbreviations to CategoryRefs with confidence', async () => {
      const res = await t.api.post('/v1/categories/match', { query: 'mlcc', limit: 3 }, t.secret);
      const body = (await res.json()) as any;
      expect(body.results[0]).toMatchObject({
        category: {
          slug: 'capacitors/multilayer-ceramic-capacitors-mlcc-smd-smt',
          path: [{ slug: 'capacitors' }, { slug: 'capacitors/multilayer-ceramic-capacitors-mlcc-smd-smt' }],
        },
      });
      expect(body.results.length).toBeLessThanOrEqual(3);
    });
    it('answers nonsense with an empty list, not an error', async () => {
      const res = await t.api.post('/v1/categories/match', { query: 'qwxzzy' }, t.secret);
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).results).toEqual([]);
    });
    it('answers an empty query with 422, as the other endpoints that need a query do', async () => {
      for (const route of ['/v1/categories/match', '/v1/manufacturers/match']) {
        const res = await t.api.post(route, { query: '' }, t.secret);
        expect(res.status).toBe(422);
        expect(((await res.json()) as any).detail[0]).toMatchObject({ loc: ['body', 'query'], type: 'string_too_short' });
      }
    });
  });

  describe('approved lists', () => {
    it('shows curated lists and a notice to a caller without lists of its own', async () => {
      const { body } = await get('/v1/lists');
      expect(body.notice).toBe(NOTICE_NO_OWN_LISTS);
      expect(body.lists).toEqual([
        {
          list_id: expect.stringMatching(/^lst_/),
          name: 'Test Basic',
          kind: 'curated',
          member_count: 2,
          slug: 'test-basic',
          description: 'Fixture list',
          updated_at: expect.any(String),
        },
      ]);
    });

    it("shows the caller its own lists first, most recently updated first, and never another account's", async () => {
      const a = await t.api.services.accounts.createAccount({ name: 'alice' });
      const b = await t.api.services.accounts.createAccount({ name: 'bob' });
      const ka = (await t.api.services.accounts.createKey({ account_id: a.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 60 })).secret;
      const kb = (await t.api.services.accounts.createKey({ account_id: b.id, name: 'k', capabilities: ['parts:read'], rate_limit_per_minute: 60 })).secret;
      const first = await createUserList(t.api.services.engine, 'alice', 'Power parts');
      await new Promise((r) => setTimeout(r, 5));
      const second = await createUserList(t.api.services.engine, 'alice', 'Passives');
      await new Promise((r) => setTimeout(r, 5)); // updated_at has millisecond resolution
      await editMembers(t.api.services.engine, first.list_id, 'add', 'TI/LM358DR');
      await createUserList(t.api.services.engine, 'bob', 'Bob only');
      t.api.services.catalog.invalidate();
      const alice = (await get('/v1/lists', ka)).body;
      expect(alice.notice).toBeNull();
      expect(alice.lists.map((l: any) => [l.name, l.kind, l.member_count])).toEqual([
        ['Power parts', 'user', 1],
        ['Passives', 'user', 0],
        ['Test Basic', 'curated', 2],
      ]);
      expect(alice.lists[0]).not.toHaveProperty('slug');
      expect(second.list_id).not.toBe(first.list_id);
      const bob = (await get('/v1/lists', kb)).body;
      expect(bob.lists.map((l: any) => l.name)).toEqual(['Bob only', 'Test Basic']);
    });

    it('filters parts by a list the caller edited', async () => {
      const meta = (await t.api.services.engine.meta())!;
      const power = meta.lists.find((l) => l.name === 'Power parts')!;
      const r = await t.api.services.engine.textSearch({ text: null, filters: { lists: [power.list_id] }, limit: 10, offset: 0 });
      expect((await t.api.services.engine.getParts(r.hits.map((h) => h.id))).map((p) => p.mpn)).toEqual(['LM358DR']);
    });

    it('keeps list ids stable across re-import and reports members that match no part', async () => {
      const before = (await t.api.services.engine.meta())!.lists.find((l) => l.slug === 'test-basic')!;
      const file = path.join(tempDir(), 'lists.json');
      fs.writeFileSync(
        file,
        JSON.stringify([
          {
            name: 'Test Basic',
            kind: 'curated',
            slug: 'test-basic',
            members: [
              { mpn: 'AO3400A', manufacturer: 'AOS' },
              { mpn: 'GHOST1', manufacturer: 'TI' },
            ],
          },
        ]),
      );
      const report = await importLists(t.api.services.engine, JSON.parse(fs.readFileSync(file, 'utf8')));
      expect(report.lists).toEqual([
        { list_id: before.list_id, name: 'Test Basic', kind: 'curated', member_count: 1, unmatched: [{ mpn: 'GHOST1', manufacturer: 'TI' }] },
      ]);
      const r = await t.api.services.engine.textSearch({ text: null, filters: { lists: [before.list_id] }, limit: 10, offset: 0 });
      expect((await t.api.services.engine.getParts(r.hits.map((h) => h.id))).map((p) => p.mpn)).toEqual(['AO3400A']);
    });

    it('refuses to add a part that does not exist', async () => {
      const meta = (await t.api.services.engine.meta())!;
      await expect(editMembers(t.api.services.engine, meta.lists[0]!.list_id, 'add', 'TI/NOPE')).rejects.toThrow(ListError);
    });

    it('says so when no list exists at all', async () => {
      const bare = await startTestApi({}, engineKind);
      try {
        await importLists(bare.services.engine, []);
        const meta = (await bare.services.engine.meta())!;
        await bare.services.engine.saveMeta({ ...meta, lists: [] });
        const { secret: s } = await bare.key({ capabilities: ['parts:read'] });
        const res = await bare.get('/v1/lists', s);
        expect((await res.json()) as any).toMatchObject({ lists: [], notice: NOTICE_NO_LISTS });
      } finally {
        await bare.close();
      }
    });
  });
});
