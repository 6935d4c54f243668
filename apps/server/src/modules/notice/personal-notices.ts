import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { noticeContentMaxLength, noticeTitleMaxLength, type NoticeType } from '@inkstone/shared';
import type { DbOrTx } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { NoticeRepo } from './notice.repo.js';
import type { UnreadCounts } from './unread-cache.js';

/** One event worth telling one user about. */
export interface PersonalNotice {
  userId: number;
  /** Names the event (`order-paid:<orderNo>`): the same key never notifies the same user twice. */
  key: string;
  title: string;
  content: string;
  /** In-app route the notice opens (spec section 2). */
  link: string | null;
  type?: NoticeType;
}

/** How other modules hand an event to the notice centre without knowing its tables. */
export type Notify = (n: PersonalNotice, db?: DbOrTx) => Promise<void>;

/** When a notice written in a caller's transaction is announced again (see PersonalNotices.changed). */
const AFTER_COMMIT_RETRY_MS = [100, 1_000, 5_000];

/** Remind this long before a membership ends. */
export const VIP_REMINDER_WINDOW_MS = 3 * 24 * 3600_000;

const cnTime = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
/** Users are in China: dates in notices are China time, e.g. 2026/11/25 10:00. */
export const formatChinaTime = (d: Date) => cnTime.format(d);

const clip = (s: string, max: number) => ([...s].length > max ? `${[...s].slice(0, max - 1).join('')}…` : s);

/**
 * Personal notices for things that happen to a user's account (payments, membership, publishing,
 * comments, platform logins, feedback replies). Each is written at most once per event key.
 */
export class PersonalNotices {
  constructor(
    private readonly repo: NoticeRepo,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly unread: UnreadCounts,
  ) {}

  /**
   * The user's bubble count changed. Written inside a caller's transaction, the row is not visible to other connections
   * until that commits, and a bubble read meanwhile would cache the old count: the invalidation is sent now and again
   * once the transaction has had time to commit (these transactions are a few statements long).
   */
  private changed(userId: number, inCallerTransaction: boolean) {
    this.unread.userChanged(userId);
    if (inCallerTransaction) {
      for (const ms of AFTER_COMMIT_RETRY_MS) setTimeout(() => this.unread.userChanged(userId), ms).unref();
    }
  }

  /** Writes the notice unless this event was already reported; true when it was written now. */
  async send(n: PersonalNotice, db?: DbOrTx): Promise<boolean> {
    const now = this.clock.now();
    const rows = await this.repo.insertOnce(
      [
        {
          userId: n.userId,
          dedupeKey: n.key,
          title: clip(n.title, noticeTitleMaxLength),
          content: clip(n.content, noticeContentMaxLength),
          type: n.type ?? 'system',
          link: n.link,
          createdAt: now,
          publishedAt: now,
        },
      ],
      db,
    );
    if (rows.length > 0) this.changed(n.userId, db !== undefined);
    return rows.length > 0;
  }

  /** For other modules: a failed notice is logged, never allowed to fail the work it reports. */
  readonly notify: Notify = async (n, db) => {
    // Inside a caller's transaction an error must propagate (the transaction is already aborted).
    if (db) {
      await this.send(n, db);
      return;
    }
    await this.send(n).catch((err: unknown) => this.log.warn({ err, key: n.key }, 'personal notice not written'));
  };

  /** Payment settled: in the settling transaction, so a paid order and its notice commit together. */
  async orderPaid(order: { orderNo: string; userId: number; kind: 'vip' | 'bundle'; item: { name: string; points: number; durationDays: number } }, db: DbOrTx): Promise<void> {
    const gains = [
      order.kind === 'vip' && order.item.durationDays > 0 ? `会员时长增加${order.item.durationDays}天` : '',
      order.item.points > 0 ? `获得${order.item.points}积分` : '',
    ]
      .filter(Boolean)
      .join('，');
    await this.send(
      {
        userId: order.userId,
        key: `order-paid:${order.orderNo}`,
        title: '支付成功',
        content: `你购买的「${order.item.name}」已支付成功${gains ? `，${gains}` : ''}。订单号：${order.orderNo}，可在「订单信息」中查看。`,
        link: '/orderInfo',
      },
      db,
    );
  }

  /**
   * Scheduled: tells members whose VIP ends within three days. Keyed by the expiry time, so each
   * expiry is announced once however often this runs, and a renewal that moves the date gets its own.
   */
  async remindVipExpiring(): Promise<number> {
    const now = this.clock.now();
    const due = await this.repo.vipExpiringBetween(now, new Date(now.getTime() + VIP_REMINDER_WINDOW_MS));
    const written = await this.repo.insertOnce(
      due.map((u) => ({
        userId: u.id,
        dedupeKey: `vip-expiring:${u.vipExpiredAt!.toISOString()}`,
        title: '会员即将到期',
        content: `你的会员将于 ${formatChinaTime(u.vipExpiredAt!)} 到期，到期后将无法使用会员权益。如需继续使用，请在「我的」页面续费。`,
        type: 'system',
        link: '/mine',
        createdAt: now,
        publishedAt: now,
      })),
    );
    for (const row of written) this.changed(row.userId!, false);
    return written.length;
  }

  async feedbackReplied(f: { id: number; userId: number; content: string; reply: string }, db?: DbOrTx): Promise<boolean> {
    return this.send(
      {
        userId: f.userId,
        key: `feedback-reply:${f.id}:${digest(f.reply)}`,
        title: '你的反馈有了回复',
        content: `你反馈的「${clip(f.content.replace(/\s+/g, ' '), 40)}」已收到回复：\n${f.reply}`,
        type: 'feedbackReply',
        link: '/mine?feedback=mine',
      },
      db,
    );
  }
}

/** A short digest of a reply: sending the same reply again is a no-op, a different reply notifies. */
const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
