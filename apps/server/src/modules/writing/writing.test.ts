import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, errorMessages, TOKEN_NAME, type DraftDetail, type FestivalItem, type ModelItem, type Persona, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startOpenAiStandin, type ChatRequestBody, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { pointsLedger, users, writingTasks } from '../../db/schema/index.js';
import { OFFLINE_LABEL } from '../../integrations/llm/offline.js';
import { commands } from '../../cli/commands.js';

interface SseEvent {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/** Reads an SSE response to its end (or until `stopAfter` events) and parses it. */
async function readSse(
  t: TestApp,
  taskId: string,
  opts: { token: string; via?: 'header' | 'ticket'; lastEventId?: number; stopAfter?: number },
): Promise<{ events: SseEvent[]; status: number; contentType: string | null; comments: string[] }> {
  const u = new URL(`${t.url}/api/mp/task/stream/${taskId}`);
  const headers: Record<string, string> = {};
  if (opts.via === 'ticket') {
    const issued = await t.call<{ ticket: string }>('POST', '/mp/task/stream/ticket', { token: opts.token, body: { taskId } });
    u.searchParams.set('ticket', issued.data.ticket);
  } else headers[TOKEN_NAME] = opts.token;
  if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
  const ctrl = new AbortController();
  const res = await fetch(u, { headers, signal: ctrl.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let idx;
      while ((idx = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, idx);
        buf = buf.slice(idx + 2);
        const e: Partial<SseEvent> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line);
          else if (line.startsWith('id: ')) e.id = Number(line.slice(4));
          else if (line.startsWith('event: ')) e.event = line.slice(7);
          else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6)) as Record<string, unknown>;
        }
        if (e.event) events.push(e as SseEvent);
        if (opts.stopAfter && events.length >= opts.stopAfter) {
          ctrl.abort();
          return { events, status: res.status, contentType: res.headers.get('content-type'), comments };
        }
      }
    }
  } catch (err) {
    if (!ctrl.signal.aborted) throw err;
  }
  return { events, status: res.status, contentType: res.headers.get('content-type'), comments };
}

const textOf = (events: SseEvent[]) => {
  let text = '';
  for (const e of events) {
    if (e.event === 'reset') text = '';
    if (e.event === 'delta') text += e.data.text as string;
  }
  return text;
};

async function balance(t: TestApp, userId: number) {
  const [row] = await t.container.db.select({ b: users.pointsBalance }).from(users).where(eq(users.id, userId));
  return row!.b;
}

async function waitForTask(t: TestApp, token: string, taskId: string): Promise<TaskInfo> {
  await t.container.jobs.idle();
  for (let i = 0; i < 200; i++) {
    const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId } });
    if (info.data.status === 'succeeded' || info.data.status === 'failed') return info.data;
    await new Promise((r) => setTimeout(r, 50));
    await t.container.jobs.idle();
  }
  throw new Error('task did not finish');
}

/** Answers the deep pipeline's calls (plan JSON, sections, review, revision) like a model would. */
function deepResponder(body: ChatRequestBody) {
  const user = body.messages.at(-1)!.content;
  if (user.includes('只输出一个JSON对象')) {
    return {
      reasoning: '先确定读者和结构。',
      content:
        '好的：{"title":"城市骑行通勤指南","outline":[{"heading":"为什么骑行","points":["健康","省钱"]},{"heading":"怎么开始","points":["装备"]}],"queries":["城市骑行 通勤 数据"]}',
    };
  }
  if (user.includes('审阅下面的文章')) return { content: '1. 标题可以更具体。2. 开头加一个场景。' };
  if (user.includes('根据审阅意见修改文章'))
    return { content: '# 城市骑行通勤指南（修订）\n\n早高峰的地铁里，你是否想过换一种方式上班？\n\n## 为什么骑行\n\n骑行让人更健康[1]。\n' };
  return { content: '这一节的正文内容，骑行让通勤更健康也更省钱。', chunkChars: 5 };
}

