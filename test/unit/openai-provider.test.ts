/**
 * The `openai` adapter of the AI provider port (src/ai/openai.ts) against a loopback
 * OpenAI-compatible server: the request it sends, how it reads and validates the model's replies,
 * how transport failures, aborts and the token budget come out.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartRecord } from '../../src/catalog/part.ts';
import { createOpenAiProvider } from '../../src/ai/openai.ts';
import { ProviderError, type AiProvider, type Deliverable } from '../../src/ai/port.ts';
import { completion, FakeChatCompletionsServer } from '../support/llm-server.ts';
import { partRecord } from '../support/parts.ts';

// ---------------------------------------------------------------------------------------------------
// Fixtures: part records built by hand.
// ---------------------------------------------------------------------------------------------------

const API_KEY = 'sk-test-SECRET-0123456789abcdef';

function part(id: number, mpn: string, over: Partial<PartRecord> = {}): PartRecord {
  return partRecord(id, mpn, {
    slug: `acme/${mpn.toLowerCase()}`,
    manufacturer: { id: 1, name: 'Acme Semiconductors', slug: 'acme' },
    description: `LDO regulator ${mpn}`,
    category: {
      slug: 'power/ldo',
      name: 'LDO Regulators',
      path: [
        { slug: 'power', name: 'Power Management' },
        { slug: 'power/ldo', name: 'LDO Regulators' },
      ],
    },
    package: 'SOT-23-5',
    specs: [
      { name: 'Output Voltage', value: '3.3 V', num: 3.3, min: 3.3, max: 3.3, unit: 'V' },
      { name: 'Output Current', value: '300 mA', num: 0.3, min: 0.3, max: 0.3, unit: 'A' },
      { name: 'Dropout Voltage', value: '200 mV', num: 0.2, min: 0.2, max: 0.2, unit: 'V' },
    ],
    stock: 1000,
    min_price_usd: 0.12,
    ...over,
  });
}

/** Twelve candidates, each with enough specs that its line is a few hundred characters. */
const CANDIDATES: PartRecord[] = Array.from({ length: 12 }, (_, i) =>
  part(100 + i, `LDO33-${i}`, {
    specs: Array.from({ length: 12 }, (_, k) => ({
      name: `Spec ${k}`,
      value: `${k * 10 + i} units`,
      num: null,
      min: null,
      max: null,
      unit: null,
    })),
  }),
);

const DATASHEET_TEXT =
  'TLV700 200-mA low-IQ LDO. Absolute maximum ratings: input voltage VIN -0.3 V to 6 V. ' +
  'Recommended operating conditions: VIN 2 V to 5.5 V. Quiescent current 31 uA typical. ' +
  'Package options: SOT-23-5 (DBV), X2SON (DQN).';

const DEEP_PART: PartRecord = part(7, 'TLV70033DDCR', {
  long_description: '200-mA, low-IQ, low-dropout regulator with 3.3 V fixed output.',
  documents: [
    { name: 'TLV700 datasheet', type: 'datasheet', url: 'https://example.test/tlv700.pdf', text: DATASHEET_TEXT },
    { name: 'Package drawing', type: 'drawing', url: 'https://example.test/dbv.pdf', text: null },
  ],
});

const DELIVERABLES: Deliverable[] = [
  { key: 'vin_max', question: 'What is the absolute maximum input voltage?', response_format: { type: 'number', unit: 'V' } },
  { key: 'package', question: 'Which package is it?', response_format: { type: 'enum', enum_values: ['SOT-23-5', 'SOT-223'] } },
  { key: 'packages', question: 'Which packages does the family come in?', response_format: { type: 'list' } },
  { key: 'iq', question: 'Quiescent current?', response_format: { type: 'JSON' } },
  { key: 'summary', question: 'Summarise the part.', response_format: { type: 'markdown' } },
  { key: 'aec', question: 'Is it AEC-Q100 qualified?', response_format: { type: 'enum', enum_values: ['yes', 'no'] } },
];

// ---------------------------------------------------------------------------------------------------

const llm = new FakeChatCompletionsServer();
const providers: AiProvider[] = [];

