/**
 * PartRecord -> the spec's PartSearchResult: every field present (null when unknown), the same shape
 * in every endpoint that returns parts. Document texts are left out (they can be large); offers and
 * images are passed through as stored.
 */
import type { PartRecord, PartSpec } from '../catalog/part.ts';
import { perRecord } from './record-memo.ts';

export interface PartSearchResult {
  id: number;
  mpn: string;
  slug: string | null;
  description: string;
  long_description: string | null;
  part_status: string | null;
  canonical_id: number | null;
  manufacturer: { id: number | null; name: string | null; slug: string | null } | null;
  series: { name: string } | null;
  categories: { slug: string; name: string; path: { slug: string; name: string }[] }[] | null;
  specs: { spec_name: string; spec_value: string; spec_type: 'number' | 'range' | 'text' }[] | null;
  images: { url: string; caption: string | null }[] | null;
  documents: { name: string; type: string; url: string }[] | null;
  offers: unknown[] | null;
  /** Extension (not in SPEC.md): the part's package as the catalogue writes it ("SOT-23-5", "0603"). */
  package: string | null;
}

function specType(s: PartSpec): 'number' | 'range' | 'text' {
  if (s.num !== null) return 'number';
  if (s.min !== null && s.max !== null) return 'range';
  return 'text';
}

export function presentPart(r: PartRecord): PartSearchResult {
  return {
    id: r.id,
    mpn: r.mpn,
    slug: r.slug,
    description: r.description,
    long_description: r.long_description,
    // SPEC.md: "Null if unknown". The filter value `unknown` still selects these parts.
    part_status: r.status === 'unknown' ? null : r.status,
    canonical_id: null,
    manufacturer: { id: r.manufacturer.id, name: r.manufacturer.name, slug: r.manufacturer.slug },
    series: r.series ? { name: r.series } : null,
    categories: r.category ? [r.category] : [],
    specs: r.specs.map((s) => ({ spec_name: s.name, spec_value: s.value, spec_type: specType(s) })),
    images: r.images,
    documents: r.documents.map((d) => ({ name: d.name, type: d.type, url: d.url })),
    offers: r.offers,
    package: r.package ?? null,
  };
}

/**
 * A part's PartSearchResult as JSON text, kept with the record when the record is a cached one (frozen,
 * shared: engines/sqlite/records.ts RecordCache), so that a part shown again, in another answer or on
 * another page, is not presented and serialised again (10 parts: about 0.3 ms of an answer on a slow
 * machine). Records not cached are serialised each time.
 */
const partJson = perRecord((r: PartRecord): string => JSON.stringify(presentPart(r)));

/** Parts as the JSON text of their PartSearchResult array, for `answerJson`. */
export class PartsJson {
  readonly text: string;
  constructor(parts: readonly PartRecord[]) {
    this.text = `[${parts.map(partJson).join(',')}]`;
  }
}

/**
 * The JSON text of an answer: what JSON.stringify gives for `fields` with each PartsJson value replaced by
 * the parts' PartSearchResult array (keys in their order; undefined values left out, as JSON.stringify
 * leaves them). Routes answer it as http/route.ts JsonText.
 */
export function answerJson(fields: Record<string, unknown>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    out.push(`${JSON.stringify(k)}:${v instanceof PartsJson ? v.text : JSON.stringify(v)}`);
  }
  return `{${out.join(',')}}`;
}

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const slugName = { type: 'object', required: ['slug', 'name'], properties: { slug: { type: 'string' }, name: { type: 'string' } } };

/** JSON Schema of PartSearchResult (OpenAPI). */
export const partSearchResultSchema = {
  type: 'object',
  required: [
    'id',
    'mpn',
    'slug',
    'description',
    'long_description',
    'part_status',
    'canonical_id',
    'manufacturer',
    'series',
    'categories',
    'specs',
    'images',
    'documents',
    'offers',
  ],
  properties: {
    id: { type: 'integer' },
    mpn: { type: 'string' },
    slug: { type: ['string', 'null'], description: '<manufacturer slug>/<mpn slug>: the part detail path is /v1/parts/{slug}.' },
    description: { type: 'string' },
    long_description: { type: ['string', 'null'] },
    package: { type: ['string', 'null'], description: 'Extension: the package as the catalogue writes it ("SOT-23-5", "0603"); null when unknown.' },
    part_status: {
      type: ['string', 'null'],
      enum: ['active', 'engineering_sample', 'nrnd', 'ltb', 'obsolete', null],
      description: 'Lifecycle status; null when unknown.',
    },
    canonical_id: { type: ['integer', 'null'] },
    manufacturer: nullable({
      type: 'object',
      properties: { id: { type: ['integer', 'null'] }, name: { type: ['string', 'null'] }, slug: { type: ['string', 'null'] } },
    }),
    series: nullable({ type: 'object', properties: { name: { type: 'string' } } }),
    categories: nullable({
      type: 'array',
      items: {
        type: 'object',
        required: ['slug', 'name', 'path'],
        properties: { slug: { type: 'string' }, name: { type: 'string' }, path: { type: 'array', items: slugName } },
      },
    }),
    specs: nullable({
      type: 'array',
      items: {
        type: 'object',
        required: ['spec_name', 'spec_value', 'spec_type'],
        properties: { spec_name: { type: 'string' }, spec_value: { type: 'string' }, spec_type: { enum: ['number', 'range', 'text'] } },
      },
    }),
    images: nullable({ type: 'array', items: { type: 'object', properties: { url: { type: 'string' }, caption: { type: ['string', 'null'] } } } }),
    documents: nullable({
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string' }, url: { type: 'string' } } },
    }),
    offers: nullable({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          distributor: { type: 'string' },
          sku: { type: ['string', 'null'] },
          stock: { type: ['integer', 'null'] },
          moq: { type: ['integer', 'null'] },
          currency: { type: 'string' },
          price_breaks: { type: 'array', items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } },
          packaging: { type: ['string', 'null'] },
          lead_time_days: { type: ['integer', 'null'] },
        },
      },
    }),
  },
} as const;
