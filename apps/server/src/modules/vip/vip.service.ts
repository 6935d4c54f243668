import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import type { Clock } from '../../clock.js';
import type { UserService } from '../user/user.service.js';

/** VIP state lives on users (vip_type, vip_expired_at); this is its only writer. */
export class VipService {
  constructor(
    private readonly db: Db,
    private readonly users: UserService,
    private readonly clock: Clock,
  ) {}

  async info(userId: number) {
    const { vipInfo } = await this.users.profile(userId);
    return { isVip: vipInfo.isVip, vipType: vipInfo.vipType, expiredTime: vipInfo.expiredTime, openPayment: vipInfo.openPayment };
  }

  /**
   * Extends from max(now, current expiry) in one statement, so two concurrent extensions both count
   * and a lapsed membership restarts from now rather than from the old date.
   */
  async extend(userId: number, days: number, db: DbOrTx = this.db): Promise<Date> {
    const now = this.clock.now();
    const [row] = await db
      .update(users)
      .set({
        vipType: 'vip',
        vipExpiredAt: sql`greatest(coalesce(${users.vipExpiredAt}, ${now.toISOString()}::timestamptz), ${now.toISOString()}::timestamptz) + make_interval(days => ${days}::int)`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, userId))
      .returning({ expiredAt: users.vipExpiredAt });
    if (!row?.expiredAt) throw new Error(`user ${userId} does not exist`);
    return row.expiredAt;
  }
}
