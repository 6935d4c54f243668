import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { JobQueue } from '../../jobs/types.js';
import { SessionExpiredError, type PlatformAdapter, type SessionBlob } from '../../integrations/platforms/types.js';
import type { Notify } from '../notice/personal-notices.js';
import type { AccountService } from './account.service.js';
import { detectIntents, suggestReply } from './intent.js';
import type { AccountRow, CommentRow, PublishRepo } from './publish.repo.js';
import { suggestTopics } from './tags.js';

export const ENGAGEMENT_JOB = 'publish.engagement';
export const ENGAGEMENT_TICK_JOB = 'publish.engagement-tick';

/** More new intent comments than this in one sync become one summary notice instead of one each. */
export const INTENT_NOTICE_BURST = 3;

/** Notes published this recently are watched while the platform reviews them... */
const REVIEW_WATCH_MS = 14 * 86_400_000;
/** ...a few per sync, so one account's backlog never makes a sync slow. */
const REVIEWS_PER_SYNC = 5;

const intentWords: Record<string, string> = { purchase: '购买', contact: '联系' };

/**
 * Comments, mentions and unread counts, fetched per account on a schedule (a recurring job) and
 * stored, so the shell's 15 s polling reads the database only.
 */
export class EngagementService {
  constructor(
    private readonly repo: PublishRepo,
    private readonly accounts: AccountService,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly notify: Notify = async () => undefined,
  ) {}

  /** Publisher role: the sync job, and a scheduled tick that queues a sync for every active account. */
  registerJobs(intervalMs: number) {
    this.jobs.register<{ accountId: number }>(ENGAGEMENT_JOB, (p) => this.sync(p.accountId).then(() => undefined), { concurrency: 1 });
    this.jobs.schedule(ENGAGEMENT_TICK_JOB, intervalMs, async () => {
      for (const a of await this.repo.activeAccounts()) await this.queueSync(a.id);
    });
  }

  /** Queues a sync now (after binding) and then every `intervalMs` for every active account. */
  async queueSync(accountId: number) {
    await this.jobs.enqueue(ENGAGEMENT_JOB, { accountId }, { jobId: `eng-${accountId}` });
  }

  /** Reads unread counts, comments and stats for one account; returns the number of new comments. */
  async sync(accountId: number): Promise<number> {
    const account = await this.repo.account(accountId);
    if (!account || account.status !== 'active') return 0;
    const adapter = this.accounts.adapter(account.platform);
    const key = String(account.id);
    try {
      const session = this.accounts.openSession(account);
      // A login that cannot read the inbox (Xiaohongshu's creator login) is not asked, and not marked expired for it.
      const inbox = !adapter.inboxUnavailable;
      const [unread, comments, stats] = await Promise.all([
        inbox ? adapter.unreadCounts(key, session) : Promise.resolve(null),
        inbox ? adapter.comments(key, session) : Promise.resolve([]),
        adapter.stats(key, session),
      ]);
      const fresh = await this.repo.insertComments(
        comments.map((c) => ({
          accountId: account.id,
          userId: account.userId,
          platformCommentId: c.id,
          noteId: c.noteId,
          noteTitle: c.noteTitle,
          author: c.author,
          content: c.content,
          intents: detectIntents(c.content).intents,
          commentedAt: c.createdAt,
          fetchedAt: this.clock.now(),
        })),
      );
      await this.repo.updateAccount(account.id, {
        unread,
        followerCount: stats.followerCount,
        noteCount: stats.noteCount,
        lastSyncedAt: this.clock.now(),
      });
      await this.announceIntents(account, fresh);
      await this.refreshReviews(account, adapter, key, session);
      return fresh.length;
    } catch (err) {
      if (err instanceof SessionExpiredError) {
        await this.accounts.markExpired(account, '登录已失效');
        return 0;
      }
      this.log.warn({ err, accountId }, 'engagement sync failed');
      throw err;
    }
  }

  /**
   * Notes the platform was still reviewing: their state now (审核中 -> 已发布 or 未通过), a few per sync, newest first.
   * A note that did not pass is told to its creator once (the notice is keyed by the job).
   */
  private async refreshReviews(account: AccountRow, adapter: PlatformAdapter, key: string, session: SessionBlob) {
    const since = new Date(this.clock.now().getTime() - REVIEW_WATCH_MS);
    for (const job of await this.repo.jobsUnderReview(account.id, since, REVIEWS_PER_SYNC)) {
      const now = await adapter.publishStatus(key, session, job.platformNoteId!);
      if (now.status === job.platformStatus) continue;
      await this.repo.updateJob(job.id, { platformStatus: now.status, resultUrl: now.url ?? job.resultUrl, updatedAt: this.clock.now() });
      if (now.status === 'rejected') {
        await this.notify({
          userId: account.userId,
          key: `publish-rejected:${job.id}`,
          title: '笔记未通过审核',
          content: `${this.accounts.adapterLabel(account.platform)}账号「${account.accountName}」的笔记未通过平台审核，请到平台查看原因并修改后重新发布。`,
          link: `/operationBoard/${account.id}`,
        });
      }
    }
  }

  /**
   * New comments with purchase or contact intent become personal notices, keyed by the stored comment
   * (a comment is stored once, so it is announced once). A burst (the first sync after binding) is summed up.
   */
  private async announceIntents(account: AccountRow, fresh: CommentRow[]) {
    const hits = fresh.filter((c) => c.intents.length > 0);
    if (!hits.length) return;
    const link = `/operationBoard/${account.id}`;
    const where = `${this.accounts.adapterLabel(account.platform)}账号「${account.accountName}」`;
    if (hits.length > INTENT_NOTICE_BURST) {
      const last = hits.reduce((m, c) => Math.max(m, c.id), 0);
      await this.notify({
        userId: account.userId,
        key: `intent-comments:${account.id}:${last}`,
        type: 'comment',
        title: `${hits.length}条新的意向评论`,
        content: `${where}收到${hits.length}条有购买或联系意向的评论，去运营看板查看并回复。`,
        link,
      });
      return;
    }
    for (const c of hits) {
      const kinds = c.intents.map((i) => intentWords[i] ?? i).join('、');
      await this.notify({
        userId: account.userId,
        key: `intent-comment:${c.id}`,
        type: 'comment',
        title: `新的${kinds}意向评论`,
        content: `${c.author} 在${c.noteTitle ? `笔记「${c.noteTitle}」` : '你的笔记'}下评论：「${c.content}」（${where}）。去运营看板查看建议回复。`,
        link,
      });
    }
  }

  async intentComments(userId: number, q: { accountId: number; pageNum: number; pageSize: number }) {
    await this.accounts.ownAccount(userId, q.accountId);
    const { rows, total } = await this.repo.intentComments(q.accountId, (q.pageNum - 1) * q.pageSize, q.pageSize);
    return {
      records: rows.map((r) => {
        const { intents, matched } = detectIntents(r.content);
        return {
          id: r.id,
          accountId: r.accountId,
          noteId: r.noteId,
          noteTitle: r.noteTitle,
          author: r.author,
          content: r.content,
          intents,
          matched,
          suggestedReply: suggestReply(intents),
          commentedAt: r.commentedAt.toISOString(),
        };
      }),
      total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    };
  }

  tags(text: string) {
    return { tags: suggestTopics(text, 10) };
  }
}
