/**
 * Prompts and reply validation of the LLM adapters (ai/openai.ts): what the model is told for a
 * discovery ranking and a deep dive, how the prompt is kept within the request's token budget, and
 * how the model's JSON reply is checked and shaped into the port's answers (ai/port.ts).
 *
 * Pure functions, no I/O: the transport (SDK client, errors, abort) is the adapter's.
 *
 * Token budget: tokens are estimated as characters / 4 (plus a few per message); the prompt is cut
 * down until its estimate plus the answer's allowance fits `maxTokens`, and the answer cap
 * (`max_completion_tokens`) is what is left of the budget, capped. The estimate is rough for JSON
 * and non-English text; the usage the endpoint reports is what the jobs bill.
 */
import type { PartRecord } from '../catalog/part.ts';
import { ProviderError, type Deliverable, type ProviderAnswer, type Source } from './port.ts';

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
const MESSAGE_OVERHEAD_TOKENS = 8;

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

// ---------------------------------------------------------------------------------------------------
// Discovery ranking
// ---------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------
// Reply reading
// ---------------------------------------------------------------------------------------------------

const badResponse = (message: string): ProviderError => new ProviderError('llm_bad_response', message);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
function readId(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return null;
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

// ---------------------------------------------------------------------------------------------------
// Deep dive
// ---------------------------------------------------------------------------------------------------

/** Most characters of one document's text in the prompt. */
export const DOCUMENT_MAX_CHARS = 4000;
/** A document's text cut shorter than this by the budget is left out rather than sent as a stub. */
const DOCUMENT_MIN_CHARS = 200;
const DOCUMENT_CUT_MARK = '\n[… text cut]';
const DOCUMENT_OMITTED = '(text left out to fit the token budget)';
const DOCUMENT_NONE = '(no text available)';

/** The least answer of `n` deliverables needs. */
export function answerAllowance(n: number): number {
  return 200 + 150 * n;
}

/** Answer cap of a deep dive of `n` deliverables. */
export function answerCap(n: number): number {
  return Math.min(8000, Math.max(2000, 400 * n));
}

export const ANSWER_SYSTEM_PROMPT = [
  "You answer an engineer's questions about one electronic part.",
  'Use only the part record and the document text given in the user message: no outside knowledge, no guesses.',
  'When they do not give the answer, set status "not_available" and value null, and say in the explanation what is missing.',
  '',
  'Reply with one JSON object and nothing else:',
  '{"answers": [{"key": string, "status": "answered" | "not_available", "value": ..., "explanation": string, "sources": [{"document": number | null, "quote": string}]}]}',
  "- One answer per question, with the question's key, in the order given.",
  "- value, by the question's format:",
  '  number: a JSON number, converted to the unit given when one is given (no unit text in the value);',
  '  enum: exactly one of the allowed values; list: an array of strings; JSON: a JSON object;',
  '  text: a plain string; markdown: a Markdown string.',
  '- explanation: one to three plain sentences on how the value follows from the sources (conditions, assumptions).',
  '- sources: the passages the answer rests on. document is the [index] of the document the quote comes from,',
  "  or null when it comes from the part's fields or specs; quote is copied verbatim, at most about 200 characters.",
].join('\n');

/** Whitespace runs collapsed (spaces, tabs; three or more newlines), to spend fewer tokens on layout. */
function compactText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Characters per document out of `budget`, fairest first: short texts take what they need, the rest share. */
function shareOut(lengths: readonly number[], budget: number): number[] {
  const out = lengths.map(() => 0);
  const order = lengths.map((len, i) => ({ len, i })).sort((a, b) => a.len - b.len);
  let left = Math.max(0, budget);
  order.forEach(({ len, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    out[i] = Math.min(len, share);
    left -= out[i]!;
  });
  return out;
}

function partFields(part: PartRecord, longDescriptionChars: number): string {
  const fields: Record<string, unknown> = {
    mpn: part.mpn,
    manufacturer: part.manufacturer.name,
    description: part.description,
  };
  if (part.long_description && longDescriptionChars > 0) fields.long_description = truncate(part.long_description, longDescriptionChars);
  fields.status = part.status;
  fields.category = part.category ? part.category.path.map((p) => p.name).join(' > ') || part.category.name : null;
  if (part.series) fields.series = part.series;
  fields.package = part.package;
  fields.stock = part.stock;
  fields.min_price_usd = part.min_price_usd;
  if (part.aliases.length > 0) fields.aliases = part.aliases.slice(0, 10);
  if (part.offers.length > 0) {
    fields.offers = part.offers.slice(0, 5).map((o) => ({
      distributor: o.distributor,
      stock: o.stock ?? null,
      moq: o.moq ?? null,
      currency: o.currency,
      price_breaks: o.price_breaks.slice(0, 6),
      lead_time_days: o.lead_time_days ?? null,
    }));
  }
  if (Object.keys(part.attributes).length > 0) fields.attributes = truncate(JSON.stringify(part.attributes), 1000);
  return JSON.stringify(fields);
}

function questionLine(d: Deliverable): string {
  const f = d.response_format;
  const q: Record<string, unknown> = { key: d.key, question: d.question, format: f.type };
  if (f.unit) q.unit = f.unit;
  if (f.enum_values && f.enum_values.length > 0) q.enum_values = f.enum_values;
  if (f.hint) q.hint = f.hint;
  return JSON.stringify(q);
}

interface AnswerShape {
  /** Most specs listed. */
  specs: number;
  /** Most characters of the long description (0: left out). */
  longDescription: number;
}

/** The prompt's shapes, fullest first: document text goes first (by budget share), then these. */
const ANSWER_SHAPES: readonly AnswerShape[] = [
  { specs: 200, longDescription: 2000 },
  { specs: 80, longDescription: 500 },
  { specs: 25, longDescription: 0 },
];

function answerUserMessage(
  part: PartRecord,
  shape: AnswerShape,
  texts: readonly string[],
  context: Record<string, unknown> | null,
  deliverables: readonly Deliverable[],
): string {
  const out: string[] = ['Part:', partFields(part, shape.longDescription), ''];
  const specs = part.specs.slice(0, shape.specs);
  out.push(`Specs (${specs.length}${specs.length < part.specs.length ? ` of ${part.specs.length}` : ''}):`);
  for (const s of specs) out.push(`- ${truncate(s.name, 100)}: ${truncate(s.value, 200)}`);
  if (specs.length === 0) out.push('(none)');
  out.push('');
  out.push(`Documents (${part.documents.length}):`);
  part.documents.forEach((d, i) => {
    out.push(`[${i}] ${truncate(d.name, 200)} (${truncate(d.type, 40)})`);
    out.push(texts[i] ?? DOCUMENT_NONE);
  });
  if (part.documents.length === 0) out.push('(none)');
  if (context && Object.keys(context).length > 0) {
    out.push('', 'Context (shared by all questions):', JSON.stringify(context));
  }
  out.push('', `Questions (${deliverables.length}, one JSON object per line):`, ...deliverables.map(questionLine));
  return out.join('\n');
}

/**
 * The deep-dive prompt within `maxTokens`: each document's text (whitespace compacted) is cut to
 * DOCUMENT_MAX_CHARS, then shared out of what the budget leaves; when the record itself does not fit,
 * specs and the long description are cut. Throws token_budget_exceeded when nothing fits.
 */
export function buildAnswerPrompt(req: {
  part: PartRecord;
  deliverables: readonly Deliverable[];
  context: Record<string, unknown> | null;
  maxTokens: number;
}): Prompt {
  const { part, deliverables, context, maxTokens } = req;
  const allowance = answerAllowance(deliverables.length);
  const full = part.documents.map((d) => (d.text ? compactText(d.text) : ''));
  const capped = full.map((t) => (t.length > DOCUMENT_MAX_CHARS ? t.slice(0, DOCUMENT_MAX_CHARS) : t));
  const render = (shape: AnswerShape, chars: readonly number[]): ChatMessage[] => {
    const texts = part.documents.map((d, i) => {
      const text = full[i]!;
      if (!text) return DOCUMENT_NONE;
      const n = chars[i]!;
      if (n < Math.min(DOCUMENT_MIN_CHARS, text.length)) return DOCUMENT_OMITTED;
      return n >= text.length ? text : `${text.slice(0, n)}${DOCUMENT_CUT_MARK}`;
    });
    return [
      { role: 'system', content: ANSWER_SYSTEM_PROMPT },
      { role: 'user', content: answerUserMessage(part, shape, texts, context, deliverables) },
    ];
  };
  const fits = (messages: readonly ChatMessage[]): boolean => estimateMessages(messages) + allowance <= maxTokens;

  for (const shape of ANSWER_SHAPES) {
    const bare = render(
      shape,
      part.documents.map(() => 0),
    );
    if (!fits(bare)) continue;
    // Characters left for document text, less what each document's markers take.
    const base = estimateMessages(bare);
    let budget = (maxTokens - allowance - base) * 4 - part.documents.length * DOCUMENT_CUT_MARK.length;
    let messages = render(
      shape,
      shareOut(
        capped.map((t) => t.length),
        budget,
      ),
    );
    while (!fits(messages) && budget > 0) {
      budget -= (estimateMessages(messages) + allowance - maxTokens) * 4 + 64;
      messages = render(
        shape,
        shareOut(
          capped.map((t) => t.length),
          budget,
        ),
      );
    }
    if (!fits(messages)) messages = bare;
    const estimatedTokens = estimateMessages(messages);
    return {
      messages,
      estimatedTokens,
      maxCompletionTokens: Math.max(1, Math.min(answerCap(deliverables.length), maxTokens - estimatedTokens)),
    };
  }
  const least = estimateMessages(
    render(
      ANSWER_SHAPES[ANSWER_SHAPES.length - 1]!,
      part.documents.map(() => 0),
    ),
  );
  throw new ProviderError(
    'token_budget_exceeded',
    `The token budget (${maxTokens}) is too small for the part record and ${deliverables.length} question(s) (about ${least + allowance} tokens needed).`,
  );
}

const EXPLANATION_MAX_CHARS = 4000;
const QUOTE_MAX_CHARS = 500;
const NO_ANSWER = 'The model gave no answer for this question.';
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function readSources(v: unknown, documentCount: number): Source[] {
  if (!Array.isArray(v)) return [];
  const out: Source[] = [];
  for (const s of v) {
    if (!isObject(s) || typeof s.quote !== 'string' || s.quote.trim() === '') continue;
    let document: number | null = null;
    if (s.document !== null && s.document !== undefined) {
      const i = readId(s.document);
      if (i === null || i >= documentCount) continue;
      document = i;
    }
    out.push({ document, quote: truncate(s.quote.trim(), QUOTE_MAX_CHARS) });
  }
  return out;
}

/** A short rendering of a value the model gave, for an explanation. */
function shown(v: unknown): string {
  return truncate(typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)), 80);
}

