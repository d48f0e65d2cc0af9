/** The deep dive's prompt (the part record and its documents within the token budget) and the reading of its reply. */
import type { PartRecord } from '../catalog/part.ts';
import { ProviderError, type Deliverable, type ProviderAnswer, type Source } from './port.ts';
import { badResponse, estimateMessages, isObject, readId, truncate, type ChatMessage, type Prompt } from './prompts.ts';

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
