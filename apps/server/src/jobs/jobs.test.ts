import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { createJobQueue } from './index.js';
import type { JobQueue } from './types.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const kinds: [string, string | undefined][] = [['in-process', undefined]];
if (process.env.TEST_REDIS_URL) kinds.push(['bullmq', process.env.TEST_REDIS_URL]);

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(kinds)('job queue: %s', (kind, redisUrl) => {
  let q: JobQueue;
  afterEach(async () => {
    await q?.close();
  });
  const make = () => (q = createJobQueue(redisUrl, `t${randomBytes(4).toString('hex')}`, log));

  it('runs enqueued jobs with their payload', async () => {
    make();
    expect(q.kind).toBe(kind);
    const seen: number[] = [];
    q.register<{ n: number }>('double', async ({ n }) => {
      seen.push(n * 2);
    });
    await q.start();
    await Promise.all([1, 2, 3].map((n) => q.enqueue('double', { n })));
    await until(() => seen.length === 3);
    expect(seen.sort()).toEqual([2, 4, 6]);
  });

  it('holds a job until its time', async () => {
    make();
    let ranAt = 0;
    q.register('later', async () => {
      ranAt = Date.now();
    });
    await q.start();
    const start = Date.now();
    await q.enqueue('later', {}, { runAt: new Date(start + 400) });
    await new Promise((r) => setTimeout(r, 150));
    expect(ranAt).toBe(0);
    await until(() => ranAt > 0);
    expect(ranAt - start).toBeGreaterThanOrEqual(350);
  });

  it('retries a failing job and reports the attempt', async () => {
    make();
    const attempts: number[] = [];
    q.register('flaky', async (_p, ctx) => {
      attempts.push(ctx.attempt);
      if (ctx.attempt < 3) throw new Error('transient');
    });
    await q.start();
    await q.enqueue('flaky', {}, { attempts: 3, backoffMs: 20 });
    await until(() => attempts.length === 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('ignores a second enqueue with the same job id while the first is pending', async () => {
    make();
    let runs = 0;
    q.register('once', async () => {
      runs += 1;
    });
    await q.enqueue('once', {}, { jobId: 'order-1', runAt: new Date(Date.now() + 200) });
    await q.enqueue('once', {}, { jobId: 'order-1', runAt: new Date(Date.now() + 200) });
    await q.start();
    await until(() => runs >= 1);
    await new Promise((r) => setTimeout(r, 400));
    expect(runs).toBe(1);
  });

  it('close waits for the running job and starts no queued one (owners re-enqueue them from the database)', async () => {
    make();
    const started: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let finished = false;
    q.register<{ n: number }>('slow', async ({ n }) => {
      started.push(n);
      await gate;
      finished = true;
    }, { concurrency: 1 });
    await q.start();
    await Promise.all([1, 2, 3].map((n) => q.enqueue('slow', { n })));
    await until(() => started.length === 1);
    const closing = q.close();
    setTimeout(release, 100);
    await closing;
    expect(finished).toBe(true);
    // BullMQ leaves waiting jobs in Redis for the next worker; the in-process queue drops them.
    if (kind === 'in-process') expect(started).toEqual([1]);
  });

  it('runs a scheduled job repeatedly, one tick at a time, and stops after close', async () => {
    make();
    let runs = 0;
    let running = 0;
    let overlapped = false;
    q.schedule('sweep', 100, async () => {
      running += 1;
      if (running > 1) overlapped = true;
      runs += 1;
      await new Promise((r) => setTimeout(r, 30));
      running -= 1;
    });
    await q.start();
    await until(() => runs >= 3, 5_000);
    expect(overlapped).toBe(false);
    await q.close();
    const atClose = runs;
    await new Promise((r) => setTimeout(r, 400));
    expect(runs).toBe(atClose);
  });

  it('does not tick before start (a process without the worker role never starts its queue)', async () => {
    make();
    let runs = 0;
    q.schedule('sweep', 50, async () => {
      runs += 1;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toBe(0);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('scheduled jobs across BullMQ workers', () => {
  it('two queues on one Redis run each tick once', async () => {
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const a = createJobQueue(process.env.TEST_REDIS_URL, prefix, log);
    const b = createJobQueue(process.env.TEST_REDIS_URL, prefix, log);
    const runs = { a: 0, b: 0 };
    const every = 200;
    a.schedule('sweep', every, async () => {
      runs.a += 1;
    });
    b.schedule('sweep', every, async () => {
      runs.b += 1;
    });
    try {
      const started = Date.now();
      await Promise.all([a.start(), b.start()]);
      await new Promise((r) => setTimeout(r, 1_500));
      const elapsed = Date.now() - started;
      const total = runs.a + runs.b;
      // One run per tick: at most one per interval (plus the first, which BullMQ may run at once); each worker
      // running every tick would give about twice as many.
      expect(total).toBeGreaterThanOrEqual(3);
      expect(total).toBeLessThanOrEqual(Math.floor(elapsed / every) + 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
