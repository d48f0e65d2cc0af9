/**
 * BOM line matching (REST POST /v1/parts/match and /v1/parts/match/batch, GraphQL supMultiMatch): an
 * MPN and an optional manufacturer to candidate parts with a confidence. A batch answers one entry per
 * line, in order: a result, or an error for that line (a blank MPN too).
 */
import { normaliseMpn } from '../catalog/mpn.ts';
import { ApiError } from '../errors.ts';
import { matchPart, type MatchResult } from '../search/match.ts';
import { presentPart } from '../search/present.ts';
import type { SearchDeps } from './deps.ts';

/** One BOM line (REST POST /v1/parts/match's body). */
export const lineSchema = {
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

export const presentMatch = (r: MatchResult) => ({
  query: r.query,
  ambiguous: r.ambiguous,
  results: r.results.map((c) => ({ part: presentPart(c.part), confidence: c.confidence, exact: c.exact })),
});

/** One BOM line matched (REST POST /v1/parts/match): candidates, best first. */
export async function matchOne(deps: SearchDeps, line: BatchLine) {
  return presentMatch(await matchPart(deps.engine, await deps.catalog.get(), line));
}

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
export async function matchLines(deps: SearchDeps, lines: readonly BatchLine[]) {
  const view = await deps.catalog.get();
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
      const r = presentMatch(await matchPart(deps.engine, view, line));
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
