import PQueue from 'p-queue';
import type { FastifyBaseLogger } from 'fastify';
import type { JobHandler, JobOptions, JobQueue } from './types.js';

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

  constructor(private readonly log: FastifyBaseLogger) {}

  register<P>(name: string, handler: JobHandler<P>, opts: { concurrency?: number } = {}): void {
    this.handlers.set(name, { handler: handler as JobHandler<unknown>, queue: new PQueue({ concurrency: opts.concurrency ?? 2 }) });
  }

  schedule(name: string, everyMs: number, handler: () => Promise<unknown>): void {
    this.register(name, async () => {
      await handler();
    }, { concurrency: 1 });
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
          }
        }
      });
    };
    const delay = opts.runAt ? Math.max(0, opts.runAt.getTime() - Date.now()) : 0;
    const go = () => (delay > 0 ? this.later(delay, () => run(1)) : run(1));
    if (this.started) go();
    else this.backlog.push(go);
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
