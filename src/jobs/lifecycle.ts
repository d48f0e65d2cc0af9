/**
 * The AI jobs: creation (with the credit hold), the work itself (discovery, deep dive), and the
 * settlement of the hold when a job ends. The service layer (service/jobs.ts) starts and reads jobs for API callers;
 * workers (jobs/runner.ts: in the API process, or `partsearch worker` processes sharing Redis) run them.
 *
 * Billing (SPEC.md: AI tokens are billed at creation). A job's tokens are known only when it ends, so
 * creation debits a hold: the price of the job's token budget (AI_JOB_TOKEN_BUDGET), refused with 402
 * like any paid operation when the credit or the monthly quota cannot cover it. Concurrent jobs can
 * therefore never overdraw the balance. When the job ends, the unused part of the hold is refunded
 * (reference `<job>:settle`, applied once): a completed or cancelled job pays for the tokens it used
 * (at most its budget), a failed job pays nothing. The local provider spends no tokens and holds nothing.
 */
import { randomBytes } from 'node:crypto';
import { debitAtPrice, priceOf, type BillingConfig } from '../accounts/billing.ts';
import type { AccountStore } from '../accounts/port.ts';
import type { PartRecord } from '../catalog/part.ts';
import type { EngineFilters, SearchReader } from '../engines/port.ts';
import type { Logger } from '../log.ts';
import { presentPart } from '../search/present.ts';
import type { AiProvider, Deliverable, ProviderAnswer, TokenUsage } from '../ai/port.ts';
import { ProviderError } from '../ai/port.ts';
import { isTerminal, queuedJob, type JobError, type JobEvent, type JobRecord, type JobStore, type JobType, type JobUsage } from './port.ts';

/** Candidates discovery retrieves for the provider to rank. */
export const DISCOVER_CANDIDATES = 30;

/** What starting, cancelling and settling a job needs (the API's job use cases and the workers). */
export interface JobLifeDeps {
  store: JobStore;
  provider: AiProvider;
  accounts: AccountStore;
  billing: BillingConfig;
  /** Most LLM tokens one job may use (prompt and answers together). */
  tokenBudget: number;
}

/** What the workers need: the above, and what the work reads (src/composition.ts wires it). */
export interface JobsDeps extends JobLifeDeps {
  /** The part a deep dive researches. */
  engine: Pick<SearchReader, 'getParts'>;
  /** Discovery's candidates: parts for the requirements under the hard filters, best first (agentic search). */
  findCandidates(requirements: string, filters: EngineFilters, limit: number): Promise<PartRecord[]>;
  log: Logger;
}

export interface DiscoverInput {
  requirements: string;
  filters: EngineFilters;
  limit: number;
  /** Base URL of the API that created the job: citations and links point at it. */
  base_url: string;
}

export interface DeepDiveInput {
  part_id: number;
  part_slug: string;
  deliverables: Deliverable[];
  context: Record<string, unknown> | null;
  base_url: string;
}

export const newJobId = () => `job_${randomBytes(16).toString('base64url')}`;

/** Thrown by `hold` when the account cannot cover the budget; the route turns it into the 402. */
export class HoldRefused extends Error {
  constructor(
    readonly reason: 'insufficient_credit' | 'usage_limit_exceeded',
    readonly balance_micros: number,
    readonly amount_micros: number,
  ) {
    super(reason);
    this.name = 'HoldRefused';
  }
}

/** The hold a new job takes, or null when its provider spends no tokens (or tokens are free). */
export async function holdFor(deps: JobLifeDeps, accountId: string, jobId: string): Promise<JobRecord['hold']> {
  if (deps.provider.free) return null;
  const units = deps.tokenBudget;
  const { result: r, amount_micros, period } = await debitAtPrice(deps.accounts, deps.billing, accountId, 'ai_tokens', units, `${jobId}:hold`);
  if (!r.ok) throw new HoldRefused(r.reason, r.balance_micros, amount_micros);
  return { units, amount_micros, period };
}

/** Creates a queued job of the account (after its hold). A failure to store it gives the hold back. */
export async function createJob(
  deps: JobLifeDeps,
  type: JobType,
  accountId: string,
  requestId: string,
  input: DiscoverInput | DeepDiveInput,
): Promise<JobRecord> {
  const job_id = newJobId();
  const hold = await holdFor(deps, accountId, job_id);
  const job = queuedJob({ job_id, type, request_id: requestId, account_id: accountId, input, hold });
  try {
    await deps.store.create(job);
  } catch (e) {
    await settle(deps, job, 0);
    throw e;
  }
  return job;
}

/**
 * Gives back the unused part of a job's hold: all of it unless `usedTokens` (at most the budget) were
 * spent. Applied once per job whoever calls it (the debit's reference), so the worker ending a job and
 * the cancel route may both call it.
 */
export async function settle(deps: JobLifeDeps, job: JobRecord, usedTokens: number): Promise<void> {
  if (!job.hold) return;
  const used = Math.min(job.hold.units, Math.max(0, usedTokens));
  const units = job.hold.units - used;
  const amount = job.hold.amount_micros - Math.min(job.hold.amount_micros, priceOf(deps.billing, 'ai_tokens', used));
  if (units === 0 && amount === 0) return;
  await deps.accounts.debit({
    account_id: job.account_id,
    usage_class: 'ai_tokens',
    units,
    amount_micros: amount,
    period: job.hold.period,
    reference: `${job.job_id}:settle`,
    refund: true,
  });
}

const now = () => new Date().toISOString();

/**
 * Cancels an in-flight job (best effort: a running job stops at its next step). True when it is
 * cancelled (now or before). A job cancelled while still queued never ran: its whole hold goes back
 * here. A running one is settled by its worker, which knows the tokens it spent.
 */
