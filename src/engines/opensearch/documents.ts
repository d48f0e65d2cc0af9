/** PartRecord (+ embedding) -> the document of the parts index (index-mappings/parts.json). */
import type { PartRecord } from '../../catalog/part.ts';
import { priceBands } from '../../catalog/prices.ts';
import { specAttributeId } from '../../vocabulary/attributes.ts';
import { RECORD_FIELD, VECTOR_FIELD } from './mappings.ts';
import { partTextFields } from '../text-tokens.ts';

/** Sort key of an MPN key: 4-digit length then the key, so one keyword sort orders by (length, key). */
export function keySort(key: string): string {
  return `${String(key.length).padStart(4, '0')}${key}`;
}

/** Nine significant digits round-trip a float32 exactly and keep the bulk body short. */
function vector(v: Float32Array): number[] {
  return Array.from(v, (x) => Number(x.toPrecision(9)));
}

export function partDocument(r: PartRecord, embedding: Float32Array | null, withVectors: boolean): Record<string, unknown> {
  const text = partTextFields(r);
  const doc: Record<string, unknown> = {
    id: r.id,
    mpn_norm: r.mpn_norm,
    mpn_len: r.mpn_norm.length,
    aliases_norm: r.aliases_norm,
    alias_keys: r.aliases_norm.map((k) => ({ key: k, sort: keySort(k) })),
    // The same text the SQLite adapter puts in its `mpn` FTS column.
    mpn_text: text.mpn,
    mpn_slug: r.mpn_slug,
    manufacturer: { id: r.manufacturer.id, slug: r.manufacturer.slug, name: r.manufacturer.name },
    category: r.category ? { slug: r.category.slug, names: text.category } : null,
    description: r.description,
    long_description: r.long_description,
    package: r.package,
    series: r.series,
    specs_text: text.specs,
    status: r.status,
    lists: r.lists,
    stock: r.stock,
    min_price_usd: r.min_price_usd,
    // Open-ended bands leave `to` out (filters.ts: no `to` holds every larger quantity).
    price_bands: priceBands(r.offers).map((b) => (b.to === null ? { from: b.from, price: b.price } : b)),
    spec_names: [...new Set(r.specs.map((s) => s.name))],
    // Canonical attribute ids (vocabulary/attributes.json): what attribute filters and facets read.
    spec_attributes: [...new Set(r.specs.flatMap((s) => specAttributeId(s) ?? []))],
    specs: r.specs.map((s) => ({ name: s.name, value: s.value, num: s.num, min: s.min, max: s.max, unit: s.unit, attribute: specAttributeId(s) })),
  };
  // With vectors, the record is JSON in a stored field (paging.ts RECORD_FIELD), without `lists`
  // (membership updates change the top-level `lists` in place, and reads take them from there): a
  // search then reads it without parsing `_source`, whose 384-float vector is most of it. Without
  // vectors `_source` is small, and the record stays in it (a stored copy would only cost space).
  if (withVectors) doc[RECORD_FIELD] = JSON.stringify({ ...r, lists: undefined });
  else doc.record = r;
  if (withVectors && embedding) doc[VECTOR_FIELD] = vector(embedding);
  return doc;
}
