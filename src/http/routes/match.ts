/**
 * POST /v1/parts/match (free) and POST /v1/parts/match/batch (paid: one match line per line).
 * A batch answers 200 with one entry per line, in order: a result, or an error for that line (a blank
 * MPN too); only answered lines are charged.
 */
import { normaliseMpn } from '../../catalog/mpn.ts';
import { validationError } from '../../errors.ts';
import { partSearchResultSchema } from '../../search/present.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { batchLinesSchema, lineSchema } from '../../service/match.ts';

const matchResultSchema = {
  type: 'object',
  required: ['query', 'ambiguous', 'results'],
  properties: {
    query: { type: 'string' },
    ambiguous: { type: 'boolean', description: 'More than one manufacturer makes this exact MPN, or the best candidates tie.' },
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['part', 'confidence', 'exact'],
        properties: { part: partSearchResultSchema, confidence: { type: 'integer', minimum: 0, maximum: 100 }, exact: { type: 'boolean' } },
      },
    },
  },
};

export function matchRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/v1/parts/match',
      operationId: 'matchPart',
      summary: 'Match one BOM line (MPN, optional manufacturer) to parts',
      tags: ['parts'],
      access: 'parts:read',
      body: lineSchema,
      responses: {
        200: {
          description: 'Candidates, best first.',
          schema: {
            ...matchResultSchema,
            required: [...matchResultSchema.required, 'request_id'],
            properties: { ...matchResultSchema.properties, request_id: requestIdSchema },
          },
        },
      },
      handler: async (ctx, { body }) => {
        // "   " or "-": no letter or digit to match, as the empty query the schema refuses.
        if (normaliseMpn(body.query as string) === '') {
          throw validationError([{ loc: ['body', 'query'], msg: 'The query has no letter or digit to match', type: 'value_error', input: body.query }]);
        }
        return { ...(await s.parts.match(body)), request_id: ctx.state.requestId };
      },
    },
    {
      method: 'POST',
      path: '/v1/parts/match/batch',
      operationId: 'matchPartsBatch',
      summary: 'Match up to 250 BOM lines; each line is metered',
      description: 'Paid: one match line per line. 200 with one entry per line in order: `{index, ...result}` or `{index, query, error: {type, message}}`.',
      tags: ['parts'],
      access: 'parts:read',
      paid: true,
      body: {
        type: 'object',
        required: ['lines'],
        additionalProperties: false,
        properties: { lines: batchLinesSchema },
      },
      responses: {
        200: {
          description: 'One entry per line.',
          schema: {
            type: 'object',
            required: ['results', 'request_id'],
            properties: {
              results: {
                type: 'array',
                items: {
                  anyOf: [
                    { ...matchResultSchema, properties: { index: { type: 'integer' }, ...matchResultSchema.properties } },
                    {
                      type: 'object',
                      required: ['index', 'query', 'error'],
                      properties: {
                        index: { type: 'integer' },
                        query: { type: 'string' },
                        error: { type: 'object', properties: { type: { type: 'string' }, message: { type: 'string' } } },
                      },
                    },
                  ],
                },
              },
              request_id: requestIdSchema,
            },
          },
        },
      },
      handler: async (ctx, { body }) => {
        const { results: out, answered } = await s.parts.matchBatch(body.lines);
        await ctx.state.charge('match_lines', answered);
        return { results: out, request_id: ctx.state.requestId };
      },
    },
  ];
}