function provider(over: { maxRetries?: number; timeoutMs?: number; temperature?: number | null } = {}): AiProvider {
  const p = createOpenAiProvider({ baseURL: llm.baseURL, apiKey: API_KEY, model: 'test-model', maxRetries: 0, ...over });
  providers.push(p);
  return p;
}

const signal = () => new AbortController().signal;

const rankRequest = (over: Partial<Parameters<AiProvider['rank']>[0]> = {}) => ({
  requirements: 'A 3.3 V LDO with at least 300 mA output current and low dropout, in a small package.',
  candidates: CANDIDATES.slice(0, 4),
  limit: 3,
  maxTokens: 20_000,
  signal: signal(),
  ...over,
});

/** The candidate lines of a recorded ranking request (the user message's JSON lines). */
function sentCandidateIds(body: any): number[] {
  const user: string = body.messages.find((m: any) => m.role === 'user').content;
  return user
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l).id);
}

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

beforeAll(() => llm.start());
afterEach(() => llm.reset());
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close()));
  await llm.stop();
});

describe('openai provider: the request', () => {
  it('is named after the model', () => {
    expect(provider().name).toBe('openai:test-model');
  });

  it('sends the temperature configured, or none (reasoning models refuse one)', async () => {
    llm.reply({ json: completion({ summary: 's', picks: [] }) }, { json: completion({ summary: 's', picks: [] }) });
    await provider({ temperature: 0.3 }).rank(rankRequest());
    await provider({ temperature: null }).rank(rankRequest());
    expect(llm.requests.map((r) => r.body.temperature)).toEqual([0.3, undefined]);
  });

  it('sends the model, the messages, JSON mode, temperature 0, the token cap and the bearer key', async () => {
    llm.reply({ json: completion({ summary: 's', picks: [] }) });
    await provider().rank(rankRequest());
    expect(llm.requests).toHaveLength(1);
    const [req] = llm.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req!.body.model).toBe('test-model');
    expect(req!.body.response_format).toEqual({ type: 'json_object' });
    expect(req!.body.temperature).toBe(0);
    expect(req!.body.max_completion_tokens).toBe(2000); // the cap: the budget leaves more
    expect(req!.body.max_tokens).toBeUndefined();
    expect(req!.body.messages.map((m: any) => m.role)).toEqual(['system', 'user']);
    const [system, user] = req!.body.messages.map((m: any) => m.content as string) as [string, string];
    expect(system).toContain('"picks"');
    expect(system).toContain('fit_rationale');
    expect(user).toContain('A 3.3 V LDO with at least 300 mA');
    expect(user).toContain('at most 3');
    expect(sentCandidateIds(req!.body)).toEqual([100, 101, 102, 103]);
    const line = JSON.parse(user.split('\n').find((l) => l.startsWith('{'))!);
    expect(line).toMatchObject({
      id: 100,
      mpn: 'LDO33-0',
      manufacturer: 'Acme Semiconductors',
      category: 'LDO Regulators',
      package: 'SOT-23-5',
      status: 'active',
      stock: 1000,
      min_price_usd: 0.12,
    });
    expect(line.specs).toContain('Spec 1: 10 units');
  });

  it('keeps each candidate line bounded (specs and description cut)', async () => {
    const big = part(1, 'BIG', {
      description: 'x'.repeat(5000),
      specs: Array.from({ length: 80 }, (_, k) => ({ name: `Parameter ${k}`, value: 'v'.repeat(50), num: null, min: null, max: null, unit: null })),
    });
    llm.reply({ json: completion({ summary: 's', picks: [] }) });
    await provider().rank(rankRequest({ candidates: [big] }));
    const user: string = llm.requests[0]!.body.messages[1].content;
    const line = user.split('\n').find((l) => l.startsWith('{'))!;
    expect(line.length).toBeLessThanOrEqual(600);
    expect(JSON.parse(line).id).toBe(1);
  });

  it('lists the specs the requirements name first', async () => {
    const p = part(5, 'ORDER', {
      specs: [
        { name: 'Operating Temperature', value: '-40 to 125 C', num: null, min: null, max: null, unit: null },
        { name: 'Dropout Voltage', value: '200 mV', num: 0.2, min: 0.2, max: 0.2, unit: 'V' },
      ],
    });
    llm.reply({ json: completion({ summary: 's', picks: [] }) });
    await provider().rank(rankRequest({ candidates: [p], requirements: 'lowest dropout please' }));
    const line = JSON.parse((llm.requests[0]!.body.messages[1].content as string).split('\n').find((l) => l.startsWith('{'))!);
    expect(line.specs).toBe('Dropout Voltage: 200 mV; Operating Temperature: -40 to 125 C');
  });
});

