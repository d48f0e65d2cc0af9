/**
 * The AI provider port: the two pieces of judgment the jobs need (SPEC.md DiscoverResult,
 * DeepDiveResult). Discovery retrieves candidates with the search engine and asks the provider to
 * rank them against the requirements; a deep dive hands the provider one part record and the
 * questions. Adapters: `local` (the default, no LLM, no key: rules over the catalogue's own fields,
 * zero tokens) and `openai` (any OpenAI-compatible chat-completions endpoint, through the openai SDK).
 *
 * Providers see part records and return ids and text; shaping the public answer (PartDetail, citation
 * URLs, value rendering) is the jobs' work (jobs/lifecycle.ts: runDiscover, runDeepDive).
 */
import type { PartRecord } from '../catalog/part.ts';

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

export const RESPONSE_FORMAT_TYPES = ['text', 'number', 'enum', 'list', 'JSON', 'markdown'] as const;
export type ResponseFormatType = (typeof RESPONSE_FORMAT_TYPES)[number];

export interface ResponseFormat {
  type: ResponseFormatType;
  unit?: string;
  hint?: string;
  enum_values?: string[];
}

export interface Deliverable {
  key: string;
  question: string;
  response_format: ResponseFormat;
}

export interface RankRequest {
  requirements: string;
  /** Candidates in retrieval order, best first. */
  candidates: readonly PartRecord[];
  /** Picks wanted (at most). */
  limit: number;
  /** Most tokens the call may use (prompt and answer). */
  maxTokens: number;
  signal: AbortSignal;
}

export interface RankAnswer {
  /** Best first; ids of candidates, each at most once. */
  picks: { id: number; fit_rationale: string }[];
  summary: string;
  usage: TokenUsage;
}

export interface AnswerRequest {
  part: PartRecord;
  deliverables: readonly Deliverable[];
  context: Record<string, unknown> | null;
  maxTokens: number;
  signal: AbortSignal;
}

/** Where an answer comes from in the record: a spec, a field, or a passage of one of its documents. */
export interface Source {
  /** Index into the part's `documents` when the passage is from a document; null for the record's own fields. */
  document: number | null;
  quote: string;
}

export interface ProviderAnswer {
  key: string;
  status: 'answered' | 'not_available' | 'error';
  /** The value in the requested format (number: in the requested unit when one was given). */
  value: unknown;
  explanation: string;
  sources: Source[];
}

export interface DeepDiveAnswer {
  /** One per deliverable, in request order. */
  answers: ProviderAnswer[];
  usage: TokenUsage;
}

export interface AiProvider {
  /** "local", or "openai:<model>". */
  readonly name: string;
  /** Spends no tokens (the local provider): its jobs hold no credit. */
  readonly free?: boolean;
  rank(req: RankRequest): Promise<RankAnswer>;
  answer(req: AnswerRequest): Promise<DeepDiveAnswer>;
  close(): Promise<void>;
}

/** A provider's failure the job reports as its error (type, message); anything else is `internal_error`. */
export class ProviderError extends Error {
  constructor(
    readonly type: 'llm_unavailable' | 'llm_bad_response' | 'token_budget_exceeded',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
