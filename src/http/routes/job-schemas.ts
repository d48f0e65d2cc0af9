/** JSON Schemas of the AI jobs' bodies (SPEC.md Job, JobSummary, DiscoverResult, DeepDiveResult, ResponseFormat). */
import { RESPONSE_FORMAT_TYPES } from '../../ai/port.ts';
import { JOB_STATUSES, JOB_TYPES } from '../../jobs/port.ts';
import { partSearchResultSchema } from '../../search/present.ts';
import { requestIdSchema } from '../schemas.ts';
import type { JsonSchema } from '../validation.ts';

const isoDate = { type: 'string', format: 'date-time' } as const;
const progressSchema: JsonSchema = {
  type: ['object', 'null'],
  required: ['message', 'updated_at'],
  properties: { message: { type: 'string' }, fraction: { type: 'number', minimum: 0, maximum: 1 }, updated_at: isoDate },
};
const jobErrorSchema: JsonSchema = {
  type: ['object', 'null'],
  required: ['type', 'message'],
  properties: { type: { type: 'string' }, message: { type: 'string' } },
};
const usageSchema: JsonSchema = {
  type: ['object', 'null'],
  required: ['input_tokens', 'output_tokens', 'total_tokens'],
  properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
};
const discoverPickSchema: JsonSchema = {
  type: 'object',
  required: ['rank', 'part', 'fit_rationale'],
  properties: { rank: { type: 'integer', minimum: 1 }, part: partSearchResultSchema, fit_rationale: { type: 'string' } },
};
const discoverResultSchema: JsonSchema = {
  type: 'object',
  required: ['summary', 'results'],
  properties: { summary: { type: 'string' }, results: { type: 'array', items: discoverPickSchema } },
};
const citationSchema: JsonSchema = {
  type: 'object',
  required: ['document_name', 'document_type', 'quote', 'url'],
  properties: { document_name: { type: 'string' }, document_type: { type: 'string' }, quote: { type: 'string' }, url: { type: 'string' } },
};
const deepDiveResultSchema: JsonSchema = {
  type: 'object',
  required: ['answers'],
  properties: {
    answers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'question', 'value', 'value_type', 'display', 'explanation', 'citations', 'status'],
        properties: {
          key: { type: 'string' },
          question: { type: 'string' },
          value: { description: 'Shaped per the requested response format; null unless answered.' },
          value_type: { type: 'string', enum: ['string', 'markdown', 'number', 'enum', 'list', 'json'] },
          display: { type: 'string' },
          explanation: { type: 'string' },
          citations: { type: 'array', items: citationSchema },
          status: { type: 'string', enum: ['answered', 'not_available', 'error'] },
        },
      },
    },
  },
};

const summaryProps = {
  job_id: { type: 'string' },
  type: { type: 'string', enum: [...JOB_TYPES] },
  status: { type: 'string', enum: [...JOB_STATUSES] },
  progress: progressSchema,
  created_at: isoDate,
  completed_at: { type: ['string', 'null'], format: 'date-time' },
  error: jobErrorSchema,
};
export const jobSummarySchema: JsonSchema = { type: 'object', required: Object.keys(summaryProps), properties: summaryProps };
export const jobSchema: JsonSchema = {
  type: 'object',
  required: [...Object.keys(summaryProps), 'stream_url', 'usage', 'result', 'request_id'],
  properties: {
    ...summaryProps,
    stream_url: { type: 'string', description: 'Absolute URL of the SSE stream of this job.' },
    usage: usageSchema,
    result: {
      description: 'DiscoverResult (discover) or DeepDiveResult (deep_dive) once completed; null until then.',
      anyOf: [{ type: 'null' }, discoverResultSchema, deepDiveResultSchema],
    },
    request_id: requestIdSchema,
  },
};

export const responseFormatSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { enum: [...RESPONSE_FORMAT_TYPES] },
    unit: { type: 'string', minLength: 1, maxLength: 20, description: 'With number: the unit the value is given in ("mA", "V").' },
    hint: { type: 'string', maxLength: 500 },
    enum_values: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 200 },
      minItems: 1,
      maxItems: 100,
      description: 'With enum: the allowed values (required).',
    },
  },
};
