import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_NAME } from '@inkstone/shared';
import { startWebProcesses, type WebProcess } from '../../test/app.js';
import { describeNeeding } from '../../test/database.js';
import { startOpenAiStandin, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { users } from '../../db/schema/index.js';
import { InProcessBus } from '../../cache/bus.js';
import type { StoredEventBatch } from '../../http/event-stream.js';
import { relayTaskEvents } from './task-event-relay.js';
import { TaskSignals } from './task-sink.js';

describe('task event relay', () => {
  it("wakes the other processes' streams, not this one's, with one message for what was stored in one turn", async () => {
    // Two processes' signals on one bus: each relay hears the other's messages as over Redis.
    const bus = new InProcessBus();
    const [a, b] = [new TaskSignals(), new TaskSignals()];
    relayTaskEvents(a, bus);
    relayTaskEvents(b, bus);
    const messages: string[] = [];
    bus.subscribe('writing-task-events', (m) => messages.push(m));
    const onA: Array<[string, StoredEventBatch | undefined]> = [];
    const onB: Array<[string, StoredEventBatch | undefined]> = [];
    for (const id of ['t1', 't2']) {
      a.on(id, (batch?: StoredEventBatch) => onA.push([id, batch]));
      b.on(id, (batch?: StoredEventBatch) => onB.push([id, batch]));
    }
    const first: StoredEventBatch = { after: 0, events: [{ id: 1, type: 'delta', data: { text: '一' } }] };
    const second: StoredEventBatch = { after: 1, events: [{ id: 2, type: 'delta', data: { text: '二' } }] };
    a.notify('t1', first);
    a.notify('t2');
    a.notify('t1', second);
    // This process's streams have what was stored, at once and only once.
    expect(onA).toEqual([
      ['t1', first],
      ['t2', undefined],
      ['t1', second],
    ]);
    expect(messages).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(messages).toHaveLength(1);
    // The other's streams read from the database: woken once per task, without a batch.
    expect(onB).toEqual([
      ['t1', undefined],
      ['t2', undefined],
    ]);
    expect(onA).toHaveLength(3);
  });
});

/**
 * A stream held by web process B for a task worker A runs hears of each write over Redis at once. B's poll is set to
 * 10 s here, so a stream that only polled would see nothing between its first read and the end of the test.
 */
describeNeeding(['TEST_DATABASE_URL', 'TEST_REDIS_URL'], 'writing streams across processes (PostgreSQL + Redis)', (pgUrl, redisUrl) => {
  let standin: OpenAiStandin;
  let worker: WebProcess;
  let web: WebProcess;
  let token: string;
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    // Ten chunks 150 ms apart: the task streams for ~1.5 s.
    standin.respond = () => ({ content: '城市骑行让通勤更健康也更省钱。'.repeat(2), chunkChars: 3, delayMs: 150 });
    const model = { id: 'standin', label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' };
    const pair = await startWebProcesses(
      pgUrl,
      redisUrl,
      { LLM_MODELS: JSON.stringify([model]), LLM_DEFAULT_MODEL: 'standin', WRITING_STREAM_POLL_MS: '10000', RATE_LIMIT_PER_MINUTE: '100000' },
      2,
      [{ ROLES: 'web,worker' }, { ROLES: 'web' }],
    );
    [worker, web] = pair.processes as [WebProcess, WebProcess];
    close = pair.close;
    await worker.container.startJobs();
    const [user] = await worker.container.db
      .insert(users)
      .values({ uid: 'relay2p', username: 'u_relay2p', nickname: '两进程写作', phone: '13900008888', inviteCode: 'RELAY2P' })
      .returning({ id: users.id });
    token = (await worker.container.services.sessions.create(user!.id, {})).tokenValue;
    await worker.container.services.points.grant(user!.id, 10_000, { reason: 'test', idempotencyKey: 'test:relay2p' });
  }, 120_000);
  afterAll(async () => {
    await close();
    await standin?.close();
  });

  it('each write of the worker reaches the stream on the web process as it happens, through to done', async () => {
    const created = (await (
      await fetch(`${web.url}/api/mp/task/create`, {
        method: 'POST',
        headers: { [TOKEN_NAME]: token, 'content-type': 'application/json' },
        body: JSON.stringify({ createType: 'article', writeType: 'quick', content: '写一段关于城市骑行的话', modelConfigType: 'standin' }),
      })
    ).json()) as { code: number; data: { taskId: string } };
    expect(created.code).toBe(0);
    const res = await fetch(`${web.url}/api/mp/task/stream/${created.data.taskId}`, { headers: { [TOKEN_NAME]: token } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    // When each delta and the done event arrived on B.
    const deltas: number[] = [];
    let doneAt: number | null = null;
    let buf = '';
    const deadline = Date.now() + 8_000;
    while (doneAt === null && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        if (/^event: delta$/m.test(block)) deltas.push(Date.now());
        if (/^event: done$/m.test(block)) doneAt = Date.now();
      }
    }
    await reader.cancel().catch(() => undefined);
    expect(doneAt).not.toBeNull();
    // The text came in several writes spread over the model's ~1.5 s, not in one read at the end.
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas[deltas.length - 1]! - deltas[0]!).toBeGreaterThanOrEqual(500);
    // The task ran on the worker: B, a web process, runs no tasks.
    expect(standin.received.length).toBeGreaterThanOrEqual(1);
  }, 30_000);
});
