/** Shared JSON Schemas of response bodies and error forms (also used by the OpenAPI document). */
import type { JsonSchema } from './validation.ts';

export const requestIdSchema = { type: 'string', description: 'Echo of the X-Request-Id response header, for tracing.' } as const;

export const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'message', 'request_id'],
      properties: {
        type: { type: 'string', description: 'Error code from the catalogue (README "API notes").' },
        message: { type: 'string' },
        request_id: { type: 'string' },
      },
    },
  },
};

export const validationErrorSchema: JsonSchema = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        required: ['loc', 'msg', 'type'],
        properties: {
          loc: { type: 'array', items: { type: ['string', 'integer'] }, description: 'Request part then field path, e.g. ["query", "limit"].' },
          msg: { type: 'string' },
          type: { type: 'string' },
          input: {},
          ctx: { type: 'object' },
        },
      },
    },
  },
};

export const healthSchema: JsonSchema = {
  type: 'object',
  required: ['status', 'version', 'timestamp'],
  properties: { status: { type: 'string' }, version: { type: 'string' }, timestamp: { type: 'string', format: 'date-time' } },
};

/** GraphQL's error form (POST /graphql): each error's `extensions.code` is a catalogue code. */
export const graphqlErrorsSchema: JsonSchema = {
  type: 'object',
  required: ['errors'],
  properties: {
    data: { type: ['object', 'null'], description: 'The fields that resolved, beside field errors.' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message'],
        properties: {
          message: { type: 'string' },
          path: { type: 'array', items: { type: ['string', 'integer'] } },
          locations: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' } } } },
          extensions: {
            type: 'object',
            properties: {
              code: { type: 'string', description: 'Error code from the catalogue (README "API notes").' },
              request_id: { type: 'string' },
              detail: { type: 'array', description: "validation_error: the validation form's entries, `loc` starting at the argument." },
            },
          },
        },
      },
    },
  },
};
