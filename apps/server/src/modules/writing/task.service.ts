import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ErrorCode,
  errorMessages,
  homeAbilities,
  markdownToHtml,
  sensitiveContentData,
  type AbilityCreateBody,
  type GraphicTaskCreateBody,
  type TaskCreateBody,
  type TaskInfo,
} from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import { AppError, appError } from '../../http/errors.js';
import { generatedBy, type LlmRegistry } from '../llm/llm-registry.js';
import { complete, LlmContentFilteredError, LlmRateLimitedError, LlmUpstreamError, type LlmClient, type LlmUsage } from '../../integrations/llm/types.js';
import type { SearchProvider } from '../../integrations/search/types.js';
import type { SwitchedSearch } from './switched-search.js';
import type { JobQueue } from '../../jobs/types.js';
import type { SensitiveLexicon } from '../lexicon/lexicon.service.js';
import type { DraftRepo, PersonaRow } from '../drafts/drafts.repo.js';
import type { FileRepo } from '../files/files.repo.js';
import { runAbility, writeArticle, type PersonaInfo, type Sink, type WriteResult } from './pipeline.js';
import { TaskLostError, TaskSink, type TaskSignals } from './task-sink.js';
import { TaskEventLog } from './task-event-log.js';
import { TaskInserter } from './task-inserter.js';
import { TaskWriter } from './task-writer.js';
import { readTaskInput, type ArticleTaskInput, type TaskInputOf, type TaskKind } from './task-input.js';
import type { StoredTaskEvent, TaskRow, WritingRepo } from './writing.repo.js';
import type { StoredEvent, StoredEventBatch } from '../../http/event-stream.js';

/**
 * What writing needs from the points ledger (modules/vip PointsService meets it): charges and refunds keyed
 * for idempotency, optionally inside the caller's transaction.
 */
export interface PointsPort {
  costOf(feature: string): Promise<number>;
  charge(userId: number, amount: number, opts: { reason: string; idempotencyKey: string }, db?: DbOrTx): Promise<unknown>;
  refund(userId: number, chargeKey: string, opts: { reason: string }, db?: DbOrTx): Promise<unknown>;
}

export const WRITING_JOB = 'writing.task';
/**
 * A running task whose heartbeat is older than this is taken to have lost its worker (kill -9, power loss) and is
 * restarted by any worker. The running worker refreshes the heartbeat every HEARTBEAT_MS, whatever the model does.
 */
export const STALE_MS = 10_000;
const HEARTBEAT_MS = 3_000;

/** Abort reason of a run stopped because its process is shutting down: the task is put back, not failed. */
export class TaskShutdown extends Error {
  constructor() {
    super('shutdown');
  }
}
const isShutdown = (signal: AbortSignal) => signal.aborted && signal.reason instanceof TaskShutdown;
/** Runs (first + restarts) before an interrupted task is failed and refunded. */
const MAX_RUNS = 3;

/** 知识库 quoted by a task: documents, folders, or the whole library. */
export interface KnowledgeRefs {
  docIds: number[];
  folderIds: number[];
  all: boolean;
}

/** What writing needs of the knowledge library (modules/knowledge implements it; wired in container.ts). */
export interface KnowledgePort {
  /** Throws NOT_FOUND when a quoted document or folder is not the user's. */
  checkRefs(userId: number, refs: KnowledgeRefs): Promise<void>;
  passages(userId: number, refs: KnowledgeRefs, query: string, limit: number): Promise<Array<{ title: string; url: string; snippet: string; siteName: string | null }>>;
}

/** The inputs a graphic task's writer gets, prepared by the task runner as for an article. */
export interface GraphicWriteContext {
  llm: LlmClient;
  persona: PersonaInfo | null;
  quotes: Array<{ name: string; text: string }>;
  onlineSearch: boolean;
  search: SearchProvider;
  retrieve?: (query: string, limit: number) => Promise<Array<{ title: string; url: string; snippet: string; siteName: string | null }>>;
}

/**
 * What writing needs to run a graphic (图文) task; modules/graphic implements it (wired in container.ts). The task
 * row, points, stream, retries and recovery stay here; the note, its cards and pictures are graphic's.
 */
