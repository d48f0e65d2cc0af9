/**
 * The `openai` adapter of the AI provider port (ai/port.ts): any OpenAI-compatible chat-completions
 * endpoint (OpenAI, Azure-style gateways, vLLM, llama.cpp server, Ollama, LiteLLM...) through the
 * openai SDK. Prompts and reply validation are ai/prompts.ts; this file is the transport: one
 * `chat.completions.create` per call, JSON mode, temperature 0 (configurable), the request's AbortSignal, and the
 * SDK's failures turned into ProviderErrors.
 *
 * Token cap: the request sets `max_completion_tokens`, not `max_tokens`. OpenAI deprecated
 * `max_tokens` for chat completions and its reasoning models reject it, while the common compatible
 * servers (vLLM, llama.cpp server, Ollama, LiteLLM) accept `max_completion_tokens`; a server that
 * ignores it answers uncapped, which the reported usage still bills exactly. One parameter, no
 * second request on a 400, keeps a failing call to one round trip.
 *
 * Errors: the API key never appears in a message (auth failures name only the status; other server
 * messages are cut short and have the key masked). An abort of the request's signal rethrows the
 * signal's reason (by default a DOMException named AbortError), never a ProviderError.
 */
import OpenAI from 'openai';
import { buildAnswerPrompt, parseAnswerReply } from './answer-prompt.ts';
import { readJsonObject, truncate, type ChatMessage } from './prompts.ts';
import { buildRankPrompt, parseRankReply } from './rank-prompt.ts';
import { ProviderError, type AiProvider, type AnswerRequest, type DeepDiveAnswer, type RankAnswer, type RankRequest, type TokenUsage } from './port.ts';

export interface OpenAiProviderOptions {
  /** The endpoint's base URL, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** Sent as `Authorization: Bearer <key>`; an empty key sends a placeholder (keyless local servers). */
  apiKey: string;
  model: string;
  /** Per attempt (the SDK's `timeout`); default 120 s. */
  timeoutMs?: number;
  /** Retries of connection errors, 408, 409, 429 and 5xx (the SDK's `maxRetries`); default 2. */
  maxRetries?: number;
  /** Sampling temperature; default 0 (repeatable rankings). null sends none: reasoning models refuse one. */
  temperature?: number | null;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_RETRIES = 2;
/** Most characters of a server's error message repeated in ours. */
const SERVER_MESSAGE_CHARS = 200;

const ZERO_USAGE: TokenUsage = { input_tokens: 0, output_tokens: 0 };

/** What one chat completion gave: the text and what it cost. */
interface Completion {
  content: string;
  /** The cap, when the answer stopped on it (finish_reason `length`); else null. */
  truncatedAtCap: number | null;
  usage: TokenUsage;
}

/** The signal's abort as an error: its reason when that is an Error, else an Error named AbortError. */
function abortError(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  const err = new Error('The request was aborted.');
  err.name = 'AbortError';
  return err;
}

const tokens = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0);

