import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import {
  agentLimits,
  ErrorCode,
  errorMessages,
  graphicTaskCreateBody,
  taskCreateBody,
  type AgentAction,
  type AgentConversationDetail,
  type AgentStatus,
  type PublishArticleBody,
} from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import { AppError, appError } from '../../http/errors.js';
import type { ChatMessage, LlmUsage, ToolCall } from '../../integrations/llm/types.js';
import type { JobQueue } from '../../jobs/types.js';
import type { ModelEntry } from '../llm/llm-registry.js';
import { userFacing } from '../writing/task.service.js';
import type { ActionRow, AgentRepo, MessageRow, TurnRow } from './agent.repo.js';
import { agentTools, argsProblem, isToolName, toolArgs, type AgentPorts, type ToolName } from './agent.tools.js';

export const AGENT_JOB = 'agent.turn';
export const AGENT_RECOVER_JOB = 'agent.recover';
export const AGENT_FEATURE = 'agent';
/** A running turn whose heartbeat is older than this lost its worker. */
export const TURN_STALE_MS = 15_000;
const HEARTBEAT_MS = 3_000;
/** Text deltas are stored in pieces of about this size (fewer rows than one per model chunk). */
const FLUSH_CHARS = 24;

export interface AgentPointsPort {
  costOf(feature: string): Promise<number>;
  charge(userId: number, amount: number, opts: { reason: string; idempotencyKey: string }, db?: DbOrTx): Promise<unknown>;
  refund(userId: number, chargeKey: string, opts: { reason: string }, db?: DbOrTx): Promise<unknown>;
}

export interface AgentDeps {
  repo: AgentRepo;
  ports: AgentPorts;
  points: AgentPointsPort;
  llms: { list(): Promise<ModelEntry[]>; defaultId(): Promise<string>; get(id: string | null | undefined): Promise<ModelEntry> };
  lexicon: { check(text: string): Promise<string[]> };
  jobs: JobQueue;
  clock: Clock;
  log: FastifyBaseLogger;
  /** A tool call spending more points than this waits for a confirm. */
  confirmPoints: number;
}

const SYSTEM_PROMPT = [
  '你是「砚」写作平台的智能体，帮助中文创作者完成选题、写作和发布。',
  '用工具完成用户的目标：先了解热点与账号，再创建写作任务，最后安排发布。',
  '发布、定时发布和解绑账号只能提出，由用户在页面上确认后才执行；不要声称已经发布。',
  '定时发布时间用 ISO 8601 格式并带 +08:00 时区。回答简洁，用简体中文。',
].join('\n');

/** The points dictionary's feature for angles (the topics area charges it). */
const ANGLES_FEATURE = 'topic_angles';
type AnglesArgs = ReturnType<(typeof toolArgs)['topic_angles']['parse']>;

const chargeKey = (turnId: string) => `agent-turn:${turnId}`;
const json = (v: unknown) => JSON.stringify(v);

/** Outcome of one tool call: what the model reads, what the page draws, and an action left waiting for a confirm. */
interface ToolOutcome {
  forModel: Record<string, unknown>;
  card: Record<string, unknown>;
  action?: ActionRow;
}

/** The in-process wake-up for open streams of a turn (other processes' streams poll). */
export class TurnSignals extends EventEmitter {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}

export class AgentService {
  readonly signals = new TurnSignals();

  constructor(private readonly d: AgentDeps) {}

  register(): void {
    this.d.jobs.register<{ turnId: string }>(AGENT_JOB, (p) => this.run(p.turnId), { concurrency: 50 });
    this.d.jobs.schedule(AGENT_RECOVER_JOB, 10_000, () => this.recover());
  }

  /** The model the agent runs on: the default when it is a real model, else the first real one; none without one. */
  private async model(): Promise<ModelEntry | null> {
    const def = await this.d.llms.get(null).catch(() => null);
    if (def?.isAi) return def;
    return (await this.d.llms.list()).find((m) => m.isAi) ?? null;
  }

