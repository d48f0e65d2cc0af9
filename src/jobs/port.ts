/**
 * Ports of the asynchronous AI jobs (SPEC.md Job, Events): the job store with each job's event log,
 * and the queue workers take jobs from. Adapters: SQLite (embedded default; one process, the queue
 * in memory over the jobs' table) and Redis (shared by every API and worker process; each transition
 * one atomic script). One contract suite (test/contract/jobs.contract.ts) runs against both.
 *
 * Events are numbered per job from 1 (the SSE event id); a transition and its events are written
 * together, so a reader that has seen event n and reads from n + 1 misses nothing.
 */

export type JobType = 'discover' | 'deep_dive';
export const JOB_TYPES: readonly JobType[] = ['discover', 'deep_dive'];

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];
export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];
export const isTerminal = (s: JobStatus): boolean => TERMINAL_STATUSES.includes(s);

/** Jobs disappear this long after creation (SPEC.md Limits: 72 hours). */
export const JOB_RETENTION_MS = 72 * 3600 * 1000;

export interface JobUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface JobProgress {
  message: string;
  fraction?: number;
  updated_at: string;
}

export interface JobError {
  type: string;
  message: string;
}

export type JobEventName = 'status' | 'progress' | 'pick' | 'result' | 'error';

export interface JobEvent {
  /** 1, 2, 3... per job: the SSE event id. */
  id: number;
  event: JobEventName;
  data: unknown;
}

/** A job as stored: the public Job fields plus what the service keeps for itself (account, input, hold). */
export interface JobRecord {
  job_id: string;
  type: JobType;
  status: JobStatus;
  progress: JobProgress | null;
  created_at: string;
  completed_at: string | null;
  usage: JobUsage | null;
  result: unknown;
  error: JobError | null;
  request_id: string;
  /** The account that created it: only its keys see it. */
  account_id: string;
  /** The validated request (body, and for a deep dive the part's id). */
  input: unknown;
  /** Credit held at creation for the job's token budget, settled when it ends (jobs/lifecycle.ts: holdFor, settle). */
  hold: { units: number; amount_micros: number; period: string } | null;
}

/** A new job as it is stored: queued, no progress, no result yet. */
export function queuedJob(f: Pick<JobRecord, 'job_id' | 'type' | 'request_id' | 'account_id' | 'input' | 'hold'> & { created_at?: string }): JobRecord {
  return {
    job_id: f.job_id,
    type: f.type,
    status: 'queued',
    progress: null,
    created_at: f.created_at ?? new Date().toISOString(),
    completed_at: null,
    usage: null,
    result: null,
    error: null,
    request_id: f.request_id,
    account_id: f.account_id,
    input: f.input,
    hold: f.hold,
  };
}

/** Fields a transition may set. */
export type JobPatch = Partial<Pick<JobRecord, 'status' | 'progress' | 'completed_at' | 'usage' | 'result' | 'error' | 'hold'>>;

export interface JobListQuery {
  /** One status, or `active` (queued and running). */
  status?: JobStatus | 'active';
  type?: JobType;
  limit: number;
  /** A job id of the previous page (its last): the page starts after it. */
  startingAfter?: string;
}

export interface JobStore {
  /** Stores a new job (status queued, no events) and queues it. */
  create(job: JobRecord): Promise<void>;
  /** The job, or null when unknown or past retention. */
  get(jobId: string): Promise<JobRecord | null>;
  /**
   * The account's jobs, newest first. `next_cursor` is the last job's id when more may follow, else null.
   * Throws UnknownCursorError when `startingAfter` names no job of the account.
   */
  list(accountId: string, q: JobListQuery): Promise<{ jobs: JobRecord[]; next_cursor: string | null }>;
  /**
   * Atomically: when the job's status is one of `from` (any status when absent), applies `patch` and
   * appends `events` (numbered on from the last), then wakes the job's watchers. Returns the job after
   * it, or null when the job is unknown or its status was not in `from` (nothing written).
   */
  advance(jobId: string, opts: { from?: readonly JobStatus[]; patch: JobPatch; events?: readonly Omit<JobEvent, 'id'>[] }): Promise<JobRecord | null>;
  /** The job's events with id > `afterId`, in order (empty when none or the job is gone). */
  events(jobId: string, afterId: number): Promise<JobEvent[]>;
  /** Calls `onChange` after each advance of the job (from any process sharing the store); returns the unsubscribe. */
  watch(jobId: string, onChange: () => void): Promise<() => void>;
  /**
   * The next queued job's id, waiting until there is one; null once `signal` aborts or the store closes.
   * Each id is handed to one taker. A job cancelled while queued may still be handed out: the taker's
   * advance from `queued` then fails and it moves on.
   */
  take(signal: AbortSignal): Promise<string | null>;
  /** Marks a taken job done with the queue (its final advance was written). */
  release(jobId: string): Promise<void>;
  /**
   * Jobs that were taken but whose taker is gone (a process that stopped mid-job): running jobs whose
   * lease (`renew`) is older than `staleMs`, and taken jobs never started. Returns their ids; the
   * caller fails or re-queues them.
   */
  orphans(staleMs: number): Promise<{ running: string[]; queued: string[] }>;
  /** Keeps the lease of a running job fresh (workers call it while they work). */
  renew(jobId: string): Promise<void>;
  /** Puts a taken, never-started job back on the queue. */
  requeue(jobId: string): Promise<void>;
  close(): Promise<void>;
}

export class UnknownCursorError extends Error {
  constructor(readonly cursor: string) {
    super(`unknown cursor: ${cursor}`);
    this.name = 'UnknownCursorError';
  }
}