/** The value shaped to the format, or the reason it cannot be. */
function shapeValue(v: unknown, d: Deliverable): { value: unknown } | { problem: string } {
  const f = d.response_format;
  switch (f.type) {
    case 'number': {
      if (typeof v === 'number' && Number.isFinite(v)) return { value: v };
      if (typeof v === 'string' && PLAIN_NUMBER.test(v.trim())) return { value: Number(v.trim()) };
      return { problem: `The model's value ${shown(v)} is not a number.` };
    }
    case 'enum': {
      if (typeof v !== 'string') return { problem: `The model's value ${shown(v)} is not one of the allowed values.` };
      const allowed = f.enum_values ?? [];
      if (allowed.length === 0) return { value: v };
      const exact = allowed.find((a) => a === v) ?? allowed.find((a) => a.toLowerCase() === v.trim().toLowerCase());
      return exact === undefined ? { problem: `The model's value ${shown(v)} is not one of the allowed values.` } : { value: exact };
    }
    case 'list': {
      if (typeof v === 'string') return { value: [v] };
      if (!Array.isArray(v)) return { problem: `The model's value ${shown(v)} is not a list.` };
      return { value: v.filter((x) => x !== null && x !== undefined).map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) };
    }
    case 'JSON': {
      if (typeof v === 'object' && v !== null) return { value: v };
      if (typeof v === 'string') {
        try {
          const parsed: unknown = JSON.parse(v);
          if (typeof parsed === 'object' && parsed !== null) return { value: parsed };
        } catch {
          // not JSON text: falls through
        }
      }
      return { problem: `The model's value ${shown(v)} is not a JSON object.` };
    }
    case 'text':
    case 'markdown':
    default: {
      if (typeof v === 'string') return { value: v };
      if (typeof v === 'number' || typeof v === 'boolean') return { value: String(v) };
      return { problem: `The model's value ${shown(v)} is not text.` };
    }
  }
}

