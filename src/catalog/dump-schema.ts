/**
 * JSON Schema of a dump part record (FORMAT.md, v1). Required fields and types are enforced; unknown
 * fields are allowed (ingest keeps them under `attributes`).
 */
const str = { type: 'string' } as const;
const nstr = { type: ['string', 'null'] } as const;
const nnum = { type: ['number', 'null'] } as const;
const nint = { type: ['integer', 'null'], minimum: 0 } as const;

export const dumpPartSchema = {
  $id: 'partsearch/dump-part.json',
  type: 'object',
  required: ['mpn', 'manufacturer', 'description'],
  properties: {
    mpn: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    manufacturer: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    description: { type: 'string', maxLength: 4000 },
    long_description: nstr,
    status: nstr,
    category: { type: ['array', 'null'], items: { type: 'string', minLength: 1 }, maxItems: 12 },
    series: nstr,
    package: nstr,
    specs: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        required: ['name', 'value'],
        properties: { name: { type: 'string', minLength: 1 }, value: str, num: nnum, unit: nstr },
      },
    },
    images: {
      type: ['array', 'null'],
      items: { type: 'object', required: ['url'], properties: { url: str, caption: nstr } },
    },
    documents: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        required: ['url'],
        properties: { name: str, type: str, url: str, text: nstr },
      },
    },
    offers: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        required: ['distributor'],
        properties: {
          distributor: str,
          sku: nstr,
          stock: nint,
          moq: nint,
          currency: str,
          price_breaks: {
            type: 'array',
            items: {
              type: 'array',
              minItems: 2,
              maxItems: 2,
              items: { type: 'number', minimum: 0 },
            },
          },
          packaging: nstr,
          lead_time_days: nint,
        },
      },
    },
    aliases: { type: ['array', 'null'], items: str },
    source_id: nstr,
    attributes: { type: ['object', 'null'] },
  },
} as const;

export const manufacturersFileSchema = {
  $id: 'partsearch/manufacturers-file.json',
  type: 'array',
  items: {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1 },
      aliases: { type: 'array', items: { type: 'string' } },
      logo: { type: ['string', 'null'] },
    },
  },
} as const;

const categoryNode: Record<string, unknown> = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    description: { type: ['string', 'null'] },
    children: { type: 'array', items: { $ref: '#/$defs/node' } },
  },
};

export const categoriesFileSchema = {
  $id: 'partsearch/categories-file.json',
  $defs: { node: categoryNode },
  type: 'array',
  items: { $ref: '#/$defs/node' },
} as const;

export const listsFileSchema = {
  $id: 'partsearch/lists-file.json',
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'kind', 'members'],
    properties: {
      name: { type: 'string', minLength: 1 },
      kind: { enum: ['curated', 'user'] },
      slug: { type: ['string', 'null'] },
      description: { type: ['string', 'null'] },
      account: { type: ['string', 'null'] },
      members: {
        type: 'array',
        items: {
          type: 'object',
          required: ['mpn', 'manufacturer'],
          properties: { mpn: { type: 'string', minLength: 1 }, manufacturer: { type: 'string', minLength: 1 } },
        },
      },
    },
  },
} as const;
