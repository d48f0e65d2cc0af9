/**
 * What the prompts of the LLM adapter (ai/openai.ts) share: messages, the token estimate, cutting text,
 * reading the model's JSON reply. The ranking's prompt and reply are ai/rank-prompt.ts, the deep dive's
 * ai/answer-prompt.ts.
 *
 * Pure functions, no I/O: the transport (SDK client, errors, abort) is the adapter's.
 *
 * Token budget: tokens are estimated as characters / 4 (plus a few per message); the prompt is cut
 * down until its estimate plus the answer's allowance fits `maxTokens`, and the answer cap
 * (`max_completion_tokens`) is what is left of the budget, capped. The estimate is rough for JSON
 * and non-English text; the usage the endpoint reports is what the jobs bill.
 */
import { ProviderError } from './port.ts';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** A prompt ready to send: its messages and the answer's token cap. */
export interface Prompt {
  messages: ChatMessage[];
  maxCompletionTokens: number;
  /** The prompt's estimated tokens (characters / 4 plus per-message overhead). */
  estimatedTokens: number;
}

/** Per-message framing tokens of the chat format (role markers), added to the estimate. */
export const MESSAGE_OVERHEAD_TOKENS = 8;

/** Estimated tokens of a text: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateMessages(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
}

/** `s` cut to at most `max` characters, an ellipsis marking the cut. */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 1) return s.slice(0, Math.max(0, max));
  return `${s.slice(0, max - 1)}…`;
}

export const badResponse = (message: string): ProviderError => new ProviderError('llm_bad_response', message);

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The model's reply as a JSON object. A reply wrapped in one Markdown code fence is read too (some
 * OpenAI-compatible servers ignore `response_format`). Throws llm_bad_response, naming only the
 * reply's length, never its text.
 */
export function readJsonObject(content: string, truncatedAtCap: number | null): Record<string, unknown> {
  let text = content.trim();
  const fenced = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (truncatedAtCap !== null) {
      throw badResponse(`The model's answer was cut off at the token cap (${truncatedAtCap} tokens): its JSON is incomplete.`);
    }
    throw badResponse(`The model's answer is not valid JSON (${content.length} characters).`);
  }
  if (!isObject(parsed)) throw badResponse("The model's answer is JSON but not an object.");
  return parsed;
}

/** An integer id from a number or a string of digits; null otherwise. */
export function readId(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return null;
}
