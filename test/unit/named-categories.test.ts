/** The categories a part query names (src/search/named-categories.ts) and how agentic search uses them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryData } from '../../src/catalog/categories.ts';
import { createCategoryMatcher } from '../../src/catalog/match/categories.ts';
import type { SearchEngine } from '../../src/engines/port.ts';
import { agenticSearch, intersectCategories } from '../../src/search/agentic.ts';
import { categoryWords, NAMED_MIN, namedCategories, namedCategoryScore, namedSet, underCategory } from '../../src/search/named-categories.ts';
import { smallSqliteEngine } from '../support/small-engine.ts';

function cat(slug: string, name: string, parts: number): CategoryData {
  const parent = slug.includes('/') ? slug.slice(0, slug.lastIndexOf('/')) : null;
  return { slug, name, description: null, parent, children: [], depth: slug.split('/').length - 1, own_count: parts, part_count: parts };
}

const tree: CategoryData[] = [
  cat('connectors', 'Connectors', 900),
  cat('connectors/wire-to-board-connector', 'Wire To Board Connector', 400),
  cat('connectors/wire-to-board-wire-to-wire-connector', 'Wire To Board / Wire To Wire Connector', 380),
  cat('connectors/pin-headers', 'Pin Headers', 120),
  cat('transistors', 'Transistors', 500),
  cat('transistors/mosfets', 'MOSFETs', 300),
  cat('discrete/mosfets', 'MOSFETs', 200),
  cat('usb-ics', 'USB ICs', 50),
  cat('optoelectronics', 'Optoelectronics', 300),
  cat('optoelectronics/light-emitting-diodes-led', 'Light Emitting Diodes (LED)', 200),
  cat('optoelectronics/infrared-ir-leds', 'Infrared (IR) LEDs', 40),
];
const matcher = createCategoryMatcher(tree);

describe('namedCategories', () => {
  it('reads the words without digits: quantities, packages and conditions are not category words', () => {
    expect(categoryWords('2A 250V SOT-23 100nA@16V wire to board connector')).toBe('wire to board connector');
    expect(categoryWords('10k 0603')).toBe('');
  });

  it('names every near-identical category, marking the one named by its own name', () => {
    const named = namedCategories(matcher, '2A 250V wire to board connector');
    expect(named.map((m) => m.slug).sort()).toEqual(['connectors/wire-to-board-connector', 'connectors/wire-to-board-wire-to-wire-connector']);
    const w = namedSet(named);
    expect(w.get('connectors/wire-to-board-connector')).toBe(true);
    expect(w.get('connectors/wire-to-board-wire-to-wire-connector')).toBe(false);
    // the same name under two roots: both named
    expect(
      namedCategories(matcher, '1.6A 20V mosfets')
        .map((m) => m.slug)
        .sort(),
    ).toEqual(['discrete/mosfets', 'transistors/mosfets']);
  });

  it('names a category by the query words without their qualifiers (counts, colours, mounting) when all of them name none', () => {
    expect(matcher.match(categoryWords('dual black through hole pin headers'), 1)[0]!.confidence).toBeLessThan(NAMED_MIN);
    expect(namedCategories(matcher, 'dual black through hole pin headers')).toEqual([]); // "black" is no qualifier
    expect(namedCategories(matcher, 'dual through hole pin headers 1x6').map((m) => m.slug)).toEqual(['connectors/pin-headers']);
    expect(
      namedCategories(matcher, 'quad n-channel MOSFETs')
        .map((m) => m.slug)
        .sort(),
    ).toEqual(['discrete/mosfets', 'transistors/mosfets']);
    // a description's words are not cut down to a run that names something ("bridge" stays)
    expect(namedCategories(matcher, 'usb to uart bridge')).toEqual([]);
    // mounting words go first, so a kind with a category of its own keeps it: infrared, not any LED
    expect(namedCategories(matcher, 'white LED through-hole').map((m) => m.slug)).toEqual(['optoelectronics/light-emitting-diodes-led']);
    expect(namedCategories(matcher, 'ir led smd').map((m) => m.slug)).toEqual(['optoelectronics/infrared-ir-leds']);
    expect(namedCategories(matcher, 'red')).toEqual([]);
  });

  it('names nothing when the query does not say a name (a resemblance is not enough), or without a matcher', () => {
    for (const q of ['usb to uart bridge', 'wire harness', 'headers']) {
      const best = matcher.match(categoryWords(q), 1)[0]?.confidence ?? 0;
      expect(best, q).toBeLessThan(NAMED_MIN);
      expect(namedCategories(matcher, q), q).toEqual([]);
    }
    expect(namedCategories(matcher, 'pin headers').map((m) => m.slug)).toEqual(['connectors/pin-headers']);
    expect(namedCategories(matcher, '10k 0603 1%')).toEqual([]);
    expect(namedCategories(undefined, 'pin headers')).toEqual([]);
  });

  it('scores a part 2 in or under the exactly-named category, 1 in or under another named one, else 0', () => {
    const w = new Map([
      ['connectors', false],
      ['connectors/pin-headers', true],
    ]);
    const ref = (slug: string) => ({ slug, path: slug.split('/').map((_, i, a) => ({ slug: a.slice(0, i + 1).join('/') })) });
    expect(namedCategoryScore(w, ref('connectors/pin-headers'))).toBe(2);
    expect(namedCategoryScore(w, ref('connectors/wire-to-board-connector'))).toBe(1);
    expect(namedCategoryScore(w, ref('transistors/mosfets'))).toBe(0);
    expect(namedCategoryScore(w, null)).toBe(0);
    expect(namedCategoryScore(new Map(), ref('connectors'))).toBe(0);
  });
});

describe('category paths', () => {
  it('tells a subtree by whole path segments', () => {
    expect(underCategory('capacitors/tantalum', 'capacitors')).toBe(true);
    expect(underCategory('capacitors', 'capacitors')).toBe(true);
    expect(underCategory('capacitors-2/x', 'capacitors')).toBe(false);
    expect(underCategory('capacitors', 'capacitors/tantalum')).toBe(false);
  });

  it("narrows the named categories to the request's category filter, both ways, and to nothing when apart", () => {
    expect(intersectCategories(undefined, ['a/b', 'c'])).toEqual(['a/b', 'c']);
    expect(intersectCategories(['a'], ['a/b', 'c'])).toEqual(['a/b']); // a named category inside the filter
    expect(intersectCategories(['a/b/x'], ['a/b'])).toEqual(['a/b/x']); // a filter inside a named category
    expect(intersectCategories(['d'], ['a/b', 'c'])).toEqual([]);
  });
});

describe('agentic search with named categories (small fixture, SQLite)', () => {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await smallSqliteEngine();
  });
  afterAll(async () => engine?.close());

  it('ranks the named category first, above parts of other categories that meet more constraints', async () => {
    const categories = createCategoryMatcher((await engine.meta())!.categories);
    const query = '0603 10uF tantalum capacitors';
    const req = { query, limit: 3, offset: 0, filters: { status: ['active' as const] } };
    const withNames = await agenticSearch(engine, null, false, { ...req, categories });
    expect(withNames.namedCategories.map((m) => m.slug)).toEqual(['capacitors/tantalum-capacitors']);
    // The tantalum part is 3216, not 0603: the 0603 MLCC meets more constraints, but the query names tantalum capacitors.
    expect(withNames.parts[0]!.mpn).toBe('T491A106K016AT');
    expect(withNames.parts[1]!.mpn).toBe('CL10A106KP8NNNC');
    const without = await agenticSearch(engine, null, false, req);
    expect(without.namedCategories).toEqual([]);
    expect(without.parts[0]!.mpn).toBe('CL10A106KP8NNNC');
  });
});