export interface GraphicTaskPort {
  /** Graphic-only checks before anything is charged (e.g. AI pictures asked for while they are off). */
  check(userId: number, body: GraphicTaskCreateBody): Promise<void>;
  /** Writes the note and renders its cards, streaming progress and the note's words into the sink. */
  write(task: TaskRow, sink: Sink, ctx: GraphicWriteContext): Promise<LlmUsage | null>;
  /** In the finishing transaction: the 图文 draft of the finished note; returns its id. */
  finish(tx: DbOrTx, task: TaskRow, now: Date): Promise<number>;
  /** In the failing transaction: refunds what the run charged besides the task itself (AI pictures). */
  failed(tx: DbOrTx, task: TaskRow): Promise<void>;
}

/**
 * A run's last events as a batch streams in this process can send without reading them back: only when the run knows the
 * task's last event id before them (it stored a write; a stream that has sent up to there takes the batch).
 */
function finalBatch(sink: TaskSink, events: StoredTaskEvent[]): StoredEventBatch | undefined {
  return sink.lastEventId === null ? undefined : { after: sink.lastEventId, events };
}

/** A task row as inserted claimed (run 1): the columns the insert left to their defaults, filled in as the database does. */
function claimedRow(row: Pick<TaskRow, 'id' | 'userId' | 'kind' | 'mode' | 'modelId' | 'pointsFeature' | 'pointsCharged' | 'createdAt'> & { input: object }, now: Date): TaskRow {
  return {
    ...row,
    input: row.input as TaskRow['input'],
    status: 'running',
    title: '',
    text: '',
    runs: 1,
    errorCode: null,
    errorMsg: null,
    usage: null,
    draftId: null,
    heartbeatAt: now,
    finishedAt: null,
  };
}

const articleFeature = (writeType: string) => (writeType === 'deep' ? 'article_deep' : 'article_quick');

export const toPersonaInfo = (p: PersonaRow): PersonaInfo => ({
  name: p.name,
  platform: p.platform,
  industry: p.industry,
  audience: p.audience,
  tone: p.tone,
  tabooWords: p.tabooWords,
  sampleTexts: p.sampleTexts,
});

/** Maps a failure to what the user sees; unexpected ones are logged by the caller. */
export function userFacing(err: unknown): { code: number; msg: string; expected: boolean } {
  if (err instanceof AppError) return { code: err.code, msg: err.message, expected: true };
  // The vendor's own safety check refused the input or the output: the product's sensitive-content error (933), no words to name.
  if (err instanceof LlmContentFilteredError) return { code: ErrorCode.SENSITIVE_CONTENT, msg: errorMessages[ErrorCode.AI_CONTENT_FILTERED]!, expected: true };
  if (err instanceof LlmRateLimitedError) return { code: ErrorCode.AI_RATE_LIMITED, msg: errorMessages[ErrorCode.AI_RATE_LIMITED]!, expected: true };
  if (err instanceof LlmUpstreamError) return { code: ErrorCode.AI_UPSTREAM_FAILED, msg: errorMessages[ErrorCode.AI_UPSTREAM_FAILED]!, expected: true };
  return { code: ErrorCode.SERVER_ERROR, msg: errorMessages[ErrorCode.SERVER_ERROR]!, expected: false };
}

export function titleOf(markdown: string, fallback: string): string {
  const h = /^#\s+(.+)$/m.exec(markdown);
  return (h?.[1] ?? fallback ?? '').trim().slice(0, 100) || '未命名草稿';
}

export class WritingTaskService {
  /** Runs in this process, so shutdown can stop them and the sweep leaves them alone. */
  private readonly active = new Map<string, { sink: TaskSink; done: Promise<void> }>();
  private stopping = false;

  /** Set once the knowledge library exists (it is built after writing, whose storage it shares). */
  private knowledge: KnowledgePort | null = null;
  useKnowledge(k: KnowledgePort): void {
    this.knowledge = k;
  }

  /** Set once the graphic module exists (it is built after writing, whose repo and storage it uses). */
  private graphic: GraphicTaskPort | null = null;
  useGraphic(g: GraphicTaskPort): void {
    this.graphic = g;
  }

