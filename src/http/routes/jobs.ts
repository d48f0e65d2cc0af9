/**
 * The asynchronous AI jobs (SPEC.md Job, Events): POST /v1/parts/discover and
 * POST /v1/parts/{manufacturer}/{mpn}/deep-dive create them (202, `ai:run`, paid: the credit hold of
 * jobs/lifecycle.ts); GET /v1/jobs/{job_id}, its SSE stream, GET /v1/jobs and POST cancel read and end
 * them (free, `ai:run`). The use cases (service/jobs.ts) keep a job to the account that created it.
 * Body schemas: job-schemas.ts; the event stream: job-stream.ts.
 */
import type { Context } from 'koa';
import { validationError } from '../../errors.ts';
import type { Deliverable } from '../../ai/port.ts';
import { JOB_STATUSES, JOB_TYPES, UnknownCursorError, type JobRecord, type JobStatus, type JobType } from '../../jobs/port.ts';
import { partFiltersSchema, type PartFiltersInput } from '../../search/filters.ts';
import type { JobRequest } from '../../service/jobs.ts';
import type { AuthState } from '../middleware/guard.ts';
import { publicBaseUrl } from '../public-url.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { jobSchema, jobSummarySchema, responseFormatSchema } from './job-schemas.ts';
import { streamEvents } from './job-stream.ts';
import type { JsonSchema } from '../validation.ts';

/** The API's own absolute base: PUBLIC_BASE_URL when set, else the address the connection reached (never the Host header). */
function baseUrl(s: AppServices, ctx: Context): string {
  return publicBaseUrl(s.config.publicBaseUrl, ctx);
}

function summaryOf(j: JobRecord) {
  return { job_id: j.job_id, type: j.type, status: j.status, progress: j.progress, created_at: j.created_at, completed_at: j.completed_at, error: j.error };
}

function present(s: AppServices, ctx: Context, j: JobRecord) {
  return {
    ...summaryOf(j),
    stream_url: `${baseUrl(s, ctx)}/v1/jobs/${j.job_id}/stream`,
    usage: j.usage,
    result: j.result ?? null,
    request_id: ctx.state.requestId as string,
  };
}

/** Who starts a job (the admitted caller) and the links its results carry. */
function jobRequest(s: AppServices, ctx: Context): JobRequest {
  return { account: (ctx.state.auth as AuthState).account, requestId: ctx.state.requestId as string, baseUrl: baseUrl(s, ctx) };
}

/** A job just created: 202, its Location, the job. */
function accepted(s: AppServices, ctx: Context, job: JobRecord) {
  ctx.status = 202;
  ctx.set('Location', `/v1/jobs/${job.job_id}`);
  return present(s, ctx, job);
}

const callerOf = (ctx: Context) => (ctx.state.auth as AuthState).account;

/** Deliverables with their keys (the array index when absent) and formats (markdown when absent); duplicate keys or an enum without values are 422s. */
function deliverablesOf(raw: { key?: string; question: string; response_format?: Deliverable['response_format'] }[]): Deliverable[] {
  const out = raw.map((d, i) => ({ key: d.key ?? String(i), question: d.question, response_format: d.response_format ?? { type: 'markdown' as const } }));
  const detail = [];
  const seen = new Map<string, number>();
  for (const [i, d] of out.entries()) {
    const first = seen.get(d.key);
    if (first !== undefined)
      detail.push({
        loc: ['body', 'deliverables', i, 'key'],
        msg: `Duplicate key "${d.key}" (also deliverable ${first})`,
        type: 'duplicate_key',
        input: d.key,
      });
    else seen.set(d.key, i);
    if (d.response_format.type === 'enum' && !d.response_format.enum_values?.length) {
      detail.push({ loc: ['body', 'deliverables', i, 'response_format', 'enum_values'], msg: 'An enum response format needs enum_values', type: 'missing' });
    }
  }
  if (detail.length) throw validationError(detail);
  return out;
}

