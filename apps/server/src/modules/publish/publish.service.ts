import {
  ErrorCode,
  errorMessages,
  type PublishArticleBody,
  type PublishArticleReply,
  type PublishContentInput,
  type PublishRecordPage,
  type PublishRecordQuery,
  type PublishResultReply,
} from '@inkstone/shared';
import type { FastifyBaseLogger } from 'fastify';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { JobContext, JobQueue } from '../../jobs/types.js';
import { randomToken } from '../../security/hashing.js';
import type { BrowserPool } from '../../browser/pool.js';
import {
  CaptchaError,
  ContentRejectedError,
  PlatformError,
  SessionExpiredError,
  htmlToText,
  textLength,
  type PlatformAdapter,
  type PublishContent,
} from '../../integrations/platforms/types.js';
import type { Notify } from '../notice/personal-notices.js';
import type { ImageLoader } from '../../integrations/platforms/images.js';
import type { AccountService } from './account.service.js';
import { publishFailureMessage } from './failures.js';
import { diagnosticOf, type StepFailureRecorder } from './step-failures.js';
import type { JobRow, PublishRepo, TaskRow } from './publish.repo.js';
import type { PacingService } from './pacing.service.js';

export const PUBLISH_JOB = 'publish.note';
/** The publisher sweep: jobs whose publisher died (stale heartbeat) are queued again for a live one. */
export const PUBLISH_RECOVER_JOB = 'publish.recover';
/** A running publish job refreshes its heartbeat this often... */
const HEARTBEAT_MS = 10_000;
/** ...and one silent for this long lost its publisher (kill -9, a lost machine): another may take it over. */
const STALE_MS = 45_000;
const SWEEP_MS = 20_000;

export interface PublishSettings {
  maxAttempts: number;
  backoffMs: number;
  /** After an interrupted submit found nothing, wait this long and look again before submitting anew. */
  resubmitGraceMs?: number;
  /** How content images become files: stored uploads from storage, anything else through the SSRF-safe client. */
  images: ImageLoader;
  /** Embedded PGlite is locked to one process: at start-up every running job is an orphan of the previous run (queued again at once). */
  exclusive?: boolean;
  /** Per-account pacing (paced platforms): without it every job runs when asked. */
  pacing?: PacingService;
}

const errorCodeOf = (err: unknown): string =>
  err instanceof SessionExpiredError
    ? 'session_expired'
    : err instanceof CaptchaError
      ? 'captcha'
      : err instanceof ContentRejectedError
        ? 'content_rejected'
        : err instanceof PlatformError && err.name === 'RateLimitedError'
          ? 'rate_limited'
          : 'transient';

/** Publishing: checks limits, queues one job per account, runs them once and only once. */
/** What publishing needs of graphic notes (modules/graphic implements it; wired in container.ts). */
export interface GraphicNotesPort {
  /** The note of the user's graphic task: its cards (in order) as images; NOT_FOUND / CONFLICT when not publishable. */
  publishContent(userId: number, taskId: string): Promise<{ title: string; body: string; images: string[]; topics: string[] }>;
}

export class PublishService {
  private graphic: GraphicNotesPort | null = null;
  /** Set once the graphic module exists (it is built after publishing). */
  useGraphic(g: GraphicNotesPort): void {
    this.graphic = g;
  }
  private stepFailures: StepFailureRecorder | null = null;
  /** Where a failed step's diagnostic goes (平台健康; set by the container). */
  useStepFailures(r: StepFailureRecorder): void {
    this.stepFailures = r;
  }

  constructor(
    private readonly repo: PublishRepo,
    private readonly accounts: AccountService,
    private readonly jobs: JobQueue,
    private readonly pool: BrowserPool,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly settings: PublishSettings,
    private readonly notify: Notify = async () => undefined,
  ) {}

  registerJobs(concurrency: number) {
    this.jobs.register<{ jobId: string }>(PUBLISH_JOB, (p, ctx) => this.runJob(p.jobId, ctx), { concurrency });
    this.jobs.schedule(PUBLISH_RECOVER_JOB, SWEEP_MS, () => this.recover());
  }

