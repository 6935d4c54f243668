import type { DbOrTx } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { UserService } from '../user/user.service.js';
import type { VipRepo } from './vip.repo.js';

/** VIP state lives on users (vip_type, vip_expired_at); this is its only writer. */
export class VipService {
  constructor(
    private readonly repo: VipRepo,
    private readonly users: UserService,
    private readonly clock: Clock,
  ) {}

  async info(userId: number) {
    const { vipInfo } = await this.users.profile(userId);
    return { isVip: vipInfo.isVip, vipType: vipInfo.vipType, expiredTime: vipInfo.expiredTime, openPayment: vipInfo.openPayment };
  }

  /** Extends from max(now, current expiry); inside the caller's transaction when one is given. */
  async extend(userId: number, days: number, db?: DbOrTx): Promise<Date> {
    const expiredAt = await (db ? this.repo.with(db) : this.repo).extend(userId, days, this.clock.now());
    if (!expiredAt) throw new Error(`user ${userId} does not exist`);
    return expiredAt;
  }

  /** Takes days off a membership (refunded VIP order), not before now; inside the caller's transaction when given. */
  async shorten(userId: number, days: number, db?: DbOrTx): Promise<Date | null> {
    const row = await (db ? this.repo.with(db) : this.repo).shorten(userId, days, this.clock.now());
    if (!row) throw new Error(`user ${userId} does not exist`);
    return row.expiredAt;
  }

  /** Ends a membership now (operator's revocation). */
  async revoke(userId: number, db?: DbOrTx): Promise<Date | null> {
    const row = await (db ? this.repo.with(db) : this.repo).revoke(userId, this.clock.now());
    if (!row) throw new Error(`user ${userId} does not exist`);
    return row.expiredAt;
  }
}