  async status(): Promise<AgentStatus> {
    const m = await this.model();
    return {
      available: m !== null,
      modelLabel: m?.label ?? null,
      pointsPerTurn: await this.d.points.costOf(AGENT_FEATURE).catch(() => 0),
      confirmPoints: this.d.confirmPoints,
    };
  }

  // --- conversations ---

  async list(userId: number) {
    const rows = await this.d.repo.conversations(userId, 100);
    return rows.map((c) => ({ id: c.id, title: c.title, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() }));
  }

  private async own(userId: number, id: number) {
    const c = await this.d.repo.conversation(userId, id);
    if (!c) throw appError(ErrorCode.NOT_FOUND, '对话不存在');
    return c;
  }

  async detail(userId: number, id: number): Promise<AgentConversationDetail> {
    const c = await this.own(userId, id);
    const [messages, actions, turns] = await Promise.all([this.d.repo.messages(c.id), this.d.repo.actions(c.id), this.d.repo.turns(c.id)]);
    return {
      conversation: { id: c.id, title: c.title, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() },
      messages: messages.map((m) => ({
        id: m.id,
        turnId: m.turnId,
        role: m.role,
        content: m.content,
        reasoning: m.reasoning,
        toolName: m.toolName,
        toolCalls: m.toolCalls,
        result: m.result,
        createdAt: m.createdAt.toISOString(),
      })),
      actions: actions.map(toAction),
      turns: turns.map((t) => ({ turnId: t.id, status: t.status, errorCode: t.errorCode, errorMsg: t.errorMsg })),
    };
  }