export function createOpenAiProvider(opts: OpenAiProviderOptions): AiProvider {
  const temperature = opts.temperature === undefined ? 0 : opts.temperature;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = new OpenAI({
    baseURL: opts.baseURL,
    apiKey: opts.apiKey || 'none',
    // Everything comes from the options: no organisation, project or admin key read from the environment.
    organization: null,
    project: null,
    adminAPIKey: null,
    timeout: timeoutMs,
    maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
    logLevel: 'off',
  });

  /** A server's message, cut short, the API key masked. */
  const serverText = (text: string): string => {
    const masked = opts.apiKey ? text.split(opts.apiKey).join('[key]') : text;
    return truncate(masked.replace(/\s+/g, ' ').trim(), SERVER_MESSAGE_CHARS);
  };

  /** The SDK's failure (not an abort of ours) as llm_unavailable. */
  const unavailable = (err: unknown): ProviderError => {
    const say = (message: string): ProviderError => new ProviderError('llm_unavailable', message);
    if (err instanceof OpenAI.APIConnectionTimeoutError) return say(`The LLM endpoint did not answer within ${timeoutMs} ms.`);
    if (err instanceof OpenAI.APIConnectionError) {
      const cause = (err as { cause?: unknown }).cause;
      const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code ?? (cause as { code?: unknown } | undefined)?.code;
      return say(`The LLM endpoint could not be reached${typeof code === 'string' ? ` (${code})` : ''}.`);
    }
    if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
      const status = err.status;
      if (status === 401) return say('The LLM endpoint refused the API key (HTTP 401).');
      if (status === 403) return say('The LLM endpoint denied access to the model (HTTP 403).');
      // The SDK's message is "<status> <server message>".
      const detail = serverText(err.message.replace(/^\d{3}\s*/, '')).replace(/\.$/, '');
      const what =
        status === 429
          ? 'The LLM endpoint is rate limiting'
          : status >= 500
            ? 'The LLM endpoint failed'
            : status === 404
              ? 'The LLM endpoint or model was not found'
              : 'The LLM endpoint rejected the request';
      return say(`${what} (HTTP ${status})${detail && detail !== 'status code (no body)' ? `: ${detail}` : ''}.`);
    }
    if (err instanceof SyntaxError) return say("The LLM endpoint's response is not JSON.");
    // Anything else is this side's failure, whose text may name internals (the base URL and its
    // credentials): the job says no more than its kind; the worker logs it (jobs/runner.ts).
    const name = err instanceof Error ? err.name : typeof err;
    return say(`The LLM request failed (${name}).`);
  };

  async function complete(messages: ChatMessage[], maxCompletionTokens: number, signal: AbortSignal): Promise<Completion> {
    if (signal.aborted) throw abortError(signal);
    // The SDK aborts its fetch on the signal but not its back-off sleep between retries: the race
    // makes an abort prompt in either case.
    let onAbort = (): void => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await Promise.race([
        client.chat.completions.create(
          {
            model: opts.model,
            messages,
            response_format: { type: 'json_object' },
            ...(temperature === null ? {} : { temperature }),
            max_completion_tokens: maxCompletionTokens,
          },
          { signal },
        ),
        aborted,
      ]);
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      throw unavailable(err);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (typeof completion !== 'object' || completion === null || !Array.isArray(completion.choices)) {
      throw new ProviderError('llm_unavailable', "The LLM endpoint's response is not a chat completion (is the base URL right?).");
    }
    const usage: TokenUsage = { input_tokens: tokens(completion.usage?.prompt_tokens), output_tokens: tokens(completion.usage?.completion_tokens) };
    const choice = completion.choices[0];
    if (!choice || typeof choice.message !== 'object' || choice.message === null) {
      throw new ProviderError('llm_bad_response', 'The model returned no answer (no choices).');
    }
    const truncatedAtCap = choice.finish_reason === 'length' ? maxCompletionTokens : null;
    const { content, refusal } = choice.message;
    if (typeof refusal === 'string' && refusal) throw new ProviderError('llm_bad_response', `The model refused: ${truncate(refusal, SERVER_MESSAGE_CHARS)}`);
    if (typeof content !== 'string' || content.trim() === '') {
      throw new ProviderError(
        'llm_bad_response',
        truncatedAtCap !== null
          ? `The model's answer was cut off at the token cap (${truncatedAtCap} tokens) before any content.`
          : 'The model returned an empty answer.',
      );
    }
    return { content, truncatedAtCap, usage };
  }

  return {
    name: `openai:${opts.model}`,

    async rank(req: RankRequest): Promise<RankAnswer> {
      if (req.signal.aborted) throw abortError(req.signal);
      if (req.candidates.length === 0 || req.limit <= 0) return { picks: [], summary: 'No candidates to rank.', usage: { ...ZERO_USAGE } };
      const prompt = buildRankPrompt(req);
      const reply = await complete(prompt.messages, prompt.maxCompletionTokens, req.signal);
      const parsed = parseRankReply(readJsonObject(reply.content, reply.truncatedAtCap), new Set(prompt.sent.map((p) => p.id)), req.limit);
      return { ...parsed, usage: reply.usage };
    },

    async answer(req: AnswerRequest): Promise<DeepDiveAnswer> {
      if (req.signal.aborted) throw abortError(req.signal);
      if (req.deliverables.length === 0) return { answers: [], usage: { ...ZERO_USAGE } };
      const prompt = buildAnswerPrompt(req);
      const reply = await complete(prompt.messages, prompt.maxCompletionTokens, req.signal);
      const answers = parseAnswerReply(readJsonObject(reply.content, reply.truncatedAtCap), req.deliverables, req.part.documents.length);
      return { answers, usage: reply.usage };
    },

    async close(): Promise<void> {
      // The SDK keeps no connections of its own (global fetch's pool is shared): nothing to release.
    },
  };
}