export async function cancelJob(deps: JobLifeDeps, job: JobRecord): Promise<boolean> {
  if (job.status === 'cancelled') return true;
  if (isTerminal(job.status)) return false;
  const cancel = { patch: { status: 'cancelled' as const, completed_at: now() }, events: [{ event: 'status' as const, data: { status: 'cancelled' } }] };
  // From queued first: whether it never ran is decided by the store, not by the read the route made.
  const wasQueued = await deps.store.advance(job.job_id, { from: ['queued'], ...cancel });
  if (wasQueued) {
    await settle(deps, wasQueued, 0);
    return true;
  }
  if (await deps.store.advance(job.job_id, { from: ['running'], ...cancel })) return true;
  return (await deps.store.get(job.job_id))?.status === 'cancelled';
}

/** What a job's work reports as it goes. */
export interface WorkContext {
  signal: AbortSignal;
  /** Counts tokens a provider call spent, as soon as it returns (a job cancelled later still pays them). */
  spent(u: TokenUsage): void;
  progress(message: string, fraction?: number, extra?: Omit<JobEvent, 'id'>[]): Promise<void>;
}

export const addTokens = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  input_tokens: a.input_tokens + b.input_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
});
export const jobUsage = (u: TokenUsage): JobUsage => ({ ...u, total_tokens: u.input_tokens + u.output_tokens });

/** A job's result; the tokens it took went to WorkContext.spent as they were spent. */
export interface WorkOutcome {
  result: unknown;
}

/** Discovery: retrieve with the engine (agentic search under the hard filters), rank with the provider, emit the picks. */
export async function runDiscover(deps: JobsDeps, input: DiscoverInput, w: WorkContext): Promise<WorkOutcome> {
  await w.progress('Searching the catalogue', 0.1);
  const candidates = await deps.findCandidates(input.requirements, input.filters, DISCOVER_CANDIDATES);
  await w.progress(`Ranking ${candidates.length} candidates`, 0.4);
  let picks: { rank: number; part: ReturnType<typeof presentPart>; fit_rationale: string }[] = [];
  let summary = `No parts in the catalogue match "${input.requirements}" under the given filters.`;
  if (candidates.length > 0) {
    const ranked = await deps.provider.rank({
      requirements: input.requirements,
      candidates,
      limit: input.limit,
      maxTokens: deps.tokenBudget,
      signal: w.signal,
    });
    w.spent(ranked.usage);
    const byId = new Map<number, PartRecord>(candidates.map((p) => [p.id, p]));
    picks = ranked.picks
      .filter((p) => byId.has(p.id))
      .slice(0, input.limit)
      .map((p, i) => ({ rank: i + 1, part: presentPart(byId.get(p.id)!), fit_rationale: p.fit_rationale }));
    summary = ranked.summary;
  }
  for (const [i, pick] of picks.entries()) {
    await w.progress(`Pick ${i + 1} of ${picks.length}`, 0.5 + (0.45 * (i + 1)) / Math.max(1, picks.length), [{ event: 'pick', data: pick }]);
  }
  return { result: { summary, results: picks } };
}

const VALUE_TYPE: Record<Deliverable['response_format']['type'], string> = {
  text: 'string',
  markdown: 'markdown',
  number: 'number',
  enum: 'enum',
  list: 'list',
  JSON: 'json',
};

function display(a: ProviderAnswer, d: Deliverable): string {
  if (a.status !== 'answered') return 'Not available';
  const v = a.value;
  if (typeof v === 'number') return `${v}${d.response_format.unit ? ` ${d.response_format.unit}` : ''}`;
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v ?? '');
}

/** Deep dive: the part's record and documents to the provider, its answers shaped and cited. */
export async function runDeepDive(deps: JobsDeps, input: DeepDiveInput, w: WorkContext): Promise<WorkOutcome> {
  await w.progress('Reading the part record', 0.1);
  const [part] = await deps.engine.getParts([input.part_id]);
  if (!part) throw new JobFailure('not_found', `The part ${input.part_slug} is no longer in the catalogue.`);
  await w.progress(`Researching ${input.deliverables.length} question${input.deliverables.length === 1 ? '' : 's'}`, 0.3);
  const r = await deps.provider.answer({ part, deliverables: input.deliverables, context: input.context, maxTokens: deps.tokenBudget, signal: w.signal });
  w.spent(r.usage);
  const partUrl = `${input.base_url}/v1/parts/${part.slug}`;
  const answers = input.deliverables.map((d, i) => {
    const a = r.answers[i] ?? { key: d.key, status: 'error' as const, value: null, explanation: 'No answer was produced for this question.', sources: [] };
    return {
      key: d.key,
      question: d.question,
      value: a.status === 'answered' ? a.value : null,
      value_type: VALUE_TYPE[d.response_format.type],
      display: display(a, d),
      explanation: a.explanation,
      citations: a.sources.map((s) => {
        const doc = s.document === null ? null : part.documents[s.document];
        return doc
          ? { document_name: doc.name, document_type: doc.type, quote: s.quote, url: doc.url }
          : { document_name: `Catalogue record of ${part.mpn}`, document_type: 'catalogue_record', quote: s.quote, url: partUrl };
      }),
      status: a.status,
    };
  });
  return { result: { answers } };
}

/** A job failure with its public error type (anything else fails as `internal_error`, its message kept private). */
export class JobFailure extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

export function jobErrorOf(e: unknown): JobError {
  if (e instanceof JobFailure || e instanceof ProviderError) return { type: e.type, message: e.message };
  return { type: 'internal_error', message: 'The job failed on a server error; create it again.' };
}
