/**
 * POST /v1/parts/match (free) and POST /v1/parts/match/batch (paid: one match line per line).
 * A batch answers 200 with one entry per line, in order: a result, or an error for that line (a blank
 * MPN too); only answered lines are charged.
 */
import { normaliseMpn } from '../../catalog/mpn.ts';
import { ApiError, validationError } from '../../errors.ts';
import { matchPart, type MatchResult } from '../../search/match.ts';
import { partSearchResultSchema, presentPart } from '../../search/present.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';

const lineSchema = {
  type: 'object',
  required: ['query'],
  additionalProperties: false,
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 200, description: 'The MPN as written on the BOM line.' },
    manufacturer: { type: 'string', maxLength: 200, description: 'Manufacturer name or alias; preferred, not required.' },
    limit: { type: 'integer', minimum: 1, maximum: 10, default: 5 },
  },
};

/** A BOM line of a batch: an empty MPN is that line's error (BOM files have blank lines), not the request's. */
export const batchLineSchema = { ...lineSchema, properties: { ...lineSchema.properties, query: { ...lineSchema.properties.query, minLength: 0 } } };

/** The lines of a batch (also GraphQL supMultiMatch's `queries`). */
export const batchLinesSchema = { type: 'array', minItems: 1, maxItems: 250, items: batchLineSchema };

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

export const presentMatch = (r: MatchResult) => ({
  query: r.query,
  ambiguous: r.ambiguous,
  results: r.results.map((c) => ({ part: presentPart(c.part), confidence: c.confidence, exact: c.exact })),
});

export interface BatchLine {
  query: string;
  manufacturer?: string;
  limit?: number;
}

/**
 * BOM lines matched in order (REST POST /v1/parts/match/batch and GraphQL supMultiMatch): per line
 * `{index, ...result}`, or `{index, query, error}` when the line cannot be matched (blank, or a client
 * error of its own). `answered` counts the lines with a result, `parts` the parts in them.
 */
export async function matchLines(s: AppServices, lines: readonly BatchLine[]) {
  const view = await s.catalog.get();
  const results: ({ index: number } & (ReturnType<typeof presentMatch> | { query: string; error: { type: string; message: string } }))[] = [];
  // Lines that failed are not charged (a failed operation is free); every answered line is.
  let answered = 0;
  let parts = 0;
  for (const [index, line] of lines.entries()) {
    if (normaliseMpn(line.query) === '') {
      results.push({ index, query: line.query, error: { type: 'validation_error', message: 'The line has no MPN to match.' } }); // blank, or punctuation only
      continue;
    }
    try {
      const r = presentMatch(await matchPart(s.engine, view, line));
      results.push({ index, ...r });
      answered++;
      parts += r.results.length;
    } catch (e) {
      if (e instanceof ApiError && e.status < 500) results.push({ index, query: line.query, error: { type: e.code, message: e.message } });
      else throw e;
    }
  }
  return { results, answered, parts };
}

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
        return { ...presentMatch(await matchPart(s.engine, await s.catalog.get(), body)), request_id: ctx.state.requestId };
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
        const { results: out, answered } = await matchLines(s, body.lines);
        await ctx.state.charge('match_lines', answered);
        return { results: out, request_id: ctx.state.requestId };
      },
    },
  ];
}
