/**
 * Issue 32, job streams and links: a stream opened on a queued job answers its headers and a comment at
 * once (no event: creating a job emits none); absolute URLs never come from the client's Host header.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../src/jobs/runner.ts';
import { workerDeps } from '../../src/composition.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { parseSse } from '../support/sse.ts';
import { ended, until } from '../support/wait.ts';

/** A request with the Host header the client chooses (fetch does not let it be set). */
function requestWithHost(url: string, host: string, method: string, secret: string, body?: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        headers: {
          Host: host,
          Authorization: `Bearer ${secret}`,
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the stream of a queued job', () => {
  let api: TestApi;
  let secret: string;
  beforeAll(async () => {
    api = await startTestApi({}, 'sqlite', undefined, { workers: 0 });
    secret = (await api.key()).secret;
  });
  afterAll(async () => api?.close());

  it('answers its headers and a comment at once, then the events once a worker runs the job', async () => {
    const created = await api.post('/v1/parts/discover', { requirements: '10k 0603 resistor', limit: 1 }, secret);
    const job = (await created.json()) as { job_id: string; stream_url: string };
    const started = Date.now();
    const res = await fetch(job.stream_url, { headers: { Authorization: `Bearer ${secret}` }, signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    // At once (it was the first keep-alive, 15 s later); room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(5_000);
    // A comment, which no EventSource shows as an event: creating a job emits none (SPEC.md Events, rule 4).
    expect(first).toBe(`: job ${job.job_id} is queued\n\n`);
    // A worker starts: the events follow on the same stream, numbered from 1.
    const runner = startRunner(workerDeps(api.services), { concurrency: 1 });
    try {
      let text = first;
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
      const frames = parseSse(text);
      expect(frames[0]).toEqual({ id: 1, event: 'status', data: { status: 'running' } });
      expect(frames.at(-1)!.event).toBe('result');
    } finally {
      await runner.stop();
    }
  });
});

describe('absolute URLs', () => {
  let api: TestApi;
  let secret: string;
  beforeAll(async () => {
    api = await startTestApi();
    secret = (await api.key()).secret;
  });
  afterAll(async () => api?.close());

  it('take the address the connection reached, not the Host header, when PUBLIC_BASE_URL is unset', async () => {
    const created = await requestWithHost(`${api.url}/v1/parts/texas-instruments/LM358D/deep-dive`, 'evil.example:666', 'POST', secret, {
      deliverables: [{ question: 'Supply voltage range' }],
    });
    expect(created.status).toBe(202);
    expect(created.json.stream_url).toBe(`${api.url}/v1/jobs/${created.json.job_id}/stream`);
    const polled = await requestWithHost(`${api.url}/v1/jobs/${created.json.job_id}`, 'evil.example', 'GET', secret);
    expect(polled.json.stream_url).toBe(created.json.stream_url);
    const done = await until(async () => (await (await api.get(`/v1/jobs/${created.json.job_id}`, secret)).json()) as any, ended);
    const urls = (done.result.answers as { citations: { url: string }[] }[]).flatMap((a) => a.citations.map((c) => c.url));
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u.startsWith(`${api.url}/`), u).toBe(true);
  });

  it('take PUBLIC_BASE_URL when set', async () => {
    const behind = await startTestApi({ PUBLIC_BASE_URL: 'https://parts.example.com/api/' });
    try {
      const key = (await behind.key()).secret;
      const created = await requestWithHost(`${behind.url}/v1/parts/discover`, 'evil.example', 'POST', key, { requirements: 'ldo' });
      expect(created.json.stream_url).toBe(`https://parts.example.com/api/v1/jobs/${created.json.job_id}/stream`);
    } finally {
      await behind.close();
    }
  });
});
