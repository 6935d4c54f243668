import { Job, Queue, QueueEvents, Worker, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { checkJobRole } from './roles.js';
import { JobTimeoutError, type FailedJob, type JobCounts, type JobHandler, type JobOptions, type JobQueue } from './types.js';

/**
 * A queue name whose connection reads and writes the set of job names (a web process never registers the jobs it
 * reports on, so the workers write their names there at start).
 */
const REGISTRY = '_registry';

/** With REDIS_URL: BullMQ, so several worker processes share the work. One BullMQ queue per job name. */
export class BullJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private readonly queues = new Map<string, Queue>();
  private readonly registrations = new Map<string, { handler: JobHandler<unknown>; concurrency: number }>();
  private readonly workers: Worker[] = [];
  private readonly schedules = new Map<string, number>();
  /** Completion events per job name, opened on the first `call` of that name (one blocking Redis connection each). */
  private readonly events = new Map<string, Promise<QueueEvents>>();
  private readonly connection: ConnectionOptions;

  constructor(
    redisUrl: string,
    private readonly log: FastifyBaseLogger,
    private readonly prefix = 'inkstone',
    private readonly roles?: ReadonlySet<string>,
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
    checkJobRole(name, this.roles);
    this.registrations.set(name, { handler: handler as JobHandler<unknown>, concurrency: opts.concurrency ?? 2 });
  }

  schedule(name: string, everyMs: number, handler: () => Promise<unknown>): void {
    this.register(
      name,
      async () => {
        await handler();
      },
      { concurrency: 1 },
    );
    this.schedules.set(name, everyMs);
  }

  async enqueue<P>(name: string, payload: P, opts: JobOptions = {}): Promise<void> {
    const attempts = Math.max(1, opts.attempts ?? 1);
    await this.queue(name).add(name, payload, {
      // BullMQ refuses ':' in a custom id (its Redis key separator); modules use it freely (`task:stale:2:…`).
      jobId: opts.jobId?.replaceAll(':', '.'),
      delay: opts.runAt ? Math.max(0, opts.runAt.getTime() - Date.now()) : undefined,
      attempts,
      backoff: { type: 'exponential', delay: opts.backoffMs ?? 5_000 },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
  }

  private queueEvents(name: string): Promise<QueueEvents> {
    let ev = this.events.get(name);
    if (!ev) {
      const e = new QueueEvents(name, { connection: this.connection, prefix: this.prefix });
      // Listening must be under way before the job is added, or a fast reply would be missed.
      ev = e.waitUntilReady().then(() => e);
      this.events.set(name, ev);
    }
    return ev;
  }

  async call<P, R>(name: string, payload: P, timeoutMs: number): Promise<R> {
    const events = await this.queueEvents(name);
    const job = await this.queue(name).add(name, payload, { attempts: 1, removeOnComplete: 1000, removeOnFail: 5000 });
    try {
      return (await job.waitUntilFinished(events, timeoutMs)) as R;
    } catch (err) {
      if (err instanceof Error && /timed out before finishing/i.test(err.message)) {
        // Nobody took it in time: it must not run later, after the caller has given up.
        await job.remove().catch(() => undefined);
        throw new JobTimeoutError(name, timeoutMs);
      }
      throw err;
    }
  }

  async start(): Promise<void> {
    // A job scheduler lives in Redis under its name: every worker upserts the same one, and each tick is one job
    // that exactly one worker takes, however many processes run.
    for (const [name, every] of this.schedules) {
      await this.queue(name).upsertJobScheduler(name, { every }, { name, data: {}, opts: { removeOnComplete: 100, removeOnFail: 500 } });
    }
    if (this.registrations.size) await (await this.registryClient()).sadd(this.namesKey(), ...this.registrations.keys());
    for (const [name, reg] of this.registrations) {
      const worker = new Worker(
        name,
        async (job) => {
          const attempt = job.attemptsMade + 1;
          // The reply of `call` (BullMQ stores it as the job's return value).
          return reg.handler(job.data, { attempt, attemptsLeft: (job.opts.attempts ?? 1) - attempt });
        },
        { connection: this.connection, prefix: this.prefix, concurrency: reg.concurrency },
      );
      worker.on('failed', (job, err) => this.log.warn({ err, job: name, id: job?.id }, 'job failed'));
      this.workers.push(worker);
    }
  }

  /** BullMQ connects through ioredis; its own client type only declares the commands BullMQ uses. */
  private async registryClient(): Promise<Redis> {
    return (await this.queue(REGISTRY).client) as unknown as Redis;
  }

  private namesKey() {
    return `${this.prefix}:${REGISTRY}:names`;
  }

  private async names(): Promise<string[]> {
    const known = await (await this.registryClient()).smembers(this.namesKey());
    return [...new Set([...known, ...this.queues.keys()])].filter((n) => n !== REGISTRY).sort();
  }

  async counts(): Promise<JobCounts[]> {
    return Promise.all(
      (await this.names()).map(async (name) => {
        const c = await this.queue(name).getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
        return { name, waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 };
      }),
    );
  }

  async failed(limit: number): Promise<FailedJob[]> {
    const perName = await Promise.all((await this.names()).map((name) => this.queue(name).getFailed(0, limit - 1)));
    return perName
      .flat()
      .map((j) => ({
        id: String(j.id),
        name: j.queueName,
        error: (j.failedReason ?? '').slice(0, 500),
        attempts: j.attemptsMade,
        failedAt: new Date(j.finishedOn ?? j.timestamp),
      }))
      .sort((a, b) => b.failedAt.getTime() - a.failedAt.getTime())
      .slice(0, limit);
  }

  async retry(name: string, id: string): Promise<boolean> {
    const job = await Job.fromId(this.queue(name), id);
    if (!job || (await job.getState()) !== 'failed') return false;
    await job.retry('failed');
    return true;
  }

  registered(): string[] {
    return [...this.registrations.keys()];
  }

  async idle(): Promise<void> {
    for (;;) {
      // A scheduled name always has its next tick delayed; only its waiting and running ticks count as work.
      const counts = await Promise.all(
        [...this.queues.entries()].map(([name, q]) =>
          this.schedules.has(name) ? q.getJobCounts('waiting', 'active', 'prioritized') : q.getJobCounts('waiting', 'active', 'delayed', 'prioritized'),
        ),
      );
      if (counts.every((c) => Object.values(c).every((n) => n === 0))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.events.values()].map(async (e) => (await e.catch(() => null))?.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