  /** `origin`: where the request came from; our `/uploads/` images addressed through it are stored as paths. */
  private async resolveContent(userId: number, body: PublishArticleBody, origin?: string): Promise<{ content: PublishContent; draftId: string | null }> {
    let base: PublishContentInput | null = null;
    // Made with a model (the draft's or note's writing task): declared as AI content where the platform asks.
    let aiGenerated = false;
    if (body.draftId !== undefined) {
      const draft = await this.repo.draft(userId, body.draftId);
      if (!draft) throw appError(ErrorCode.NOT_FOUND, '草稿不存在');
      aiGenerated = draft.taskId ? await this.repo.madeWithModel(draft.taskId) : false;
      const html = draft.html || draft.markdown;
      const images = [...html.matchAll(/<img[^>]+src=["']([^"']+)["']/gi)].map((m) => m[1]!);
      base = { kind: 'article', title: draft.title, body: html, images, topics: [] };
    }
    if (body.graphicTaskId !== undefined) {
      if (!this.graphic) throw appError(ErrorCode.NOT_CONFIGURED, '图文发布不可用');
      base = { kind: 'image', ...(await this.graphic.publishContent(userId, body.graphicTaskId)) };
      aiGenerated = await this.repo.madeWithModel(body.graphicTaskId);
    }
    const c = body.content;
    const merged = {
      kind: base?.kind === 'image' ? ('image' as const) : (c?.kind ?? 'article'),
      title: (c?.title ?? base?.title ?? '').trim(),
      body: c?.body ?? base?.body ?? '',
      images: (c && c.images.length ? c.images : (base?.images ?? [])).map((src) => this.settings.images.ownUpload(src, origin ? [origin] : []) ?? src),
      topics: [...new Set((c?.topics.length ? c.topics : (base?.topics ?? [])).map((t) => t.replace(/^#/, '').trim()).filter(Boolean))],
      ...(aiGenerated ? { aiGenerated } : {}),
    };
    // Refused before anything is queued: what can be told without fetching (scheme, literal inner addresses).
    for (const [i, src] of merged.images.entries()) {
      const problem = this.settings.images.precheck(src);
      if (problem) throw appError(ErrorCode.VALIDATION, `images：第${i + 1}张图片${problem}`);
    }
    // Inline and stored images are read now (no network): a file that is not an image or is over the upload cap is
    // refused with the upload rules' messages before anything is queued.
    for (const [i, src] of merged.images.entries()) {
      const problem = await this.settings.images.inspect(src);
      if (problem === 'type') throw appError(ErrorCode.FILE_TYPE_UNSUPPORTED, `第${i + 1}张图片：${errorMessages[ErrorCode.FILE_TYPE_UNSUPPORTED]}`);
      if (problem === 'size') throw appError(ErrorCode.FILE_TOO_LARGE, `第${i + 1}张图片：${errorMessages[ErrorCode.FILE_TOO_LARGE]}`);
    }
    return { content: merged, draftId: body.draftId !== undefined ? String(body.draftId) : null };
  }

  /** Every way the content breaks a platform's rules, in Chinese, checked before anything is queued. */
  checkLimits(adapter: PlatformAdapter, content: PublishContent, scheduleAt: Date | null): string[] {
    const l = adapter.limits;
    const errors: string[] = [];
    const titleLen = textLength(content.title);
    if (l.titleRequired && !content.title) errors.push('标题不能为空');
    if (titleLen > l.titleMax) errors.push(`标题最多${l.titleMax}字（当前${titleLen}字）`);
    const bodyLen = textLength(htmlToText(content.body));
    if (bodyLen > l.bodyMax) errors.push(`正文最多${l.bodyMax}字（当前${bodyLen}字）`);
    if (!htmlToText(content.body) && !content.images.length) errors.push('正文不能为空');
    if (content.images.length < l.imagesMin) errors.push(`至少需要${l.imagesMin}张图片`);
    if (content.images.length > l.imagesMax) errors.push(`最多${l.imagesMax}张图片（当前${content.images.length}张）`);
    if (content.topics.length > l.topicsMax) errors.push(`最多${l.topicsMax}个话题（当前${content.topics.length}个）`);
    if (scheduleAt) {
      const ahead = scheduleAt.getTime() - this.clock.now().getTime();
      if (!l.schedule) errors.push('该平台不支持定时发布');
      else if (ahead < l.schedule.minAheadMs - 60_000 || ahead > l.schedule.maxAheadMs) {
        const h = (ms: number) => (ms >= 86_400_000 ? `${Math.round(ms / 86_400_000)}天` : ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)}小时` : '现在');
        errors.push(`定时发布时间需在${h(l.schedule.minAheadMs)}至${h(l.schedule.maxAheadMs)}之后`);
      }
    }
    return errors;
  }

  async publish(userId: number, body: PublishArticleBody, origin?: string): Promise<PublishArticleReply> {
    const { content, draftId } = await this.resolveContent(userId, body, origin);
    const scheduleAt = body.scheduleAt === undefined ? null : new Date(body.scheduleAt);
    const accountIds = [...new Set(body.accountIds)];
    const accounts = await Promise.all(accountIds.map((id) => this.accounts.ownAccount(userId, id)));
    const expired = accounts.filter((a) => a.status === 'expired');
    if (expired.length) {
      throw appError(ErrorCode.PLATFORM_ACCOUNT_EXPIRED, `账号「${expired.map((a) => a.accountName).join('、')}」登录已失效，请重新扫码绑定`, {
        accountIds: expired.map((a) => a.id),
      });
    }
    const problems: Array<{ platform: string; platformName: string; errors: string[] }> = [];
    for (const platform of new Set(accounts.map((a) => a.platform))) {
      const adapter = this.accounts.adapter(platform);
      const errors = this.checkLimits(adapter, content, scheduleAt);
      if (errors.length) problems.push({ platform, platformName: adapter.label, errors });
    }
    if (problems.length) {
      throw appError(ErrorCode.PUBLISH_LIMIT, problems.map((p) => `${p.platformName}：${p.errors.join('；')}`).join('\n'), { problems });
    }
    const now = this.clock.now();
    const publishId = randomToken(12);
    const rows = accounts.map((a) => {
      const adapter = this.accounts.adapter(a.platform);
      const waits = scheduleAt && adapter.limits.schedule?.mode === 'queue' && scheduleAt > now;
      return {
        id: randomToken(12),
        publishId,
        userId,
        accountId: a.id,
        platform: a.platform,
        status: 'queued',
        maxAttempts: this.settings.maxAttempts,
        runAt: waits ? scheduleAt : now,
        createdAt: now,
        updatedAt: now,
      };
    });
    const task = { id: publishId, userId, draftId, content, scheduleAt, createdAt: now };
    // A paced account's "publish now" job may move to its next free slot (runAt); a chosen time breaking it is refused.
    if (this.settings.pacing) await this.settings.pacing.insert(userId, accounts, scheduleAt, now, task, rows);
    else await this.repo.insertTask(task, rows);
    for (const r of rows) await this.enqueue(r.id, r.runAt, r.maxAttempts);
    return {
      publishId,
      jobs: rows.map((r) => ({ accountId: r.accountId, jobId: r.id, platform: r.platform, status: 'queued' as const, runAt: r.runAt.toISOString() })),
    };
  }

  private enqueue(jobId: string, runAt: Date, attemptsLeft: number, queueId = jobId) {
    return this.jobs.enqueue(
      PUBLISH_JOB,
      { jobId },
      { jobId: queueId, attempts: Math.max(1, attemptsLeft), backoffMs: this.settings.backoffMs, runAt: runAt > this.clock.now() ? runAt : undefined },
    );
  }

  /**
   * At start-up and every SWEEP_MS on each publisher: queued jobs, and running ones whose publisher died (heartbeat
   * older than STALE_MS), are queued again. A job another publisher is running keeps its heartbeat fresh and is left
   * alone, so starting a second publisher never posts a note twice; duplicates in the queue are harmless because
   * only one `claimJob` wins, and the submit marker covers a publisher that died mid-submit. The queue id names the
   * row's last update, so it differs from the id BullMQ may still keep for the dead attempt.
   */
  async recover(opts: { startup?: boolean } = {}): Promise<number> {
    const now = this.clock.now();
    if (opts.startup && this.settings.exclusive) await this.repo.resetRunning(now);
    const rows = await this.repo.orphanedJobs(new Date(now.getTime() - STALE_MS));
    for (const r of rows) await this.enqueue(r.id, r.runAt, r.maxAttempts - r.attempts, r.status === 'running' ? `${r.id}@${r.updatedAt.getTime()}` : r.id);
    return rows.length;
  }

  /** One attempt. Throws only to ask the queue for a retry. */
  async runJob(jobId: string, _ctx?: JobContext): Promise<void> {
    const now = this.clock.now();
    const job = await this.repo.claimJob(jobId, now, new Date(now.getTime() - STALE_MS));
    if (!job) return;
    // While this attempt runs, its heartbeat tells every other publisher (and their sweeps) it is not orphaned.
    const beat = setInterval(() => void this.repo.heartbeat(job.id, this.clock.now()).catch(() => undefined), HEARTBEAT_MS);
    try {
      await this.attempt(job, now);
    } finally {
      clearInterval(beat);
    }
  }

  private async attempt(job: JobRow, now: Date): Promise<void> {
    const jobId = job.id;
    const task = (await this.repo.task(job.publishId))!;
    // Everything the job needs of its account comes in this one call.
    const target = await this.accounts.forPublish(job.accountId);
    if (!target) return this.finish(job, { status: 'failed', errorCode: 'unbound', error: publishFailureMessage('unbound') }, task);
    const { account } = target;
    if (account.status === 'expired') return this.finish(job, { status: 'failed', errorCode: 'session_expired', error: publishFailureMessage('session_expired') }, task);
    const adapter = target.adapter();
    const content = task.content;
    try {
      const session = target.session();
      // A previous attempt reached the final submit: the note may be on the platform already.
      if (job.submitStartedAt) {
        let found = await adapter.findPublished(String(account.id), session, content, job.submitStartedAt);
        if (!found) {
          // A submit still in flight when the attempt died may land a little later: look once more.
          await new Promise((r) => setTimeout(r, this.settings.resubmitGraceMs ?? 5000));
          found = await adapter.findPublished(String(account.id), session, content, job.submitStartedAt);
        }
        if (found) {
          this.log.info({ jobId, url: found.url }, 'publish: note found after an interrupted submit; not posting again');
          return this.finish(job, { status: 'succeeded', resultUrl: found.url, platformNoteId: found.noteId, platformStatus: found.status }, task);
        }
      }
      const nativeSchedule = task.scheduleAt && adapter.limits.schedule?.mode === 'native' && task.scheduleAt > now ? task.scheduleAt : undefined;
      const result = await adapter.publish(String(account.id), session, content, {
        scheduleAt: nativeSchedule,
        images: this.settings.images,
        beforeSubmit: async () => {
          await this.repo.updateJob(job.id, { submitStartedAt: this.clock.now(), updatedAt: this.clock.now() });
        },
      });
      if (result.session) await this.repo.updateAccount(account.id, { sessionEnc: target.seal(result.session) });
      await this.repo.updateAccount(account.id, { noteCount: account.noteCount + 1, updatedAt: this.clock.now() });
      return this.finish(job, { status: 'succeeded', resultUrl: result.url, platformNoteId: result.noteId, platformStatus: result.status }, task, result.warnings);
    } catch (err) {
      const errorCode = errorCodeOf(err);
      const message = err instanceof PlatformError ? err.message : '发布失败，请稍后再试';
      if (!(err instanceof PlatformError)) this.log.error({ err, jobId }, 'publish: unexpected failure');
      const shot = await this.pool.saveScreenshot(`${job.id}-attempt${job.attempts}`, err instanceof PlatformError ? err.screenshot : undefined);
      const diagnostic = diagnosticOf(err);
      if (diagnostic) await this.stepFailures?.record({ platform: account.platform, source: 'publish', accountId: account.id, jobId: job.id, diagnostic });
      const entry = { attempt: job.attempts, at: this.clock.now().toISOString(), error: message, errorCode, screenshotPath: shot };
      const retry = (!(err instanceof PlatformError) || err.transient) && job.attempts < job.maxAttempts;
      if (err instanceof SessionExpiredError) await target.expire('登录已失效');
      // The user reads why and what to do; the attempt history keeps the platform's own words.
      const shown = publishFailureMessage(errorCode, message);
      await this.repo.appendHistory(job.id, entry, {
        status: retry ? 'queued' : 'failed',
        errorCode,
        error: shown,
        screenshotPath: shot ?? job.screenshotPath,
        finishedAt: retry ? null : this.clock.now(),
        updatedAt: this.clock.now(),
      });
      // The platform's message says which rule was broken; it carries no session data (adapters build it from page text).
      this.log.warn({ jobId, accountId: account.id, platform: account.platform, attempt: job.attempts, errorCode, reason: message.slice(0, 300), retry }, 'publish attempt failed');
      if (retry) throw err;
      await this.announce(job, task, { status: 'failed', errorCode, error: shown });
    }
  }

  /** `warnings`: what went out differently from what was asked (a skipped topic), kept on the job and told with the outcome. */
  private async finish(job: JobRow, patch: Partial<JobRow>, task: TaskRow, warnings: string[] = []) {
    const now = this.clock.now();
    const note = warnings.length ? { error: warnings.join('；') } : {};
    await this.repo.updateJob(job.id, { ...patch, finishedAt: now, updatedAt: now, ...(patch.status === 'succeeded' ? { error: null, errorCode: null, ...note } : {}) });
    await this.announce(job, task, patch, warnings);
  }

  /** The personal notice for a job's final outcome; keyed by the job, so a re-run never announces twice. */
  private async announce(job: JobRow, task: TaskRow, outcome: Partial<JobRow>, warnings: string[] = []) {
    const acct = await this.repo.account(job.accountId);
    const label = this.accounts.adapterLabel(job.platform);
    const where = `${label}账号「${acct?.accountName ?? job.accountId}」`;
    const title = task.content.title || '无标题';
    if (outcome.status === 'succeeded' && outcome.platformStatus === 'draft') {
      // Saved, not published: only WeChat answers 'draft' (an account WeChat gives no publishing API), so the user finishes it there.
      await this.notify({
        userId: job.userId,
        key: `publish-succeeded:${job.id}`,
        title: '已保存为草稿',
        content: `「${title}」已保存为公众号草稿（${where}）。该公众号未认证，微信不开放接口发布，请登录 mp.weixin.qq.com 在「草稿箱」中发布。`,
        link: `/operationBoard/${job.accountId}`,
      });
    } else if (outcome.status === 'succeeded') {
      const state = outcome.platformStatus === 'scheduled' ? '已提交定时发布' : outcome.platformStatus === 'reviewing' ? '已提交，平台审核中' : '已发布';
      await this.notify({
        userId: job.userId,
        key: `publish-succeeded:${job.id}`,
        title: '发布成功',
        content: `「${title}」${state}（${where}）。${warnings.map((w) => `${w}。`).join('')}${outcome.resultUrl ? `笔记链接：${outcome.resultUrl}` : ''}`.trim(),
        link: `/operationBoard/${job.accountId}`,
      });
    } else if (outcome.status === 'failed') {
      const relogin = outcome.errorCode === 'session_expired' || outcome.errorCode === 'captcha' || outcome.errorCode === 'unbound';
      await this.notify({
        userId: job.userId,
        key: `publish-failed:${job.id}`,
        title: '发布失败',
        content: `「${title}」发布到${where}失败：${outcome.error ?? publishFailureMessage(outcome.errorCode ?? 'transient')}`,
        link: relogin ? '/accountManager' : `/operationBoard/${job.accountId}`,
      });
    }
  }

  /** The user's own publish history (all accounts, or one), newest first; someone else's account is "not found". */
  async records(userId: number, q: PublishRecordQuery): Promise<PublishRecordPage> {
    if (q.accountId !== undefined && (await this.repo.accountOwner(q.accountId)) !== userId) throw appError(ErrorCode.NOT_FOUND, '账号不存在或已解绑');
    const { rows, total } = await this.repo.records(userId, { accountId: q.accountId, offset: (q.pageNum - 1) * q.pageSize, limit: q.pageSize });
    return {
      records: rows.map(({ job, task, accountName }) => ({
        ...this.jobView(job, accountName),
        publishId: task.id,
        title: task.content.title,
        scheduleAt: task.scheduleAt?.toISOString() ?? null,
        createdAt: job.createdAt.toISOString(),
      })),
      total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    };
  }

  private jobView(job: JobRow, accountName: string) {
    return {
      jobId: job.id,
      accountId: job.accountId,
      platform: job.platform,
      accountName,
      status: job.status as 'queued' | 'running' | 'succeeded' | 'failed',
      attempts: job.attempts,
      maxAttempts: job.maxAttempts,
      runAt: job.runAt.toISOString(),
      url: job.resultUrl,
      platformStatus: job.platformStatus,
      // On a success, what went out differently (a skipped topic); on a failure, why.
      error: job.error,
      errorCode: job.status === 'succeeded' ? null : job.errorCode,
      screenshotUrl: job.screenshotPath ? `/publish-api/publish/screenshot?jobId=${job.id}` : null,
      finishedAt: job.finishedAt?.toISOString() ?? null,
    };
  }

  async result(userId: number, publishId: string): Promise<PublishResultReply> {
    const task = await this.repo.task(publishId);
    if (!task || task.userId !== userId) throw appError(ErrorCode.NOT_FOUND, '发布记录不存在');
    const rows = await this.repo.jobsOf(publishId);
    const jobs = rows.map(({ job, accountName }) => this.jobView(job, accountName));
    const statuses = new Set(jobs.map((j) => j.status));
    const status =
      statuses.size === 1 && statuses.has('succeeded')
        ? 'succeeded'
        : statuses.size === 1 && statuses.has('failed')
          ? 'failed'
          : statuses.has('running')
            ? 'running'
            : statuses.has('queued')
              ? 'queued'
              : 'partial';
    return { publishId, status, title: task.content.title, scheduleAt: task.scheduleAt?.toISOString() ?? null, createdAt: task.createdAt.toISOString(), jobs };
  }

  async screenshot(userId: number, jobId: string): Promise<string> {
    const job = await this.repo.job(jobId);
    if (!job || job.userId !== userId || !job.screenshotPath) throw appError(ErrorCode.NOT_FOUND, '截图不存在');
    return job.screenshotPath;
  }

  async submitStatus(userId: number, platform: string, body: { publishId?: string; jobId?: string; accountId?: number; status: string; message?: string }) {
    let jobIds: string[] = [];
    if (body.jobId) jobIds = [body.jobId];
    else if (body.publishId) {
      const rows = await this.repo.jobsOf(body.publishId);
      jobIds = rows.filter((r) => r.job.platform === platform && (body.accountId === undefined || r.job.accountId === body.accountId)).map((r) => r.job.id);
    }
    let recorded = 0;
    for (const id of jobIds) {
      const job = await this.repo.job(id);
      if (!job || job.userId !== userId || job.platform !== platform) continue;
      await this.repo.updateJob(id, {
        clientSubmitStatus: { status: body.status, message: body.message ?? null, at: this.clock.now().toISOString() },
        updatedAt: this.clock.now(),
      });
      recorded += 1;
    }
    if (!recorded) throw appError(ErrorCode.NOT_FOUND, '发布记录不存在');
    return { recorded };
  }
}
