import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { createJobQueue } from './index.js';
import { JobTimeoutError, type JobQueue } from './types.js';
import { describeNeeding } from '../test/database.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const untilAsync = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const jobQueueSuite = (kind: string, redisUrl: string | undefined) => {
  let q: JobQueue;
  afterEach(async () => {
    await q?.close();
  });
  const make = async () => (q = await createJobQueue(redisUrl, `t${randomBytes(4).toString('hex')}`, log));

  it('runs enqueued jobs with their payload', async () => {
    await make();
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

  it("takes job ids with ':' (BullMQ's key separator) and still deduplicates them", async () => {
    await make();
    let runs = 0;
    q.register('colon', async () => {
      runs += 1;
    });
    await q.enqueue('colon', {}, { jobId: 'task-1:stale:2:1700000000000', runAt: new Date(Date.now() + 200) });
    await q.enqueue('colon', {}, { jobId: 'task-1:stale:2:1700000000000', runAt: new Date(Date.now() + 200) });
    await q.start();
    await until(() => runs >= 1);
    await new Promise((r) => setTimeout(r, 400));
    expect(runs).toBe(1);
  });

  it('holds a job until its time', async () => {
    await make();
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
    await make();
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

  it('reports depth and failures per name, and retries a failed job with its payload once (the console dashboard)', async () => {
    await make();
    let fail = true;
    const done: string[] = [];
    q.register<{ v: string }>('flaky', async ({ v }) => {
      if (fail) throw new Error(`boom ${v}`);
      done.push(v);
    });
    q.register('slow', async () => undefined);
    await q.enqueue('slow', {}, { runAt: new Date(Date.now() + 60_000) });
    await q.start();
    await q.enqueue('flaky', { v: 'a' });
    await untilAsync(async () => (await q.failed(10)).length > 0);
    const [failed] = await q.failed(10);
    expect(failed).toMatchObject({ name: 'flaky', error: 'boom a', attempts: 1 });
    const counts = await q.counts();
    expect(counts.find((c) => c.name === 'flaky')).toMatchObject({ failed: 1, waiting: 0 });
    expect(counts.find((c) => c.name === 'slow')).toMatchObject({ delayed: 1 });

    expect(await q.retry('slow', failed!.id)).toBe(false);
    fail = false;
    expect(await q.retry('flaky', failed!.id)).toBe(true);
    await until(() => done.length === 1);
    expect(done).toEqual(['a']);
    await untilAsync(async () => (await q.counts()).find((c) => c.name === 'flaky')?.failed === 0);
    expect(await q.failed(10)).toEqual([]);
    // Retried once: a second retry of the same id finds nothing to run.
    expect(await q.retry('flaky', failed!.id)).toBe(false);
  });

  it('ignores a second enqueue with the same job id while the first is pending', async () => {
    await make();
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
    await make();
    const started: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let finished = false;
    q.register<{ n: number }>(
      'slow',
      async ({ n }) => {
        started.push(n);
        await gate;
        finished = true;
      },
      { concurrency: 1 },
    );
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
    await make();
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

  it('call: runs the handler once and resolves with its reply; a failure rejects with its message', async () => {
    await make();
    let runs = 0;
    q.register<{ n: number }>('square', async ({ n }) => {
      runs += 1;
      if (n < 0) throw new Error('negative');
      return { square: n * n };
    });
    await q.start();
    expect(await q.call<{ n: number }, { square: number }>('square', { n: 7 }, 5_000)).toEqual({ square: 49 });
    await expect(q.call('square', { n: -1 }, 5_000)).rejects.toThrow(/negative/);
    expect(runs).toBe(2);
  });

  it('call: with no process running the handler, times out with JobTimeoutError', async () => {
    await make();
    // Registered but never started: the shape of a web-only process asking for work no publisher is there to do.
    q.register('nobody', async () => 'late');
    await expect(q.call('nobody', {}, 300)).rejects.toBeInstanceOf(JobTimeoutError);
  });

  it('does not tick before start (a process without the worker role never starts its queue)', async () => {
    await make();
    let runs = 0;
    q.schedule('sweep', 50, async () => {
      runs += 1;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toBe(0);
  });
};

describe('job queue: in-process', () => jobQueueSuite('in-process', undefined));
describeNeeding(['TEST_REDIS_URL'], 'job queue: bullmq', (redisUrl) => jobQueueSuite('bullmq', redisUrl));

describeNeeding(['TEST_REDIS_URL'], 'scheduled jobs across BullMQ workers', (redisUrl) => {
  it('two queues on one Redis run each tick once', async () => {
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const a = await createJobQueue(redisUrl, prefix, log);
    const b = await createJobQueue(redisUrl, prefix, log);
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
