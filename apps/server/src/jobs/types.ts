/**
 * Dispatch of long work (AI writing, publishing, order expiry...). The queue carries only a message;
 * each module keeps its job's state (status, progress, result, error) in its own table, and
 * re-enqueues unfinished work from there at start-up (`recover`), so a restart never strands a job.
 */
export interface JobOptions {
  /** Run no earlier than this. */
  runAt?: Date;
  /** Deduplicates: a second enqueue with the same id while the first is pending is ignored. */
  jobId?: string;
  /** Attempts before the job is given up (handlers see `attempt`, 1-based). Default 1. */
  attempts?: number;
  /** Delay before a retry, multiplied by the attempt number. Default 5 s. */
  backoffMs?: number;
}

export interface JobContext {
  attempt: number;
  attemptsLeft: number;
}

/** What a handler resolves with is the reply of `call` (ignored for `enqueue`d jobs); it must be JSON. */
export type JobHandler<P> = (payload: P, ctx: JobContext) => Promise<unknown>;

/** `call` got no reply in time (no process with the role that registered the job, or it is overloaded). */
export class JobTimeoutError extends Error {
  constructor(name: string, ms: number) {
    super(`job ${name} got no reply within ${ms} ms`);
    this.name = 'JobTimeoutError';
  }
}

/** One job name's queue, as the console's dashboard shows it. */
export interface JobCounts {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** A job that used up its attempts. The payload is not reported (it may carry user content). */
export interface FailedJob {
  id: string;
  name: string;
  error: string;
  attempts: number;
  failedAt: Date;
}

export interface JobQueue {
  readonly kind: 'in-process' | 'bullmq';
  register<P>(name: string, handler: JobHandler<P>, opts?: { concurrency?: number }): void;
  enqueue<P>(name: string, payload: P, opts?: JobOptions): Promise<void>;
  /**
   * Request/reply: runs `name` once on a process that registered it (a web process asking a publisher to do browser
   * work) and resolves with what the handler returned; rejects with the handler's error message, or with
   * JobTimeoutError after `timeoutMs`. One attempt: the caller decides whether to ask again.
   */
  call<P, R>(name: string, payload: P, timeoutMs: number): Promise<R>;
  /**
   * Periodic work (sweeps, refreshes): `handler` runs every `everyMs` where the queue is started, never two ticks
   * of one name at once. It is also registered as the handler of `name`, so `enqueue(name, {})` runs it once more.
   * In-process the first tick comes `everyMs` after start(); BullMQ (a job scheduler in Redis, so with several
   * workers each tick runs on one of them) may run the first tick right away. Handlers must be idempotent.
   */
  schedule(name: string, everyMs: number, handler: () => Promise<unknown>): void;
  /**
   * Depth and failures per job name. In-process: this process's queue (failures since it started, bounded);
   * BullMQ: every name any worker of this prefix registered, failures as Redis keeps them (`removeOnFail`).
   */
  counts(): Promise<JobCounts[]>;
  /** The most recent failed jobs, newest first. */
  failed(limit: number): Promise<FailedJob[]>;
  /** Runs a failed job again with its payload and attempts; false when no such failed job is held (any more). */
  retry(name: string, id: string): Promise<boolean>;
  /** Names of the registered jobs and schedules (which work this process would run; tests, start-up log). */
  registered(): string[];
  /** Starts workers (only in processes with the worker role). */
  start(): Promise<void>;
  /** Resolves when nothing is queued or running (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}