function readAnswer(entry: Record<string, unknown>, d: Deliverable, documentCount: number): ProviderAnswer {
  const explanation = typeof entry.explanation === 'string' ? truncate(entry.explanation.trim(), EXPLANATION_MAX_CHARS) : '';
  const sources = readSources(entry.sources, documentCount);
  const raw = entry.value;
  const notAvailable = (why: string | null): ProviderAnswer => ({
    key: d.key,
    status: 'not_available',
    value: null,
    explanation: why ? [explanation, why].filter(Boolean).join(' ') : explanation,
    sources,
  });
  if (entry.status === 'not_available' || raw === null || raw === undefined) return notAvailable(null);
  const shaped = shapeValue(raw, d);
  if ('problem' in shaped) return notAvailable(shaped.problem);
  return { key: d.key, status: 'answered', value: shaped.value, explanation, sources };
}

/**
 * One answer per deliverable, in request order, matched by key (a deliverable key that repeats takes
 * the model's answers with that key in turn). A deliverable with no answer is status `error`; a value
 * that cannot take the requested shape (an enum value outside enum_values, a number that is not a
 * plain number) is `not_available`; sources citing a document index out of range are dropped. A reply
 * without an `answers` array is llm_bad_response.
 */
export function parseAnswerReply(reply: Record<string, unknown>, deliverables: readonly Deliverable[], documentCount: number): ProviderAnswer[] {
  if (!Array.isArray(reply.answers)) throw badResponse('The model\'s answer has no "answers" array.');
  const entries = reply.answers.filter(isObject);
  const used = new Set<Record<string, unknown>>();
  return deliverables.map((d) => {
    const entry = entries.find((e) => !used.has(e) && (typeof e.key === 'string' || typeof e.key === 'number') && String(e.key) === d.key);
    if (!entry) return { key: d.key, status: 'error', value: null, explanation: NO_ANSWER, sources: [] };
    used.add(entry);
    return readAnswer(entry, d, documentCount);
  });
}
