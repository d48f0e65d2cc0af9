/** The discovery ranking's prompt (candidates within the token budget) and the reading of its reply. */
import type { PartRecord } from '../catalog/part.ts';
import { ProviderError } from './port.ts';
import {
  badResponse,
  estimateMessages,
  estimateTokens,
  isObject,
  MESSAGE_OVERHEAD_TOKENS,
  readId,
  truncate,
  type ChatMessage,
  type Prompt,
} from './prompts.ts';

/** Answer cap of a ranking (summary plus at most 10 rationales fit well within it). */
export const RANK_ANSWER_CAP = 2000;
/** Most characters of one candidate's line. */
export const CANDIDATE_MAX_CHARS = 600;
/** Most specs of one candidate's line. */
export const CANDIDATE_MAX_SPECS = 25;
const CANDIDATE_DESCRIPTION_CHARS = 200;
const CANDIDATE_NAME_CHARS = 80;
const SPEC_NAME_CHARS = 60;
const SPEC_VALUE_CHARS = 80;

/** The least answer a ranking of `picks` picks needs: a summary and a rationale per pick. */
export function rankAnswerAllowance(picks: number): number {
  return 150 + 80 * picks;
}

export const RANK_SYSTEM_PROMPT = [
  'You rank electronic components for an engineer.',
  "You get the engineer's requirements and candidate parts from a catalogue search. Hard constraints were already applied to the candidates:",
  'judge how well each one meets the requirements and their trade-offs (specs, package, lifecycle status, stock, price).',
  'Use only the data given; do not invent specs or values.',
  '',
  'Reply with one JSON object and nothing else:',
  '{"summary": string, "picks": [{"id": number, "fit_rationale": string}]}',
  '- picks: best first, at most the number of picks asked for. Each id is the id of a candidate given, at most once.',
  '  Leave a candidate out only when it clearly does not meet the requirements.',
  '- fit_rationale: one or two sentences citing the specs (with their values) that decide the fit.',
  '- summary: two to four sentences comparing the picks and their trade-offs.',
].join('\n');

/** Words of a text that may name a spec (lower case, three letters or more). */
function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3),
  );
}

/** The part's specs, those whose names share a word with the requirements first (stable otherwise). */
function specsByRelevance(part: PartRecord, wanted: Set<string>): PartRecord['specs'] {
  if (wanted.size === 0) return part.specs;
  const hit = (name: string): boolean => [...words(name)].some((w) => wanted.has(w));
  const first = part.specs.filter((s) => hit(s.name));
  const rest = part.specs.filter((s) => !hit(s.name));
  return [...first, ...rest];
}

/** One candidate as one compact JSON line of at most CANDIDATE_MAX_CHARS characters. */
export function candidateLine(part: PartRecord, wanted: Set<string> = new Set()): string {
  const specs = specsByRelevance(part, wanted)
    .slice(0, CANDIDATE_MAX_SPECS)
    .map((s) => `${truncate(s.name, SPEC_NAME_CHARS)}: ${truncate(s.value, SPEC_VALUE_CHARS)}`);
  const line = (description: string, specCount: number): string =>
    JSON.stringify({
      id: part.id,
      mpn: truncate(part.mpn, CANDIDATE_NAME_CHARS),
      manufacturer: truncate(part.manufacturer.name, CANDIDATE_NAME_CHARS),
      category: part.category ? truncate(part.category.name, CANDIDATE_NAME_CHARS) : null,
      package: part.package === null ? null : truncate(part.package, 40),
      status: part.status,
      stock: part.stock,
      min_price_usd: part.min_price_usd,
      description,
      specs: specs.slice(0, specCount).join('; '),
    });
  let description = truncate(part.description, CANDIDATE_DESCRIPTION_CHARS);
  let count = specs.length;
  let out = line(description, count);
  while (out.length > CANDIDATE_MAX_CHARS && count > 0) out = line(description, --count);
  if (out.length > CANDIDATE_MAX_CHARS) {
    description = truncate(description, Math.max(0, description.length - (out.length - CANDIDATE_MAX_CHARS) - 1));
    out = line(description, 0);
  }
  return out;
}

