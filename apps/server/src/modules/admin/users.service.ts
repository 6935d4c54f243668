import { adminRoleAtLeast, ErrorCode, type AdminRole, type AdminUser, type AdminUserDetail } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { SessionService } from '../auth/session.service.js';
import { maskPhone } from '../user/user.service.js';
import type { PointsService } from '../vip/points.service.js';
import type { VipService } from '../vip/vip.service.js';
import type { AdminActor, AuditService } from './audit.service.js';
import { toAdminOrder } from './orders.service.js';
import type { AdminUserRow, AdminUsersRepo } from './users.repo.js';

/** The account state an operator's change is audited with (before and after). */
const snapshot = (u: AdminUserRow) => ({
  nickname: u.nickname,
  vipExpiredAt: u.vipExpiredAt?.toISOString() ?? null,
  pointsBalance: u.pointsBalance,
  bannedAt: u.disabledAt?.toISOString() ?? null,
});

/** Users as the console sees and changes them; every write is audited in its own transaction. */
export class AdminUsersService {
  constructor(
    private readonly repo: AdminUsersRepo,
    private readonly points: PointsService,
    private readonly vip: VipService,
    private readonly sessions: SessionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  toView(u: AdminUserRow, viewer: AdminRole): AdminUser {
    const now = this.clock.now();
    return {
      id: u.id,
      uid: u.uid,
      nickname: u.nickname,
      // Viewers get what they need to recognise a user, not the number to call.
      phone: adminRoleAtLeast(viewer, 'support') ? u.phone : maskPhone(u.phone),
      wechatBound: u.wxOpenid !== null,
      role: u.adminRole,
      isVip: u.vipExpiredAt !== null && u.vipExpiredAt > now,
      vipExpiredAt: u.vipExpiredAt?.toISOString() ?? null,
      pointsBalance: u.pointsBalance,
      pointsTotal: u.pointsTotal,
      bannedAt: u.disabledAt?.toISOString() ?? null,
      deletedAt: u.deletedAt?.toISOString() ?? null,
      createdAt: u.createdAt.toISOString(),
    };
  }

  private async require(userId: number): Promise<AdminUserRow> {
    const u = await this.repo.byId(userId);
    if (!u) throw appError(ErrorCode.NOT_FOUND, '用户不存在');
    return u;
  }

  async search(viewer: AdminRole, q: string | undefined, pageNum: number, pageSize: number) {
    const { rows, total } = await this.repo.search(q || undefined, pageNum, pageSize);
    return { records: rows.map((u) => this.toView(u, viewer)), total, pageNum, pageSize };
  }

  async detail(viewer: AdminRole, userId: number): Promise<AdminUserDetail> {
    const user = await this.require(userId);
    const [sessions, accounts] = await Promise.all([this.repo.sessions(userId), this.repo.boundAccounts(userId)]);
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    return {
      user: this.toView(user, viewer),
      sessions: sessions.map((s) => ({
        ...s,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        revokedAt: iso(s.revokedAt),
      })),
      boundAccounts: accounts.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
    };
  }

  async ledger(userId: number, pageNum: number, pageSize: number) {
    await this.require(userId);
    return this.points.history(userId, pageNum, pageSize);
  }

  async orders(userId: number, pageNum: number, pageSize: number) {
    await this.require(userId);
    const { rows, total } = await this.repo.orders(userId, pageNum, pageSize);
    return { records: rows.map(toAdminOrder), total, pageNum, pageSize };
  }

  /**
   * Grants or deducts through the ledger, keyed by the client's request id (per user), so a retried or doubled click
   * changes the balance once; the audit entry is written only by the call that changed it, in the same transaction.
   */
  async adjustPoints(actor: AdminActor, input: { userId: number; direction: 'grant' | 'deduct'; amount: number; reason: string; requestId: string }) {
    await this.require(input.userId);
    const key = `admin:${input.userId}:${input.requestId}`;
    const reason = `后台${input.direction === 'grant' ? '发放' : '扣除'}：${input.reason}`;
    return this.repo.transaction(async (_r, tx) => {
      const result =
        input.direction === 'grant'
          ? await this.points.grant(input.userId, input.amount, { reason, idempotencyKey: key, kind: 'grant' }, tx)
          : await this.points.charge(input.userId, input.amount, { reason, idempotencyKey: key, kind: 'deduct' }, tx);
      if (!result.duplicate) {
        await this.audit.record(tx, actor, {
          action: `user.points.${input.direction}`,
          targetType: 'user',
          targetId: input.userId,
          before: { pointsBalance: result.balance - result.delta },
          after: { pointsBalance: result.balance, delta: result.delta, reason: input.reason, requestId: input.requestId, ledgerId: result.ledgerId },
        });
      }
      return { ledgerId: result.ledgerId, delta: result.delta, balance: result.balance, duplicate: result.duplicate };
    });
  }

  async changeVip(actor: AdminActor, input: { userId: number; action: 'extend'; days: number; reason: string } | { userId: number; action: 'revoke'; reason: string }) {
    const user = await this.repo.transaction(async (r, tx) => {
      const before = await r.byIdForUpdate(input.userId);
      if (!before) throw appError(ErrorCode.NOT_FOUND, '用户不存在');
      if (input.action === 'extend') await this.vip.extend(input.userId, input.days, tx);
      else await this.vip.revoke(input.userId, tx);
      const after = (await r.byId(input.userId))!;
      await this.audit.record(tx, actor, {
        action: `user.vip.${input.action}`,
        targetType: 'user',
        targetId: input.userId,
        before: { vipExpiredAt: snapshot(before).vipExpiredAt },
        after: { vipExpiredAt: snapshot(after).vipExpiredAt, ...(input.action === 'extend' ? { days: input.days } : {}), reason: input.reason },
      });
      return after;
    });
    return this.toView(user, actor.role);
  }

  /**
   * Ban: login is refused (账号已停用) and every session is revoked (430 on the next call, in every process); unban
   * lifts the refusal, old sessions stay revoked. Nobody bans themselves, and only an owner bans a console user.
   */
  async setBanned(actor: AdminActor, input: { userId: number; banned: boolean; reason: string }) {
    if (input.userId === actor.userId) throw appError(ErrorCode.FORBIDDEN, '不能封禁自己');
    const user = await this.repo.transaction(async (r, tx) => {
      const before = await r.byIdForUpdate(input.userId);
      if (!before) throw appError(ErrorCode.NOT_FOUND, '用户不存在');
      if (before.adminRole && actor.role !== 'owner') throw appError(ErrorCode.ADMIN_FORBIDDEN, '只有所有者可以封禁管理后台用户');
      if (!!before.disabledAt === input.banned) return before;
      const after = await r.update(input.userId, { disabledAt: input.banned ? this.clock.now() : null });
      await this.audit.record(tx, actor, {
        action: input.banned ? 'user.ban' : 'user.unban',
        targetType: 'user',
        targetId: input.userId,
        before: { bannedAt: snapshot(before).bannedAt },
        after: { bannedAt: snapshot(after).bannedAt, reason: input.reason },
      });
      return after;
    });
    // After the commit: revoking first would let a request in between see a live session of a not yet banned user.
    if (input.banned) await this.sessions.revokeAll(input.userId, 'banned');
    return this.toView(user, actor.role);
  }

  async resetNickname(actor: AdminActor, input: { userId: number; reason: string }) {
    const user = await this.repo.transaction(async (r, tx) => {
      const before = await r.byIdForUpdate(input.userId);
      if (!before) throw appError(ErrorCode.NOT_FOUND, '用户不存在');
      // The name every new account starts with (auth.service.ts).
      const nickname = `创作者${(before.phone ?? before.uid).slice(-4)}`;
      const after = await r.update(input.userId, { nickname });
      await this.audit.record(tx, actor, {
        action: 'user.nickname.reset',
        targetType: 'user',
        targetId: input.userId,
        before: { nickname: before.nickname },
        after: { nickname, reason: input.reason },
      });
      return after;
    });
    return this.toView(user, actor.role);
  }
}