  constructor(
    private readonly repo: WritingRepo,
    /** Personas a task writes as, and the draft a finished article becomes (in the finishing transaction). */
    private readonly drafts: Pick<DraftRepo, 'persona'>,
    /** Quoted documents a task reads. */
    private readonly files: Pick<FileRepo, 'files'>,
    private readonly points: PointsPort,
    private readonly llms: LlmRegistry,
    private readonly search: SwitchedSearch,
    private readonly lexicon: SensitiveLexicon,
    private readonly jobs: JobQueue,
    private readonly signals: TaskSignals,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    /**
     * True when no other process can be using this database (embedded PGlite, locked to this process): at
     * start-up every task still marked running was left by a dead process and is restarted at once.
     */
    private readonly exclusive = false,
  ) {
    this.writer = new TaskWriter(repo, signals, clock);
    this.inserter = new TaskInserter(repo);
    signals.onStored((taskId, batch) => this.eventLog.stored(taskId, batch));
    signals.onWoken((taskId) => this.eventLog.end(taskId));
  }
  /** Stores every running task's stream of this process, together. */
  private readonly writer: TaskWriter;
  /** Stores the free tasks created at once in this process, together. */
  private readonly inserter: TaskInserter;
  /** The events of the tasks this process created and runs, for their streams' first page. */
  private readonly eventLog = new TaskEventLog();

  /** Online search asked for: a vendor must be configured and not switched off in the console. */
  private async searchReady(): Promise<void> {
    if (!this.search.enabled) throw appError(ErrorCode.SEARCH_NOT_CONFIGURED, '未配置联网搜索服务，请关闭联网搜索后重试');
    if (!(await this.search.available())) throw appError(ErrorCode.SEARCH_NOT_CONFIGURED, '联网搜索已暂停，请关闭联网搜索后重试');
  }

  /** Set by register(): this process runs tasks, at most this many at once. */
  private concurrency = 0;
  /** Tasks inserted claimed by their create whose run has not started yet, with their rows (see run). */
  private readonly handedOver = new Map<string, TaskRow>();

  register(concurrency: number) {
    this.concurrency = concurrency;
    this.jobs.register<{ taskId: string }>(WRITING_JOB, (p) => this.run(p.taskId), { concurrency });
  }

  /**
   * Whether a new task can be inserted already claimed by this process and handed straight to its own queue: the queue
   * is this process's (in-process: its job runs here, where the row is kept) and has a free slot, so the run starts at once
   * instead of a claim statement and a queue hop between the create and the model call.
   */
  private canRunAtOnce(): boolean {
    return this.jobs.kind === 'in-process' && this.concurrency > 0 && !this.stopping && this.active.size < this.concurrency;
  }

  /** 933 carries the words and where they were found, for the sensitive-content modal. */
  private async sensitive(text: string, where: string) {
    const hits = await this.lexicon.check(text);
    if (hits.length) throw appError(ErrorCode.SENSITIVE_CONTENT, undefined, sensitiveContentData(hits, where));
  }

  private async persona(userId: number, id: number | null | undefined): Promise<PersonaRow | null> {
    if (!id) return null;
    const p = await this.drafts.persona(userId, id);
    if (!p) throw appError(ErrorCode.NOT_FOUND, '人设不存在');
    return p;
  }

  async createArticle(userId: number, body: TaskCreateBody): Promise<{ taskId: string }> {
    const model = await this.llms.get(body.modelConfigType);
    if (body.onlineSearch) await this.searchReady();
    await this.persona(userId, body.personaId);
    const ids = [...new Set(body.quoteFileIds)];
    const files = await this.files.files(userId, 'quote', ids);
    if (files.length !== ids.length) throw appError(ErrorCode.NOT_FOUND, '引用文件不存在或已删除');
    const knowledge = body.knowledge && (body.knowledge.all || body.knowledge.docIds.length || body.knowledge.folderIds.length) ? body.knowledge : null;
    if (knowledge) {
      if (!this.knowledge) throw appError(ErrorCode.NOT_CONFIGURED, '知识库不可用');
      await this.knowledge.checkRefs(userId, knowledge);
    }
    await this.sensitive(body.content, '写作内容');
    const feature = model.pointsFeature ?? articleFeature(body.writeType);
    return this.create(
      userId,
      'article',
      body.writeType,
      { content: body.content, personaId: body.personaId ?? null, quoteFileIds: ids, onlineSearch: body.onlineSearch, knowledge, abilityType: body.abilityType ?? null },
      model.id,
      feature,
      model.isAi,
    );
  }

