import PQueue from 'p-queue';
import type { FastifyBaseLogger } from 'fastify';
import { checkJobRole } from './roles.js';
import { JobTimeoutError, type FailedJob, type JobCounts, type JobHandler, type JobOptions, type JobQueue } from './types.js';

/** Failed jobs kept for the console's retry; older ones drop off (this process's memory only). */
const FAILED_KEPT = 500;

interface Failure extends FailedJob {
  payload: unknown;
  opts: JobOptions;
}

interface Registered {
  handler: JobHandler<unknown>;
  queue: PQueue;
}

/** Embedded default: one process, p-queue per job name for concurrency, timers for delays. */
export class InProcessJobQueue implements JobQueue {
  readonly kind = 'in-process' as const;
  private readonly handlers = new Map<string, Registered>();
  private readonly pendingIds = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly schedules: Array<{ name: string; everyMs: number }> = [];
  private readonly intervals: NodeJS.Timeout[] = [];
  private started = false;
  private closed = false;
  private readonly backlog: Array<() => void> = [];
  private readonly failures = new Map<string, Failure>();
  private readonly delayedByName = new Map<string, number>();
  private failSeq = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly roles?: ReadonlySet<string>,
  ) {}

  register<P>(name: string, handler: JobHandler<P>, opts: { concurrency?: number } = {}): void {
    checkJobRole(name, this.roles);
    this.handlers.set(name, { handler: handler as JobHandler<unknown>, queue: new PQueue({ concurrency: opts.concurrency ?? 2 }) });
  }

  schedule(name: string, everyMs: number, handler: () => Promise<unknown>): void {
    this.register(
      name,
      async () => {
        await handler();
      },
      { concurrency: 1 },
    );
    this.schedules.push({ name, everyMs });
  }

  async enqueue<P>(name: string, payload: P, opts: JobOptions = {}): Promise<void> {
    if (this.closed) throw new Error('job queue is closed');
    const key = opts.jobId ? `${name}:${opts.jobId}` : null;
    if (key) {
      if (this.pendingIds.has(key)) return;
      this.pendingIds.add(key);
    }
    const attempts = Math.max(1, opts.attempts ?? 1);
    const backoff = opts.backoffMs ?? 5_000;
    const run = (attempt: number) => {
      const reg = this.handlers.get(name);
      if (!reg) {
        this.log.error({ job: name }, 'no handler registered for job');
        if (key) this.pendingIds.delete(key);
        return;
      }
      // Dropping the queue's promise is safe: the task catches and logs every failure of the handler itself.
      void reg.queue.add(async () => {
        try {
          await reg.handler(payload, { attempt, attemptsLeft: attempts - attempt });
          if (key) this.pendingIds.delete(key);
        } catch (err) {
          if (attempt < attempts && !this.closed) {
            this.log.warn({ err, job: name, attempt }, 'job failed, retrying');
            this.later(backoff * attempt, () => run(attempt + 1));
          } else {
            if (key) this.pendingIds.delete(key);
            this.log.error({ err, job: name, attempt }, 'job failed');
            this.keepFailure({ name, payload, opts, attempts: attempt, err });
          }
        }
      });
    };
    const delay = opts.runAt ? Math.max(0, opts.runAt.getTime() - Date.now()) : 0;
    const go = () => {
      if (delay <= 0) return run(1);
      this.bumpDelayed(name, 1);
      this.later(delay, () => {
        this.bumpDelayed(name, -1);
        run(1);
      });
    };
    if (this.started) go();
    else this.backlog.push(go);
  }

  private bumpDelayed(name: string, by: number) {
    this.delayedByName.set(name, (this.delayedByName.get(name) ?? 0) + by);
  }

  private keepFailure(f: { name: string; payload: unknown; opts: JobOptions; attempts: number; err: unknown }) {
    this.failSeq += 1;
    const id = String(this.failSeq);
    const error = (f.err instanceof Error ? f.err.message : String(f.err)).slice(0, 500);
    this.failures.set(id, { id, name: f.name, payload: f.payload, opts: f.opts, attempts: f.attempts, error, failedAt: new Date() });
    // Map order is insertion order: the first key is the oldest failure.
    if (this.failures.size > FAILED_KEPT) this.failures.delete(this.failures.keys().next().value!);
  }

  async counts(): Promise<JobCounts[]> {
    const names = new Set([...this.handlers.keys(), ...this.delayedByName.keys(), ...[...this.failures.values()].map((f) => f.name)]);
    return [...names].sort().map((name) => {
      const reg = this.handlers.get(name);
      return {
        name,
        waiting: reg?.queue.size ?? 0,
        active: reg?.queue.pending ?? 0,
        delayed: this.delayedByName.get(name) ?? 0,
        failed: [...this.failures.values()].filter((f) => f.name === name).length,
      };
    });
  }

  async failed(limit: number): Promise<FailedJob[]> {
    return [...this.failures.values()]
      .reverse()
      .slice(0, limit)
      .map(({ id, name, error, attempts, failedAt }) => ({ id, name, error, attempts, failedAt }));
  }

  async retry(name: string, id: string): Promise<boolean> {
    const f = this.failures.get(id);
    if (!f || f.name !== name) return false;
    this.failures.delete(id);
    await this.enqueue(name, f.payload, { ...f.opts, runAt: undefined });
    return true;
  }

  async call<P, R>(name: string, payload: P, timeoutMs: number): Promise<R> {
    if (this.closed) throw new Error('job queue is closed');
    const reg = this.handlers.get(name);
    // One process: without the handler here (or before start), no one else will ever answer.
    if (!reg || !this.started) throw new JobTimeoutError(name, 0);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new JobTimeoutError(name, timeoutMs)), timeoutMs);
    });
    try {
      return (await Promise.race([reg.queue.add(() => reg.handler(payload, { attempt: 1, attemptsLeft: 0 })), timeout])) as R;
    } finally {
      clearTimeout(timer);
    }
  }

  private later(ms: number, fn: () => void) {
    // setTimeout caps at ~24.8 days; longer delays hop.
    const step = Math.min(ms, 2 ** 31 - 1);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.closed) return;
      if (ms > step) this.later(ms - step, fn);
      else fn();
    }, step);
    this.timers.add(timer);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const go of this.backlog.splice(0)) go();
    for (const { name, everyMs } of this.schedules) {
      // One job id per name: a tick that is still running (or waiting) absorbs the next one instead of piling up.
      const timer = setInterval(() => void this.enqueue(name, {}, { jobId: 'tick' }).catch(() => undefined), everyMs);
      timer.unref();
      this.intervals.push(timer);
    }
  }

  registered(): string[] {
    return [...this.handlers.keys()];
  }

  async idle(): Promise<void> {
    await Promise.all([...this.handlers.values()].map((r) => r.queue.onIdle()));
  }

  /**
   * Waits for running jobs only: ones not started yet are dropped like delayed ones, since every module re-enqueues
   * its unfinished work from the database at start-up; running them now would only hold up a shutdown.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.intervals.splice(0)) clearInterval(t);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const r of this.handlers.values()) r.queue.clear();
    await Promise.all([...this.handlers.values()].map((r) => r.queue.onIdle()));
  }
}