describeOnDatabases('AI writing on %s', (dbKind) => {
  let t: TestApp;
  let standin: OpenAiStandin;
  let user: Awaited<ReturnType<typeof loginByPhone>>;
  const grant = (userId: number, amount: number) => t.container.services.points.grant(userId, amount, { reason: 'test', idempotencyKey: `test:${userId}:${Math.random()}` });

  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    standin.respond = deepResponder;
    t = await startTestApp({
      db: dbKind,
      env: {
        LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' }]),
        LLM_DEFAULT_MODEL: 'offline',
        LLM_RETRY_BASE_MS: '1',
        WRITING_STREAM_POLL_MS: '50',
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    user = await loginByPhone(t);
    await grant(user.user.id, 1000);
  });
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  it('lists models for the picker without keys, the offline writer marked as not AI', async () => {
    const res = await t.call<ModelItem[]>('GET', '/writing/model/list', { token: user.tokenValue });
    expect(res.code).toBe(0);
    expect(res.data.map((m) => m.id)).toEqual(['standin', 'offline']);
    expect(res.data.find((m) => m.id === 'offline')).toMatchObject({ isAi: false, isDefault: true });
    expect(JSON.stringify(res.data)).not.toContain(standin.apiKey);
    expect((await t.call('GET', '/writing/model/list')).code).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('says online search is not configured, and refuses a task that asks for it', async () => {
    const status = await t.call('GET', '/writing/search/status', { token: user.tokenValue });
    expect(status.data).toEqual({ enabled: false, provider: null, reason: '未配置联网搜索服务' });
    const before = await balance(t, user.user.id);
    const res = await t.call('POST', '/mp/task/create', { token: user.tokenValue, body: { createType: 'article', content: '写一篇骑行文章', onlineSearch: true } });
    expect(res.code).toBe(ErrorCode.SEARCH_NOT_CONFIGURED);
    expect(res.msg).toContain('未配置联网搜索服务');
    expect(await balance(t, user.user.id)).toBe(before);
  });

  it('offline deep task: free, streams a structured article with no label in its text, says offline in info and draft', async () => {
    const before = await balance(t, user.user.id);
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'deep', content: '城市骑行通勤的好处。骑行让通勤更健康，也更省钱。很多城市正在修建自行车专用道，骑行越来越安全。' },
    });
    expect(created.code).toBe(0);
    const { taskId } = created.data;
    const stream = await readSse(t, taskId, { token: user.tokenValue });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toContain('text/event-stream');
    const ids = stream.events.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(stream.events[0]).toMatchObject({ event: 'progress', data: { stage: 'queued' } });
    const done = stream.events.at(-1)!;
    expect(done.event).toBe('done');
    const text = textOf(stream.events);
    // The body is the user's draft and may be published: no label, no note about the writer in it.
    expect(text).not.toContain(OFFLINE_LABEL);
    expect(text).not.toMatch(/离线写作助手|非AI/);
    expect(text.startsWith('# ')).toBe(true);
    expect(text).toContain('## 导语');
    expect(text).toContain('骑行让通勤更健康');

    const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token: user.tokenValue, query: { taskId } });
    expect(info.data).toMatchObject({ status: 'succeeded', modelId: 'offline', generatedBy: 'offline', pointsCharged: 0, draftId: done.data.draftId });
    expect(info.data.text).toBe(text);
    // Not AI, so not charged: the balance is untouched and no ledger row names the task.
    expect(await balance(t, user.user.id)).toBe(before);
    expect(
      await t.container.db
        .select()
        .from(pointsLedger)
        .where(eq(pointsLedger.idempotencyKey, `task:${taskId}`)),
    ).toEqual([]);
    const draft = await t.call<DraftDetail>('GET', '/writing/draft/detail', { token: user.tokenValue, query: { id: info.data.draftId! } });
    expect(draft.data.markdown).toBe(text);
    expect(draft.data.html).toContain('<h2>导语</h2>');
    expect(draft.data.taskId).toBe(taskId);
    expect(draft.data.generatedBy).toBe('offline');
    expect(draft.data.html).not.toContain('离线写作助手');

    // Another user cannot read it.
    const other = await loginByPhone(t);
    expect((await t.call('GET', '/mp/task/info', { token: other.tokenValue, query: { taskId } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await readSse(t, taskId, { token: other.tokenValue })).events).toEqual([]);
    // Its stream answers with the envelope, not an empty event stream (the check is the first read's own condition).
    const refused = await fetch(`${t.url}/api/mp/task/stream/${taskId}`, { headers: { [TOKEN_NAME]: other.tokenValue } });
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(await refused.json()).toMatchObject({ code: ErrorCode.NOT_FOUND, msg: '任务不存在' });
  });

  it('SSE: a stream ticket as query parameter, and a reconnect resumes after Last-Event-ID', async () => {
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'quick', content: '周末去郊外露营需要准备什么？帐篷、睡袋和炉具是基本装备。' },
    });
    const { taskId } = created.data;
    const full = await readSse(t, taskId, { token: user.tokenValue, via: 'ticket' });
    expect(full.events.at(-1)!.event).toBe('done');
    const part = await readSse(t, taskId, { token: user.tokenValue, stopAfter: 2 });
    const resumed = await readSse(t, taskId, { token: user.tokenValue, lastEventId: part.events.at(-1)!.id });
    expect([...part.events, ...resumed.events]).toEqual(full.events);
    const { data: issued } = await t.call<{ ticket: string }>('POST', '/mp/task/stream/ticket', { token: user.tokenValue, body: { taskId } });
    const byQuery = await fetch(`${t.url}/api/mp/task/stream/${taskId}?ticket=${issued.ticket}&lastEventId=${full.events.at(-2)!.id}`);
    expect(await byQuery.text()).toContain('event: done');
    const tokenInQuery = await fetch(`${t.url}/api/mp/task/stream/${taskId}?token=${user.tokenValue}`);
    expect(((await tokenInQuery.json()) as { code: number }).code).toBe(ErrorCode.NOT_LOGGED_IN);
    const anonymous = await fetch(`${t.url}/api/mp/task/stream/${taskId}`);
    expect(((await anonymous.json()) as { code: number }).code).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('933: a sensitive prompt is refused and nothing is charged; lexicon:add extends the list', async () => {
    const before = await balance(t, user.user.id);
    const res = await t.call('POST', '/mp/task/create', { token: user.tokenValue, body: { createType: 'article', content: '帮我写一篇 网络 赌博 推广文案' } });
    expect(res.code).toBe(ErrorCode.SENSITIVE_CONTENT);
    expect(res.msg).toBe('描述词存在敏感内容');
    const word = `测试禁词${Math.floor(Math.random() * 1e6)}`;
    const first = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: user.tokenValue, body: { createType: 'article', content: `介绍${word}` } });
    expect(first.code).toBe(0);
    expect((await waitForTask(t, user.tokenValue, first.data.taskId)).status).toBe('succeeded');
    await commands['lexicon:add']!.run(t.container, { word });
    expect((await t.call('POST', '/mp/task/create', { token: user.tokenValue, body: { createType: 'article', content: `介绍${word}` } })).code).toBe(ErrorCode.SENSITIVE_CONTENT);
    await t.container.jobs.idle();
    // The one task that ran used the (free) offline writer.
    expect(await balance(t, user.user.id)).toBe(before);
  });

  it('refuses model-backed work with POINTS_INSUFFICIENT and leaves no task behind; the offline writer still works for free', async () => {
    const poor = await loginByPhone(t);
    const res = await t.call<unknown>('POST', '/mp/task/create', {
      token: poor.tokenValue,
      body: { createType: 'article', content: '写一篇骑行文章', modelConfigType: 'standin' },
    });
    expect(res.code).toBe(ErrorCode.POINTS_INSUFFICIENT);
    expect(await t.container.db.select().from(writingTasks).where(eq(writingTasks.userId, poor.user.id))).toEqual([]);
    const offline = await t.call<{ taskId: string }>('POST', '/mp/task/create', { token: poor.tokenValue, body: { createType: 'article', content: '写一篇骑行文章' } });
    expect(offline.code).toBe(0);
    expect(await waitForTask(t, poor.tokenValue, offline.data.taskId)).toMatchObject({ status: 'succeeded', generatedBy: 'offline', pointsCharged: 0 });
    expect(await balance(t, poor.user.id)).toBe(0);
  });

  it('validates the body and names the field', async () => {
    const res = await t.call('POST', '/mp/task/create', { token: user.tokenValue, body: { createType: 'article', writeType: 'fast', content: 'x' } });
    expect(res.code).toBe(ErrorCode.VALIDATION);
    expect(res.msg).toContain('writeType');
    expect((await t.call('POST', '/mp/task/create', { token: user.tokenValue, body: { createType: 'article', content: 'x', modelConfigType: 'nope' } })).code).toBe(
      ErrorCode.MODEL_UNAVAILABLE,
    );
    expect((await t.call('POST', '/mp/task/create', { token: user.tokenValue, body: { createType: 'article', content: 'x', quoteFileIds: [999999] } })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it('stand-in model, deep: charged article_deep; plan, sections with reasoning, review and revision; usage recorded', async () => {
    const before = standin.received.length;
    const points = await balance(t, user.user.id);
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'deep', content: '写一篇城市骑行通勤指南', modelConfigType: 'standin' },
    });
    expect(created.code).toBe(0);
    expect(await balance(t, user.user.id)).toBe(points - 20);
    expect(
      await t.container.db
        .select()
        .from(pointsLedger)
        .where(eq(pointsLedger.idempotencyKey, `task:${created.data.taskId}`)),
    ).toEqual([expect.objectContaining({ kind: 'charge', delta: -20, reason: 'article_deep' })]);
    const stream = await readSse(t, created.data.taskId, { token: user.tokenValue });
    const types = stream.events.map((e) => e.event);
    expect(types).toContain('title');
    expect(types).toContain('reset');
    expect(types.at(-1)).toBe('done');
    expect(stream.events.find((e) => e.event === 'usage')!.data).toMatchObject({ promptTokens: expect.any(Number), totalTokens: expect.any(Number) });
    expect(textOf(stream.events)).toContain('城市骑行通勤指南（修订）');
    // plan + 2 sections + review + revision
    expect(standin.received.length - before).toBe(5);
    const [task] = await t.container.db.select().from(writingTasks).where(eq(writingTasks.id, created.data.taskId));
    expect(task!.usage!.totalTokens).toBeGreaterThan(0);
    expect(task!.title).toBe('城市骑行通勤指南（修订）');
    const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token: user.tokenValue, query: { taskId: created.data.taskId } });
    expect(info.data).toMatchObject({ generatedBy: 'ai', pointsCharged: 20 });
    const draft = await t.call<DraftDetail>('GET', '/writing/draft/detail', { token: user.tokenValue, query: { id: info.data.draftId! } });
    expect(draft.data.generatedBy).toBe('ai');
  });

  it('upstream failure mid-way: the task fails, partial text is kept, points refunded exactly once', async () => {
    const before = await balance(t, user.user.id);
    standin.script.push({
      kind: 'reply',
      reply: {
        content: '前半段已经写好的内容。后半段不会到达。',
        chunkChars: 4,
        errorAfterChunks: { after: 3, error: { message: 'internal error', type: 'server_error', code: 'internal_error' } },
      },
    });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'quick', content: '写一段话', modelConfigType: 'standin' },
    });
    expect(await balance(t, user.user.id)).toBe(before - 5);
    const stream = await readSse(t, created.data.taskId, { token: user.tokenValue });
    const last = stream.events.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({ code: ErrorCode.AI_UPSTREAM_FAILED, refunded: 5 });
    const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token: user.tokenValue, query: { taskId: created.data.taskId } });
    expect(info.data).toMatchObject({ status: 'failed', text: '前半段已经写好的内容。后', errorCode: ErrorCode.AI_UPSTREAM_FAILED, draftId: null });
    expect(await balance(t, user.user.id)).toBe(before);

    // Concurrent retries of the failure path (another worker, the sweeper) change nothing more.
    const svc = t.container.writing.tasks;
    const again = await Promise.all([1, 2, 3].map(() => svc.fail(created.data.taskId, ErrorCode.AI_UPSTREAM_FAILED, 'x')));
    expect(again).toEqual([false, false, false]);
    expect(await balance(t, user.user.id)).toBe(before);
    const refunds = await t.container.db
      .select()
      .from(pointsLedger)
      .where(eq(pointsLedger.idempotencyKey, `refund:task:${created.data.taskId}`));
    expect(refunds).toHaveLength(1);
  });

  it('a content-safety refusal fails the task as sensitive content (933) with its own message and refunds', async () => {
    const before = await balance(t, user.user.id);
    standin.script.push({ kind: 'http-error', status: 400, error: { message: 'Input data may contain inappropriate content.', code: 'data_inspection_failed' } });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'quick', content: '写一段话', modelConfigType: 'standin' },
    });
    const info = await waitForTask(t, user.tokenValue, created.data.taskId);
    expect(info).toMatchObject({ status: 'failed', errorCode: ErrorCode.SENSITIVE_CONTENT, errorMsg: errorMessages[ErrorCode.AI_CONTENT_FILTERED] });
    expect(await balance(t, user.user.id)).toBe(before);
  });

  it('generated text with sensitive content fails the task (933) and refunds', async () => {
    const before = await balance(t, user.user.id);
    standin.script.push({ kind: 'reply', reply: { content: '欢迎访问我们的赌博网站。' } });
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'quick', content: '写一段话', modelConfigType: 'standin' },
    });
    const info = await waitForTask(t, user.tokenValue, created.data.taskId);
    expect(info).toMatchObject({ status: 'failed', errorCode: ErrorCode.SENSITIVE_CONTENT });
    expect(await balance(t, user.user.id)).toBe(before);
  });

  it('restart recovery: a task left running is restarted once stale; one interrupted too often is failed and refunded', async () => {
    const svc = t.container.writing.tasks;
    const before = await balance(t, user.user.id);
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'quick', content: '写一篇关于早起的短文。早起让一天更从容。' },
    });
    await waitForTask(t, user.tokenValue, created.data.taskId);
    // Simulate a process that died mid-run: the row says running with an old heartbeat.
    const stale = new Date(Date.now() - 10 * 60_000);
    const { taskId } = created.data;
    await t.container.db.update(writingTasks).set({ status: 'running', heartbeatAt: stale, draftId: null, finishedAt: null }).where(eq(writingTasks.id, taskId));
    expect(await svc.recover()).toBeGreaterThanOrEqual(1);
    const info = await waitForTask(t, user.tokenValue, taskId);
    expect(info.status).toBe('succeeded');
    expect(info.draftId).not.toBeNull();

    await t.container.db.update(writingTasks).set({ status: 'running', heartbeatAt: stale, runs: 3 }).where(eq(writingTasks.id, taskId));
    await svc.recover();
    const failed = await waitForTask(t, user.tokenValue, taskId);
    expect(failed).toMatchObject({ status: 'failed', errorCode: ErrorCode.TASK_INTERRUPTED });
    expect(await balance(t, user.user.id)).toBe(before);
  });

  it('abilities stream through the same task stream; the offline writer is free, a model charges the ability cost', async () => {
    const before = await balance(t, user.user.id);
    const res = await t.call<{ taskId: string }>('POST', '/writing/ability/create', {
      token: user.tokenValue,
      body: { abilityType: 'shorten', text: '骑行让通勤更健康。骑行也更省钱。很多城市修了自行车道。周末也可以骑车去郊外。' },
    });
    expect(res.code).toBe(0);
    const stream = await readSse(t, res.data.taskId, { token: user.tokenValue });
    expect(stream.events.at(-1)).toMatchObject({ event: 'done', data: { draftId: null } });
    expect(textOf(stream.events)).not.toContain(OFFLINE_LABEL);
    expect(textOf(stream.events).length).toBeGreaterThan(0);
    expect(await balance(t, user.user.id)).toBe(before);
    expect((await t.call('POST', '/writing/ability/create', { token: user.tokenValue, body: { abilityType: 'persona', text: 'x' } })).msg).toBe('请选择人设');
    const viaModel = await t.call<{ taskId: string }>('POST', '/writing/ability/create', {
      token: user.tokenValue,
      body: { abilityType: 'tone', tone: 'humorous', text: '今天天气不错。', modelConfigType: 'standin' },
    });
    const s2 = await readSse(t, viaModel.data.taskId, { token: user.tokenValue });
    expect(s2.events.at(-1)!.event).toBe('done');
    expect(await balance(t, user.user.id)).toBe(before - 2);
    expect(standin.received.at(-1)!.messages.at(-1)!.content).toContain('目标语气：幽默');
  });

  it('title generation: offline marked isAi=false and free; a model charges 1 point, refunded when it fails', async () => {
    const before = await balance(t, user.user.id);
    const off = await t.call<{ titles: string[]; isAi: boolean }>('POST', '/writing/title/generate', {
      token: user.tokenValue,
      body: { content: '城市骑行通勤让人更健康，也更省钱。', count: 3 },
    });
    expect(off.code).toBe(0);
    expect(off.data.isAi).toBe(false);
    expect(off.data.titles).toHaveLength(3);
    expect(off.data.titles.join('')).not.toContain(OFFLINE_LABEL);
    expect(await balance(t, user.user.id)).toBe(before);
    standin.script.push({ kind: 'reply', reply: { content: '1. 骑车上班的第100天\n2. “骑行通勤”真的省钱吗\n3. 城市骑行指南' } });
    const ai = await t.call<{ titles: string[]; isAi: boolean }>('POST', '/writing/title/generate', {
      token: user.tokenValue,
      body: { content: '城市骑行', count: 3, modelConfigType: 'standin' },
    });
    expect(ai.data).toEqual({ titles: ['骑车上班的第100天', '“骑行通勤”真的省钱吗', '城市骑行指南'], isAi: true });
    expect(await balance(t, user.user.id)).toBe(before - 1);
    standin.script.push({ kind: 'http-error', status: 401, error: { message: 'bad key', code: 'invalid_api_key' } });
    const failed = await t.call('POST', '/writing/title/generate', { token: user.tokenValue, body: { content: '城市骑行', modelConfigType: 'standin' } });
    expect(failed.code).toBe(ErrorCode.AI_UPSTREAM_FAILED);
    expect(await balance(t, user.user.id)).toBe(before - 1);
  });

  it('a persona is used by writing (taboo words masked by the offline writer)', async () => {
    const u = await loginByPhone(t);
    await grant(u.user.id, 100);
    const saved = await t.call<Persona>('POST', '/persona/save', {
      token: u.tokenValue,
      body: { name: '骑行博主2', platform: '小红书', industry: '运动', audience: '城市上班族', tone: '幽默', tabooWords: ['省钱'], sampleTexts: ['今天又骑车上班啦！'] },
    });
    expect(saved.code).toBe(0);
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: u.tokenValue,
      body: { createType: 'article', writeType: 'quick', content: '骑行通勤很省钱，也很健康。', personaId: saved.data.id },
    });
    const stream = await readSse(t, created.data.taskId, { token: u.tokenValue });
    const text = textOf(stream.events);
    expect(text).toContain('人设「骑行博主2」');
    expect(text).not.toContain('省钱');
    expect((await t.call('POST', '/persona/delete', { token: u.tokenValue, body: { id: saved.data.id } })).code).toBe(0);
    expect((await t.call<Persona[]>('GET', '/persona/list', { token: u.tokenValue })).data).toEqual([]);
  });

  it('home input: defaults, saved per createType, validated and size-capped', async () => {
    const u = await loginByPhone(t);
    const empty = await t.call<{ writeType: string; createType: string }>('GET', '/writing/style/homepage/input', { token: u.tokenValue, query: { createType: 'article' } });
    expect(empty.data).toMatchObject({ writeType: 'deep', onlineSearch: false, createType: 'article', editorContent: { top: '', bottom: '' } });
    const body = {
      createType: 'graphic',
      editorContent: { top: '上半部分', bottom: '下半部分' },
      writeType: 'quick',
      onlineSearch: true,
      quoteFileIds: [1, 2],
      personaId: 3,
      abilityType: 'polish',
      modelConfigType: 'standin',
      graphicModelConfig: { contentCards: 5, pictureMode: 'ai' },
    };
    expect((await t.call('POST', '/writing/style/save/homepage/input', { token: u.tokenValue, body })).code).toBe(0);
    expect((await t.call('GET', '/writing/style/homepage/input', { token: u.tokenValue, query: { createType: 'graphic' } })).data).toEqual(body);
    expect((await t.call<{ writeType: string }>('GET', '/writing/style/homepage/input', { token: u.tokenValue, query: { createType: 'article' } })).data.writeType).toBe('deep');
    expect(
      (await t.call<{ graphicModelConfig: unknown }>('GET', '/writing/style/homepage/input', { token: u.tokenValue, query: { createType: 'article' } })).data.graphicModelConfig,
    ).toBeNull();
    const bad = await t.call('POST', '/writing/style/save/homepage/input', { token: u.tokenValue, body: { ...body, writeType: 'slow' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    const cards = await t.call('POST', '/writing/style/save/homepage/input', {
      token: u.tokenValue,
      body: { ...body, graphicModelConfig: { contentCards: 30, pictureMode: 'card' } },
    });
    expect([cards.code, cards.msg]).toEqual([ErrorCode.VALIDATION, expect.stringContaining('contentCards 最多17张')]);
    const big = await t.call('POST', '/writing/style/save/homepage/input', {
      token: u.tokenValue,
      body: { ...body, editorContent: { top: '字'.repeat(6000), bottom: '字'.repeat(6000) } },
    });
    expect(big.code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
  });

  it('style cards, suggested words from the profile industries, festivals of a year', async () => {
    const cards = await t.call<Array<{ id: string; writeType: string }>>('GET', '/writing/style/home/v2', { token: user.tokenValue });
    expect(cards.data.length).toBeGreaterThan(3);
    await t.call('POST', '/user/fill/info', { token: user.tokenValue, body: { creatorType: 'personal', industries: ['美食'] } });
    const words = await t.call<Array<{ word: string; source: string }>>('GET', '/writing/style/homepage/words/v2', { token: user.tokenValue });
    expect(words.data).toContainEqual({ word: '家常菜谱', source: 'industry' });
    const fest = await t.call<FestivalItem[]>('GET', '/mpTopic/v2/festival', { token: user.tokenValue, query: { year: 2026 } });
    const by = (name: string) => fest.data.find((f) => f.name === name);
    expect(by('春节')).toMatchObject({ date: '2026-02-17', type: 'traditional' });
    expect(by('中秋节')).toMatchObject({ date: '2026-09-25' });
    expect(fest.data.filter((f) => f.type === 'solar_term')).toHaveLength(24);
    expect(by('清明')).toMatchObject({ type: 'solar_term' });
    expect(by('国庆节假期')).toMatchObject({ type: 'public_holiday', date: '2026-10-01' });
    expect(fest.data.every((f) => f.suggestion.length > 5)).toBe(true);
    expect((await t.call('GET', '/mpTopic/v2/festival', { query: { year: 1800 } })).code).toBe(ErrorCode.VALIDATION);
  });

  it('admin CLI: model:add stores the key encrypted, model:list hides it, model:remove drops it', async () => {
    const added = await commands['model:add']!.run(t.container, {
      id: 'extra',
      label: '追加模型',
      'base-url': standin.baseURL,
      model: 'standin-chat',
      'api-key': standin.apiKey,
      'points-feature': 'article_deep',
    });
    expect(JSON.stringify(added)).not.toContain(standin.apiKey);
    const raw = await t.container.db.execute(`select api_key_enc from llm_models where id = 'extra'`);
    const stored = JSON.stringify(raw);
    expect(stored).toContain('v1:');
    expect(stored).not.toContain(standin.apiKey);
    // Adding the same id again replaces the stored model rather than failing or duplicating it.
    await commands['model:add']!.run(t.container, {
      id: 'extra',
      label: '追加模型（新）',
      'base-url': standin.baseURL,
      model: 'standin-chat',
      'api-key': standin.apiKey,
      'points-feature': 'article_deep',
    });
    const list = (await commands['model:list']!.run(t.container, {})) as Array<{ id: string; label: string }>;
    expect(list.filter((m) => m.id === 'extra')).toEqual([expect.objectContaining({ label: '追加模型（新）' })]);
    const models = await t.call<ModelItem[]>('GET', '/writing/model/list', { token: user.tokenValue });
    expect(models.data.map((m) => m.id)).toContain('extra');
    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token: user.tokenValue,
      body: { createType: 'article', writeType: 'quick', content: '写一句话', modelConfigType: 'extra' },
    });
    expect((await waitForTask(t, user.tokenValue, created.data.taskId)).status).toBe('succeeded');
    await commands['model:remove']!.run(t.container, { id: 'extra' });
    expect((await t.call<ModelItem[]>('GET', '/writing/model/list', { token: user.tokenValue })).data.map((m) => m.id)).not.toContain('extra');
  });
});