  /** A graphic (图文) task: the same inputs and checks as an article, charged `graphic` (free from the offline writer). */
  async createGraphic(userId: number, body: GraphicTaskCreateBody): Promise<{ taskId: string }> {
    if (!this.graphic) throw appError(ErrorCode.NOT_CONFIGURED, '图文生成不可用');
    const model = await this.llms.get(body.modelConfigType);
    if (body.onlineSearch) await this.searchReady();
    await this.persona(userId, body.personaId);
    const ids = [...new Set(body.quoteFileIds)];
    const files = await this.files.files(userId, 'quote', ids);
    if (files.length !== ids.length) throw appError(ErrorCode.NOT_FOUND, '引用文件不存在或已删除');
    const knowledge = body.knowledge && (body.knowledge.all || body.knowledge.docIds.length || body.knowledge.folderIds.length) ? body.knowledge : null;
    if (knowledge) {
      if (!this.knowledge) throw appError(ErrorCode.NOT_CONFIGURED, '知识库不可用');
      await this.knowledge.checkRefs(userId, knowledge);
    }
    await this.graphic.check(userId, body);
    await this.sensitive(body.content, '写作内容');
    const input = {
      content: body.content,
      personaId: body.personaId ?? null,
      quoteFileIds: ids,
      onlineSearch: body.onlineSearch,
      knowledge,
      abilityType: body.abilityType ?? null,
      contentCards: body.contentCards ?? null,
      themeId: body.themeId ?? null,
      pictureMode: body.pictureMode,
    };
    return this.create(userId, 'graphic', body.writeType, input, model.id, 'graphic', model.isAi);
  }

  async createAbility(userId: number, body: AbilityCreateBody): Promise<{ taskId: string }> {
    const model = await this.llms.get(body.modelConfigType);
    const persona = await this.persona(userId, body.personaId);
    if (body.abilityType === 'persona' && !persona) throw appError(ErrorCode.VALIDATION, '请选择人设');
    if (body.abilityType === 'tone' && !body.tone) throw appError(ErrorCode.VALIDATION, '请选择语气');
    await this.sensitive(`${body.text}\n${body.context ?? ''}`, '选中的文字');
    return this.create(
      userId,
      'ability',
      body.abilityType,
      { text: body.text, context: body.context, personaId: body.personaId ?? null, tone: body.tone },
      model.id,
      'ability',
      model.isAi,
    );
  }

  /**
   * Charges (key `task:<id>`) and records the task in one transaction (a free one in one statement), then enqueues it. Only model-backed work
   * is paid: the offline writer (isAi false) only arranges the user's own input, so it costs nothing.
   */
  private async create<K extends TaskKind>(userId: number, kind: K, mode: string, input: TaskInputOf<K>, modelId: string, feature: string, isAi: boolean) {
    const cost = !isAi
      ? 0
      : await this.points.costOf(feature).catch(() => {
          throw appError(ErrorCode.SERVER_ERROR);
        });
    const taskId = randomUUID();
    const now = this.clock.now();
    // Claimed in the insert itself (run 1, heartbeat now) when this process will run it at once; queued otherwise.
    const claimed = this.canRunAtOnce();
    const row = {
      id: taskId,
      userId,
      kind,
      mode,
      input,
      modelId,
      pointsFeature: feature,
      pointsCharged: cost,
      createdAt: now,
      ...(claimed ? { status: 'running' as const, runs: 1, heartbeatAt: now } : {}),
    };
    const queued = [{ type: 'progress', data: { stage: 'queued', message: '已进入写作队列', percent: 0 } }];
    const stored =
      cost === 0
        ? await this.inserter.insert(row, queued)
        : await this.repo.db.transaction(async (tx) => {
            await this.repo.insertTask(tx, row);
            await this.points.charge(userId, cost, { reason: feature, idempotencyKey: `task:${taskId}` }, tx);
            return this.repo.appendEvents(tx, taskId, queued);
          });
    if (claimed) {
      this.handedOver.set(taskId, claimedRow(row, now));
      // Its run is this process's: the streams opened on it here start from this log, not a read.
      this.eventLog.start(taskId, userId, stored);
    }
    await this.jobs.enqueue(WRITING_JOB, { taskId }, { jobId: taskId });
    return { taskId };
  }

