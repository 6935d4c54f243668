import { ErrorCode, noticePublishInput, type NoticeBubble, type NoticeItem, type NoticeListQuery, type NoticePage, type NoticePublishInput } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { Db, Tx } from '../../db/client.js';
import type { NoticeRepo, NoticeRow, NoticeView } from './notice.repo.js';
import type { UnreadCounts } from './unread-cache.js';

const toItem = (n: NoticeView): NoticeItem => ({
  id: n.id,
  title: n.title,
  content: n.content,
  format: n.format,
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
    private readonly unread: UnreadCounts,
    private readonly db: Db,
  ) {}

  async list(userId: number, q: NoticeListQuery): Promise<NoticePage> {
    const { rows, total } = await this.repo.page(userId, this.clock.now(), { offset: (q.pageNum - 1) * q.pageSize, limit: q.pageSize, type: q.type });
    return { records: rows.map(toItem), total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async bubble(userId: number): Promise<NoticeBubble> {
    const now = this.clock.now();
    const n = await this.unread.get(
      userId,
      now,
      () => this.repo.unreadCount(userId, now),
      (at) => this.repo.nextPublishAfter(at),
    );
    return { unreadNoticeNum: n };
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
    if ((await this.repo.markRead(userId, now, id)) > 0) return this.unread.userChanged(userId);
    if (!(await this.repo.visibleOne(userId, now, id))) throw notFound();
  }

  async markAllRead(userId: number): Promise<number> {
    const n = await this.repo.markRead(userId, this.clock.now());
    if (n > 0) this.unread.userChanged(userId);
    return n;
  }

  async publish(input: NoticePublishInput): Promise<NoticeRow> {
    const parsed = noticePublishInput.safeParse(input);
    if (!parsed.success) throw appError(ErrorCode.VALIDATION, parsed.error.issues[0]?.message);
    const { title, content, type, userId, publishedAt, link } = parsed.data;
    const now = this.clock.now();
    const row = await this.repo.insert({ title, content, type, userId, link, createdAt: now, publishedAt: publishedAt ?? now });
    // One published ahead of time moves the next due time, which every process learns again on a broadcast message.
    if (userId && row.publishedAt <= now) this.unread.userChanged(userId);
    else this.unread.allChanged();
    return row;
  }

  /** Runs `fn` in one transaction (the console writes its audit entry in it); `changedAll` after it commits. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  /** A console broadcast (already validated and cleaned); the caller calls `changedAll` once it committed. */
  async insertBroadcast(
    tx: Tx,
    input: { title: string; content: string; audience: 'all' | 'users' | 'vip'; userIds: number[]; publishedAt: Date | undefined },
  ): Promise<NoticeRow> {
    const now = this.clock.now();
    return this.repo.insertBroadcast(
      { title: input.title, content: input.content, format: 'html', type: 'system', audience: input.audience, createdAt: now, publishedAt: input.publishedAt ?? now },
      input.userIds,
      tx,
    );
  }

  async withdraw(tx: Tx, id: number): Promise<NoticeRow> {
    const row = await this.repo.withdraw(id, this.clock.now(), tx);
    if (!row) throw notFound();
    return row;
  }

  async broadcast(id: number): Promise<NoticeRow> {
    const row = await this.repo.broadcast(id);
    if (!row) throw notFound();
    return row;
  }

  /** Every process drops its cached unread counts (after a broadcast was written or withdrawn). */
  changedAll(): void {
    this.unread.allChanged();
  }

  /** After notices or read rows were changed behind this service (SQL by hand, tests): every process drops its counts. */
  dropCachedCounts(): void {
    this.unread.allChanged();
  }

  async recent(limit = 50) {
    return this.repo.recent(limit);
  }
}
