/**
 * The AI jobs an API caller starts and follows (REST POST /v1/parts/discover and
 * /v1/parts/{manufacturer}/{mpn}/deep-dive, GET /v1/jobs...): starting one takes the credit hold of
 * jobs/lifecycle.ts (refused as a paid operation is: insufficient_credit, usage_limit_exceeded); a job is
 * visible to every key of the account that created it and to no one else (another account's job is
 * not_found, as an unknown one is). The workers (jobs/runner.ts) run them.
 */
import { usd } from '../accounts/billing.ts';
import type { Account } from '../accounts/port.ts';
import type { Deliverable } from '../ai/port.ts';
import { ApiError, notFound } from '../errors.ts';
import type { JobListQuery, JobRecord, JobType } from '../jobs/port.ts';
import { cancelJob, createJob, HoldRefused, type DeepDiveInput, type DiscoverInput, type JobsDeps } from '../jobs/lifecycle.ts';
import type { PartFiltersInput } from '../search/filters.ts';
import type { SearchDeps } from './deps.ts';
import { filtersFor, type FiltersAt } from './parametric.ts';
import type { PartResolver } from './part-detail.ts';

export interface JobUseCaseDeps {
  jobs: Pick<JobsDeps, 'store' | 'provider' | 'accounts' | 'billing' | 'tokenBudget' | 'log'>;
  search: SearchDeps;
  resolvePart: PartResolver;
}

/** Who starts a job and what for: its account, its request (traced on the job), the API's base URL (links in results). */
export interface JobRequest {
  account: Account;
  requestId: string;
  baseUrl: string;
}

/** Creates the job after its hold; a refused hold is the error a paid operation answers. */
async function start(deps: JobUseCaseDeps, r: JobRequest, type: JobType, input: DiscoverInput | DeepDiveInput): Promise<JobRecord> {
  let job: JobRecord;
  try {
    job = await createJob(deps.jobs, type, r.account.id, r.requestId, input);
  } catch (e) {
    if (!(e instanceof HoldRefused)) throw e;
    if (e.reason === 'usage_limit_exceeded') throw new ApiError('usage_limit_exceeded', 'The monthly usage quota for ai tokens is exhausted.');
    throw new ApiError(
      'insufficient_credit',
      `The account's credit (${usd(e.balance_micros).toFixed(6)} USD) does not cover this job's token budget (${deps.jobs.tokenBudget} tokens, ${usd(e.amount_micros).toFixed(6)} USD held until the job ends).`,
    );
  }
  deps.jobs.log.info('job created', { job_id: job.job_id, type, account_id: r.account.id, request_id: job.request_id });
  return job;
}

export interface DiscoveryRequest {
  requirements: string;
  filters?: PartFiltersInput;
  /** Picks wanted. */
  limit: number;
}

export interface DeepDiveRequest {
  /** Manufacturer and MPN slugs, as the part detail takes them. */
  manufacturer: string;
  mpn: string;
  deliverables: Deliverable[];
  context: Record<string, unknown> | null;
}

/** A discovery job: parts for `requirements` under the hard filters (lists: those the account sees; errors name `filtersAt`). */
export async function startDiscovery(deps: JobUseCaseDeps, r: JobRequest, req: DiscoveryRequest, filtersAt?: FiltersAt): Promise<JobRecord> {
  const { filters } = await filtersFor(deps.search, r.account, req.filters, filtersAt);
  return start(deps, r, 'discover', { requirements: req.requirements, filters, limit: req.limit, base_url: r.baseUrl });
}

/** A deep-dive job on the part the slugs name (any the part detail accepts), or not_found. */
export async function startDeepDive(deps: JobUseCaseDeps, r: JobRequest, req: DeepDiveRequest): Promise<JobRecord> {
  const found = await deps.resolvePart(req.manufacturer, req.mpn);
  if (!found) throw notFound(`Part ${req.manufacturer}/${req.mpn}`);
  const { part } = found;
  return start(deps, r, 'deep_dive', { part_id: part.id, part_slug: part.slug, deliverables: req.deliverables, context: req.context, base_url: r.baseUrl });
}

/** The account's job, or not_found (unknown, past retention, or another account's). */
export async function getJob(deps: Pick<JobUseCaseDeps, 'jobs'>, account: Pick<Account, 'id'>, jobId: string): Promise<JobRecord> {
  const job = await deps.jobs.store.get(jobId);
  if (!job || job.account_id !== account.id) throw notFound(`Job ${jobId}`);
  return job;
}

/** A page of the account's jobs, newest first (the store's UnknownCursorError for a cursor that is not one of them). */
export function listJobs(deps: Pick<JobUseCaseDeps, 'jobs'>, account: Pick<Account, 'id'>, q: JobListQuery) {
  return deps.jobs.store.list(account.id, q);
}

/** Cancels the account's job (best effort, idempotent); `cancelled`: whether it is cancelled, now or before. */
export async function cancelOwnJob(deps: Pick<JobUseCaseDeps, 'jobs'>, account: Pick<Account, 'id'>, jobId: string) {
  const job = await getJob(deps, account, jobId);
  return { job_id: job.job_id, cancelled: await cancelJob(deps.jobs, job) };
}