  /**
   * The job: claims the task (unless its create in this process already did), streams into the events table, then
   * finishes (draft) or fails (refund).
   */
  async run(taskId: string): Promise<void> {
    // Shutting down: leave it for the next start (or another worker) instead of starting what must stop. A task
    // claimed by its create is then left running with a heartbeat that goes stale: recovery restarts it like any
    // task whose process stopped.
    // The create's own claim is used once, by the first run of its job; a later run (a failed job retried from the
    // console) claims like any other, so a run never starts on a row it did not just take.
    const own = this.handedOver.get(taskId);
    this.handedOver.delete(taskId);
    if (this.active.has(taskId)) return;
    if (this.stopping) {
      this.eventLog.end(taskId);
      return;
    }
    const now = this.clock.now();
    const task = own ?? (await this.repo.claim(taskId, now, new Date(now.getTime() - STALE_MS)));
    if (!task) return;
    if (task.runs > MAX_RUNS) {
      await this.fail(task.id, ErrorCode.TASK_INTERRUPTED, errorMessages[ErrorCode.TASK_INTERRUPTED]!);
      return;
    }
    const sink = new TaskSink(this.writer, task.id, task.runs);
    const done = this.execute(task, sink);
    this.active.set(task.id, { sink, done });
    // Claimed while shutdown began: stop at once (the run puts the task back).
    if (this.stopping) sink.stop(new TaskShutdown());
    try {
      await done;
    } finally {
      this.active.delete(task.id);
      this.eventLog.end(task.id);
    }
  }

  private async personaInfo(userId: number, personaId: number | null): Promise<PersonaInfo | null> {
    const p = personaId ? await this.drafts.persona(userId, personaId) : undefined;
    return p ? toPersonaInfo(p) : null;
  }

  /** What an article or graphic task writes from: the persona, the quoted files, and retrieval from the quoted 知识库. */
  private async sources(task: TaskRow, input: ArticleTaskInput) {
    const persona = await this.personaInfo(task.userId, input.personaId);
    const quotes = (await this.files.files(task.userId, 'quote', input.quoteFileIds)).map((f) => ({ name: f.name, text: f.text ?? '' }));
    const refs = input.knowledge;
    const kb = this.knowledge;
    const retrieve = refs && kb ? (query: string, limit: number) => kb.passages(task.userId, refs, query, limit) : undefined;
    return { persona, quotes, retrieve };
  }