describe('openai provider: rank', () => {
  it('parses the picks, drops unknown and repeated ids, and caps them at the limit', async () => {
    llm.reply({
      json: completion({
        summary: 'LDO33-2 has the most headroom; LDO33-0 is cheaper.',
        picks: [
          { id: 102, fit_rationale: 'Dropout 200 mV at 300 mA.' },
          { id: 999, fit_rationale: 'not a candidate' },
          { id: 102, fit_rationale: 'repeated' },
          { id: '100', fit_rationale: 'Cheapest at $0.12.' },
          { fit_rationale: 'no id' },
          { id: 101, fit_rationale: 'Fine.' },
          { id: 103, fit_rationale: 'past the limit' },
        ],
      }),
    });
    const out = await provider().rank(rankRequest({ limit: 3 }));
    expect(out.picks).toEqual([
      { id: 102, fit_rationale: 'Dropout 200 mV at 300 mA.' },
      { id: 100, fit_rationale: 'Cheapest at $0.12.' },
      { id: 101, fit_rationale: 'Fine.' },
    ]);
    expect(out.summary).toBe('LDO33-2 has the most headroom; LDO33-0 is cheaper.');
  });

  it('takes the usage from the reply, 0 when it has none', async () => {
    llm.reply({ json: completion({ summary: 's', picks: [] }, { prompt_tokens: 1234, completion_tokens: 56 }) });
    expect((await provider().rank(rankRequest())).usage).toEqual({ input_tokens: 1234, output_tokens: 56 });
    llm.reply({ json: completion({ summary: 's', picks: [] }, null) });
    expect((await provider().rank(rankRequest())).usage).toEqual({ input_tokens: 0, output_tokens: 0 });
  });

  it('reads a reply wrapped in a code fence', async () => {
    llm.reply({ json: completion('```json\n{"summary": "ok", "picks": [{"id": 101, "fit_rationale": "r"}]}\n```') });
    const out = await provider().rank(rankRequest());
    expect(out.picks).toEqual([{ id: 101, fit_rationale: 'r' }]);
  });

  it('makes a reply that is not JSON llm_bad_response, without repeating it', async () => {
    const reply = 'Sure! Here are my picks: the first one is great. '.repeat(20);
    llm.reply({ json: completion(reply) });
    const err = await rejection(provider().rank(rankRequest()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.type).toBe('llm_bad_response');
    expect(err.message.length).toBeLessThan(200);
    expect(err.message).not.toContain('Sure!');
  });

  it('makes a reply without the fields llm_bad_response', async () => {
    llm.reply({ json: completion({ picks: [{ id: 100, fit_rationale: 'r' }] }) });
    expect(await rejection(provider().rank(rankRequest()))).toMatchObject({ type: 'llm_bad_response' });
    llm.reply({ json: completion({ summary: 's', results: [] }) });
    expect(await rejection(provider().rank(rankRequest()))).toMatchObject({ type: 'llm_bad_response' });
    llm.reply({ json: completion('[1, 2, 3]') });
    expect(await rejection(provider().rank(rankRequest()))).toMatchObject({ type: 'llm_bad_response' });
  });

  it('makes a reply with no choices llm_bad_response', async () => {
    llm.reply({ json: { ...completion('{}'), choices: [] } });
    expect(await rejection(provider().rank(rankRequest()))).toMatchObject({ type: 'llm_bad_response' });
  });

  it('asks nothing when there are no candidates', async () => {
    const out = await provider().rank(rankRequest({ candidates: [] }));
    expect(out.picks).toEqual([]);
    expect(out.usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(llm.requests).toHaveLength(0);
  });
});

describe('openai provider: transport failures', () => {
  it.each([
    [500, { error: { message: 'upstream exploded' } }],
    [503, { error: { message: 'overloaded' } }],
    [401, { error: { message: `Incorrect API key provided: ${API_KEY}` } }],
    [403, { error: { message: 'forbidden' } }],
    [429, { error: { message: `rate limited for key ${API_KEY}` } }],
  ])('makes HTTP %s llm_unavailable, naming the status and never the key', async (status, json) => {
    llm.reply({ status, json });
    const err = await rejection(provider().rank(rankRequest()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.type).toBe('llm_unavailable');
    expect(err.message).toContain(String(status));
    expect(err.message).not.toContain(API_KEY);
    expect(err.message).not.toContain('SECRET');
    expect(llm.requests).toHaveLength(1); // maxRetries 0
  });

  it('makes a response that is not a chat completion llm_unavailable', async () => {
    llm.reply({ raw: '<html>proxy error</html>' });
    const err = await rejection(provider().rank(rankRequest()));
    expect(err).toMatchObject({ type: 'llm_unavailable' });
    expect(err.message).not.toContain('proxy');
    llm.reply({ json: { hello: 'world' } });
    expect(await rejection(provider().rank(rankRequest()))).toMatchObject({ type: 'llm_unavailable' });
  });

  it('makes an unreachable endpoint llm_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const p = createOpenAiProvider({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY, model: 'm', maxRetries: 0 });
    const err = await rejection(p.rank(rankRequest()));
    expect(err).toMatchObject({ type: 'llm_unavailable' });
    expect(err.message).not.toContain(API_KEY);
  });

  it('makes a timeout llm_unavailable', async () => {
    llm.reply({ hang: true });
    const started = Date.now();
    const err = await rejection(provider({ timeoutMs: 200 }).rank(rankRequest()));
    expect(err).toMatchObject({ type: 'llm_unavailable' });
    expect(err.message).toMatch(/200 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('retries a 5xx when asked to', async () => {
    llm.reply({ status: 500, json: { error: { message: 'once' } } }, { json: completion({ summary: 's', picks: [{ id: 100, fit_rationale: 'r' }] }) });
    const out = await provider({ maxRetries: 1 }).rank(rankRequest());
    expect(out.picks.map((p) => p.id)).toEqual([100]);
    expect(llm.requests).toHaveLength(2);
  });

  it('rejects promptly with an abort when the signal aborts mid-request', async () => {
    llm.reply({ hang: true });
    const controller = new AbortController();
    const started = Date.now();
    const pending = provider().rank(rankRequest({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const err = await rejection(pending);
    expect(err).not.toBeInstanceOf(ProviderError);
    expect(err.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('rejects promptly when the signal aborts while the SDK waits to retry', async () => {
    llm.reply({ status: 503, json: { error: { message: 'busy' } } });
    const controller = new AbortController();
    const pending = provider({ maxRetries: 2 }).rank(rankRequest({ signal: controller.signal }));
    while (llm.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100)); // the 503 is in: the SDK sleeps before its retry
    const started = Date.now();
    controller.abort();
    const err = await rejection(pending);
    expect(err.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(200); // the SDK's first back-off is 375 ms or more
    expect(llm.requests).toHaveLength(1);
  });

  it('rethrows the abort reason the caller gave, and sends nothing when already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('job cancelled');
    controller.abort(reason);
    const err = await rejection(provider().rank(rankRequest({ signal: controller.signal })));
    expect(err).toBe(reason);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('openai provider: token budget', () => {
  it('drops candidates from the end to fit the budget, and caps the answer at what is left', async () => {
    llm.reply({ json: completion({ summary: 's', picks: [] }) }, { json: completion({ summary: 's', picks: [] }) });
    await provider().rank(rankRequest({ candidates: CANDIDATES, maxTokens: 50_000 }));
    await provider().rank(rankRequest({ candidates: CANDIDATES, maxTokens: 1400 }));
    const all = sentCandidateIds(llm.requests[0]!.body);
    const some = sentCandidateIds(llm.requests[1]!.body);
    expect(all).toEqual(CANDIDATES.map((c) => c.id));
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
    expect(some).toEqual(all.slice(0, some.length)); // a prefix: the best-retrieved kept
    const body = llm.requests[1]!.body;
    const promptChars = body.messages.reduce((n: number, m: any) => n + m.content.length, 0);
    expect(Math.ceil(promptChars / 4) + body.max_completion_tokens).toBeLessThanOrEqual(1400);
  });

  it('ignores picks of candidates that were trimmed away', async () => {
    llm.reply({
      json: completion({
        summary: 's',
        picks: [
          { id: 111, fit_rationale: 'trimmed' },
          { id: 100, fit_rationale: 'kept' },
        ],
      }),
    });
    const out = await provider().rank(rankRequest({ candidates: CANDIDATES, maxTokens: 1400 }));
    expect(out.picks).toEqual([{ id: 100, fit_rationale: 'kept' }]);
  });

  it('throws token_budget_exceeded when not even one candidate fits, without calling the endpoint', async () => {
    const err = await rejection(provider().rank(rankRequest({ maxTokens: 300 })));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.type).toBe('token_budget_exceeded');
    expect(llm.requests).toHaveLength(0);
  });

  it('cuts document text first in a deep dive, and throws when the record does not fit', async () => {
    const longDoc = part(8, 'LONGDOC', {
      documents: [{ name: 'Datasheet', type: 'datasheet', url: 'https://example.test/d.pdf', text: 'Lorem ipsum dolor sit amet. '.repeat(1000) }],
    });
    const ask = (maxTokens: number) => provider().answer({ part: longDoc, deliverables: DELIVERABLES.slice(0, 1), context: null, maxTokens, signal: signal() });
    llm.reply({ json: completion({ answers: [] }) }, { json: completion({ answers: [] }) });
    await ask(50_000);
    await ask(1700);
    const userOf = (i: number): string => llm.requests[i]!.body.messages[1].content;
    expect(userOf(0)).toContain('Lorem ipsum');
    expect(userOf(0).length).toBeLessThan(6000); // at most ~4000 characters of the text
    expect(userOf(1).length).toBeLessThan(userOf(0).length);
    expect(userOf(1)).toContain('[0] Datasheet (datasheet)');
    const body = llm.requests[1]!.body;
    const promptChars = body.messages.reduce((n: number, m: any) => n + m.content.length, 0);
    expect(Math.ceil(promptChars / 4) + body.max_completion_tokens).toBeLessThanOrEqual(1700);
    expect(await rejection(ask(400))).toMatchObject({ type: 'token_budget_exceeded' });
    expect(llm.requests).toHaveLength(2);
  });
});

describe('openai provider: answer (deep dive)', () => {
  const ask = (over: Partial<Parameters<AiProvider['answer']>[0]> = {}) =>
    provider().answer({ part: DEEP_PART, deliverables: DELIVERABLES, context: { supply: '5 V rail' }, maxTokens: 20_000, signal: signal(), ...over });

  it('sends the part, its specs, its documents with their index and text, the context and the questions', async () => {
    llm.reply({ json: completion({ answers: [] }) });
    await ask();
    const body = llm.requests[0]!.body;
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.max_completion_tokens).toBe(2400); // 400 per question, the budget leaving more
    const [system, user] = body.messages.map((m: any) => m.content as string) as [string, string];
    expect(system).toContain('"answers"');
    expect(system).toContain('not_available');
    expect(user).toContain('"mpn":"TLV70033DDCR"');
    expect(user).toContain('Power Management > LDO Regulators');
    expect(user).toContain('- Output Voltage: 3.3 V');
    expect(user).toContain('[0] TLV700 datasheet (datasheet)');
    expect(user).toContain('Absolute maximum ratings: input voltage VIN -0.3 V to 6 V.');
    expect(user).toContain('[1] Package drawing (drawing)\n(no text available)');
    expect(user).toContain('"supply":"5 V rail"');
    expect(user).toContain('{"key":"vin_max","question":"What is the absolute maximum input voltage?","format":"number","unit":"V"}');
    expect(user).toContain('"enum_values":["SOT-23-5","SOT-223"]');
  });

  it('returns one answer per deliverable in request order, values shaped, a missing one as error', async () => {
    llm.reply({
      json: completion(
        {
          answers: [
            // Out of order on purpose; `summary` is missing.
            { key: 'package', status: 'answered', value: 'sot-23-5', explanation: 'DBV package.', sources: [{ document: 0, quote: 'SOT-23-5 (DBV)' }] },
            {
              key: 'vin_max',
              status: 'answered',
              value: '6',
              explanation: 'Absolute maximum VIN.',
              sources: [
                { document: 0, quote: 'input voltage VIN -0.3 V to 6 V' },
                { document: 5, quote: 'out of range' },
                { document: null, quote: 'Output Voltage: 3.3 V' },
                { document: 0 },
              ],
            },
            { key: 'packages', status: 'answered', value: ['SOT-23-5', 'X2SON'], explanation: 'Package options.', sources: [] },
            { key: 'iq', status: 'answered', value: { typ_ua: 31 }, explanation: 'Typical.', sources: [] },
            { key: 'aec', status: 'answered', value: 'maybe', explanation: 'Not stated.', sources: [] },
            { key: 'unasked', status: 'answered', value: 'x', explanation: '', sources: [] },
          ],
        },
        { prompt_tokens: 900, completion_tokens: 300 },
      ),
    });
    const out = await ask();
    expect(out.usage).toEqual({ input_tokens: 900, output_tokens: 300 });
    expect(out.answers.map((a) => a.key)).toEqual(DELIVERABLES.map((d) => d.key));
    const [vin, pkg, pkgs, iq, summary, aec] = out.answers;
    expect(vin).toEqual({
      key: 'vin_max',
      status: 'answered',
      value: 6,
      explanation: 'Absolute maximum VIN.',
      sources: [
        { document: 0, quote: 'input voltage VIN -0.3 V to 6 V' },
        { document: null, quote: 'Output Voltage: 3.3 V' },
      ],
    });
    expect(pkg).toMatchObject({ status: 'answered', value: 'SOT-23-5' }); // canonical spelling
    expect(pkgs).toMatchObject({ status: 'answered', value: ['SOT-23-5', 'X2SON'] });
    expect(iq).toMatchObject({ status: 'answered', value: { typ_ua: 31 } });
    expect(summary).toEqual({ key: 'summary', status: 'error', value: null, explanation: 'The model gave no answer for this question.', sources: [] });
    expect(aec).toMatchObject({ key: 'aec', status: 'not_available', value: null });
    expect(aec!.explanation).toContain('not one of the allowed values');
  });

  it('makes values that cannot take their format not_available, and keeps not_available answers', async () => {
    llm.reply({
      json: completion({
        answers: [
          { key: 'vin_max', status: 'answered', value: '6 V max', explanation: '', sources: [] },
          { key: 'package', status: 'not_available', value: 'SOT-23-5', explanation: 'Not in the record.', sources: [] },
          { key: 'packages', status: 'answered', value: 42, explanation: '', sources: [] },
          { key: 'iq', status: 'answered', value: 'not json', explanation: '', sources: [] },
          { key: 'summary', status: 'answered', value: '**LDO**, 200 mA.', explanation: '', sources: [] },
          { key: 'aec', status: 'answered', value: null, explanation: 'Not stated.', sources: [] },
        ],
      }),
    });
    const out = await ask();
    expect(out.answers.map((a) => [a.key, a.status, a.value])).toEqual([
      ['vin_max', 'not_available', null],
      ['package', 'not_available', null],
      ['packages', 'not_available', null],
      ['iq', 'not_available', null],
      ['summary', 'answered', '**LDO**, 200 mA.'],
      ['aec', 'not_available', null],
    ]);
    expect(out.answers[1]!.explanation).toBe('Not in the record.');
  });

  it('makes a reply without an answers array llm_bad_response', async () => {
    llm.reply({ json: completion({ vin_max: 6 }) });
    expect(await rejection(ask())).toMatchObject({ type: 'llm_bad_response' });
  });

  it('makes an answer cut off at the token cap llm_bad_response saying so', async () => {
    const cut = completion('{"answers": [{"key": "vin_max", "status": "answ');
    cut.choices[0]!.finish_reason = 'length';
    llm.reply({ json: cut });
    const err = await rejection(ask());
    expect(err).toMatchObject({ type: 'llm_bad_response' });
    expect(err.message).toContain('token cap');
  });

  it('makes HTTP 401 llm_unavailable without the key', async () => {
    llm.reply({ status: 401, json: { error: { message: `bad key ${API_KEY}` } } });
    const err = await rejection(ask());
    expect(err).toMatchObject({ type: 'llm_unavailable' });
    expect(err.message).toContain('401');
    expect(err.message).not.toContain(API_KEY);
  });
});