  async rename(userId: number, id: number, title: string): Promise<void> {
    if (!(await this.d.repo.renameConversation(userId, id, title))) throw appError(ErrorCode.NOT_FOUND, '对话不存在');
  }

  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.d.repo.deleteConversation(userId, id))) throw appError(ErrorCode.NOT_FOUND, '对话不存在');
  }

  /** The turn's owner check for its stream. */
  async requireTurn(userId: number, turnId: string): Promise<TurnRow> {
    const t = await this.d.repo.turn(turnId);
    if (!t || t.userId !== userId) throw appError(ErrorCode.NOT_FOUND, '对话轮次不存在');
    return t;
  }

  // --- a turn ---

  /**
   * Checks the words (933), charges the turn (`agent-turn:<id>`) and stores the user's message and the turn in one
   * transaction, then queues the turn. Without a real model nothing is stored or charged: AGENT_NO_MODEL.
   */
  async send(userId: number, body: { conversationId?: number | undefined; content: string }): Promise<{ conversationId: number; turnId: string }> {
    const model = await this.model();
    if (!model) throw appError(ErrorCode.AGENT_NO_MODEL);
    if ((await this.d.lexicon.check(body.content)).length) throw appError(ErrorCode.SENSITIVE_CONTENT);
    const now = this.d.clock.now();
    if (body.conversationId !== undefined) {
      await this.own(userId, body.conversationId);
      if (await this.d.repo.openTurn(body.conversationId, new Date(now.getTime() - TURN_STALE_MS))) {
        throw appError(ErrorCode.CONFLICT, '上一条消息还在处理中，请稍候');
      }
    }
    const cost = await this.d.points.costOf(AGENT_FEATURE).catch(() => {
      throw appError(ErrorCode.SERVER_ERROR);
    });
    const turnId = randomUUID();
    const conversationId = await this.d.repo.db.transaction(async (tx) => {
      const cid = body.conversationId ?? (await this.d.repo.createConversation(tx, userId, body.content.slice(0, agentLimits.titleMax), now)).id;
      await this.d.repo.insertTurn(tx, { id: turnId, userId, conversationId: cid, modelId: model.id, pointsCharged: cost, createdAt: now });
      if (cost > 0) await this.d.points.charge(userId, cost, { reason: AGENT_FEATURE, idempotencyKey: chargeKey(turnId) }, tx);
      await this.d.repo.addMessage(tx, { conversationId: cid, turnId, role: 'user', content: body.content, createdAt: now });
      await this.d.repo.touchConversation(tx, cid, now);
      return cid;
    });
    await this.d.jobs.enqueue(AGENT_JOB, { turnId }, { jobId: turnId });
    return { conversationId, turnId };
  }

  private async emit(turnId: string, type: string, data: Record<string, unknown>, tx: DbOrTx = this.d.repo.db) {
    await this.d.repo.appendEvent(tx, turnId, type, data);
    if (tx === this.d.repo.db) this.signals.emit(turnId);
  }

  /** History as the model reads it: the last messages, never starting on a tool result whose call was cut off. */
  private history(rows: MessageRow[]): ChatMessage[] {
    let recent = rows.slice(-agentLimits.historyMessages);
    while (recent[0] && recent[0].role === 'tool') recent = recent.slice(1);
    return recent.map((m): ChatMessage => {
      if (m.role === 'tool') return { role: 'tool', content: m.content, toolCallId: m.toolCallId ?? '' };
      if (m.role === 'assistant') return { role: 'assistant', content: m.content, ...(m.toolCalls?.length ? { toolCalls: m.toolCalls } : {}) };
      return { role: 'user', content: m.content };
    });
  }

  /** The job: claims the turn, runs the model/tool loop, then finishes it, or fails it and refunds once. */
  async run(turnId: string): Promise<void> {
    const now = this.d.clock.now();
    const turn = await this.d.repo.claimTurn(turnId, now, new Date(now.getTime() - TURN_STALE_MS));
    if (!turn) return;
    const beat = setInterval(() => void this.d.repo.heartbeat(turnId, this.d.clock.now()).catch(() => undefined), HEARTBEAT_MS);
    try {
      await this.loop(turn);
    } catch (err) {
      const f = userFacing(err);
      if (!f.expected) this.d.log.error({ err, turnId }, 'agent turn failed');
      await this.fail(turn, f.code, f.msg);
    } finally {
      clearInterval(beat);
    }
  }

  private async loop(turn: TurnRow): Promise<void> {
    const model = await this.d.llms.get(turn.modelId);
    if (!model.isAi) throw appError(ErrorCode.AGENT_NO_MODEL);
    let usage: LlmUsage | null = null;
    for (let step = 0; step < agentLimits.maxSteps; step++) {
      const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...this.history(await this.d.repo.messages(turn.conversationId))];
      let text = '';
      let reasoning = '';
      let pending = '';
      let pendingReasoning = '';
      const calls: ToolCall[] = [];
      for await (const c of model.client.stream({ messages, tools: agentTools, maxTokens: 2000 })) {
        if (c.type === 'reasoning') {
          reasoning += c.text;
          pendingReasoning += c.text;
          if (pendingReasoning.length >= FLUSH_CHARS) {
            await this.emit(turn.id, 'reasoning', { text: pendingReasoning });
            pendingReasoning = '';
          }
        } else if (c.type === 'text') {
          text += c.text;
          pending += c.text;
          if (pending.length >= FLUSH_CHARS) {
            // Checked before it reaches the user, as a whole so far (a word may span two pieces).
            if ((await this.d.lexicon.check(text)).length) throw appError(ErrorCode.SENSITIVE_CONTENT, '回答中存在敏感内容，已停止并退还积分');
            await this.emit(turn.id, 'delta', { text: pending });
            pending = '';
          }
        } else if (c.type === 'tool_call') calls.push(c.call);
        else if (c.type === 'usage') usage = c.usage;
      }
      if ((await this.d.lexicon.check(text)).length) throw appError(ErrorCode.SENSITIVE_CONTENT, '回答中存在敏感内容，已停止并退还积分');
      if (pendingReasoning) await this.emit(turn.id, 'reasoning', { text: pendingReasoning });
      if (pending) await this.emit(turn.id, 'delta', { text: pending });
      await this.d.repo.addMessage(this.d.repo.db, {
        conversationId: turn.conversationId,
        turnId: turn.id,
        role: 'assistant',
        content: text,
        reasoning,
        toolCalls: calls.length ? calls : null,
        createdAt: this.d.clock.now(),
      });
      if (!calls.length) break;
      let waiting = false;
      for (const call of calls) {
        await this.emit(turn.id, 'tool_call', { id: call.id, name: call.name, arguments: call.arguments });
        const out = await this.tool(turn, call);
        await this.d.repo.db.transaction(async (tx) => {
          await this.d.repo.addMessage(tx, {
            conversationId: turn.conversationId,
            turnId: turn.id,
            role: 'tool',
            content: json(out.forModel),
            toolCallId: call.id,
            toolName: call.name,
            result: out.card,
            createdAt: this.d.clock.now(),
          });
          await this.d.repo.appendEvent(tx, turn.id, 'tool_result', { id: call.id, name: call.name, result: out.card });
          if (out.action) await this.d.repo.appendEvent(tx, turn.id, 'action', toAction(out.action));
          if (typeof out.card.taskId === 'string' && out.card.ok === true) await this.d.repo.appendEvent(tx, turn.id, 'task', { taskId: out.card.taskId, kind: out.card.kind });
        });
        this.signals.emit(turn.id);
        if (out.action) waiting = true;
      }
      // The turn ends on a proposal: nothing more happens until the user confirms or rejects it.
      if (waiting) break;
    }
    const done = await this.d.repo.db.transaction(async (tx) => {
      const row = await this.d.repo.finishTurn(tx, turn.id, { status: 'done', finishedAt: this.d.clock.now() });
      if (row) await this.d.repo.appendEvent(tx, turn.id, 'done', { usage });
      await this.d.repo.touchConversation(tx, turn.conversationId, this.d.clock.now());
      return row;
    });
    if (done) this.signals.emit(turn.id);
  }

  /** The single failure path: marks the turn failed and refunds its charge in one transaction, at most once. */
  private async fail(turn: TurnRow, code: number, msg: string): Promise<void> {
    const failed = await this.d.repo.db.transaction(async (tx) => {
      const row = await this.d.repo.finishTurn(tx, turn.id, { status: 'failed', errorCode: code, errorMsg: msg, finishedAt: this.d.clock.now() });
      if (!row) return false;
      if (row.pointsCharged > 0) await this.d.points.refund(row.userId, chargeKey(row.id), { reason: `refund:${AGENT_FEATURE}` }, tx);
      await this.d.repo.appendEvent(tx, turn.id, 'error', { code, msg, refunded: row.pointsCharged > 0 });
      return true;
    });
    if (failed) this.signals.emit(turn.id);
  }

  /** Turns left running by a dead worker are failed and refunded (re-running them could create their tasks twice). */
  async recover(): Promise<number> {
    const now = this.d.clock.now().getTime();
    const stale = await this.d.repo.staleTurns(new Date(now - TURN_STALE_MS), new Date(now - 60_000));
    for (const t of stale) {
      if (t.status === 'queued') await this.d.jobs.enqueue(AGENT_JOB, { turnId: t.id }, { jobId: `${t.id}:${now}` });
      else await this.fail(t, ErrorCode.TASK_INTERRUPTED, errorMessages[ErrorCode.TASK_INTERRUPTED]!);
    }
    return stale.length;
  }

  // --- tools ---

  private async tool(turn: TurnRow, call: ToolCall): Promise<ToolOutcome> {
    if (!isToolName(call.name)) return refused(`没有名为 ${call.name} 的工具`);
    let raw: unknown;
    try {
      raw = call.arguments.trim() ? JSON.parse(call.arguments) : {};
    } catch {
      return refused('参数不是合法的JSON');
    }
    const parsed = toolArgs[call.name].safeParse(raw);
    if (!parsed.success) return refused(argsProblem(parsed.error));
    try {
      return await this.execute(turn, call.name, parsed.data as never);
    } catch (err) {
      if (err instanceof AppError) return refused(err.message, err.code);
      throw err;
    }
  }

  private async execute<N extends ToolName>(turn: TurnRow, name: N, args: ReturnType<(typeof toolArgs)[N]['parse']>): Promise<ToolOutcome> {
    const userId = turn.userId;
    const p = this.d.ports;
    switch (name) {
      case 'hot_topics': {
        const a = args as ReturnType<(typeof toolArgs)['hot_topics']['parse']>;
        const page = await p.topics.hot(userId, { pageNum: 1, pageSize: a.limit, keyword: a.keyword, track: a.track });
        const items = page.records.map((t) => ({ id: t.id, title: t.title, summary: t.summary.slice(0, 120), heat: t.heat, tracks: t.tracks }));
        return { forModel: { items }, card: { ok: true, kind: 'topics', items } };
      }
      case 'topic_angles': {
        const a = args as AnglesArgs;
        const cost = await this.d.points.costOf(ANGLES_FEATURE);
        if (cost > this.d.confirmPoints) {
          return this.propose(turn, 'angles', { ...a, cost }, `生成写作角度（消耗${cost}积分）：${a.keyword ?? `热点 #${a.topicId}`}`);
        }
        const r = await this.angles(turn, a);
        return { forModel: { subject: r.subject, angles: r.angles }, card: { ok: true, kind: 'angles', ...r } };
      }
      case 'knowledge_search': {
        const a = args as ReturnType<(typeof toolArgs)['knowledge_search']['parse']>;
        const r = await p.knowledge.search(userId, a.query, {}, a.limit);
        const hits = r.hits.map((h) => ({ docId: h.docId, docName: h.docName, text: h.text.slice(0, 300) }));
        return { forModel: { hits }, card: { ok: true, kind: 'knowledge', query: a.query, hits } };
      }
      case 'write_article':
      case 'write_graphic': {
        const a = args as { content: string; writeType?: 'quick' | 'deep' };
        const kind = name === 'write_article' ? 'article' : 'graphic';
        const feature = kind === 'graphic' ? 'graphic' : a.writeType === 'deep' ? 'article_deep' : 'article_quick';
        const cost = await this.d.points.costOf(feature);
        if (cost > this.d.confirmPoints) {
          return this.propose(
            turn,
            'write',
            { kind, content: a.content, writeType: a.writeType ?? 'quick', cost },
            `${kind === 'graphic' ? '生成图文' : '写文章'}（消耗${cost}积分）：${a.content.slice(0, 40)}`,
          );
        }
        const { taskId } = await this.write(userId, turn.modelId, kind, a.content, a.writeType ?? 'quick');
        return { forModel: { taskId, status: 'queued', note: '任务已创建，写完后生成草稿' }, card: { ok: true, kind, taskId, content: a.content } };
      }
      case 'list_accounts': {
        const [list, count] = await Promise.all([p.accounts.list(userId, { pageNum: 1, pageSize: 50 }), p.accounts.count(userId)]);
        const accounts = list.records.map((r) => ({
          accountId: r.id,
          platform: r.platformName,
          name: r.accountName,
          sandbox: r.sandbox,
          status: r.status,
          followers: r.followerCount,
          notes: r.noteCount,
        }));
        return { forModel: { accounts, figures: count.publishData }, card: { ok: true, kind: 'accounts', accounts, figures: count.publishData } };
      }
      case 'schedule_publish': {
        const a = args as ReturnType<(typeof toolArgs)['schedule_publish']['parse']>;
        const accounts = await Promise.all([...new Set(a.accountIds)].map((id) => p.accounts.ownAccount(userId, id)));
        let what: string;
        if (a.taskId !== undefined) what = (await p.tasks.info(userId, a.taskId)).title || '写作任务的成稿';
        else what = (await p.drafts.draft(userId, a.draftId!)).title || '草稿';
        const when = a.scheduleAt ? `定时 ${new Date(a.scheduleAt).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false })}` : '立即';
        return this.propose(turn, 'publish', { ...a, accountIds: accounts.map((x) => x.id) }, `${when}发布「${what}」到 ${accounts.map((x) => x.accountName).join('、')}`);
      }
      case 'unbind_account': {
        const a = args as ReturnType<(typeof toolArgs)['unbind_account']['parse']>;
        const acct = await p.accounts.ownAccount(userId, a.accountId);
        return this.propose(turn, 'unbind', { accountId: acct.id }, `解除绑定账号「${acct.accountName}」`);
      }
    }
    return refused('未知工具');
  }

  private async angles(turn: Pick<TurnRow, 'id' | 'userId' | 'modelId'>, a: AnglesArgs) {
    const r = await this.d.ports.topics.angles(turn.userId, {
      keyword: a.keyword,
      topicId: a.topicId,
      platform: a.platform,
      count: a.count,
      modelConfigType: turn.modelId,
      // Once per turn and subject: a confirm after a retry charges once.
      requestId: `agent-${turn.id}-${a.keyword ?? a.topicId}`,
    });
    return { subject: r.subject, angles: r.angles, isAi: r.isAi, pointsCharged: r.pointsCharged };
  }

  private write(userId: number, modelId: string, kind: 'article' | 'graphic', content: string, writeType: 'quick' | 'deep') {
    if (kind === 'graphic') return this.d.ports.tasks.createGraphic(userId, graphicTaskCreateBody.parse({ createType: 'graphic', content, modelConfigType: modelId }));
    return this.d.ports.tasks.createArticle(userId, taskCreateBody.parse({ createType: 'article', writeType, content, modelConfigType: modelId }));
  }

  private async propose(turn: TurnRow, kind: ActionRow['kind'], args: Record<string, unknown>, summary: string): Promise<ToolOutcome> {
    const action = await this.d.repo.insertAction(this.d.repo.db, {
      id: randomUUID().replace(/-/g, ''),
      userId: turn.userId,
      conversationId: turn.conversationId,
      turnId: turn.id,
      kind,
      args,
      summary,
      createdAt: this.d.clock.now(),
    });
    return {
      forModel: { status: 'awaiting_confirmation', actionId: action.id, summary, note: '已提交给用户确认，确认前不会执行' },
      card: { ok: true, kind: 'action', actionId: action.id, summary },
      action,
    };
  }

  // --- confirm / reject ---

  /**
   * Runs a proposed action once: pending -> confirming (one click wins) -> confirmed with its result. When the action
   * cannot run now (the article is still being written, a platform rule) it goes back to pending with the reason, so
   * nothing is half done and the user may confirm again later.
   */
  async confirm(userId: number, actionId: string): Promise<AgentAction> {
    const a = await this.d.repo.action(userId, actionId);
    if (!a) throw appError(ErrorCode.NOT_FOUND, '待确认的操作不存在');
    if (a.status !== 'pending') throw appError(ErrorCode.CONFLICT, a.status === 'rejected' ? '该操作已取消' : '该操作已处理');
    const claimed = await this.d.repo.decide(this.d.repo.db, a.id, 'pending', { status: 'confirming' });
    if (!claimed) throw appError(ErrorCode.CONFLICT, '该操作已处理');
    let result: Record<string, unknown>;
    try {
      result = await this.perform(userId, a);
    } catch (err) {
      const msg = err instanceof AppError ? err.message : errorMessages[ErrorCode.SERVER_ERROR]!;
      if (!(err instanceof AppError)) this.d.log.error({ err, actionId }, 'agent action failed');
      await this.d.repo.decide(this.d.repo.db, a.id, 'confirming', { status: 'pending', error: msg });
      throw err;
    }
    const now = this.d.clock.now();
    const done = await this.d.repo.db.transaction(async (tx) => {
      const row = await this.d.repo.decide(tx, a.id, 'confirming', { status: 'confirmed', result, error: null, decidedAt: now });
      // The model reads what was done the next time the user writes.
      await this.d.repo.addMessage(tx, {
        conversationId: a.conversationId,
        turnId: a.turnId,
        role: 'assistant',
        content: `（用户已确认：${a.summary}。已执行。）`,
        result: { kind: 'confirmed', actionId: a.id, ...result },
        createdAt: now,
      });
      await this.d.repo.touchConversation(tx, a.conversationId, now);
      return row;
    });
    return toAction(done!);
  }

  async reject(userId: number, actionId: string): Promise<AgentAction> {
    const a = await this.d.repo.action(userId, actionId);
    if (!a) throw appError(ErrorCode.NOT_FOUND, '待确认的操作不存在');
    const now = this.d.clock.now();
    const row = await this.d.repo.db.transaction(async (tx) => {
      const r = await this.d.repo.decide(tx, a.id, 'pending', { status: 'rejected', decidedAt: now });
      if (r)
        await this.d.repo.addMessage(tx, {
          conversationId: a.conversationId,
          turnId: a.turnId,
          role: 'assistant',
          content: `（用户已取消：${a.summary}。未执行。）`,
          createdAt: now,
        });
      return r;
    });
    if (!row) throw appError(ErrorCode.CONFLICT, '该操作已处理');
    return toAction(row);
  }

  private async perform(userId: number, a: ActionRow): Promise<Record<string, unknown>> {
    const p = this.d.ports;
    if (a.kind === 'unbind') {
      await p.accounts.unbind(userId, Number(a.args.accountId));
      return { unbound: Number(a.args.accountId) };
    }
    if (a.kind === 'angles') {
      const turn = await this.d.repo.turn(a.turnId);
      const args = toolArgs.topic_angles.parse(a.args);
      return { kind: 'angles', ...(await this.angles({ id: a.turnId, userId, modelId: turn!.modelId }, args)) };
    }
    if (a.kind === 'write') {
      const turn = await this.d.repo.turn(a.turnId);
      const { taskId } = await this.write(
        userId,
        turn!.modelId,
        a.args.kind === 'graphic' ? 'graphic' : 'article',
        String(a.args.content),
        a.args.writeType === 'deep' ? 'deep' : 'quick',
      );
      return { taskId, kind: a.args.kind };
    }
    const args = toolArgs.schedule_publish.parse(a.args);
    const body: PublishArticleBody = { accountIds: args.accountIds };
    if (args.scheduleAt) body.scheduleAt = args.scheduleAt;
    if (args.taskId !== undefined) {
      const task = await p.tasks.info(userId, args.taskId);
      if (task.status === 'failed') throw appError(ErrorCode.OPERATION_FAILED, '写作任务失败了，无法发布');
      if (task.status !== 'succeeded') throw appError(ErrorCode.CONFLICT, '文章还在写作中，写完后再确认发布');
      if (task.kind === 'graphic') body.graphicTaskId = task.taskId;
      else if (task.draftId) body.draftId = task.draftId;
      else throw appError(ErrorCode.NOT_FOUND, '写作任务没有生成草稿');
    } else body.draftId = args.draftId!;
    const r = await p.publishing.publish(userId, body);
    return { publishId: r.publishId, jobs: r.jobs };
  }
}

function refused(msg: string, code: number = ErrorCode.VALIDATION): ToolOutcome {
  return { forModel: { error: msg }, card: { ok: false, error: msg, code } };
}

function toAction(a: ActionRow): AgentAction {
  return { actionId: a.id, kind: a.kind, summary: a.summary, status: a.status, args: a.args, result: a.result ?? null, error: a.error ?? null };
}