  private async execute(task: TaskRow, sink: TaskSink): Promise<void> {
    const taskId = task.id;
    if (task.runs > 1) sink.reset('restart');
    const heartbeat = setInterval(() => void sink.flush().catch(() => undefined), HEARTBEAT_MS);
    try {
      const model = await this.llms.get(task.modelId);
      let written: WriteResult;
      if (task.kind === 'graphic') {
        if (!this.graphic) throw appError(ErrorCode.NOT_CONFIGURED, '图文生成不可用');
        const input = readTaskInput('graphic', task.input);
        const { persona, quotes, retrieve } = await this.sources(task, input);
        const usage = await this.graphic.write(task, sink, { llm: model.client, persona, quotes, onlineSearch: input.onlineSearch, search: this.search, retrieve });
        written = { usage, truncated: false };
      } else if (task.kind === 'article') {
        const input = readTaskInput('article', task.input);
        const { persona, quotes, retrieve } = await this.sources(task, input);
        written = await writeArticle(
          sink,
          model.client,
          {
            writeType: task.mode as 'deep',
            content: input.content,
            persona,
            quotes,
            onlineSearch: input.onlineSearch,
            retrieve,
            style: homeAbilities.find((a) => a.id === input.abilityType)?.instruction ?? '',
          },
          this.search,
        );
      } else {
        const input = readTaskInput('ability', task.input);
        const persona = await this.personaInfo(task.userId, input.personaId);
        written = await runAbility(sink, model.client, { ability: task.mode, text: input.text, context: input.context, persona, tone: input.tone });
      }
      await sink.flush();
      // Stopped by shutdown while the pipeline kept what it had (the offline writer, a skipped review): not a result.
      if (isShutdown(sink.signal)) {
        await this.checkpoint(task, sink);
        return;
      }
      if ((await this.lexicon.check(sink.text)).length) {
        await this.fail(task.id, ErrorCode.SENSITIVE_CONTENT, '生成内容存在敏感内容，已退还积分', sink);
        return;
      }
      if (written.truncated && task.kind !== 'graphic') await this.finishTruncated(task, sink, written.usage);
      else await this.finish(task, sink, written.usage);
    } catch (err) {
      if (err instanceof TaskLostError) return;
      await sink.settled().catch(() => undefined);
      if (isShutdown(sink.signal)) {
        await this.checkpoint(task, sink).catch((e: unknown) => this.log.error({ err: e, taskId }, 'writing task checkpoint failed'));
        return;
      }
      if (sink.signal.aborted && !(err instanceof AppError)) {
        // The sink lost the task (failed elsewhere) or the database went away; nothing more to write.
        const current = await this.repo.task(task.id).catch(() => undefined);
        if (current && current.status !== 'running') return;
      }
      const f = userFacing(err);
      if (!f.expected) this.log.error({ err, taskId }, 'writing task failed unexpectedly');
      else this.log.warn({ err: err instanceof Error ? err.message : err, taskId }, 'writing task failed');
      await this.fail(task.id, f.code, f.msg, sink);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Shutdown: puts a running task back in the queue with its text so far, neither failed nor refunded. The next
   * worker to start (this one after a restart, or another one) runs it again from the start.
   */
  private async checkpoint(task: TaskRow, sink: TaskSink) {
    await sink.settled().catch(() => undefined);
    const back = await this.repo.db.transaction(async (tx) => {
      const ok = await this.repo.updateRunning(tx, task.id, { status: 'queued', text: sink.text, title: sink.titleText, heartbeatAt: null }, task.runs);
      if (ok)
        await this.repo.appendEvents(tx, task.id, [...sink.drain(), { type: 'progress', data: { stage: 'queued', message: '服务正在重启，任务将在重启后自动继续', percent: 0 } }]);
      return ok;
    });
    if (back) {
      this.log.info({ taskId: task.id }, 'writing task checkpointed for shutdown');
      this.signals.notify(task.id);
    }
  }

  /**
   * Graceful shutdown: no new runs start here, and running ones stop their model calls and are put back in the
   * queue (see checkpoint). Resolves when every run has let go of its task.
   */
  async shutdown(): Promise<void> {
    this.stopping = true;
    const runs = [...this.active.values()];
    for (const r of runs) r.sink.stop(new TaskShutdown());
    await Promise.allSettled(runs.map((r) => r.done));
  }

  private async finish(task: TaskRow, sink: TaskSink, usage: LlmUsage | null) {
    await sink.settled();
    const markdown = sink.text;
    const title = titleOf(markdown, sink.titleText);
    const now = this.clock.now();
    const last = [...sink.drain(), ...(usage ? [{ type: 'usage', data: { ...usage } }] : [])];
    if (task.kind !== 'graphic') {
      // An article's draft, or an ability's text alone: one statement, no transaction.
      const draft = task.kind === 'article' ? { userId: task.userId, markdown, html: markdownToHtml(markdown) } : null;
      const done = await this.repo.finishRunning({
        taskId: task.id,
        run: task.runs,
        text: markdown,
        title,
        usage,
        now,
        draft,
        events: [...last, { type: 'done', data: { title } }],
      });
      if (!done) throw new TaskLostError(`task ${task.id} finished elsewhere`);
      this.signals.notify(task.id, finalBatch(sink, done.events));
      return;
    }
    let draftId: number | null = null;
    const final = await this.repo.db.transaction(async (tx) => {
      if (this.graphic) draftId = await this.graphic.finish(tx, task, now);
      const ok = await this.repo.updateRunning(tx, task.id, { status: 'succeeded', text: markdown, title, usage, draftId, finishedAt: now, heartbeatAt: now }, task.runs);
      if (!ok) throw new TaskLostError(`task ${task.id} finished elsewhere`);
      return this.repo.appendEvents(tx, task.id, [...last, { type: 'done', data: { draftId, title } }]);
    });
    this.signals.notify(task.id, finalBatch(sink, final));
  }

  /**
   * A text the model left cut at its length limit (after the pipeline's continuations): kept as a draft, but told as
   * possibly incomplete (the task's error code and message, a progress note, `truncated` on `done`) and not charged as a
   * success, which only a complete text is: the charge is refunded in the finishing transaction.
   */
  private async finishTruncated(task: TaskRow, sink: TaskSink, usage: LlmUsage | null) {
    await sink.settled();
    const markdown = sink.text;
    const title = titleOf(markdown, sink.titleText);
    const now = this.clock.now();
    const refunded = task.pointsCharged;
    const base = errorMessages[ErrorCode.AI_OUTPUT_TRUNCATED]!;
    const notice = `${task.kind === 'article' ? base : base.replace('文章', '内容')}${refunded > 0 ? '，已退还积分' : ''}`;
    const draft = task.kind === 'article' ? { userId: task.userId, markdown, html: markdownToHtml(markdown) } : null;
    const events = [
      ...sink.drain(),
      ...(usage ? [{ type: 'usage', data: { ...usage } }] : []),
      { type: 'progress', data: { stage: 'finish', message: notice, percent: 100 } },
      { type: 'done', data: { title, truncated: true, notice, refunded } },
    ];
    const done = await this.repo.db.transaction(async (tx) => {
      const finished = await this.repo.finishRunning(
        { taskId: task.id, run: task.runs, text: markdown, title, usage, now, draft, events, note: { code: ErrorCode.AI_OUTPUT_TRUNCATED, msg: notice } },
        tx,
      );
      if (!finished) throw new TaskLostError(`task ${task.id} finished elsewhere`);
      if (refunded > 0) await this.points.refund(task.userId, `task:${task.id}`, { reason: `refund:${task.pointsFeature}` }, tx);
      return finished;
    });
    this.log.warn({ taskId: task.id }, 'writing task finished at the model length limit; refunded');
    this.signals.notify(task.id, finalBatch(sink, done.events));
  }

  /**
   * The only way a task fails: marks it failed (keeping the partial text), refunds the charge and writes the
   * error event, all in one transaction. The conditional update lets exactly one caller through, and the
   * refund's own key (`refund:task:<id>`) makes a second refund a no-op even so.
   */
  async fail(taskId: string, code: number, msg: string, sink?: TaskSink): Promise<boolean> {
    const failed = await this.repo.db.transaction(async (tx) => {
      const pending = sink?.drain() ?? [];
      const row = await this.repo.markFailed(
        tx,
        taskId,
        {
          errorCode: code,
          errorMsg: msg,
          finishedAt: this.clock.now(),
          ...(sink ? { text: sink.text, title: sink.titleText } : {}),
        },
        sink?.run,
      );
      if (!row) return false as const;
      if (row.kind === 'graphic' && this.graphic) await this.graphic.failed(tx, row);
      if (row.pointsCharged > 0) await this.points.refund(row.userId, `task:${taskId}`, { reason: `refund:${row.pointsFeature}` }, tx);
      return this.repo.appendEvents(tx, taskId, [...pending, { type: 'error', data: { code, msg, refunded: row.pointsCharged } }]);
    });
    if (failed) this.signals.notify(taskId, sink ? finalBatch(sink, failed) : undefined);
    return failed !== false;
  }

  /**
   * Start-up (and periodic) recovery: every queued or running task not running here gets a job again. Running
   * ones are retried once their heartbeat is stale, so a task whose process died is restarted (or failed and
   * refunded after MAX_RUNS) instead of staying "running" forever. Duplicates are harmless: `claim` lets one
   * through. Job ids change with the heartbeat, so a queue that keeps finished ids (BullMQ) still takes the
   * retry of a worker that died after an earlier check found it alive.
   */
  async recover(opts: { startup?: boolean } = {}): Promise<number> {
    if (opts.startup && this.exclusive) {
      const n = await this.repo.releaseRunning();
      if (n) this.log.info({ tasks: n }, 'writing tasks left running by a stopped process restart now');
    }
    const open = await this.repo.openTasks();
    let n = 0;
    for (const t of open) {
      if (this.active.has(t.id)) continue;
      n += 1;
      const hb = t.status === 'running' ? t.heartbeatAt : null;
      const runAt = hb ? new Date(hb.getTime() + STALE_MS + 500) : undefined;
      const jobId = t.status === 'queued' ? `${t.id}:queued:${t.runs}` : `${t.id}:stale:${t.runs}:${hb?.getTime() ?? 0}`;
      await this.jobs.enqueue(WRITING_JOB, { taskId: t.id }, { jobId, runAt });
    }
    return n;
  }

  async requireTask(userId: number, taskId: string): Promise<TaskRow> {
    const task = await this.repo.task(taskId);
    if (!task || task.userId !== userId) throw appError(ErrorCode.NOT_FOUND, '任务不存在');
    return task;
  }

  /**
   * A stream's first read: the task's events after `afterId`, NOT_FOUND when the task is not the user's. From this
   * process's log of the task when it keeps one (no query), else one query that checks the owner too.
   */
  async ownEventsAfter(userId: number, taskId: string, afterId: number, limit: number): Promise<StoredEvent[]> {
    const logged = this.eventLog.page(taskId, userId, afterId, limit);
    if (logged === 'not-owner') throw appError(ErrorCode.NOT_FOUND, '任务不存在');
    if (logged) return logged;
    const events = await this.repo.ownedEventsAfter(taskId, userId, afterId, limit);
    if (!events) throw appError(ErrorCode.NOT_FOUND, '任务不存在');
    return events;
  }

  async info(userId: number, taskId: string): Promise<TaskInfo> {
    const t = await this.requireTask(userId, taskId);
    return {
      taskId: t.id,
      kind: t.kind,
      mode: t.mode,
      status: t.status,
      title: t.title,
      text: t.text,
      draftId: t.draftId,
      pointsCharged: t.pointsCharged,
      modelId: t.modelId,
      generatedBy: generatedBy(t.modelId),
      errorCode: t.errorCode,
      errorMsg: t.errorMsg,
      createdAt: t.createdAt.toISOString(),
      finishedAt: t.finishedAt?.toISOString() ?? null,
    };
  }

  /** Short and synchronous (a few seconds): charged `title` (free from the offline writer), refunded when the model fails. */
  async generateTitles(userId: number, body: { content: string; count: number; personaId?: number | null; modelConfigType?: string | null }) {
    const model = await this.llms.get(body.modelConfigType);
    const persona = await this.persona(userId, body.personaId);
    await this.sensitive(body.content.slice(0, 5000), '正文');
    const cost = model.isAi ? await this.points.costOf(model.pointsFeature && model.pointsFeature.startsWith('title') ? model.pointsFeature : 'title') : 0;
    const key = `title:${randomUUID()}`;
    if (cost > 0) await this.points.charge(userId, cost, { reason: 'title', idempotencyKey: key });
    try {
      const { text } = await complete(model.client, {
        signal: AbortSignal.timeout(60_000),
        messages: [
          { role: 'system', content: `你是中文新媒体标题专家。${persona ? `人设：${persona.name}，语气：${persona.tone}，读者：${persona.audience}。` : ''}` },
          { role: 'user', content: `为下面的文章拟${body.count}个标题，每行一个，不要编号和解释：\n\n${body.content.slice(0, 6000)}` },
        ],
        offline: { purpose: 'title', content: body.content, count: body.count },
      });
      const titles = text
        .split('\n')
        .map((l) =>
          l
            .replace(/^\s*(\d+[.、)]|[-*#]+)\s*/, '')
            .replace(/^["“「《](.*)["”」》]$/, '$1')
            .trim(),
        )
        .filter(Boolean)
        .slice(0, body.count);
      if (!titles.length) throw new LlmUpstreamError('no titles in the reply');
      if ((await this.lexicon.check(titles.join('\n'))).length) throw appError(ErrorCode.SENSITIVE_CONTENT);
      return { titles, isAi: model.isAi };
    } catch (err) {
      if (cost > 0) await this.points.refund(userId, key, { reason: 'refund:title' });
      const f = userFacing(err);
      if (!f.expected) this.log.error({ err }, 'title generation failed');
      throw appError(f.code, f.msg);
    }
  }
}
