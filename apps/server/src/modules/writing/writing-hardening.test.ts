import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ErrorCode, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startOpenAiStandin, vendorStreamErrors, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { drafts, pointsLedger, users, writingTaskEvents, writingTasks } from '../../db/schema/index.js';
import { OpenAiCompatibleLlm } from '../../integrations/llm/openai-compatible.js';
import { complete, LlmUpstreamError } from '../../integrations/llm/types.js';

/** Model streams cut short (also at the length limit, or by the vendor's error events), and tasks stopped by a shutdown. */
describeOnDatabases('writing tasks under failure on %s', (dbKind) => {
  let t: TestApp;
  let standin: OpenAiStandin;
  let user: Awaited<ReturnType<typeof loginByPhone>>;
  const articleBody = { createType: 'article', writeType: 'quick', content: '写一段关于早起的话', modelConfigType: 'standin' };

  async function balance() {
    const [row] = await t.container.db.select({ b: users.pointsBalance }).from(users).where(eq(users.id, user.user.id));
    return row!.b;
  }
  async function waitFor<T>(fn: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 400; i++) {
      const v = await fn();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('timed out');
  }
  const info = async (taskId: string) => (await t.call<TaskInfo>('GET', '/mp/task/info', { token: user.tokenValue, query: { taskId } })).data;
  const final = (taskId: string) =>
    waitFor(async () => {
      const i = await info(taskId);
      return i.status === 'succeeded' || i.status === 'failed' ? i : undefined;
    });

  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    t = await startTestApp({
      db: dbKind,
      env: {
        LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' }]),
        LLM_RETRY_BASE_MS: '1',
        WRITING_STREAM_POLL_MS: '50',
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    user = await loginByPhone(t);
    await t.container.services.points.grant(user.user.id, 1000, { reason: 'test', idempotencyKey: `test:${user.user.id}` });
  });
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  it('a reply cut without finish_reason or [DONE] fails the task, keeps the partial text, refunds once, saves no draft', async () => {
    const before = await balance();
    standin.script.push({ kind: 'reply', reply: { content: '前半段已经写好的内容。后半段不会到达。', chunkChars: 4, cutAfterChunks: 3 } });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: user.tokenValue, body: articleBody });
    expect(created.code).toBe(0);
    expect(await balance()).toBeLessThan(before);
    const done = await final(created.data.taskId);
    expect(done).toMatchObject({ status: 'failed', errorCode: ErrorCode.AI_UPSTREAM_FAILED, text: '前半段已经写好的内容。后', draftId: null });
    expect(await balance()).toBe(before);
    const refunds = await t.container.db
      .select()
      .from(pointsLedger)
      .where(eq(pointsLedger.idempotencyKey, `refund:task:${created.data.taskId}`));
    expect(refunds).toHaveLength(1);
  });

  it('a cut before any text is retried like a dropped connection; a cut after text is not', async () => {
    const llm = new OpenAiCompatibleLlm({ id: 'standin', label: 'x', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat', maxRetries: 2, retryBaseMs: 1 });
    const n = standin.received.length;
    standin.script.push({ kind: 'reply', reply: { content: '不会到达', cutAfterChunks: 0 } }, { kind: 'reply', reply: { content: '完整的回答。' } });
    expect((await complete(llm, { messages: [{ role: 'user', content: 'x' }] })).text).toBe('完整的回答。');
    expect(standin.received.length - n).toBe(2);

    standin.script.push({ kind: 'reply', reply: { content: '一二三四五六', chunkChars: 2, cutAfterChunks: 1 } }, { kind: 'reply', reply: { content: '不应到达' } });
    await expect(complete(llm, { messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(LlmUpstreamError);
    expect(standin.received.length - n).toBe(3);
    standin.script.length = 0;
  });

  const eventsOf = async (taskId: string) => (await t.container.db.select().from(writingTaskEvents).where(eq(writingTaskEvents.taskId, taskId))).sort((a, b) => a.id - b.id);

  it('a reply cut at the length limit is continued with the text so far: one whole article, charged as a success', async () => {
    const before = await balance();
    const n = standin.received.length;
    standin.script.push(
      { kind: 'reply', reply: { content: '# 早起\n\n早起的第一件事是喝一杯温水，', finishReason: 'length' } },
      { kind: 'reply', reply: { content: '然后打开窗户，让阳光照进来。' } },
    );
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: user.tokenValue, body: articleBody });
    const charged = before - (await balance());
    expect(charged).toBeGreaterThan(0);
    const done = await final(created.data.taskId);
    expect(done).toMatchObject({ status: 'succeeded', errorCode: null, errorMsg: null, text: '# 早起\n\n早起的第一件事是喝一杯温水，然后打开窗户，让阳光照进来。' });
    expect(await balance()).toBe(before - charged);
    // The continuation: the same request, the text so far as the assistant's turn, then the ask to go on from there.
    expect(standin.received.length - n).toBe(2);
    const [first, second] = standin.received.slice(n);
    expect(second!.messages.slice(0, first!.messages.length)).toEqual(first!.messages);
    expect(second!.messages.slice(first!.messages.length)).toEqual([
      { role: 'assistant', content: '# 早起\n\n早起的第一件事是喝一杯温水，' },
      { role: 'user', content: expect.stringContaining('接着写完') },
    ]);
    const [draft] = await t.container.db.select().from(drafts).where(eq(drafts.id, done.draftId!));
    expect(draft!.markdown).toBe(done.text);
    // Usage of both calls.
    const [row] = await t.container.db.select().from(writingTasks).where(eq(writingTasks.id, created.data.taskId));
    expect(row!.usage!.completionTokens).toBeGreaterThanOrEqual(2);
    expect((await eventsOf(created.data.taskId)).at(-1)!.data).not.toHaveProperty('truncated');
  });

  it('still cut after the continuations: kept as a draft, the creator told it may be incomplete, refunded', async () => {
    const before = await balance();
    const n = standin.received.length;
    standin.script.push(
      { kind: 'reply', reply: { content: '# 早起\n\n第一段，', finishReason: 'length' } },
      { kind: 'reply', reply: { content: '第二段，', finishReason: 'length' } },
      { kind: 'reply', reply: { content: '第三段，', finishReason: 'length' } },
      { kind: 'reply', reply: { content: '不应到达' } },
    );
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: user.tokenValue, body: articleBody });
    const { taskId } = created.data;
    const charged = before - (await balance());
    expect(charged).toBeGreaterThan(0);
    const done = await final(taskId);
    // What a fourth call would have taken is not left for the next test.
    const unused = standin.script.splice(0);
    expect(unused).toHaveLength(1);
    const notice = '模型输出达到长度上限，文章可能不完整，已退还积分';
    expect(done).toMatchObject({ status: 'succeeded', errorCode: ErrorCode.AI_OUTPUT_TRUNCATED, errorMsg: notice, text: '# 早起\n\n第一段，第二段，第三段，' });
    // The first call and two continuations, the last sent all the text so far.
    expect(standin.received.length - n).toBe(3);
    expect(standin.received.at(-1)!.messages.at(-2)).toEqual({ role: 'assistant', content: '# 早起\n\n第一段，第二段，' });
    const [draft] = await t.container.db.select().from(drafts).where(eq(drafts.id, done.draftId!));
    expect(draft!.markdown).toBe(done.text);
    // A complete text is what is charged for: refunded once, in the finishing transaction.
    expect(await balance()).toBe(before);
    const refunds = await t.container.db
      .select()
      .from(pointsLedger)
      .where(eq(pointsLedger.idempotencyKey, `refund:task:${taskId}`));
    expect(refunds).toHaveLength(1);
    const events = await eventsOf(taskId);
    expect(events.slice(-2).map((e) => [e.type, e.data])).toEqual([
      ['progress', { stage: 'finish', message: notice, percent: 100 }],
      ['done', { title: '早起', draftId: done.draftId, truncated: true, notice, refunded: charged }],
    ]);
  });

  it('deep: a revision still cut at the limit gives way to the complete reviewed draft, charged as a success', async () => {
    const respond = standin.respond;
    let revisions = 0;
    standin.respond = (body) => {
      const asked = body.messages.map((m) => m.content).join('\n');
      if (asked.includes('只输出一个JSON对象')) return { content: '{"title":"早起","outline":[{"heading":"为什么早起","points":["从容"]}],"queries":[]}' };
      if (asked.includes('根据审阅意见修改文章')) {
        revisions += 1;
        return { content: '修订稿写到一半，', finishReason: 'length' };
      }
      if (asked.includes('审阅下面的文章')) return { content: '1. 开头加一个场景。' };
      return { content: '早起让一天更从容。' };
    };
    try {
      const before = await balance();
      const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: user.tokenValue, body: { ...articleBody, writeType: 'deep' } });
      const charged = before - (await balance());
      const done = await final(created.data.taskId);
      expect(revisions).toBe(3);
      expect(done).toMatchObject({ status: 'succeeded', errorCode: null, text: '# 早起\n\n## 为什么早起\n\n早起让一天更从容。\n\n' });
      expect(await balance()).toBe(before - charged);
      const events = await eventsOf(created.data.taskId);
      expect(events.map((e) => e.data)).toContainEqual({ stage: 'revise', message: '修改稿超出长度上限，保留初稿', percent: 95 });
    } finally {
      standin.respond = respond;
    }
  });

  it("a vendor's content-safety event inside the stream (no error key) fails the task as sensitive content (933) at once, refunded", async () => {
    const before = await balance();
    const n = standin.received.length;
    standin.script.push(
      {
        kind: 'reply',
        reply: { content: '前半段已经写好的内容。后半段不会到达。', chunkChars: 4, vendorErrorAfterChunks: { after: 2, event: vendorStreamErrors.dashscopeNative() } },
      },
      { kind: 'reply', reply: { content: '不应到达' } },
    );
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: user.tokenValue, body: articleBody });
    const done = await final(created.data.taskId);
    // Not retried: the reply that would answer a retry is still waiting.
    expect(standin.script.splice(0)).toHaveLength(1);
    expect(done).toMatchObject({ status: 'failed', errorCode: ErrorCode.SENSITIVE_CONTENT, text: '前半段已经写好的', draftId: null });
    expect(standin.received.length - n).toBe(1);
    expect(await balance()).toBe(before);
  });

  it('a run whose task was taken over by another worker (missed heartbeat) stops writing instead of finishing it too', async () => {
    standin.script.push({ kind: 'reply', reply: { content: '一段写得很慢的文字。'.repeat(30), chunkChars: 3, delayMs: 30 } });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: user.tokenValue, body: articleBody });
    const { taskId } = created.data;
    await waitFor(async () => ((await info(taskId)).text.length > 0 ? true : undefined));
    // What another worker's claim does: a new run number and heartbeat.
    await t.container.db
      .update(writingTasks)
      .set({ runs: sql`${writingTasks.runs} + 1`, heartbeatAt: new Date() })
      .where(eq(writingTasks.id, taskId));
    await t.container.jobs.idle();
    await waitFor(async () => (standin.open() === 0 ? true : undefined));
    const [row] = await t.container.db.select().from(writingTasks).where(eq(writingTasks.id, taskId));
    expect(row).toMatchObject({ status: 'running', draftId: null, finishedAt: null });
    const events = await t.container.db.select().from(writingTaskEvents).where(eq(writingTaskEvents.taskId, taskId));
    expect(events.map((e) => e.type)).not.toContain('done');
    expect(events.map((e) => e.type)).not.toContain('error');
    // Hand it back so later tests see a finished suite state.
    await t.container.writing.tasks.fail(taskId, ErrorCode.TASK_INTERRUPTED, 'test');
  });

  // Last in this suite: after shutdown the task service starts nothing more.
  it('shutdown puts a running task back in the queue with its text, neither failed nor refunded, and ends its event stream', async () => {
    const before = await balance();
    standin.script.push({ kind: 'reply', reply: { content: '一段写得很慢的文字。'.repeat(30), chunkChars: 3, delayMs: 40 } });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: user.tokenValue, body: articleBody });
    const { taskId } = created.data;
    const charged = before - (await balance());
    expect(charged).toBeGreaterThan(0);
    await waitFor(async () => ((await info(taskId)).text.length > 0 ? true : undefined));
    const sse = fetch(`${t.url}/api/mp/task/stream/${taskId}`, { headers: { 'inkstone-token': user.tokenValue } }).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 100));

    const started = Date.now();
    await t.container.writing.shutdown();
    expect(Date.now() - started).toBeLessThan(2000);
    const [row] = await t.container.db.select().from(writingTasks).where(eq(writingTasks.id, taskId));
    expect(row).toMatchObject({ status: 'queued', heartbeatAt: null, errorCode: null, finishedAt: null });
    expect(row!.text.length).toBeGreaterThan(0);
    expect(await balance()).toBe(before - charged);
    const events = await t.container.db.select().from(writingTaskEvents).where(eq(writingTaskEvents.taskId, taskId));
    expect(events.map((e) => e.type)).not.toContain('error');
    expect(events.at(-1)!.data).toMatchObject({ stage: 'queued', message: '服务正在重启，任务将在重启后自动继续' });
    const body = await sse;
    expect(body).toContain('服务正在重启');

    // A job arriving after shutdown leaves the task queued for the next start instead of running it.
    await t.container.writing.tasks.run(taskId);
    expect((await info(taskId)).status).toBe('queued');
  });
});
