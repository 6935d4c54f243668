import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/** The VIP state on users (vip_type, vip_expired_at). */
export class VipRepo {
  constructor(private readonly db: DbOrTx) {}

  with(tx: DbOrTx): VipRepo {
    return new VipRepo(tx);
  }

  /**
   * Extends from max(now, current expiry) in one statement, so two concurrent extensions both count
   * and a lapsed membership restarts from now rather than from the old date. Undefined for an unknown user.
   */
  async extend(userId: number, days: number, now: Date): Promise<Date | undefined> {
    const [row] = await this.db
      .update(users)
      .set({
        vipType: 'vip',
        vipExpiredAt: sql`greatest(coalesce(${users.vipExpiredAt}, ${now.toISOString()}::timestamptz), ${now.toISOString()}::timestamptz) + make_interval(days => ${days}::int)`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, userId))
      .returning({ expiredAt: users.vipExpiredAt });
    return row?.expiredAt ?? undefined;
  }

  /**
   * Takes `days` off the expiry (a refunded VIP order), never beyond `now`: what was already enjoyed stays enjoyed.
   * Undefined for an unknown user; null expiry stays null.
   */
  async shorten(userId: number, days: number, now: Date): Promise<{ expiredAt: Date | null } | undefined> {
    const [row] = await this.db
      .update(users)
      .set({
        vipExpiredAt: sql`case when ${users.vipExpiredAt} is null then null else greatest(${users.vipExpiredAt} - make_interval(days => ${days}::int), least(${users.vipExpiredAt}, ${now.toISOString()}::timestamptz)) end`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, userId))
      .returning({ expiredAt: users.vipExpiredAt });
    return row;
  }

  /** Ends the membership now (an operator's revocation); an already lapsed one is left as it was. */
  async revoke(userId: number, now: Date): Promise<{ expiredAt: Date | null } | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ vipExpiredAt: sql`least(${users.vipExpiredAt}, ${now.toISOString()}::timestamptz)`, updatedAt: sql`now()` })
      .where(eq(users.id, userId))
      .returning({ expiredAt: users.vipExpiredAt });
    return row;
  }
}
