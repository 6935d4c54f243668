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

export type JobHandler<P> = (payload: P, ctx: JobContext) => Promise<void>;

export interface JobQueue {
  readonly kind: 'in-process' | 'bullmq';
  register<P>(name: string, handler: JobHandler<P>, opts?: { concurrency?: number }): void;
  enqueue<P>(name: string, payload: P, opts?: JobOptions): Promise<void>;
  /**
   * Periodic work (sweeps, refreshes): `handler` runs every `everyMs` where the queue is started, never two ticks
   * of one name at once. It is also registered as the handler of `name`, so `enqueue(name, {})` runs it once more.
   * In-process the first tick comes `everyMs` after start(); BullMQ (a job scheduler in Redis, so with several
   * workers each tick runs on one of them) may run the first tick right away. Handlers must be idempotent.
   */
  schedule(name: string, everyMs: number, handler: () => Promise<unknown>): void;
  /** Starts workers (only in processes with the worker role). */
  start(): Promise<void>;
  /** Resolves when nothing is queued or running (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}
