import { ErrorCode, type AdminNotice } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { NoticeRepo, NoticeRow } from '../notice/notice.repo.js';
import type { NoticeService } from '../notice/notice.service.js';
import { cleanNoticeHtml } from '../notice/notice-html.js';
import type { AdminActor, AuditService } from './audit.service.js';

type Listed = Awaited<ReturnType<NoticeRepo['broadcasts']>>['rows'][number];

/** 通知 in the console: broadcasts composed here reach users through the notice centre (and its cached bubble). */
export class AdminNoticesService {
  constructor(
    private readonly notices: NoticeService,
    private readonly repo: NoticeRepo,
    private readonly clock: Clock,
    private readonly audit: AdminAuditPort,
  ) {}

  private view(r: NoticeRow, readCount: number, audienceSize: number, userIds: number[]): AdminNotice {
    const now = this.clock.now();
    return {
      id: r.id,
      title: r.title,
      content: r.content,
      format: r.format,
      audience: r.audience,
      userIds,
      status: r.withdrawnAt ? 'withdrawn' : r.publishedAt > now ? 'scheduled' : 'published',
      publishedAt: r.publishedAt.toISOString(),
      withdrawnAt: r.withdrawnAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      readCount,
      audienceSize,
      readRate: audienceSize > 0 ? Math.min(1, readCount / audienceSize) : null,
    };
  }

  async list(pageNum: number, pageSize: number) {
    const { rows, total } = await this.repo.broadcasts(this.clock.now(), (pageNum - 1) * pageSize, pageSize);
    const targets = await this.repo.targetsOf(rows.filter((r) => r.row.audience === 'users').map((r) => r.row.id));
    const records = rows.map((r: Listed) => this.view(r.row, r.readCount, r.audienceSize, targets.get(r.row.id) ?? []));
    return { records, total, pageNum, pageSize };
  }

  private async one(id: number): Promise<AdminNotice> {
    const row = await this.notices.broadcast(id);
    const {
      rows: [listed],
    } = await this.repo.broadcasts(this.clock.now(), 0, 1, id);
    return this.view(row, listed?.readCount ?? 0, listed?.audienceSize ?? 0, (await this.repo.targetsOf([id])).get(id) ?? []);
  }

  async create(
    actor: AdminActor,
    input: { title: string; content: string; audience: 'all' | 'users' | 'vip'; userIds?: number[] | undefined; publishAt?: string | undefined },
  ): Promise<AdminNotice> {
    const { html, text } = await cleanNoticeHtml(input.content);
    if (!text) throw appError(ErrorCode.VALIDATION, '正文 content 不能为空');
    const userIds = [...new Set(input.userIds ?? [])];
    if (userIds.length) {
      const found = new Set(await this.repo.existingUsers(userIds));
      const missing = userIds.filter((id) => !found.has(id));
      if (missing.length) throw appError(ErrorCode.VALIDATION, `用户 userIds 中不存在：${missing.join('、')}`);
    }
    const publishedAt = input.publishAt ? new Date(input.publishAt) : undefined;
    const row = await this.notices.transaction(async (tx) => {
      const n = await this.notices.insertBroadcast(tx, { title: input.title, content: html, audience: input.audience, userIds, publishedAt });
      await this.audit.record(tx, actor, {
        action: 'notices.create',
        targetType: 'notice',
        targetId: String(n.id),
        after: { title: n.title, audience: n.audience, userIds, publishedAt: n.publishedAt.toISOString(), contentLength: html.length },
      });
      return n;
    });
    // After the commit: a process that recounted before it would cache a count without the notice.
    this.notices.changedAll();
    return this.one(row.id);
  }

  async withdraw(actor: AdminActor, id: number): Promise<AdminNotice> {
    const before = await this.notices.broadcast(id);
    if (before.withdrawnAt) throw appError(ErrorCode.CONFLICT, '该通知已撤回');
    await this.notices.transaction(async (tx) => {
      const after = await this.notices.withdraw(tx, id);
      await this.audit.record(tx, actor, {
        action: 'notices.withdraw',
        targetType: 'notice',
        targetId: String(id),
        before: { withdrawnAt: null, publishedAt: before.publishedAt.toISOString() },
        after: { withdrawnAt: after.withdrawnAt?.toISOString() ?? null },
      });
    });
    this.notices.changedAll();
    return this.one(id);
  }
}

type AdminAuditPort = Pick<AuditService, 'record'>;
