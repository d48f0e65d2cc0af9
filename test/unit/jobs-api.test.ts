/**
 * The AI jobs over the real HTTP server, a real engine (small fixture; SQLite, and OpenSearch when
 * OPENSEARCH_URL is set), the SQLite job store and in-process workers, with the default local provider
 * (no LLM): discovery and deep dive end to end, polling, the SSE stream and its resumption, listing with
 * cursors, cancel, access and billing gates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ENGINES, startTestApi, type TestApi } from '../support/api.ts';
import { parseSse } from '../support/sse.ts';
import { ended, until } from '../support/wait.ts';

let api: TestApi;
let secret: string;
let accountId: string;

interface Job {
  job_id: string;
  type: string;
  status: string;
  progress: { message: string; fraction?: number; updated_at: string } | null;
  created_at: string;
  completed_at: string | null;
  stream_url: string;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  result: any;
  error: { type: string; message: string } | null;
  request_id: string;
}

async function waitDone(jobId: string, key = secret): Promise<Job> {
  const job = await until(async () => {
    const r = await api.get(`/v1/jobs/${jobId}`, key);
    expect(r.status).toBe(200);
    return (await r.json()) as Job;
  }, ended);
  expect(ended(job), `job ${jobId} did not end`).toBe(true);
  return job;
}

/** Reads an SSE response to its end: frames as {id, event, data}. */
const readStream = async (r: Response) => parseSse(await r.text());

