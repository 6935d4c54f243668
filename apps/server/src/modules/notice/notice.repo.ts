import { and, count, desc, eq, gt, gte, inArray, isNull, lte, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { noticeReads, notices, noticeTargets, users } from '../../db/schema/index.js';

export type NoticeRow = typeof notices.$inferSelect;

export interface NoticeView {
  id: number;
  title: string;
  content: string;
  format: 'text' | 'html';
  type: string;
  publishedAt: Date;
  read: boolean;
  link: string | null;
}

/**
 * Broadcasts published this long before a user registered still reach them (a new user sees the
 * last month's announcements); older ones never count as unread for that user.
 */
export const BROADCAST_BACKLOG_DAYS = 30;

type Bound<T> = T | Placeholder;

export class NoticeRepo {
  /** Prepared once: the bubble is the hottest query, and building and planning it each time was a third of its cost. */
  private readonly unreadQuery;

  constructor(private readonly db: DbOrTx) {
    const userId = sql.placeholder('userId');
    this.unreadQuery = this.db
      .select({ n: count() })
      .from(notices)
      .leftJoin(noticeReads, this.readJoin(userId))
      .where(and(this.visibleTo(userId, sql.placeholder('now')), isNull(noticeReads.noticeId)))
      .prepare('notice_unread_count');
  }

  /**
   * Notices the user may see at `now`: their personal ones, plus broadcasts published no earlier than
   * BROADCAST_BACKLOG_DAYS before they registered. The registration time comes from a scalar subquery
   * so every caller stays a single statement.
   */
  private visibleTo(userId: Bound<number>, now: Bound<Date>): SQL {
    const since = sql`(select ${users.createdAt} - make_interval(days => ${BROADCAST_BACKLOG_DAYS}) from ${users} where ${users.id} = ${userId})`;
    // A console broadcast reaches everyone, its listed users, or whoever is a VIP member at `now`.
    const reaches = or(
      eq(notices.audience, 'all'),
      and(eq(notices.audience, 'users'), sql`exists (select 1 from ${noticeTargets} where ${noticeTargets.noticeId} = ${notices.id} and ${noticeTargets.userId} = ${userId})`),
      and(eq(notices.audience, 'vip'), sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.vipType} = 'vip' and ${users.vipExpiredAt} > ${now})`),
    );
    return and(lte(notices.publishedAt, now), isNull(notices.withdrawnAt), or(eq(notices.userId, userId), and(isNull(notices.userId), gte(notices.publishedAt, since), reaches)))!;
  }

  private readJoin(userId: Bound<number>) {
    return and(eq(noticeReads.noticeId, notices.id), eq(noticeReads.userId, userId));
  }

  private view() {
    return {
      id: notices.id,
      title: notices.title,
      content: notices.content,
      format: notices.format,
      type: notices.type,
      publishedAt: notices.publishedAt,
      read: sql<boolean>`${noticeReads.noticeId} is not null`,
      link: notices.link,
    };
  }

  async page(userId: number, now: Date, opts: { offset: number; limit: number; type?: string | undefined }): Promise<{ rows: NoticeView[]; total: number }> {
    const where = and(this.visibleTo(userId, now), opts.type ? eq(notices.type, opts.type) : undefined);
    const rows = await this.db
      .select(this.view())
      .from(notices)
      .leftJoin(noticeReads, this.readJoin(userId))
      .where(where)
      .orderBy(desc(notices.publishedAt), desc(notices.id))
      .limit(opts.limit)
      .offset(opts.offset);
    const [totalRow] = await this.db.select({ n: count() }).from(notices).where(where);
    return { rows, total: totalRow?.n ?? 0 };
  }

  async visibleOne(userId: number, now: Date, id: number): Promise<NoticeView | undefined> {
    const [row] = await this.db
      .select(this.view())
      .from(notices)
      .leftJoin(noticeReads, this.readJoin(userId))
      .where(and(eq(notices.id, id), this.visibleTo(userId, now)));
    return row;
  }

  /** The bubble: one statement, an anti-join against the user's read rows. */
  async unreadCount(userId: number, now: Date): Promise<number> {
    const [row] = await this.unreadQuery.execute({ userId, now: now.toISOString() });
    return row?.n ?? 0;
  }

  /** The earliest publish time after `now` of any notice (one published ahead of time), or null. */
  async nextPublishAfter(now: Date): Promise<Date | null> {
    const [row] = await this.db
      .select({ at: sql<string | null>`min(${notices.publishedAt})` })
      .from(notices)
      .where(gt(notices.publishedAt, now));
    return row?.at ? new Date(row.at) : null;
  }

  /**
   * Inserts read rows for the visible notices matching `only` (one id, or all), in one statement.
   * Rows already there are left alone, so the first read time is kept. Returns how many were new.
   */
  async markRead(userId: number, now: Date, only?: number): Promise<number> {
    const inserted = await this.db
      .insert(noticeReads)
      .select(
        this.db
          .select({ userId: sql<number>`${userId}::bigint`.as('user_id'), noticeId: notices.id, readAt: sql<Date>`${now.toISOString()}::timestamptz`.as('read_at') })
          .from(notices)
          .where(and(this.visibleTo(userId, now), only === undefined ? undefined : eq(notices.id, only))),
      )
      .onConflictDoNothing()
      .returning({ noticeId: noticeReads.noticeId });
    return inserted.length;
  }

  async insert(values: typeof notices.$inferInsert): Promise<NoticeRow> {
    const [row] = await this.db.insert(notices).values(values).returning();
    return row!;
  }

  /**
   * Personal notices keyed by the event they report: the (user, dedupe key) unique index turns a
   * second write of the same event into a no-op. `db` may be a caller's transaction, so a notice
   * commits together with the change it reports (an order's payment). Returns the rows written.
   */
  async insertOnce(rows: (typeof notices.$inferInsert & { userId: number; dedupeKey: string })[], db: DbOrTx = this.db): Promise<NoticeRow[]> {
    if (!rows.length) return [];
    return db.insert(notices).values(rows).onConflictDoNothing().returning();
  }

  /** Live VIP members whose membership ends within (now, until]: the expiry reminder's audience. */
  async vipExpiringBetween(now: Date, until: Date) {
    return this.db
      .select({ id: users.id, vipExpiredAt: users.vipExpiredAt })
      .from(users)
      .where(and(eq(users.vipType, 'vip'), isNull(users.deletedAt), gt(users.vipExpiredAt, now), lte(users.vipExpiredAt, until)))
      .orderBy(users.id);
  }

  /** A broadcast and its listed users (console). */
  async insertBroadcast(values: typeof notices.$inferInsert, userIds: number[], db: DbOrTx = this.db): Promise<NoticeRow> {
    const [row] = await db.insert(notices).values(values).returning();
    if (userIds.length) await db.insert(noticeTargets).values(userIds.map((userId) => ({ noticeId: row!.id, userId })));
    return row!;
  }

  /** Sets withdrawn_at once; returns the row whether or not it was already withdrawn. */
  async withdraw(id: number, at: Date, db: DbOrTx = this.db): Promise<NoticeRow | undefined> {
    await db
      .update(notices)
      .set({ withdrawnAt: at })
      .where(and(eq(notices.id, id), isNull(notices.withdrawnAt)));
    return this.broadcast(id, db);
  }

  async broadcast(id: number, db: DbOrTx = this.db): Promise<NoticeRow | undefined> {
    const [row] = await db
      .select()
      .from(notices)
      .where(and(eq(notices.id, id), isNull(notices.userId)));
    return row;
  }

  async existingUsers(ids: number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, ids), isNull(users.deletedAt)));
    return rows.map((r) => r.id);
  }

  async targetsOf(ids: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (!ids.length) return out;
    const rows = await this.db.select().from(noticeTargets).where(inArray(noticeTargets.noticeId, ids)).orderBy(noticeTargets.userId);
    for (const r of rows) out.set(r.noticeId, [...(out.get(r.noticeId) ?? []), r.userId]);
    return out;
  }

  /**
   * The console's list of broadcasts, newest first, with reads and the size of the audience as of `now`: for 'all'
   * the live users registered by BROADCAST_BACKLOG_DAYS after it was published, for 'vip' the current members.
   */
  async broadcasts(now: Date, offset: number, limit: number, id?: number) {
    const where = and(isNull(notices.userId), id === undefined ? undefined : eq(notices.id, id));
    const rows = await this.db
      .select({
        row: notices,
        readCount: sql<number>`(select count(*)::int from ${noticeReads} where ${noticeReads.noticeId} = ${notices.id})`,
        audienceSize: sql<number>`case ${notices.audience}
          when 'users' then (select count(*)::int from ${noticeTargets} where ${noticeTargets.noticeId} = ${notices.id})
          when 'vip' then (select count(*)::int from ${users} where ${users.deletedAt} is null and ${users.vipType} = 'vip' and ${users.vipExpiredAt} > ${now.toISOString()}::timestamptz)
          else (select count(*)::int from ${users} where ${users.deletedAt} is null and ${users.createdAt} - make_interval(days => ${BROADCAST_BACKLOG_DAYS}) <= ${notices.publishedAt})
        end`,
      })
      .from(notices)
      .where(where)
      .orderBy(desc(notices.publishedAt), desc(notices.id))
      .limit(limit)
      .offset(offset);
    const [totalRow] = await this.db.select({ n: count() }).from(notices).where(where);
    return { rows, total: totalRow?.n ?? 0 };
  }

  /** Operators' view: newest first, with how many users have read each. */
  async recent(limit: number) {
    return this.db
      .select({
        id: notices.id,
        title: notices.title,
        type: notices.type,
        userId: notices.userId,
        publishedAt: notices.publishedAt,
        createdAt: notices.createdAt,
        readCount: sql<number>`(select count(*)::int from ${noticeReads} where ${noticeReads.noticeId} = ${notices.id})`,
      })
      .from(notices)
      .orderBy(desc(notices.publishedAt), desc(notices.id))
      .limit(limit);
  }
}
