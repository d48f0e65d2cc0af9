/** Part records built by hand for tests of code that reads records (the AI providers): neutral defaults, `over` on top. */
import type { PartRecord } from '../../src/catalog/part.ts';

export function partRecord(id: number, mpn: string, over: Partial<PartRecord> = {}): PartRecord {
  return {
    id,
    mpn,
    mpn_norm: mpn.toLowerCase(),
    mpn_slug: mpn.toLowerCase(),
    slug: `maker/${mpn.toLowerCase()}`,
    manufacturer: { id: 1, name: 'Maker', slug: 'maker' },
    description: `${mpn} part`,
    long_description: null,
    status: 'active',
    category: null,
    series: null,
    package: null,
    specs: [],
    images: [],
    documents: [],
    offers: [],
    aliases: [],
    aliases_norm: [],
    source_id: null,
    attributes: {},
    lists: [],
    stock: 0,
    min_price_usd: null,
    ...over,
  };
}