export function jobRoutes(s: AppServices): RouteSpec[] {
  // Any id: one that no job has is a 404 like any unknown job, whatever its length.
  const jobIdParams: JsonSchema = { type: 'object', required: ['job_id'], properties: { job_id: { type: 'string', minLength: 1 } } };
  const acceptedResponse = {
    202: {
      description: 'The job, queued.',
      schema: jobSchema,
      headers: { Location: { description: 'The job: /v1/jobs/{job_id}.', schema: { type: 'string' } } },
    },
  };
  return [
    {
      method: 'POST',
      path: '/v1/parts/discover',
      operationId: 'discoverParts',
      summary: 'Start an AI discovery job',
      description:
        'Retrieves candidates for the requirements under the hard filters (agentic search), then ranks them with the AI provider. Paid by AI tokens: the job holds the price of its token budget at creation and is settled when it ends (README "Metering").',
      tags: ['jobs'],
      access: 'ai:run',
      paid: true,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['requirements'],
        properties: {
          requirements: { type: 'string', minLength: 1, maxLength: 4000, description: 'Natural-language need; soft trade-offs.' },
          filters: partFiltersSchema,
          limit: { type: 'integer', minimum: 1, maximum: 10, default: 5 },
        },
      },
      responses: acceptedResponse,
      handler: async (ctx, { body }) => {
        const b = body as { requirements: string; filters?: PartFiltersInput; limit: number };
        if (b.requirements.trim() === '')
          throw validationError([{ loc: ['body', 'requirements'], msg: 'Must not be blank', type: 'blank', input: b.requirements }]);
        return accepted(s, ctx, await s.jobs.discover(jobRequest(s, ctx), { requirements: b.requirements.trim(), filters: b.filters, limit: b.limit }));
      },
    },
    {
      method: 'POST',
      path: '/v1/parts/:manufacturer/:mpn/deep-dive',
      operationId: 'deepDivePart',
      summary: 'Start an AI deep-dive job on one part',
      description:
        'Answers each deliverable from the part record and its documents, with citations. A manufacturer alias or another case of the slugs names the same part. Paid by AI tokens (held at creation, settled at the end).',
      tags: ['jobs'],
      access: 'ai:run',
      paid: true,
      params: {
        type: 'object',
        required: ['manufacturer', 'mpn'],
        properties: { manufacturer: { type: 'string', minLength: 1, maxLength: 200 }, mpn: { type: 'string', minLength: 1, maxLength: 2400 } },
      },
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['deliverables'],
        properties: {
          deliverables: {
            type: 'array',
            minItems: 1,
            maxItems: 20,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['question'],
              properties: {
                key: { type: 'string', minLength: 1, maxLength: 100, description: 'Defaults to the array index.' },
                question: { type: 'string', minLength: 1, maxLength: 2000 },
                response_format: responseFormatSchema,
              },
            },
          },
          context: { type: ['object', 'null'], maxProperties: 50, description: 'Key/value context shared by all deliverables.' },
        },
      },
      responses: acceptedResponse,
      errors: [404],
      handler: async (ctx, { params, body }) => {
        const b = body as { deliverables: Parameters<typeof deliverablesOf>[0]; context?: Record<string, unknown> | null };
        const deliverables = deliverablesOf(b.deliverables);
        const { manufacturer, mpn } = params as { manufacturer: string; mpn: string };
        return accepted(s, ctx, await s.jobs.deepDive(jobRequest(s, ctx), { manufacturer, mpn, deliverables, context: b.context ?? null }));
      },
    },
    {
      method: 'GET',
      path: '/v1/jobs',
      operationId: 'listJobs',
      summary: "The account's jobs, newest first",
      description: "Free. Cursor-paginated: pass a response's next_cursor as starting_after for the next page. Jobs older than 72 hours are gone.",
      tags: ['jobs'],
      access: 'ai:run',
      query: {
        type: 'object',
        properties: {
          status: { enum: [...JOB_STATUSES, 'active'], description: 'One status, or active (queued and running).' },
          type: { enum: [...JOB_TYPES] },
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          starting_after: { type: 'string', minLength: 1, maxLength: 100, description: "A previous response's next_cursor." },
        },
      },
      responses: {
        200: {
          description: 'A page of jobs.',
          schema: {
            type: 'object',
            required: ['jobs', 'next_cursor', 'request_id'],
            properties: { jobs: { type: 'array', items: jobSummarySchema }, next_cursor: { type: ['string', 'null'] }, request_id: requestIdSchema },
          },
        },
      },
      handler: async (ctx, { query }) => {
        const q = query as { status?: JobStatus | 'active'; type?: JobType; limit: number; starting_after?: string };
        try {
          const page = await s.jobs.list(callerOf(ctx), {
            status: q.status,
            type: q.type,
            limit: q.limit,
            startingAfter: q.starting_after,
          });
          return { jobs: page.jobs.map(summaryOf), next_cursor: page.next_cursor, request_id: ctx.state.requestId };
        } catch (e) {
          if (!(e instanceof UnknownCursorError)) throw e;
          throw validationError([
            {
              loc: ['query', 'starting_after'],
              msg: 'Unknown cursor: not one of your jobs, or past retention',
              type: 'unknown_cursor',
              input: q.starting_after,
            },
          ]);
        }
      },
    },
    {
      method: 'GET',
      path: '/v1/jobs/:job_id',
      operationId: 'getJob',
      summary: 'A job: status and progress, the result inline once completed',
      description: 'Free. Poll until the status is terminal (completed, failed, cancelled), or follow the stream.',
      tags: ['jobs'],
      access: 'ai:run',
      params: jobIdParams,
      responses: { 200: { description: 'The job.', schema: jobSchema } },
      errors: [404],
      handler: async (ctx, { params }) => present(s, ctx, await s.jobs.get(callerOf(ctx), (params as { job_id: string }).job_id)),
    },
    {
      method: 'GET',
      path: '/v1/jobs/:job_id/stream',
      operationId: 'streamJob',
      summary: "Server-Sent Events of a job's progress",
      description:
        'Free. Events status, progress, pick (discovery), then result or error last; each frame carries an id (1, 2, 3... per job). Send Last-Event-ID to resume after an event; a terminal job replays through its final event and the stream closes.',
      tags: ['jobs'],
      access: 'ai:run',
      params: jobIdParams,
      requestHeaders: {
        type: 'object',
        properties: {
          'Last-Event-ID': {
            type: 'string',
            pattern: '^[0-9]{1,9}$',
            description: 'Resume after this event (an id the job has sent); a 422 otherwise.',
          },
        },
      },
      responses: { 200: { description: 'The event stream (text/event-stream).', contentType: 'text/event-stream', schema: { type: 'string' } } },
      errors: [404],
      handler: async (ctx, { params }) => {
        const job = await s.jobs.get(callerOf(ctx), (params as { job_id: string }).job_id);
        const header = ctx.get('Last-Event-ID').trim();
        if (header !== '' && !/^\d{1,9}$/.test(header)) {
          throw validationError([
            { loc: ['header', 'Last-Event-ID'], msg: 'Must be an event id of this stream (a whole number)', type: 'integer_type', input: header },
          ]);
        }
        const after = header === '' ? 0 : Number(header);
        // An id the job has not sent: resuming after it would skip the events that get its number later.
        if (after > 0 && (await s.jobStore.events(job.job_id, after - 1)).length === 0) {
          throw validationError([{ loc: ['header', 'Last-Event-ID'], msg: 'No event of this job has this id', type: 'unknown_event_id', input: header }]);
        }
        if (ctx.method === 'HEAD') {
          // The stream's headers without the stream: nothing to watch.
          ctx.status = 200;
          ctx.type = 'text/event-stream';
          ctx.set('Cache-Control', 'no-cache');
          return undefined;
        }
        streamEvents(s, ctx, job, after);
        return undefined;
      },
    },
    {
      method: 'POST',
      path: '/v1/jobs/:job_id/cancel',
      operationId: 'cancelJob',
      summary: 'Cancel an in-flight job (best effort, idempotent)',
      description:
        'Free. cancelled is true when the job is cancelled (now or before); false when it had already completed or failed, which it keeps. A running job stops at its next step and pays for the tokens it spent.',
      tags: ['jobs'],
      access: 'ai:run',
      params: jobIdParams,
      responses: {
        200: {
          description: 'Whether the job is cancelled.',
          schema: {
            type: 'object',
            required: ['job_id', 'cancelled', 'request_id'],
            properties: { job_id: { type: 'string' }, cancelled: { type: 'boolean' }, request_id: requestIdSchema },
          },
        },
      },
      errors: [404],
      handler: async (ctx, { params }) => {
        return { ...(await s.jobs.cancel(callerOf(ctx), (params as { job_id: string }).job_id)), request_id: ctx.state.requestId };
      },
    },
  ];
}
