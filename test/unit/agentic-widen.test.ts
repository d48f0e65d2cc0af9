/**
 * The named-category tier of agentic search (src/search/agentic.ts, WIDEN_BELOW): a small leaf whose
 * name the query's words happen to say must not push parts of the query's family that meet every
 * constraint below its own parts that do not. Real SQLite, lexical-only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteCatalog } from '../support/small-engine.ts';
import type { CatalogView } from '../../src/catalog/view.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { agenticSearch } from '../../src/search/agentic.ts';

const bjt = (mpn: string, polarity: 'NPN' | 'PNP', pkg: string, leaf: string) => ({
  mpn,
  manufacturer: 'Acme',
  description: `${polarity} transistor ${pkg} general purpose`,
  category: ['Transistors', leaf],
  package: pkg,
  status: 'active',
  specs: [{ name: 'Type', value: polarity }],
});

describe('agentic search: the named-category tier', () => {
  let engine: SearchEngine;
  let view: CatalogView;
  beforeAll(async () => {
    const parts = [
      // A small leaf named by "pnp transistor": NPN parts and one PNP in another package.
      bjt('NP1', 'NPN', 'SOT-23', 'Transistors (NPN/PNP)'),
      bjt('NP2', 'NPN', 'SOT-23', 'Transistors (NPN/PNP)'),
      bjt('NP3', 'PNP', 'TO-92', 'Transistors (NPN/PNP)'),
      // The big leaf, whose name the query does not say: the PNP parts in SOT-23.
      ...['BJ1', 'BJ2', 'BJ3'].map((m) => bjt(m, 'PNP', 'SOT-23', 'Bipolar Transistors - BJT')),
      bjt('BJ4', 'NPN', 'SOT-23', 'Bipolar Transistors - BJT'),
      // A small leaf whose name has words that are neither a constraint nor a family ("small signal"):
      // a query naming it keeps it first even where its parts miss a constraint.
      bjt('SS1', 'NPN', 'SOT-23', 'PNP Small Signal Transistors'),
      bjt('SS2', 'NPN', 'SOT-23', 'PNP Small Signal Transistors'),
    ];
    ({ engine, view } = await sqliteCatalog(parts, [
      { name: 'Transistors', children: [{ name: 'Transistors (NPN/PNP)' }, { name: 'Bipolar Transistors - BJT' }, { name: 'PNP Small Signal Transistors' }] },
    ]));
  });
  afterAll(async () => engine?.close());

  const ask = (query: string) =>
    agenticSearch(engine, null, false, {
      query,
      limit: 10,
      offset: 0,
      filters: { status: ['active'] },
      categories: view.categoryMatcher(),
      specNames: view.specNameIndex(),
    });
  const named = async (query: string) => (await ask(query)).namedCategories.map((m) => m.slug);
  const search = async (query: string) => (await ask(query)).parts.map((p) => p.mpn);

  it('ranks family parts meeting every constraint with the named leaf when it holds fewer than 5 of them', async () => {
    const got = await search('pnp transistor sot-23');
    expect(got.slice(0, 3).sort()).toEqual(['BJ1', 'BJ2', 'BJ3']);
    // The named leaf's parts still come before the big leaf's parts that miss a constraint.
    expect(got.indexOf('NP3')).toBeLessThan(got.indexOf('BJ4'));
  });

  it('keeps the named leaf first when the query has a word it did not read', async () => {
    const q = 'pnp small signal transistor sot-23';
    expect(await named(q)).toEqual(['transistors/pnp-small-signal-transistors']);
    const got = await search(q);
    expect(new Set(got.slice(0, 2))).toEqual(new Set(['SS1', 'SS2']));
  });
});
