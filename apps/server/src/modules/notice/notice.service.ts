import { ErrorCode, noticePublishInput, type NoticeBubble, type NoticeItem, type NoticeListQuery, type NoticePage, type NoticePublishInput } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { NoticeRepo, NoticeRow, NoticeView } from './notice.repo.js';

const toItem = (n: NoticeView): NoticeItem => ({
  id: n.id,
  title: n.title,
  content: n.content,
  type: n.type,
  createdAt: n.publishedAt.toISOString(),
  read: n.read,
  link: n.link,
});

const notFound = () => appError(ErrorCode.NOT_FOUND, '公告不存在');

/**
 * The notice centre. Read state is stored only for what a user has read, so publishing to every user
 * costs one row; unread = visible notices minus the user's read rows.
 */
export class NoticeService {
  constructor(
    private readonly repo: NoticeRepo,
    private readonly clock: Clock,
  ) {}

  async list(userId: number, q: NoticeListQuery): Promise<NoticePage> {
    const { rows, total } = await this.repo.page(userId, this.clock.now(), { offset: (q.pageNum - 1) * q.pageSize, limit: q.pageSize, type: q.type });
    return { records: rows.map(toItem), total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async bubble(userId: number): Promise<NoticeBubble> {
    return { unreadNoticeNum: await this.repo.unreadCount(userId, this.clock.now()) };
  }

  /** Side-effect free: the client marks the notice read with a separate call. */
  async detail(userId: number, id: number): Promise<NoticeItem> {
    const row = await this.repo.visibleOne(userId, this.clock.now(), id);
    if (!row) throw notFound();
    return toItem(row);
  }

  /** Idempotent; a notice the user cannot see answers "not found" whether or not it exists. */
  async markRead(userId: number, id: number): Promise<void> {
    const now = this.clock.now();
    if ((await this.repo.markRead(userId, now, id)) > 0) return;
    if (!(await this.repo.visibleOne(userId, now, id))) throw notFound();
  }

  async markAllRead(userId: number): Promise<number> {
    return this.repo.markRead(userId, this.clock.now());
  }

  async publish(input: NoticePublishInput): Promise<NoticeRow> {
    const parsed = noticePublishInput.safeParse(input);
    if (!parsed.success) throw appError(ErrorCode.VALIDATION, parsed.error.issues[0]?.message);
    const { title, content, type, userId, publishedAt, link } = parsed.data;
    const now = this.clock.now();
    return this.repo.insert({ title, content, type, userId, link, createdAt: now, publishedAt: publishedAt ?? now });
  }

  async recent(limit = 50) {
    return this.repo.recent(limit);
  }
}
