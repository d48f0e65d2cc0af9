import { requestIdSchema } from '../schemas.ts';
/** JSON Schemas of the catalogue navigation resources (SPEC.md CategoryRef, CategoryNode, Category, Manufacturer, ApprovedList). */
import type { JsonSchema } from '../validation.ts';

export const slugNameSchema: JsonSchema = { type: 'object', required: ['slug', 'name'], properties: { slug: { type: 'string' }, name: { type: 'string' } } };

export const categoryRefSchema: JsonSchema = {
  type: 'object',
  required: ['slug', 'name', 'path'],
  properties: {
    slug: { type: 'string', description: 'Full root-to-leaf path slug, segments joined by "/".' },
    name: { type: 'string' },
    path: { type: 'array', items: slugNameSchema, description: 'Ancestry from root to this category, inclusive.' },
  },
};

export const categoryNodeSchema: JsonSchema = {
  type: 'object',
  required: ['slug', 'name', 'has_children', 'part_count'],
  properties: {
    slug: { type: 'string' },
    name: { type: 'string' },
    has_children: { type: 'boolean' },
    part_count: { type: 'integer', description: 'Parts in the subtree (subtree-inclusive).' },
  },
};

export const categorySchema: JsonSchema = {
  type: 'object',
  required: ['slug', 'name', 'description', 'path', 'children'],
  properties: {
    slug: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    path: { type: 'array', items: slugNameSchema },
    children: { type: 'array', items: categoryNodeSchema },
    part_count: { type: 'integer', description: 'Extension: parts in the subtree.' },
  },
};

export const manufacturerSchema: JsonSchema = {
  type: 'object',
  required: ['slug', 'name', 'logo'],
  properties: {
    slug: { type: 'string' },
    name: { type: 'string' },
    logo: { type: ['string', 'null'] },
    aliases: { type: 'array', items: { type: 'string' }, description: 'Extension: other spellings and short names that resolve to this manufacturer.' },
    part_count: { type: 'integer', description: 'Extension: parts of this manufacturer in the catalogue.' },
  },
};

export const approvedListSchema: JsonSchema = {
  type: 'object',
  required: ['list_id', 'name', 'kind', 'member_count'],
  properties: {
    list_id: { type: 'string', pattern: '^lst_', description: 'Opaque handle; copy it, never construct it.' },
    name: { type: 'string' },
    kind: { enum: ['user', 'curated'] },
    member_count: { type: 'integer' },
    slug: { type: ['string', 'null'], description: 'Curated lists only.' },
    description: { type: ['string', 'null'], description: 'Curated lists only.' },
    updated_at: { type: 'string', format: 'date-time', description: 'Extension: last change of the list.' },
  },
};

export const matchRequestSchema: JsonSchema = {
  type: 'object',
  required: ['query'],
  additionalProperties: false,
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 500 },
    limit: { type: 'integer', minimum: 1, maximum: 15, default: 5 },
  },
};

/** Response schema of a name-matching route: `{query, results: [{<key>: item, confidence}], request_id}`. */
export function matchResponseSchema(key: string, item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['query', 'results', 'request_id'],
    properties: {
      query: { type: 'string' },
      results: {
        type: 'array',
        items: { type: 'object', required: [key, 'confidence'], properties: { [key]: item, confidence: { type: 'integer', minimum: 0, maximum: 100 } } },
      },
      request_id: requestIdSchema,
    },
  };
}
