import { randomUUID } from 'node:crypto';
import type { StoredEventBatch } from '../../http/event-stream.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startOpenAiStandin, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { users } from '../../db/schema/index.js';
import { TaskSignals, TaskSink } from './task-sink.js';
import { TaskWriter } from './task-writer.js';

/**
 * Writing tasks wait on the model, so many run at once: what bounds them is each model's own limit (maxConcurrent in
 * LLM_MODELS, default LLM_MAX_CONCURRENT), not a small fixed pool of jobs. And the first text is written at once.
 */
describeOnDatabases('writing task concurrency and first text on %s', (dbKind) => {
  let t: TestApp;
  let standin: OpenAiStandin;
  let token: string;

  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    // Each answer holds its stream open for ~0.6 s, long enough for every task of a batch to be under way together.
    standin.respond = () => ({ content: '城市骑行让通勤更健康。'.repeat(4), chunkChars: 6, delayMs: 80 });
    const model = { label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' };
    t = await startTestApp({
      db: dbKind,
      env: {
        LLM_MODELS: JSON.stringify([
          { id: 'wide', ...model },
          { id: 'narrow', ...model, maxConcurrent: 3 },
        ]),
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    const user = await loginByPhone(t);
    token = user.tokenValue;
    await t.container.services.points.grant(user.user.id, 100_000, { reason: 'test', idempotencyKey: `test:${user.user.id}` });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  /** Creates `n` tasks on `model` at once and returns the most model streams seen open together, once all finished. */
  async function batch(n: number, model: string) {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, standin.open())), 5);
    try {
      const created = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          t.call<{ taskId: string }>('POST', '/mp/task/create', {
            token,
            ip: `10.77.${i}.1`,
            body: { createType: 'article', writeType: 'quick', content: '写一段关于城市骑行的话', modelConfigType: model },
          }),
        ),
      );
      expect(created.map((c) => c.code)).toEqual(Array(n).fill(0));
      for (const c of created) {
        for (let i = 0; ; i++) {
          const info = (await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId: c.data.taskId } })).data;
          if (info.status === 'succeeded') break;
          expect(info.status).not.toBe('failed');
          if (i > 600) throw new Error('task did not finish');
          await new Promise((r) => setTimeout(r, 25));
        }
      }
    } finally {
      clearInterval(sampler);
    }
    return peak;
  }

  /**
   * An article task of the first user, on the 'wide' model, written straight to the repo: running (as if this test
   * had claimed it, run 1) or already failed. Never queued: the app's recovery sweep (every 5 s) would hand a queued
   * task to its own worker, which could claim it before the test does.
   */
  const storedTask = async (id: string, status: 'running' | 'failed') => {
    const [owner] = await t.container.db.select({ id: users.id }).from(users).limit(1);
    return t.container.writing.repo.insertTask(t.container.db, {
      status,
      runs: 1,
      heartbeatAt: new Date(),
      id,
      userId: owner!.id,
      kind: 'article',
      mode: 'quick',
      input: {},
      modelId: 'wide',
      pointsFeature: 'article_quick',
      pointsCharged: 0,
      createdAt: new Date(),
    });
  };

  it('runs a batch of tasks on one model all at once (no fixed pool of four)', async () => {
    expect(await batch(12, 'wide')).toBeGreaterThanOrEqual(9);
  }, 60_000);

  it('never opens more streams to a model than its maxConcurrent, and still finishes every task', async () => {
    const peak = await batch(8, 'narrow');
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('writes the first text at once, even right after the previous write (not with the next 150 ms batch)', async () => {
    const repo = t.container.writing.repo;
    const id = randomUUID();
    const task = await storedTask(id, 'running');
    const sink = new TaskSink(new TaskWriter(repo, new TaskSignals(), t.container.clock), id, task.runs);
    sink.progress('writing', '正在写作', 10);
    await sink.flush();
    sink.delta('第一句');
    // Whatever write is under way has finished: the first text must be stored by now, not waiting on a timer.
    await sink.settled();
    const events = await repo.eventsAfter(id, 0);
    expect(events.map((e) => e.type)).toContain('delta');
    sink.delta('第二句');
    await sink.settled();
    // Later text is batched again.
    expect((await repo.eventsAfter(id, 0)).filter((e) => e.type === 'delta')).toHaveLength(1);
    await sink.flush();
  });

  it('the first text does not wait out the gathering of the write before it (the progress event before the model call): both go in one statement', async () => {
    const repo = t.container.writing.repo;
    const id = randomUUID();
    const task = await storedTask(id, 'running');
    let statements = 0;
    const writeRunning = repo.writeRunning.bind(repo);
    const counting = Object.assign(Object.create(repo) as typeof repo, {
      writeRunning: (...a: Parameters<typeof writeRunning>) => (statements++, writeRunning(...a)),
    });
    // Writes that are not urgent wait for company: here as good as forever.
    const sink = new TaskSink(new TaskWriter(counting, new TaskSignals(), t.container.clock, 60_000), id, task.runs);
    sink.progress('writing', '正在写作', 10);
    // The progress event is handed to the writer on the leading edge, where it waits for company...
    await new Promise((r) => setTimeout(r, 30));
    expect(await repo.eventsAfter(id, 0)).toEqual([]);
    // ...until the first text arrives: both are stored now, in order, in one statement, not 60 s from now.
    sink.delta('第一句');
    await sink.settled();
    expect((await repo.eventsAfter(id, 0)).map((e) => [e.type, e.data.text ?? e.data.stage])).toEqual([
      ['progress', 'writing'],
      ['delta', '第一句'],
    ]);
    expect(statements).toBe(1);
    expect(await repo.task(id)).toMatchObject({ text: '第一句' });
  }, 10_000);

  it('stores a new task and its first events together (one statement): in order, or nothing at all', async () => {
    const repo = t.container.writing.repo;
    const [owner] = await t.container.db.select({ id: users.id }).from(users).limit(1);
    // Stored as failed: a queued one would be handed to the app's own worker by its recovery sweep.
    const row = (id: string) => ({
      id,
      userId: owner!.id,
      kind: 'article' as const,
      mode: 'quick',
      input: {},
      modelId: 'wide',
      status: 'failed' as const,
      pointsFeature: 'article_quick',
      pointsCharged: 0,
      createdAt: new Date(),
    });
    const ok = randomUUID();
    await repo.insertTaskWithEvents(row(ok), [
      { type: 'progress', data: { stage: 'queued' } },
      { type: 'progress', data: { stage: 'second' } },
    ]);
    expect(await repo.task(ok)).toMatchObject({ id: ok, status: 'failed' });
    expect((await repo.eventsAfter(ok, 0)).map((e) => e.data.stage)).toEqual(['queued', 'second']);
    // An event the database refuses (NUL in jsonb) takes the task with it.
    const bad = randomUUID();
    await expect(repo.insertTaskWithEvents(row(bad), [{ type: 'progress', data: { stage: 'a\u0000b' } }])).rejects.toThrow();
    expect(await repo.task(bad)).toBeUndefined();
  });

  it('stores the writes of many running tasks together, in order per task, and none for a task no longer running', async () => {
    const repo = t.container.writing.repo;
    const ids = Array.from({ length: 6 }, () => randomUUID());
    const runs = new Map<string, number>();
    for (const id of ids.slice(0, 5)) runs.set(id, (await storedTask(id, 'running')).runs);
    await storedTask(ids[5]!, 'failed');
    const signals = new TaskSignals();
    const notified: string[] = [];
    const batches = new Map<string, StoredEventBatch[]>();
    for (const id of ids)
      signals.on(id, (batch?: StoredEventBatch) => {
        notified.push(id);
        if (batch) batches.set(id, [...(batches.get(id) ?? []), batch]);
      });
    const writer = new TaskWriter(repo, signals, t.container.clock);
    let transactions = 0;
    const writeRunning = repo.writeRunning.bind(repo);
    const counting = Object.assign(Object.create(repo) as typeof repo, {
      writeRunning: (...a: Parameters<typeof writeRunning>) => (transactions++, writeRunning(...a)),
    });
    // Writes that are not urgent wait for company (here: as good as forever)...
    const counted = new TaskWriter(counting, signals, t.container.clock, 60_000);
    const write = (id: string, n: number) =>
      counted.write({ taskId: id, run: runs.get(id), text: `第${n}段`, title: `题${n}`, events: [{ type: 'delta', data: { text: `第${n}段` } }] });
    // Three rounds of writes from five running tasks and one no longer running (failed), all waiting...
    const waiting = ids.flatMap((id) => [1, 2, 3].map((n) => write(id, n)));
    await new Promise((r) => setTimeout(r, 50));
    expect(transactions).toBe(0);
    // ...until an urgent write (a first text) goes out and takes them all with it, in one statement.
    const urgent = counted.write({ taskId: ids[0]!, run: runs.get(ids[0]!), text: '第3段', title: '题3', events: [] }, true);
    const results = await Promise.all(waiting);
    expect(await urgent).toBe(true);
    expect(results).toEqual(ids.flatMap((id, i) => [1, 2, 3].map(() => i < 5)));
    expect(transactions).toBe(1);
    for (const id of ids.slice(0, 5)) {
      const stored = await repo.eventsAfter(id, 0);
      expect(stored.map((e) => e.data.text)).toEqual(['第1段', '第2段', '第3段']);
      // Each write's signal carries its events as stored (ids included), each continuing the one before.
      expect(batches.get(id)?.map((b) => b.after)).toEqual([0, stored[0]!.id, stored[1]!.id]);
      expect(batches.get(id)?.flatMap((b) => b.events)).toEqual(stored.map((e) => ({ id: e.id, type: e.type, data: e.data })));
      expect(await repo.task(id)).toMatchObject({ text: '第3段', title: '题3' });
    }
    expect(await repo.eventsAfter(ids[5]!, 0)).toEqual([]);
    expect(new Set(notified)).toEqual(new Set(ids.slice(0, 5)));
    // A stale run (the task was taken over) is refused.
    expect(await writer.write({ taskId: ids[0]!, run: runs.get(ids[0]!)! - 1, text: 'x', title: '', events: [] })).toBe(false);
  });
});