describe.each(API_ENGINES)('AI jobs on %s', (kind) => {
  beforeAll(async () => {
    api = await startTestApi({}, kind);
    ({ secret, accountId } = await api.key());
  });
  afterAll(async () => api?.close());

  describe('discovery', () => {
    it('202 with the queued Job, then completed with ranked picks of full part records', async () => {
      const r = await api.post('/v1/parts/discover', { requirements: '10k 0603 resistor, 1% tolerance, in stock', limit: 2 }, secret);
      expect(r.status).toBe(202);
      const job = (await r.json()) as Job;
      expect(job).toMatchObject({ type: 'discover', status: 'queued', progress: null, completed_at: null, usage: null, result: null, error: null });
      expect(job.job_id).toMatch(/^job_[A-Za-z0-9_-]{20,}$/);
      expect(job.stream_url).toBe(`${api.url}/v1/jobs/${job.job_id}/stream`);
      expect(r.headers.get('location')).toBe(`/v1/jobs/${job.job_id}`);
      expect(job.request_id).toBe(r.headers.get('x-request-id'));
      expect(r.headers.get('x-ratelimit-limit')).toBe('60');

      const done = await waitDone(job.job_id);
      expect(done.status).toBe('completed');
      expect(done.completed_at).not.toBeNull();
      expect(done.usage).toEqual({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
      expect(done.progress).toMatchObject({ message: 'Done', fraction: 1 });
      const picks = done.result.results as { rank: number; part: { mpn: string; specs: unknown[] }; fit_rationale: string }[];
      expect(picks.map((p) => p.rank)).toEqual([1, 2]);
      // The two 10k 0603 1% resistors meet every stated constraint; the 4.7k does not.
      expect(picks.map((p) => p.part.mpn).sort()).toEqual(['0603WAF1002T5E', 'RC0603FR-0710KL']);
      expect(picks[0]!.fit_rationale).toMatch(/Meets 3 of 3 stated constraints/);
      expect(picks[0]!.part.specs.length).toBeGreaterThan(0);
      expect(done.result.summary).toMatch(/Top pick: /);
    });

    it('applies the hard filters, and says so when nothing matches', async () => {
      // "0603" finds capacitors and resistors; under the category filter, resistors alone.
      const categoriesOf = async (body: unknown) => {
        const r = await api.post('/v1/parts/discover', body, secret);
        expect(r.status).toBe(202);
        const done = await waitDone(((await r.json()) as Job).job_id);
        return (done.result.results as { part: { categories: { path: { slug: string }[] }[] } }[]).map((p) => p.part.categories[0]!.path[0]!.slug);
      };
      expect(new Set(await categoriesOf({ requirements: '0603', limit: 10 }))).toEqual(new Set(['resistors', 'capacitors']));
      const filtered = await categoriesOf({ requirements: '0603', limit: 10, filters: { categories: ['resistors'] } });
      expect(filtered.length).toBeGreaterThan(0);
      expect(new Set(filtered)).toEqual(new Set(['resistors']));

      const none = await api.post(
        '/v1/parts/discover',
        { requirements: 'zzqx flux capacitor', filters: { categories: ['resistors'], status: ['obsolete'] } },
        secret,
      );
      expect(none.status).toBe(202);
      const empty = await waitDone(((await none.json()) as Job).job_id);
      expect(empty.status).toBe('completed');
      expect(empty.result.results).toEqual([]);
      expect(empty.result.summary).toMatch(/No parts/);
    });

    it('422 in the validation form for bad bodies and unknown filter values', async () => {
      const cases: [unknown, (string | number)[]][] = [
        [{}, ['body', 'requirements']],
        [{ requirements: 'x', limit: 11 }, ['body', 'limit']],
        [{ requirements: '   ' }, ['body', 'requirements']],
        [{ requirements: 'x', filters: { categories: ['no-such-category'] } }, ['body', 'filters', 'categories', 0]],
        [{ requirements: 'x', surprise: 1 }, ['body', 'surprise']],
      ];
      for (const [body, loc] of cases) {
        const r = await api.post('/v1/parts/discover', body, secret);
        expect(r.status, JSON.stringify(body)).toBe(422);
        const b = (await r.json()) as { detail: { loc: unknown[] }[] };
        expect(b.detail.map((d) => d.loc)).toContainEqual(loc);
      }
    });
  });

  describe('the event stream', () => {
    it('streams status, progress, picks, then the result last, numbered from 1; resumes after Last-Event-ID; replays a terminal job', async () => {
      const job = (await (await api.post('/v1/parts/discover', { requirements: '100nF 50V X7R capacitor', limit: 3 }, secret)).json()) as Job;
      const r = await api.get(`/v1/jobs/${job.job_id}/stream`, secret);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(r.headers.get('x-ratelimit-remaining')).not.toBeNull();
      const events = await readStream(r);
      expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
      expect(events[0]).toEqual({ id: 1, event: 'status', data: { status: 'running' } });
      const names = events.map((e) => e.event);
      expect(names.at(-2)).toBe('status');
      expect(events.at(-2)!.data).toEqual({ status: 'completed' });
      expect(names.at(-1)).toBe('result');
      expect(names).toContain('progress');
      const picks = events.filter((e) => e.event === 'pick').map((e) => e.data as { rank: number });
      const done = await waitDone(job.job_id);
      expect(events.at(-1)!.data).toEqual(done.result);
      expect(picks).toEqual(done.result.results);

      // Resume after event 2: the rest, without gaps; after the last: nothing more, the stream closes.
      const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, { get: { parameters: { name: string; in: string }[] } }> };
      expect(doc.paths['/v1/jobs/{job_id}/stream']!.get.parameters).toContainEqual(expect.objectContaining({ name: 'Last-Event-ID', in: 'header' }));
      const head = await fetch(`${api.url}/v1/jobs/${job.job_id}/stream`, { method: 'HEAD', headers: { Authorization: `Bearer ${secret}` } });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const resumed = await readStream(await api.get(`/v1/jobs/${job.job_id}/stream`, secret, { 'Last-Event-ID': '2' }));
      expect(resumed).toEqual(events.slice(2));
      expect(await readStream(await api.get(`/v1/jobs/${job.job_id}/stream`, secret, { 'Last-Event-ID': String(events.length) }))).toEqual([]);
      for (const id of ['abc', String(events.length + 1)]) {
        const bad = await api.get(`/v1/jobs/${job.job_id}/stream`, secret, { 'Last-Event-ID': id });
        expect(bad.status).toBe(422);
        expect(((await bad.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['header', 'Last-Event-ID']);
      }
    });
  });

  describe('deep dive', () => {
    it('answers each deliverable in request order, shaped per format, with citations', async () => {
      const r = await api.post(
        '/v1/parts/texas-instruments/TLV70033DDCR/deep-dive',
        {
          deliverables: [
            { key: 'iout', question: 'What is the maximum output current?', response_format: { type: 'number', unit: 'mA' } },
            { question: 'What package is it in?', response_format: { type: 'enum', enum_values: ['SOT-23-5', 'SOIC-8'] } },
            { key: 'vout', question: 'Output voltage?' },
            { key: 'noise', question: 'What is the PSRR at 1 kHz?', response_format: { type: 'number', unit: 'dB' } },
            // Sharing "voltage" with Output Voltage is no answer.
            { key: 'dropout', question: 'What is the dropout voltage?', response_format: { type: 'number', unit: 'mV' } },
          ],
          context: { application: 'battery sensor node' },
        },
        secret,
      );
      expect(r.status).toBe(202);
      const done = await waitDone(((await r.json()) as Job).job_id);
      expect(done.type).toBe('deep_dive');
      expect(done.status).toBe('completed');
      const answers = done.result.answers as Record<string, unknown>[];
      expect(answers.map((a) => a.key)).toEqual(['iout', '1', 'vout', 'noise', 'dropout']);
      expect(answers[0]).toMatchObject({
        question: 'What is the maximum output current?',
        value: 200,
        value_type: 'number',
        display: '200 mA',
        status: 'answered',
      });
      expect(answers[0]!.citations).toEqual([
        {
          document_name: 'Catalogue record of TLV70033DDCR',
          document_type: 'catalogue_record',
          quote: 'Output Current: 200mA',
          url: `${api.url}/v1/parts/texas-instruments/TLV70033DDCR`,
        },
      ]);
      expect(answers[1]).toMatchObject({ value: 'SOT-23-5', value_type: 'enum', status: 'answered' });
      expect(answers[2]).toMatchObject({ value_type: 'markdown', status: 'answered' });
      expect(answers[2]!.value).toContain('**Output Voltage**: 3.3V');
      expect(answers[3]).toMatchObject({ value: null, status: 'not_available', display: 'Not available', citations: [] });
      expect(answers[4]).toMatchObject({ value: null, status: 'not_available' });
    });

    it('404 for an unknown part, 422 for duplicate keys and an enum without values; an alias names the part', async () => {
      expect((await api.post('/v1/parts/texas-instruments/NOPE123/deep-dive', { deliverables: [{ question: 'x' }] }, secret)).status).toBe(404);
      const dup = await api.post(
        '/v1/parts/texas-instruments/TLV70033DDCR/deep-dive',
        {
          deliverables: [
            { key: 'a', question: 'x' },
            { key: 'a', question: 'y' },
          ],
        },
        secret,
      );
      expect(dup.status).toBe(422);
      expect(((await dup.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['body', 'deliverables', 1, 'key']);
      const en = await api.post(
        '/v1/parts/texas-instruments/TLV70033DDCR/deep-dive',
        { deliverables: [{ question: 'x', response_format: { type: 'enum' } }] },
        secret,
      );
      expect(en.status).toBe(422);
      expect((await api.post('/v1/parts/texas-instruments/TLV70033DDCR/deep-dive', { deliverables: [] }, secret)).status).toBe(422);
      const lower = await api.post('/v1/parts/texas-instruments/tlv70033ddcr/deep-dive', { deliverables: [{ question: 'package' }] }, secret);
      expect(lower.status).toBe(202);
    });
  });

  describe('listing, fetching and cancelling', () => {
    it("lists the account's jobs newest first with a cursor, filters by type and status; others' jobs are 404", async () => {
      const mine = await api.key();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const body = i % 2 ? { deliverables: [{ question: 'package' }] } : { requirements: `resistor ${i}` };
        const path = i % 2 ? '/v1/parts/texas-instruments/TLV70033DDCR/deep-dive' : '/v1/parts/discover';
        ids.push(((await (await api.post(path, body, mine.secret)).json()) as Job).job_id);
        await new Promise((res) => setTimeout(res, 5));
      }
      for (const id of ids) await waitDone(id, mine.secret);
      const page1 = (await (await api.get('/v1/jobs?limit=2', mine.secret)).json()) as { jobs: Job[]; next_cursor: string | null };
      expect(page1.jobs.map((j) => j.job_id)).toEqual([ids[4], ids[3]]);
      expect(Object.keys(page1.jobs[0]!).sort()).toEqual(['completed_at', 'created_at', 'error', 'job_id', 'progress', 'status', 'type']);
      const page2 = (await (await api.get(`/v1/jobs?limit=2&starting_after=${page1.next_cursor}`, mine.secret)).json()) as typeof page1;
      expect(page2.jobs.map((j) => j.job_id)).toEqual([ids[2], ids[1]]);
      const page3 = (await (await api.get(`/v1/jobs?limit=2&starting_after=${page2.next_cursor}`, mine.secret)).json()) as typeof page1;
      expect(page3.jobs.map((j) => j.job_id)).toEqual([ids[0]]);
      expect(page3.next_cursor).toBeNull();
      const dd = (await (await api.get('/v1/jobs?type=deep_dive&status=completed', mine.secret)).json()) as typeof page1;
      expect(dd.jobs.map((j) => j.job_id)).toEqual([ids[3], ids[1]]);
      expect(((await (await api.get('/v1/jobs?status=active', mine.secret)).json()) as typeof page1).jobs).toEqual([]);
      const badCursor = await api.get(`/v1/jobs?starting_after=job_nope`, mine.secret);
      expect(badCursor.status).toBe(422);
      expect((await api.get('/v1/jobs?status=done', mine.secret)).status).toBe(422);
      expect((await api.get('/v1/jobs?limit=101', mine.secret)).status).toBe(422);

      // Another account sees none of them.
      expect((await api.get(`/v1/jobs/${ids[0]}`, secret)).status).toBe(404);
      expect((await api.get(`/v1/jobs/${ids[0]}/stream`, secret)).status).toBe(404);
      expect((await api.post(`/v1/jobs/${ids[0]}/cancel`, {}, secret)).status).toBe(404);
      expect(((await (await api.get(`/v1/jobs?limit=100`, secret)).json()) as typeof page1).jobs.map((j) => j.job_id)).not.toContain(ids[0]);
      const unknown = await api.get('/v1/jobs/job_doesnotexist', secret);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { type: string } }).error.type).toBe('not_found');
    });

    it('cancel: a terminal job keeps its status (cancelled false); idempotent', async () => {
      const job = (await (await api.post('/v1/parts/discover', { requirements: 'LDO' }, secret)).json()) as Job;
      const done = await waitDone(job.job_id);
      expect(done.status).toBe('completed');
      const r = await api.post(`/v1/jobs/${job.job_id}/cancel`, {}, secret);
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ job_id: job.job_id, cancelled: false });
      expect((await waitDone(job.job_id)).status).toBe('completed');
    });
  });

  describe('access and billing', () => {
    it('a key without ai:run gets 403 insufficient_scope on every job route', async () => {
      const readOnly = await api.key({ capabilities: ['parts:read'] });
      const calls = [
        api.post('/v1/parts/discover', { requirements: 'x' }, readOnly.secret),
        api.post('/v1/parts/texas-instruments/TLV70033DDCR/deep-dive', { deliverables: [{ question: 'x' }] }, readOnly.secret),
        api.get('/v1/jobs', readOnly.secret),
        api.get('/v1/jobs/job_x', readOnly.secret),
        api.get('/v1/jobs/job_x/stream', readOnly.secret),
        api.post('/v1/jobs/job_x/cancel', {}, readOnly.secret),
      ];
      for (const r of await Promise.all(calls)) {
        expect(r.status).toBe(403);
        expect(((await r.json()) as { error: { type: string; message: string } }).error).toMatchObject({
          type: 'insufficient_scope',
          message: expect.stringContaining('"ai:run"'),
        });
      }
      expect((await api.get('/v1/jobs', null)).status).toBe(401);
    });

    it('creating a job is paid: 403 subscription_required without a subscription, 402 at zero balance; reading is free', async () => {
      const noSub = await api.key({ subscription: false });
      const r = await api.post('/v1/parts/discover', { requirements: 'x' }, noSub.secret);
      expect(r.status).toBe(403);
      expect(((await r.json()) as { error: { type: string } }).error.type).toBe('subscription_required');
      expect((await api.get('/v1/jobs', noSub.secret)).status).toBe(200);
      const broke = await api.key({ creditUsd: 0 });
      const r2 = await api.post('/v1/parts/discover', { requirements: 'x' }, broke.secret);
      expect(r2.status).toBe(402);
      expect(((await r2.json()) as { error: { type: string } }).error.type).toBe('insufficient_credit');
      // The local provider spends no tokens: nothing is held or charged.
      const u = (await (await api.get('/v1/usage', secret)).json()) as { usage: { ai_tokens: { units: number; amount_usd: number } } };
      expect(u.usage.ai_tokens).toEqual({ units: 0, amount_usd: 0 });
      expect(accountId).toMatch(/^acc_/);
    });
  });
});
