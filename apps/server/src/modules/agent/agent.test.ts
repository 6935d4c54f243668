import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ErrorCode, TOKEN_NAME, type AgentAction, type AgentConversationDetail, type AgentStatus, type DraftDetail, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { bindSandboxAccount, startPublishApp } from '../../test/publish-helpers.js';
import { startOpenAiStandin, type ChatRequestBody, type OpenAiStandin, type StandinReply } from '../../test/standins/openai-compatible.js';
import { agentActions, pointsLedger, publishJobs, users } from '../../db/schema/index.js';

interface SseEvent {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/** Reads a turn's SSE stream to its end (done or error). */
async function readTurn(t: TestApp, token: string, turnId: string, lastEventId?: number): Promise<SseEvent[]> {
  const headers: Record<string, string> = { [TOKEN_NAME]: token };
  if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
  const res = await fetch(`${t.url}/api/agent/turn/stream/${turnId}`, { headers });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const text = await res.text();
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    const e: Partial<SseEvent> = {};
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) e.id = Number(line.slice(4));
      else if (line.startsWith('event: ')) e.event = line.slice(7);
      else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6)) as Record<string, unknown>;
    }
    if (e.event) events.push(e as SseEvent);
  }
  return events;
}

const ARTICLE = '# 新手妈妈的夜奶指南\n\n夜里喂奶不必慌张。\n\n## 准备\n\n温水、奶瓶和一盏小夜灯。\n';
/** The graphic writer's plan, as a model answers it. */
const PLAN = `\`\`\`json\n${JSON.stringify({
  title: '新手妈妈夜奶指南',
  body: '夜里喂奶不慌张，这份清单收好。',
  tags: ['母婴', '新手妈妈'],
  cards: [
    { template: 'cover', heading: '夜奶指南', text: '新手妈妈必看', imagePrompt: '', picture: 'card' },
    { template: 'list', heading: '准备清单', text: '温水\n奶瓶\n小夜灯', imagePrompt: '', picture: 'card' },
  ],
})}\n\`\`\``;

/** Six angles, as a model answers the topics area's angles prompt. */
const ANGLES = JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ angle: `角度${i + 1}`, title: `夜奶的第${i + 1}种写法`, hook: `开头${i + 1}` })));

/** The tool messages the model has seen so far, in order. */
const toolNames = (body: ChatRequestBody) => body.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content) as Record<string, unknown>);

