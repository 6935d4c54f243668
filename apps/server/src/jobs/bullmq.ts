import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { JobHandler, JobOptions, JobQueue } from './types.js';

/** With REDIS_URL: BullMQ, so several worker processes share the work. One BullMQ queue per job name. */
export class BullJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private readonly queues = new Map<string, Queue>();
  private readonly registrations = new Map<string, { handler: JobHandler<unknown>; concurrency: number }>();
  private readonly workers: Worker[] = [];
  private readonly schedules = new Map<string, number>();
  private readonly connection: ConnectionOptions;

  constructor(
    redisUrl: string,
    private readonly log: FastifyBaseLogger,
    private readonly prefix = 'inkstone',
  ) {
    this.connection = { url: redisUrl, maxRetriesPerRequest: null };
  }

  private queue(name: string) {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, q);
    }
    return q;
  }

  register<P>(name: string, handler: JobHandler<P>, opts: { concurrency?: number } = {}): void {
    this.registrations.set(name, { handler: handler as JobHandler<unknown>, concurrency: opts.concurrency ?? 2 });
  }

  schedule(name: string, everyMs: number, handler: () => Promise<unknown>): void {
    this.register(name, async () => {
      await handler();
    }, { concurrency: 1 });
    this.schedules.set(name, everyMs);
  }

  async enqueue<P>(name: string, payload: P, opts: JobOptions = {}): Promise<void> {
    const attempts = Math.max(1, opts.attempts ?? 1);
    await this.queue(name).add(name, payload, {
      jobId: opts.jobId,
      delay: opts.runAt ? Math.max(0, opts.runAt.getTime() - Date.now()) : undefined,
      attempts,
      backoff: { type: 'exponential', delay: opts.backoffMs ?? 5_000 },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
  }

  async start(): Promise<void> {
    // A job scheduler lives in Redis under its name: every worker upserts the same one, and each tick is one job
    // that exactly one worker takes, however many processes run.
    for (const [name, every] of this.schedules) {
      await this.queue(name).upsertJobScheduler(name, { every }, { name, data: {}, opts: { removeOnComplete: 100, removeOnFail: 500 } });
    }
    for (const [name, reg] of this.registrations) {
      const worker = new Worker(
        name,
        async (job) => {
          const attempt = job.attemptsMade + 1;
          await reg.handler(job.data, { attempt, attemptsLeft: (job.opts.attempts ?? 1) - attempt });
        },
        { connection: this.connection, prefix: this.prefix, concurrency: reg.concurrency },
      );
      worker.on('failed', (job, err) => this.log.warn({ err, job: name, id: job?.id }, 'job failed'));
      this.workers.push(worker);
    }
  }

  async idle(): Promise<void> {
    for (;;) {
      // A scheduled name always has its next tick delayed; only its waiting and running ticks count as work.
      const counts = await Promise.all(
        [...this.queues.entries()].map(([name, q]) => (this.schedules.has(name) ? q.getJobCounts('waiting', 'active', 'prioritized') : q.getJobCounts('waiting', 'active', 'delayed', 'prioritized'))),
      );
      if (counts.every((c) => Object.values(c).every((n) => n === 0))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
