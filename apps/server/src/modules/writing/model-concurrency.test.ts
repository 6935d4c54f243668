import { randomUUID } from 'node:crypto';
import type { StoredEventBatch } from '../../http/event-stream.js';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ErrorCode, TOKEN_NAME, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startOpenAiStandin, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { drafts, users, writingTasks } from '../../db/schema/index.js';
import { eq } from 'drizzle-orm';
import { TaskSignals, TaskSink } from './task-sink.js';
import { TaskInserter } from './task-inserter.js';
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

  const create = (app: TestApp, as: string, ip: string) =>
    app.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: as,
      ip,
      body: { createType: 'article', writeType: 'quick', content: '写一段关于城市骑行的话', modelConfigType: 'wide' },
    });
  const statusOf = async (app: TestApp, id: string) => (await app.container.db.select().from(writingTasks).where(eq(writingTasks.id, id)))[0]!;
  const finished = async (app: TestApp, as: string, id: string) => {
    for (let i = 0; i < 600; i++) {
      const info = (await app.call<TaskInfo>('GET', '/mp/task/info', { token: as, query: { taskId: id } })).data;
      if (info.status === 'succeeded' || info.status === 'failed') return info;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('task did not finish');
  };

  it('a task this process runs at once is stored already claimed (run 1) by its create: no claim statement before the model call', async () => {
    const claim = vi.spyOn(t.container.writing.repo, 'claim');
    try {
      const created = await create(t, token, '10.78.0.1');
      expect(created.code).toBe(0);
      // Straight after the create answers, before its model call could have returned anything.
      expect(await statusOf(t, created.data.taskId)).toMatchObject({ status: 'running', runs: 1 });
      expect((await finished(t, token, created.data.taskId)).status).toBe('succeeded');
      expect(claim).not.toHaveBeenCalled();
    } finally {
      claim.mockRestore();
    }
  });

  it('a run of a task this process did not just hand over (a failed job retried) claims it like any other', async () => {
    const id = randomUUID();
    await storedTask(id, 'running');
    const asked = standin.received.length;
    // Not handed over by a create here; the database says running with a fresh heartbeat (someone runs it).
    await t.container.writing.tasks.run(id);
    expect(standin.received.length).toBe(asked);
    expect(await statusOf(t, id)).toMatchObject({ status: 'running', runs: 1 });
    // Not left for the recovery sweep to restart in 10 s, in the middle of another test's count of open streams.
    await t.container.db.update(writingTasks).set({ status: 'failed' }).where(eq(writingTasks.id, id));
  });

  it('with every writing slot of this process taken, a new task is stored queued and claimed when a slot frees', async () => {
    const one = await startTestApp({
      db: dbKind,
      env: {
        LLM_MODELS: JSON.stringify([{ id: 'wide', label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' }]),
        RATE_LIMIT_PER_MINUTE: '100000',
        WRITING_CONCURRENCY: '1',
      },
    });
    try {
      const user = await loginByPhone(one);
      await one.container.services.points.grant(user.user.id, 1000, { reason: 'test', idempotencyKey: `test:${user.user.id}` });
      const claim = vi.spyOn(one.container.writing.repo, 'claim');
      const first = await create(one, user.tokenValue, '10.79.0.1');
      const second = await create(one, user.tokenValue, '10.79.0.2');
      expect(await statusOf(one, first.data.taskId)).toMatchObject({ status: 'running', runs: 1 });
      // The slot is the first task's for ~0.6 s: the second waits queued, not "running" without a run.
      expect(await statusOf(one, second.data.taskId)).toMatchObject({ status: 'queued', runs: 0 });
      expect((await finished(one, user.tokenValue, second.data.taskId)).status).toBe('succeeded');
      expect((await finished(one, user.tokenValue, first.data.taskId)).status).toBe('succeeded');
      expect(claim.mock.calls.map((c) => c[0])).toEqual([second.data.taskId]);
    } finally {
      await one.close();
    }
  }, 60_000);

  it("a task's last events (done) reach streams in this process as a batch that follows what they sent: no read back", async () => {
    const signals = t.container.writing.signals;
    const seen: Array<StoredEventBatch | undefined> = [];
    const listen = (batch?: StoredEventBatch) => seen.push(batch);
    const created = await create(t, token, '10.78.1.1');
    const id = created.data.taskId;
    signals.on(id, listen);
    try {
      expect((await finished(t, token, id)).status).toBe('succeeded');
    } finally {
      signals.off(id, listen);
    }
    const stored = await t.container.writing.repo.eventsAfter(id, 0);
    const last = seen.at(-1);
    expect(last?.events.at(-1)).toMatchObject({ type: 'done' });
    // It continues exactly the event before it, so a stream that sent that one sends these from memory.
    const firstOfLast = stored.findIndex((e) => e.id === last!.events[0]!.id);
    expect(last!.after).toBe(stored[firstOfLast - 1]!.id);
    expect(last!.events).toEqual(stored.slice(firstOfLast).map((e) => ({ id: e.id, type: e.type, data: e.data })));
  });

  it('a stream waiting for its first text is woken by the write, not by re-reading the database', async () => {
    const reads = vi.spyOn(t.container.writing.repo, 'eventsAfter');
    // The model takes ~1.2 s before its first text (two chunks 600 ms apart).
    standin.script.push({ kind: 'reply', reply: { content: '慢一点的回答。', chunkChars: 20, delayMs: 600 } });
    try {
      const created = await create(t, token, '10.78.2.1');
      const ctrl = new AbortController();
      const res = await fetch(`${t.url}/api/mp/task/stream/${created.data.taskId}`, { headers: { [TOKEN_NAME]: token }, signal: ctrl.signal });
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('event: delta')) text += new TextDecoder().decode((await reader.read()).value);
      ctrl.abort();
      // Every event of the task was written here and handed to the stream: no read back while it waited (at the
      // 250 ms default poll that would be four reads), on PostgreSQL as on the embedded database.
      expect(reads).not.toHaveBeenCalled();
      await finished(t, token, created.data.taskId);
    } finally {
      reads.mockRestore();
    }
  });

  /** Reads a task's SSE stream to its end: each event's id, type and data. */
  const sseEvents = async (res: Response) => {
    const text = await res.text();
    return text
      .split('\n\n')
      .filter((block) => block.includes('event: '))
      .map((block) => {
        const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(block)?.[1];
        return { id: Number(field('id')), type: field('event'), data: JSON.parse(field('data') ?? 'null') as unknown };
      });
  };

  it('a stream opened on a task this process created and runs starts from its log: no query, the same events as the table', async () => {
    const owned = vi.spyOn(t.container.writing.repo, 'ownedEventsAfter');
    const reads = vi.spyOn(t.container.writing.repo, 'eventsAfter');
    const other = await loginByPhone(t);
    standin.script.push({ kind: 'reply', reply: { content: '先想一想，再慢慢写。', chunkChars: 4, delayMs: 150 } });
    let created: Awaited<ReturnType<typeof create>>;
    let sent: Awaited<ReturnType<typeof sseEvents>>;
    try {
      created = await create(t, token, '10.78.3.1');
      const stream = fetch(`${t.url}/api/mp/task/stream/${created.data.taskId}`, { headers: { [TOKEN_NAME]: token } });
      // While it runs: another creator's stream of it is refused from the log as from the table.
      const refused = await fetch(`${t.url}/api/mp/task/stream/${created.data.taskId}`, { headers: { [TOKEN_NAME]: other.tokenValue } });
      expect(await refused.json()).toMatchObject({ code: ErrorCode.NOT_FOUND, msg: '任务不存在' });
      sent = await sseEvents(await stream);
      expect(owned).not.toHaveBeenCalled();
      expect(reads).not.toHaveBeenCalled();
    } finally {
      owned.mockRestore();
      reads.mockRestore();
    }
    const stored = await t.container.writing.repo.eventsAfter(created.data.taskId, 0);
    expect(sent[0]).toMatchObject({ type: 'progress', data: { stage: 'queued' } });
    expect(sent.map((e) => e.type)).toContain('delta');
    expect(sent.at(-1)?.type).toBe('done');
    expect(sent).toEqual(stored.map((e) => ({ id: e.id, type: e.type, data: e.data })));
    // Once the run has ended, its log is gone: a stream (a reload) reads the table, and gets the same events.
    const again = vi.spyOn(t.container.writing.repo, 'ownedEventsAfter');
    try {
      const reloaded = await sseEvents(await fetch(`${t.url}/api/mp/task/stream/${created.data.taskId}`, { headers: { [TOKEN_NAME]: token } }));
      expect(again).toHaveBeenCalledTimes(1);
      expect(reloaded).toEqual(sent);
    } finally {
      again.mockRestore();
    }
  });

  it("another process's write to a task this process runs drops its log: the next stream reads the table", async () => {
    standin.script.push({ kind: 'reply', reply: { content: '慢慢写来。', chunkChars: 2, delayMs: 150 } });
    const created = await create(t, token, '10.78.4.1');
    const owned = vi.spyOn(t.container.writing.repo, 'ownedEventsAfter');
    try {
      // What task-event-relay.ts does when another process stored events of the task.
      t.container.writing.signals.wake(created.data.taskId);
      const sent = await sseEvents(await fetch(`${t.url}/api/mp/task/stream/${created.data.taskId}`, { headers: { [TOKEN_NAME]: token } }));
      expect(owned).toHaveBeenCalledTimes(1);
      expect(sent.at(-1)?.type).toBe('done');
    } finally {
      owned.mockRestore();
    }
  });

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

  it('first texts handed over in one turn of the event loop share one statement', async () => {
    const repo = t.container.writing.repo;
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const tasks = await Promise.all(ids.map((id) => storedTask(id, 'running')));
    let statements = 0;
    const writeRunning = repo.writeRunning.bind(repo);
    const counting = Object.assign(Object.create(repo) as typeof repo, {
      writeRunning: (...a: Parameters<typeof writeRunning>) => (statements++, writeRunning(...a)),
    });
    const writer = new TaskWriter(counting, new TaskSignals(), t.container.clock);
    const sinks = ids.map((id, i) => new TaskSink(writer, id, tasks[i]!.runs));
    // As when the model thread hands over several streams' first chunks in one message.
    for (const [i, sink] of sinks.entries()) sink.delta(`第${i}句`);
    await Promise.all(sinks.map((sink) => sink.settled()));
    expect(statements).toBe(1);
    for (const [i, id] of ids.entries()) expect((await repo.eventsAfter(id, 0)).map((e) => [e.type, e.data.text])).toEqual([['delta', `第${i}句`]]);
  });

  /** A sink on a stored running task whose writer counts its statements and gathers writes for `gatherMs`. */
  const countingSink = async (gatherMs: number) => {
    const repo = t.container.writing.repo;
    const id = randomUUID();
    const task = await storedTask(id, 'running');
    let statements = 0;
    const writeRunning = repo.writeRunning.bind(repo);
    const counting = Object.assign(Object.create(repo) as typeof repo, {
      writeRunning: (...a: Parameters<typeof writeRunning>) => (statements++, writeRunning(...a)),
    });
    const sink = new TaskSink(new TaskWriter(counting, new TaskSignals(), t.container.clock, gatherMs), id, task.runs);
    return { repo, id, sink, statements: () => statements };
  };

  it('the first text does not wait out the gathering of the write before it (the progress event before the model call): both go in one statement', async () => {
    // Writes that are not urgent wait for company: here as good as forever.
    const { repo, id, sink, statements } = await countingSink(60_000);
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
    expect(statements()).toBe(1);
    expect(await repo.task(id)).toMatchObject({ text: '第一句' });
  }, 10_000);

  it('writes before the first text wait longer for it (4 x the gathering): a model answering within that carries them', async () => {
    // Gathering 50 ms: a progress event before the text waits up to 200 ms.
    const { repo, id, sink, statements } = await countingSink(50);
    sink.progress('writing', '正在写作', 10);
    await new Promise((r) => setTimeout(r, 120));
    expect(statements()).toBe(0);
    sink.delta('第一句');
    await sink.settled();
    expect(statements()).toBe(1);
    expect((await repo.eventsAfter(id, 0)).map((e) => e.type)).toEqual(['progress', 'delta']);
    // Once the text has started, writes wait the usual 50 ms.
    sink.delta('第二句');
    await sink.flush();
    const t0 = Date.now();
    sink.progress('review', '正在检查', 90);
    await new Promise((r) => setTimeout(r, 0));
    await sink.flush();
    expect(Date.now() - t0).toBeLessThan(190);
    expect(statements()).toBe(3);
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
    await repo.insertTasksWithEvents([
      {
        task: row(ok),
        events: [
          { type: 'progress', data: { stage: 'queued' } },
          { type: 'progress', data: { stage: 'second' } },
        ],
      },
    ]);
    expect(await repo.task(ok)).toMatchObject({ id: ok, status: 'failed' });
    expect((await repo.eventsAfter(ok, 0)).map((e) => e.data.stage)).toEqual(['queued', 'second']);
    // An event the database refuses (NUL in jsonb) takes the task with it.
    const bad = randomUUID();
    await expect(repo.insertTasksWithEvents([{ task: row(bad), events: [{ type: 'progress', data: { stage: 'a\u0000b' } }] }])).rejects.toThrow();
    expect(await repo.task(bad)).toBeUndefined();
  });

  it('stores creates made in one turn together, in one statement; a refused one fails alone', async () => {
    const repo = t.container.writing.repo;
    const [owner] = await t.container.db.select({ id: users.id }).from(users).limit(1);
    const statements: number[] = [];
    const inserter = new TaskInserter({
      insertTasksWithEvents: (entries) => {
        statements.push(entries.length);
        return repo.insertTasksWithEvents(entries);
      },
    });
    const row = (id: string) => ({
      id,
      userId: owner!.id,
      kind: 'article' as const,
      mode: 'quick',
      input: { n: id },
      modelId: 'wide',
      status: 'failed' as const,
      pointsFeature: 'article_quick',
      pointsCharged: 0,
      createdAt: new Date(),
    });
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const returned = await Promise.all(
      ids.map((id) =>
        inserter.insert(row(id), [
          { type: 'progress', data: { stage: 'queued', id } },
          { type: 'progress', data: { stage: 'second', id } },
        ]),
      ),
    );
    expect(statements).toEqual([12]);
    for (const [i, id] of ids.entries()) {
      expect(await repo.task(id)).toMatchObject({ id, input: { n: id } });
      const stored = await repo.eventsAfter(id, 0);
      expect(stored.map((e) => [e.data.stage, e.data.id])).toEqual([
        ['queued', id],
        ['second', id],
      ]);
      // Each create is told its events as numbered in the table (what its streams start from).
      expect(returned[i]).toEqual(stored.map((e) => ({ id: e.id, type: e.type, data: e.data })));
    }
    // One the database refuses (NUL in jsonb), sent with others: it alone fails, the others are stored.
    statements.length = 0;
    const [first, good, bad, alsoGood] = Array.from({ length: 4 }, () => randomUUID());
    const results = await Promise.allSettled([
      inserter.insert(row(first!), [{ type: 'progress', data: { stage: 'queued' } }]),
      inserter.insert(row(good!), [{ type: 'progress', data: { stage: 'queued' } }]),
      inserter.insert(row(bad!), [{ type: 'progress', data: { stage: 'a\u0000b' } }]),
      inserter.insert(row(alsoGood!), [{ type: 'progress', data: { stage: 'queued' } }]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(statements).toEqual([4, 1, 1, 1, 1]);
    expect(await repo.task(bad!)).toBeUndefined();
    expect(await repo.eventsAfter(bad!, 0)).toEqual([]);
    for (const id of [first!, good!, alsoGood!]) expect((await repo.eventsAfter(id, 0)).map((e) => e.data.stage)).toEqual(['queued']);
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

  it("a task's success is one statement: its draft, the task pointing at it and the done event carrying its id, or nothing at all for a run that lost it", async () => {
    const repo = t.container.writing.repo;
    const id = randomUUID();
    const task = await storedTask(id, 'running');
    const finish = (run: number) =>
      repo.finishRunning({
        taskId: id,
        run,
        text: '# 标题\n\n正文',
        title: '标题',
        usage: { promptTokens: 3, completionTokens: 5, totalTokens: 8 },
        now: new Date(),
        draft: { userId: task.userId, markdown: '# 标题\n\n正文', html: '<h1>标题</h1><p>正文</p>' },
        events: [
          { type: 'delta', data: { text: '正文' } },
          { type: 'done', data: { title: '标题' } },
        ],
      });
    // A run that was taken over (another worker's run 2 holds it now) writes nothing: no draft without its task.
    expect(await finish(task.runs + 1)).toBeUndefined();
    expect(await t.container.db.select().from(drafts).where(eq(drafts.taskId, id))).toEqual([]);
    expect(await repo.eventsAfter(id, 0)).toEqual([]);
    expect(await statusOf(t, id)).toMatchObject({ status: 'running' });

    const done = await finish(task.runs);
    const [draft] = await t.container.db.select().from(drafts).where(eq(drafts.taskId, id));
    expect(draft).toMatchObject({ userId: task.userId, title: '标题', markdown: '# 标题\n\n正文', html: '<h1>标题</h1><p>正文</p>' });
    expect(done!.draftId).toBe(draft!.id);
    const [row] = await t.container.db.select().from(writingTasks).where(eq(writingTasks.id, id));
    expect(row).toMatchObject({ status: 'succeeded', draftId: draft!.id, title: '标题', text: '# 标题\n\n正文', usage: { promptTokens: 3, completionTokens: 5, totalTokens: 8 } });
    const stored = await repo.eventsAfter(id, 0);
    expect(stored.map((e) => [e.type, e.data])).toEqual([
      ['delta', { text: '正文' }],
      ['done', { title: '标题', draftId: draft!.id }],
    ]);
    // What the streams of this process are handed is what was stored.
    expect(done!.events).toEqual(stored.map((e) => ({ id: e.id, type: e.type, data: e.data })));
    // Finished: a second finish (a duplicate run) changes nothing.
    expect(await finish(task.runs)).toBeUndefined();
    expect(await t.container.db.select().from(drafts).where(eq(drafts.taskId, id))).toHaveLength(1);
  });
});