describeOnDatabases('agent on %s', (dbKind) => {
  let t: TestApp;
  let llm: OpenAiStandin;
  let a: Awaited<ReturnType<typeof loginByPhone>>;
  let b: Awaited<ReturnType<typeof loginByPhone>>;
  let accountA: number;
  let accountB: number;
  /** A's graphic task from the topics -> write -> schedule test, for B to try to publish. */
  let taskOfA = '';
  /** The agent's replies for this test, by what the conversation holds so far; requests without tools are the writer's. */
  let agentStep: (body: ChatRequestBody) => StandinReply;

  const balance = async (userId: number) => (await t.container.db.select({ b: users.pointsBalance }).from(users).where(eq(users.id, userId)))[0]!.b;
  const jobsOf = (userId: number) => t.container.db.select().from(publishJobs).where(eq(publishJobs.userId, userId));
  const send = async (token: string, content: string, conversationId?: number) => {
    const r = await t.call<{ conversationId: number; turnId: string }>('POST', '/agent/send', { token, body: { content, conversationId } });
    expect(r.code, r.msg).toBe(0);
    return r.data;
  };
  const detail = async (token: string, id: number) => (await t.call<AgentConversationDetail>('GET', '/agent/conversation', { token, query: { id } })).data;

  beforeAll(async () => {
    llm = await startOpenAiStandin({ model: 'standin-chat' });
    llm.respond = (body) => {
      if (body.tools) return agentStep(body);
      const prompt = body.messages.at(-1)!.content;
      if (prompt.includes('写作角度')) return { content: ANGLES };
      return { content: prompt.includes('小红书图文笔记') ? PLAN : ARTICLE };
    };
    t = await startPublishApp(dbKind, {
      LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: llm.baseURL, apiKey: llm.apiKey, model: 'standin-chat' }]),
      LLM_DEFAULT_MODEL: 'offline',
      LLM_RETRY_BASE_MS: '1',
      // Retries as in production (connection failures, cut streams and 5xx only; the scripted 400 below is never
      // retried): with none, one transient failure on a loaded machine failed a whole call.
      WRITING_STREAM_POLL_MS: '50',
      AGENT_CONFIRM_POINTS: '10',
    });
    a = await loginByPhone(t);
    b = await loginByPhone(t);
    for (const u of [a, b]) await t.container.services.points.grant(u.user.id, 100, { reason: 'test', idempotencyKey: `agent-test:${u.user.id}` });
    accountA = (await bindSandboxAccount(t, a.tokenValue, '母婴号')).id;
    accountB = (await bindSandboxAccount(t, b.tokenValue, '别人的号')).id;
    // Two QR bindings drive the sandbox site in Chromium: minutes on a loaded machine.
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('reports the model it runs on and the points per turn', async () => {
    const s = await t.call<AgentStatus>('GET', '/agent/status', { token: a.tokenValue });
    expect(s.data).toEqual({ available: true, modelLabel: '模拟模型', pointsPerTurn: 2, confirmPoints: 10 });
  });

  it('topics -> write -> schedule: runs the tools in order, writes a real task, schedules nothing until confirmed; charged exactly', async () => {
    const scheduleAt = new Date(Date.now() + 2 * 86_400_000).toISOString().replace('Z', '+00:00');
    agentStep = (body) => {
      const last = body.messages.at(-1)!;
      if (last.role === 'user')
        return {
          reasoning: '先看热点和账号。',
          content: '我先看看母婴热点和你的账号。',
          toolCalls: [
            { name: 'hot_topics', arguments: { keyword: '母婴' } },
            { name: 'list_accounts', arguments: {} },
          ],
        };
      const results = toolNames(body);
      const task = results.find((r) => typeof r.taskId === 'string');
      if (!task) return { content: '选好角度了，开始写。', toolCalls: [{ name: 'write_graphic', arguments: { content: '新手妈妈的夜奶指南，小红书风格' } }] };
      return { content: '写好后按你的时间发布。', toolCalls: [{ name: 'schedule_publish', arguments: { accountIds: [accountA], taskId: task.taskId, scheduleAt } }] };
    };
    const before = await balance(a.user.id);
    const { conversationId, turnId } = await send(a.tokenValue, '下周帮我给母婴号写一篇小红书，周三晚上8点发');
    const events = await readTurn(t, a.tokenValue, turnId);
    expect(events.at(-1)!.event).toBe('done');
    expect(events.filter((e) => e.event === 'tool_call').map((e) => e.data.name)).toEqual(['hot_topics', 'list_accounts', 'write_graphic', 'schedule_publish']);
    expect(events.some((e) => e.event === 'reasoning')).toBe(true);
    expect(
      events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toContain('我先看看母婴热点和你的账号。');
    const accountsCard = events.find((e) => e.event === 'tool_result' && e.data.name === 'list_accounts')!.data.result as { accounts: Array<{ accountId: number }> };
    expect(accountsCard.accounts.map((x) => x.accountId)).toEqual([accountA]);
    const taskEvent = events.find((e) => e.event === 'task')!;
    const action = events.find((e) => e.event === 'action')!.data as AgentAction;
    expect(action).toMatchObject({ kind: 'publish', status: 'pending' });
    expect(action.summary).toContain('母婴号');

    // A real writing task of the user's, charged as the page charges it.
    const taskId = taskEvent.data.taskId as string;
    taskOfA = taskId;
    await t.container.jobs.idle();
    let info = (await t.call<TaskInfo>('GET', '/mp/task/info', { token: a.tokenValue, query: { taskId } })).data;
    for (let i = 0; i < 200 && info.status !== 'succeeded' && info.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      info = (await t.call<TaskInfo>('GET', '/mp/task/info', { token: a.tokenValue, query: { taskId } })).data;
    }
    expect(info).toMatchObject({ kind: 'graphic', status: 'succeeded', pointsCharged: 10, generatedBy: 'ai', title: '新手妈妈夜奶指南' });
    // One turn (2) and one graphic note (10); nothing else.
    expect(await balance(a.user.id)).toBe(before - 12);

    // Persisted: the conversation lists the goal, the assistant turns and every tool result in order.
    const d = await detail(a.tokenValue, conversationId);
    expect(d.messages.filter((m) => m.role === 'tool').map((m) => m.toolName)).toEqual(['hot_topics', 'list_accounts', 'write_graphic', 'schedule_publish']);
    expect(d.actions.map((x) => x.status)).toEqual(['pending']);

    // Nothing scheduled before the confirm.
    expect(await jobsOf(a.user.id)).toEqual([]);
    const confirmed = await t.call<AgentAction>('POST', '/agent/confirm', { token: a.tokenValue, body: { actionId: action.actionId } });
    expect(confirmed.code, confirmed.msg).toBe(0);
    expect(confirmed.data.status).toBe('confirmed');
    const jobs = await jobsOf(a.user.id);
    expect(jobs.map((j) => [j.accountId, j.status, j.runAt.toISOString()])).toEqual([[accountA, 'queued', new Date(scheduleAt).toISOString()]]);
    // A second click does nothing more.
    const again = await t.call('POST', '/agent/confirm', { token: a.tokenValue, body: { actionId: action.actionId } });
    expect(again.code).toBe(ErrorCode.CONFLICT);
    expect(await jobsOf(a.user.id)).toHaveLength(1);

    // Continue the conversation: the model sees the confirmation in its history.
    agentStep = () => ({ content: '好的，已经安排好了。' });
    const next = await send(a.tokenValue, '谢谢', conversationId);
    expect((await readTurn(t, a.tokenValue, next.turnId)).at(-1)!.event).toBe('done');
    expect(llm.received.at(-1)!.messages.some((m) => m.role === 'assistant' && m.content.includes('用户已确认'))).toBe(true);
  });

  it('angles under the confirm threshold run at once; priced over it they wait for the click and are charged only then, once', async () => {
    agentStep = (body) =>
      body.messages.at(-1)!.role === 'user' ? { content: '先想几个角度。', toolCalls: [{ name: 'topic_angles', arguments: { keyword: '夜奶' } }] } : { content: '角度如上。' };
    const before = await balance(a.user.id);
    const cheap = await send(a.tokenValue, '给夜奶这个话题想几个角度');
    let events = await readTurn(t, a.tokenValue, cheap.turnId);
    expect(events.at(-1)!.event).toBe('done');
    const card = events.find((e) => e.event === 'tool_result' && e.data.name === 'topic_angles')!.data.result as {
      angles: Array<{ title: string }>;
      isAi: boolean;
      pointsCharged: number;
    };
    expect(card).toMatchObject({ isAi: true, pointsCharged: 2 });
    expect(card.angles.map((x) => x.title)).toEqual(Array.from({ length: 6 }, (_, i) => `夜奶的第${i + 1}种写法`));
    expect(events.some((e) => e.event === 'action')).toBe(false);
    // The turn (2) and the angles (2), nothing asked.
    expect(await balance(a.user.id)).toBe(before - 4);

    await t.container.services.points.setCost('topic_angles', undefined, 20);
    try {
      const beforePricey = await balance(a.user.id);
      const pricey = await send(a.tokenValue, '再想几个角度');
      events = await readTurn(t, a.tokenValue, pricey.turnId);
      const action = events.find((e) => e.event === 'action')!.data as AgentAction;
      expect(action).toMatchObject({ kind: 'angles', status: 'pending' });
      expect(action.summary).toContain('20积分');
      // Proposed, not spent: only the turn itself (2) was charged.
      const afterTurn = beforePricey - 2;
      expect(await balance(a.user.id)).toBe(afterTurn);
      const modelCalls = llm.received.length;
      const confirmed = await t.call<AgentAction>('POST', '/agent/confirm', { token: a.tokenValue, body: { actionId: action.actionId } });
      expect(confirmed.code, confirmed.msg).toBe(0);
      expect(confirmed.data.result).toMatchObject({ kind: 'angles', isAi: true, pointsCharged: 20 });
      expect((confirmed.data.result!.angles as unknown[]).length).toBe(6);
      expect(llm.received.length).toBe(modelCalls + 1);
      expect(await balance(a.user.id)).toBe(afterTurn - 20);
      expect((await t.call('POST', '/agent/confirm', { token: a.tokenValue, body: { actionId: action.actionId } })).code).toBe(ErrorCode.CONFLICT);
      expect(await balance(a.user.id)).toBe(afterTurn - 20);
    } finally {
      await t.container.services.points.setCost('topic_angles', undefined, 2);
    }
  });

  it('reject leaves nothing scheduled, and a rejected action cannot be confirmed afterwards', async () => {
    const saved = await t.call<DraftDetail>('POST', '/writing/draft/save', { token: b.tokenValue, body: { title: '周末去哪儿', html: '<p>去公园。</p>' } });
    expect(saved.code, saved.msg).toBe(0);
    agentStep = () => ({ content: '请确认发布。', toolCalls: [{ name: 'schedule_publish', arguments: { accountIds: [accountB], draftId: saved.data.id } }] });
    const second = await send(b.tokenValue, '发布草稿「周末去哪儿」');
    const events = await readTurn(t, b.tokenValue, second.turnId);
    const action = events.find((e) => e.event === 'action')!.data as AgentAction;
    const rejected = await t.call<AgentAction>('POST', '/agent/reject', { token: b.tokenValue, body: { actionId: action.actionId } });
    expect(rejected.data.status).toBe('rejected');
    expect((await t.call('POST', '/agent/confirm', { token: b.tokenValue, body: { actionId: action.actionId } })).code).toBe(ErrorCode.CONFLICT);
    expect(await jobsOf(b.user.id)).toEqual([]);
  });

  it("a tool call naming another user's account or draft is refused and proposes nothing; another user's action cannot be confirmed", async () => {
    const foreignDraft = await t.call<DraftDetail>('POST', '/writing/draft/save', { token: b.tokenValue, body: { title: '别人的草稿', html: '<p>私密</p>' } });
    agentStep = (body) => {
      if (body.messages.at(-1)!.role === 'user')
        return {
          content: '试试这些。',
          toolCalls: [
            { name: 'schedule_publish', arguments: { accountIds: [accountB], draftId: foreignDraft.data.id } },
            { name: 'schedule_publish', arguments: { accountIds: [accountA], draftId: foreignDraft.data.id } },
            { name: 'unbind_account', arguments: { accountId: accountB } },
          ],
        };
      return { content: '这些都不是你的。' };
    };
    const { conversationId, turnId } = await send(a.tokenValue, '把别人的草稿发到别人的号');
    const events = await readTurn(t, a.tokenValue, turnId);
    expect(events.at(-1)!.event).toBe('done');
    const results = events.filter((e) => e.event === 'tool_result').map((e) => e.data.result as { ok: boolean; code: number });
    expect(results.map((r) => [r.ok, r.code])).toEqual([
      [false, ErrorCode.NOT_FOUND],
      [false, ErrorCode.NOT_FOUND],
      [false, ErrorCode.NOT_FOUND],
    ]);
    expect(events.some((e) => e.event === 'action')).toBe(false);
    expect(await t.container.db.select().from(agentActions).where(eq(agentActions.conversationId, conversationId))).toEqual([]);

    // B's conversation and actions are not A's to read, rename, delete or confirm.
    const bConv = (await t.call<Array<{ id: number }>>('GET', '/agent/conversations', { token: b.tokenValue })).data[0]!;
    expect((await t.call('GET', '/agent/conversation', { token: a.tokenValue, query: { id: bConv.id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await t.call('POST', '/agent/conversation/delete', { token: a.tokenValue, body: { id: bConv.id } })).code).toBe(ErrorCode.NOT_FOUND);
    const [bAction] = await t.container.db.select().from(agentActions).where(eq(agentActions.userId, b.user.id));
    expect((await t.call('POST', '/agent/confirm', { token: a.tokenValue, body: { actionId: bAction!.id } })).code).toBe(ErrorCode.NOT_FOUND);
    const stream = await fetch(`${t.url}/api/agent/turn/stream/${turnId}`, { headers: { [TOKEN_NAME]: b.tokenValue } });
    expect(((await stream.json()) as { code: number }).code).toBe(ErrorCode.NOT_FOUND);

    // B's agent naming A's writing task (to publish on B's own account) is refused the same way.
    expect(taskOfA).not.toBe('');
    agentStep = (body) =>
      body.messages.at(-1)!.role === 'user'
        ? { content: '发这篇。', toolCalls: [{ name: 'schedule_publish', arguments: { accountIds: [accountB], taskId: taskOfA } }] }
        : { content: '不行。' };
    const foreignTask = await send(b.tokenValue, '把那篇图文发到我的号');
    const taskEvents = await readTurn(t, b.tokenValue, foreignTask.turnId);
    expect(taskEvents.filter((e) => e.event === 'tool_result').map((e) => (e.data.result as { code: number }).code)).toEqual([ErrorCode.NOT_FOUND]);
    expect(taskEvents.some((e) => e.event === 'action')).toBe(false);
    expect(await jobsOf(b.user.id)).toEqual([]);
  });

  it('a failed turn is refunded exactly once; 933 on the way in charges nothing and on the way out refunds', async () => {
    const before = await balance(a.user.id);
    llm.script.push({ kind: 'http-error', status: 400, error: { message: 'bad request', code: 'invalid_request' } });
    const failed = await send(a.tokenValue, '帮我看看热点');
    const events = await readTurn(t, a.tokenValue, failed.turnId);
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: ErrorCode.AI_UPSTREAM_FAILED, refunded: true } });
    expect(await balance(a.user.id)).toBe(before);
    const refunds = await t.container.db
      .select()
      .from(pointsLedger)
      .where(and(eq(pointsLedger.userId, a.user.id), eq(pointsLedger.idempotencyKey, `refund:agent-turn:${failed.turnId}`)));
    expect(refunds.map((r) => [r.kind, r.delta])).toEqual([['refund', 2]]);
    // Run again (a duplicate job delivery): nothing more is refunded.
    await t.container.agent.agent.run(failed.turnId);
    expect(await balance(a.user.id)).toBe(before);

    const sensitive = await t.call('POST', '/agent/send', { token: a.tokenValue, body: { content: '帮我写网络 赌博推广' } });
    expect(sensitive.code).toBe(ErrorCode.SENSITIVE_CONTENT);
    expect(await balance(a.user.id)).toBe(before);

    agentStep = () => ({ content: '欢迎访问我们的赌博网站，这里有很多内容等着你来看看。' });
    const out = await send(a.tokenValue, '随便说点什么');
    const outEvents = await readTurn(t, a.tokenValue, out.turnId);
    expect(outEvents.at(-1)).toMatchObject({ event: 'error', data: { code: ErrorCode.SENSITIVE_CONTENT, refunded: true } });
    expect(
      outEvents
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).not.toContain('赌博');
    expect(await balance(a.user.id)).toBe(before);
  });

  it('spending more than the confirm threshold waits for a confirm; conversations rename and delete; bad input is 1001', async () => {
    agentStep = (body) =>
      body.messages.at(-1)!.role === 'user'
        ? { content: '深度写作需要确认。', toolCalls: [{ name: 'write_article', arguments: { content: '深度长文：城市骑行', writeType: 'deep' } }] }
        : { content: '好' };
    const before = await balance(a.user.id);
    const { conversationId, turnId } = await send(a.tokenValue, '写一篇深度长文');
    const events = await readTurn(t, a.tokenValue, turnId);
    const action = events.find((e) => e.event === 'action')!.data as AgentAction;
    expect(action).toMatchObject({ kind: 'write', status: 'pending' });
    expect(events.some((e) => e.event === 'task')).toBe(false);
    expect(await balance(a.user.id)).toBe(before - 2);
    const rejected = await t.call<AgentAction>('POST', '/agent/reject', { token: a.tokenValue, body: { actionId: action.actionId } });
    expect(rejected.data.status).toBe('rejected');
    expect(await balance(a.user.id)).toBe(before - 2);

    expect((await t.call('POST', '/agent/conversation/rename', { token: a.tokenValue, body: { id: conversationId, title: '骑行长文' } })).code).toBe(0);
    const list = (await t.call<Array<{ id: number; title: string }>>('GET', '/agent/conversations', { token: a.tokenValue })).data;
    expect(list.find((c) => c.id === conversationId)!.title).toBe('骑行长文');
    const bad = await t.call('POST', '/agent/send', { token: a.tokenValue, body: { content: '' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('content');
    expect((await t.call('POST', '/agent/conversation/delete', { token: a.tokenValue, body: { id: conversationId } })).code).toBe(0);
    expect((await t.call('GET', '/agent/conversation', { token: a.tokenValue, query: { id: conversationId } })).code).toBe(ErrorCode.NOT_FOUND);
  });

  // Last: it unbinds A's account.
  it("knowledge_search reads only the caller's library; unbinding waits for the confirm, then unbinds", async () => {
    const fd = new FormData();
    const secret = '紫霞湖畔的桂花酿配方：三斤桂花，一斤冰糖，封坛九十九天。';
    fd.append('file', new Blob([`${secret}\n`.repeat(20)], { type: 'text/plain' }), '私房配方.txt');
    const up = (await (await fetch(`${t.url}/api/knowledge/doc/upload`, { method: 'POST', headers: { [TOKEN_NAME]: b.tokenValue }, body: fd })).json()) as {
      code: number;
      data: { id: number };
    };
    expect(up.code).toBe(0);
    let status = '';
    for (const deadline = Date.now() + 90_000; Date.now() < deadline && status !== 'ready' && status !== 'failed';) {
      status = (await t.call<{ status: string }>('GET', '/knowledge/doc/info', { token: b.tokenValue, query: { id: up.data.id } })).data.status;
      if (status !== 'ready') await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('ready');
    agentStep = (body) =>
      body.messages.at(-1)!.role === 'user'
        ? { content: '查一下知识库。', toolCalls: [{ name: 'knowledge_search', arguments: { query: '桂花酿配方' } }] }
        : { content: '查好了。' };
    const hitsOf = async (token: string) => {
      const { turnId } = await send(token, '知识库里有桂花酿配方吗');
      const card = (await readTurn(t, token, turnId)).find((e) => e.event === 'tool_result')!.data.result as { ok: boolean; hits: Array<{ docName: string; text: string }> };
      expect(card.ok).toBe(true);
      return card.hits;
    };
    const own = await hitsOf(b.tokenValue);
    expect(own.map((h) => h.docName)).toContain('私房配方.txt');
    expect(own[0]!.text).toContain('桂花');
    expect(await hitsOf(a.tokenValue)).toEqual([]);

    agentStep = (body) =>
      body.messages.at(-1)!.role === 'user' ? { content: '需要你确认解绑。', toolCalls: [{ name: 'unbind_account', arguments: { accountId: accountA } }] } : { content: '好' };
    const { turnId } = await send(a.tokenValue, '解绑母婴号');
    const action = (await readTurn(t, a.tokenValue, turnId)).find((e) => e.event === 'action')!.data as AgentAction;
    expect(action).toMatchObject({ kind: 'unbind', status: 'pending' });
    expect(action.summary).toContain('母婴号');
    const listed = async () =>
      (await t.call<{ records: Array<{ id: number }> }>('GET', '/publish/account/list/v3', { token: a.tokenValue, query: { pageNum: 1, pageSize: 10 } })).data.records.map(
        (r) => r.id,
      );
    expect(await listed()).toEqual([accountA]);
    const confirmed = await t.call<AgentAction>('POST', '/agent/confirm', { token: a.tokenValue, body: { actionId: action.actionId } });
    expect(confirmed.code, confirmed.msg).toBe(0);
    expect(confirmed.data).toMatchObject({ status: 'confirmed', result: { unbound: accountA } });
    expect(await listed()).toEqual([]);
  });
});

describeOnDatabases('agent without a model on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says so (1630) and charges nothing: the offline writer never stands in for the agent', async () => {
    const u = await loginByPhone(t);
    await t.container.services.points.grant(u.user.id, 10, { reason: 'test', idempotencyKey: `agent-nomodel:${u.user.id}` });
    const s = await t.call<AgentStatus>('GET', '/agent/status', { token: u.tokenValue });
    expect(s.data).toMatchObject({ available: false, modelLabel: null });
    const r = await t.call('POST', '/agent/send', { token: u.tokenValue, body: { content: '帮我写一篇文章' } });
    expect(r.code).toBe(ErrorCode.AGENT_NO_MODEL);
    expect(r.msg).toContain('未配置');
    expect((await t.call<unknown[]>('GET', '/agent/conversations', { token: u.tokenValue })).data).toEqual([]);
    const [row] = await t.container.db.select({ b: users.pointsBalance }).from(users).where(eq(users.id, u.user.id));
    expect(row!.b).toBe(10);
  });
});