function rankUserMessage(requirements: string, limit: number, lines: readonly string[]): string {
  return [
    'Requirements:',
    requirements.trim(),
    '',
    `Picks wanted: at most ${limit}.`,
    '',
    `Candidates (${lines.length}, in retrieval order, one JSON object per line; min_price_usd is the lowest unit price in USD, null when unknown):`,
    ...lines,
  ].join('\n');
}

export interface RankPrompt extends Prompt {
  /** The candidates the prompt holds (a prefix of the request's): the only ids a pick may name. */
  sent: readonly PartRecord[];
}

/**
 * The ranking prompt: candidates kept from the first until the next would not fit the budget.
 * Throws ProviderError token_budget_exceeded when not even the first fits. `candidates` is non-empty.
 */
export function buildRankPrompt(req: { requirements: string; candidates: readonly PartRecord[]; limit: number; maxTokens: number }): RankPrompt {
  const wanted = words(req.requirements);
  const lines = req.candidates.map((p) => candidateLine(p, wanted));
  const allowance = rankAnswerAllowance(Math.min(req.limit, req.candidates.length));
  // The estimate with the first k lines: the system message, the user message's frame and the lines
  // (each with its newline; 8 characters spare for the count in the header).
  const system = estimateTokens(RANK_SYSTEM_PROMPT) + MESSAGE_OVERHEAD_TOKENS;
  const frame = rankUserMessage(req.requirements, req.limit, []).length + 8;
  const estimate = (chars: number): number => system + MESSAGE_OVERHEAD_TOKENS + Math.ceil((frame + chars) / 4);
  let chars = 0;
  let kept = 0;
  for (const line of lines) {
    if (estimate(chars + line.length + 1) + allowance > req.maxTokens) break;
    chars += line.length + 1;
    kept += 1;
  }
  if (kept === 0) {
    throw new ProviderError(
      'token_budget_exceeded',
      `The token budget (${req.maxTokens}) is too small for the requirements and one candidate (about ${estimate((lines[0]?.length ?? 0) + 1) + allowance} tokens needed).`,
    );
  }
  const messages: ChatMessage[] = [
    { role: 'system', content: RANK_SYSTEM_PROMPT },
    { role: 'user', content: rankUserMessage(req.requirements, req.limit, lines.slice(0, kept)) },
  ];
  const estimatedTokens = estimateMessages(messages);
  return {
    messages,
    sent: req.candidates.slice(0, kept),
    estimatedTokens,
    maxCompletionTokens: Math.max(1, Math.min(RANK_ANSWER_CAP, req.maxTokens - estimatedTokens)),
  };
}

const RATIONALE_MAX_CHARS = 2000;
const SUMMARY_MAX_CHARS = 4000;

/**
 * The picks and summary of a ranking reply. Picks naming ids outside `allowedIds`, repeating an id,
 * or past `limit` are dropped (so are entries with no usable id). A reply without a `picks` array
 * or a `summary` string is llm_bad_response.
 */
export function parseRankReply(
  reply: Record<string, unknown>,
  allowedIds: ReadonlySet<number>,
  limit: number,
): { picks: { id: number; fit_rationale: string }[]; summary: string } {
  if (!Array.isArray(reply.picks)) throw badResponse('The model\'s answer has no "picks" array.');
  if (typeof reply.summary !== 'string') throw badResponse('The model\'s answer has no "summary" string.');
  const picks: { id: number; fit_rationale: string }[] = [];
  const seen = new Set<number>();
  for (const entry of reply.picks) {
    if (picks.length >= limit) break;
    if (!isObject(entry)) continue;
    const id = readId(entry.id);
    if (id === null || !allowedIds.has(id) || seen.has(id)) continue;
    seen.add(id);
    const rationale = typeof entry.fit_rationale === 'string' ? entry.fit_rationale.trim() : '';
    picks.push({ id, fit_rationale: truncate(rationale, RATIONALE_MAX_CHARS) });
  }
  return { picks, summary: truncate(reply.summary.trim(), SUMMARY_MAX_CHARS) };
}
