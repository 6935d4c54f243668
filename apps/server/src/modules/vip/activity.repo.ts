import { and, asc, count, desc, eq, gt, isNull, like, ne } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { contests, inviteRewards, pointsLedger, users } from '../../db/schema/index.js';

export type InviteRewardRow = typeof inviteRewards.$inferSelect;
export type ContestRow = typeof contests.$inferSelect;

/** Every query of invitations, daily-reward history and contests. */
export class ActivityRepo {
  constructor(private readonly db: DbOrTx) {}

  /** Runs `fn` in one transaction; `tx` is handed on to the reward grants. */
  transaction<T>(fn: (repo: ActivityRepo, tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new ActivityRepo(tx), tx));
  }

  /** The invitation code a user registered with, if any. */
  async invitedByCode(userId: number): Promise<string | null | undefined> {
    const [row] = await this.db.select({ invitedByCode: users.invitedByCode }).from(users).where(eq(users.id, userId));
    return row?.invitedByCode;
  }

  async inviteSettled(inviteeId: number): Promise<boolean> {
    const [done] = await this.db.select({ id: inviteRewards.inviteeId }).from(inviteRewards).where(eq(inviteRewards.inviteeId, inviteeId));
    return done !== undefined;
  }

  async liveUserIdByInviteCode(code: string): Promise<number | undefined> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.inviteCode, code), isNull(users.deletedAt)));
    return row?.id;
  }

  /** Records the invitation reward once per invitee; false when it was already recorded. */
  async insertInviteReward(values: typeof inviteRewards.$inferInsert): Promise<boolean> {
    const [row] = await this.db.insert(inviteRewards).values(values).onConflictDoNothing().returning();
    return row !== undefined;
  }

  async invitedCount(inviterId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(inviteRewards).where(eq(inviteRewards.inviterId, inviterId));
    return row?.n ?? 0;
  }

  /** The oldest invitation success the inviter has not seen yet. */
  async oldestUnseenByInviter(inviterId: number): Promise<number | undefined> {
    const [row] = await this.db
      .select({ id: inviteRewards.inviteeId })
      .from(inviteRewards)
      .where(and(eq(inviteRewards.inviterId, inviterId), isNull(inviteRewards.inviterSeenAt)))
      .orderBy(asc(inviteRewards.createdAt))
      .limit(1);
    return row?.id;
  }

  /** Marks the inviter's side seen, only if it was not: the row when this call did it. */
  async markSeenByInviter(inviteeId: number, at: Date): Promise<InviteRewardRow | undefined> {
    const [row] = await this.db
      .update(inviteRewards)
      .set({ inviterSeenAt: at })
      .where(and(eq(inviteRewards.inviteeId, inviteeId), isNull(inviteRewards.inviterSeenAt)))
      .returning();
    return row;
  }

  /** Marks the invitee's side seen, only if it was not: the row when this call did it. */
  async markSeenByInvitee(inviteeId: number, at: Date): Promise<InviteRewardRow | undefined> {
    const [row] = await this.db
      .update(inviteRewards)
      .set({ inviteeSeenAt: at })
      .where(and(eq(inviteRewards.inviteeId, inviteeId), isNull(inviteRewards.inviteeSeenAt)))
      .returning();
    return row;
  }

  /** The ledger key of the user's latest daily reward other than `todayKey` (`daily:<userId>:<day>`). */
  async previousDailyKey(userId: number, todayKey: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ key: pointsLedger.idempotencyKey })
      .from(pointsLedger)
      .where(and(eq(pointsLedger.userId, userId), like(pointsLedger.idempotencyKey, `daily:${userId}:%`), ne(pointsLedger.idempotencyKey, todayKey)))
      .orderBy(desc(pointsLedger.id))
      .limit(1);
    return row?.key;
  }

  /** The first contest that has not ended, by start. */
  async nextContest(now: Date): Promise<ContestRow | undefined> {
    const [row] = await this.db.select().from(contests).where(gt(contests.endAt, now)).orderBy(asc(contests.startAt)).limit(1);
    return row;
  }

  async upsertContest(c: { id: string; name: string; startAt: Date; endAt: Date }): Promise<void> {
    await this.db
      .insert(contests)
      .values(c)
      .onConflictDoUpdate({ target: contests.id, set: { name: c.name, startAt: c.startAt, endAt: c.endAt } });
  }
}
