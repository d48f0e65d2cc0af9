/**
 * AI jobs billed by tokens: the real HTTP server, SQLite engine, accounts and job store, with the
 * `openai` provider talking to a loopback OpenAI-compatible server (test/support/llm-server.ts: a
 * stand-in for the chat-completions wire protocol only, scripted per test). Creation holds the price of
 * the token budget; the end settles it: the tokens used are paid, a failed job pays nothing, a cancelled
 * one what it spent; concurrent creations never overdraw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../src/ai/openai.ts';
import { completion, FakeChatCompletionsServer } from '../support/llm-server.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { ended, until } from '../support/wait.ts';

const llm = new FakeChatCompletionsServer();
let api: TestApi;

beforeAll(async () => {
  await llm.start();
  // Default prices: ai_tokens 0.01 USD per 1,000; the test API's budget is 20,000 tokens (0.20 USD).
  api = await startTestApi({}, 'sqlite', undefined, {
    provider: createOpenAiProvider({ baseURL: llm.baseURL, apiKey: 'sk-loopback', model: 'test-model', maxRetries: 0 }),
  });
});
afterAll(async () => {
  await api?.close();
  await llm.stop();
});

interface Usage {
  usage: { ai_tokens: { units: number; amount_usd: number } };
  balance_usd: number;
}
const usage = async (secret: string) => (await (await api.get('/v1/usage', secret)).json()) as Usage;
const jobOf = async (secret: string, id: string) => (await (await api.get(`/v1/jobs/${id}`, secret)).json()) as Record<string, any>;

/** The candidate ids a rank prompt carries ({"id":N,...} lines). */
const idsIn = (body: any): number[] => [...String(body.messages.at(-1).content).matchAll(/"id":(\d+)/g)].map((m) => Number(m[1]));

describe('jobs billed by AI tokens', () => {
  it('holds the budget at creation, then pays exactly the tokens the job used', async () => {
    const { secret } = await api.key({ creditUsd: 5 });
    llm.reply({
      from: (body) => ({
        json: completion(
          {
            summary: 'Two fits.',
            picks: idsIn(body)
              .slice(0, 2)
              .map((id) => ({ id, fit_rationale: `fits ${id}` })),
          },
          { prompt_tokens: 1200, completion_tokens: 300 },
        ),
      }),
    });
    const r = await api.post('/v1/parts/discover', { requirements: '10k 0603 resistor', limit: 2 }, secret);
    expect(r.status).toBe(202);
    const id = ((await r.json()) as { job_id: string }).job_id;
    const done = await until(() => jobOf(secret, id), ended);
    expect(done.status).toBe('completed');
    expect(done.usage).toEqual({ input_tokens: 1200, output_tokens: 300, total_tokens: 1500 });
    expect(done.result.summary).toBe('Two fits.');
    expect(done.result.results).toHaveLength(2);
    // The request the provider sent: the requirements and the candidates found by the engine.
    expect(llm.requests.at(-1)!.headers.authorization).toBe('Bearer sk-loopback');
    const u = await until(
      () => usage(secret),
      (x) => x.usage.ai_tokens.units === 1500,
    );
    expect(u.usage.ai_tokens).toEqual({ units: 1500, amount_usd: 0.015 });
    expect(u.balance_usd).toBe(4.985);
  });

  it('a failed job pays nothing; its error is the provider failure', async () => {
    const { secret } = await api.key({ creditUsd: 1 });
    llm.reply({ json: completion('Sure! Here are some parts I like.') });
    const id = ((await (await api.post('/v1/parts/discover', { requirements: 'op amp' }, secret)).json()) as { job_id: string }).job_id;
    const done = await until(() => jobOf(secret, id), ended);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ type: 'llm_bad_response' });
    expect(done.result).toBeNull();
    const u = await until(
      () => usage(secret),
      (x) => x.balance_usd === 1,
    );
    expect(u.usage.ai_tokens).toEqual({ units: 0, amount_usd: 0 });
  });

  it('shows the hold while the job runs; a cancel stops it and gives the hold back', async () => {
    const { secret } = await api.key({ creditUsd: 1 });
    llm.reply({ hang: true });
    const id = ((await (await api.post('/v1/parts/discover', { requirements: 'LDO 3.3V' }, secret)).json()) as { job_id: string }).job_id;
    await until(
      () => jobOf(secret, id),
      (j) => j.status === 'running',
    );
    const held = await usage(secret);
    expect(held.usage.ai_tokens).toEqual({ units: 20_000, amount_usd: 0.2 });
    expect(held.balance_usd).toBe(0.8);
    expect(await (await api.post(`/v1/jobs/${id}/cancel`, {}, secret)).json()).toMatchObject({ job_id: id, cancelled: true });
    const done = await until(() => jobOf(secret, id), ended);
    expect(done.status).toBe('cancelled');
    // The provider call was cut short: no tokens are known to have been spent.
    expect(
      (
        await until(
          () => jobOf(secret, id),
          (j) => j.usage !== null,
        )
      ).usage,
    ).toEqual({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    const u = await until(
      () => usage(secret),
      (x) => x.balance_usd === 1,
    );
    expect(u.usage.ai_tokens).toEqual({ units: 0, amount_usd: 0 });
    // The stream of a cancelled job ends with its status.
    const text = await (await api.get(`/v1/jobs/${id}/stream`, secret)).text();
    expect(text.trim().split('\n').slice(-2)).toEqual(['event: status', 'data: {"status":"cancelled"}']);
    llm.reset();
  });

  it('402 when the credit cannot cover the budget; parallel creations never hold more than the balance', async () => {
    const poor = await api.key({ creditUsd: 0.1 });
    const r = await api.post('/v1/parts/discover', { requirements: 'x' }, poor.secret);
    expect(r.status).toBe(402);
    expect(((await r.json()) as { error: { type: string; message: string } }).error).toMatchObject({
      type: 'insufficient_credit',
      message: expect.stringContaining('token budget (20000 tokens, 0.200000 USD held until the job ends)'),
    });

    const { secret } = await api.key({ creditUsd: 0.5 });
    llm.reply({ hang: true }, { hang: true });
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () =>
        api
          .post('/v1/parts/discover', { requirements: 'capacitor' }, secret)
          .then(async (x) => ({ status: x.status, body: (await x.json()) as { job_id?: string } })),
      ),
    );
    expect(statuses.filter((x) => x.status === 202)).toHaveLength(2);
    expect(statuses.filter((x) => x.status === 402)).toHaveLength(4);
    expect((await usage(secret)).balance_usd).toBeCloseTo(0.1, 9);
    for (const x of statuses) if (x.body.job_id) await api.post(`/v1/jobs/${x.body.job_id}/cancel`, {}, secret);
    await until(
      () => usage(secret),
      (x) => x.balance_usd === 0.5,
    );
    llm.reset();
  });
});
