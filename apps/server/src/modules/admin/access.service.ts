import { adminRoleAtLeast, adminRoleLabels, ErrorCode, type AdminMe, type AdminRole } from '@inkstone/shared';
import { appError, notLoggedIn } from '../../http/errors.js';
import type { SessionInfo } from '../../http/auth-guard.js';
import type { Clock } from '../../clock.js';
import type { SmsCodeService } from '../auth/sms-code.service.js';
import { maskPhone } from '../user/user.service.js';
import type { AccessRepo, AdminCaller } from './access.repo.js';
import { cliActor, type AdminActor, type AuditService } from './audit.service.js';

export interface AccessOptions {
  /** Writes need an SMS code again after this much console inactivity. */
  idleMs: number;
  /** Every console call needs one again this long after the last verification (the login counts as one). */
  maxAgeMs: number;
}

/**
 * Whether a console route needs recent verification: 'write' (the default for anything but GET) needs console
 * activity within the idle window; 'read' only a console session younger than its maximum age; 'none' (the caller's
 * own state, re-verification itself) only the role.
 */
export type Freshness = 'write' | 'read' | 'none';

interface CallMeta {
  ip: string | null;
  requestId: string | null;
}

/** Console roles, the console session's freshness and re-verification by SMS code. */
export class AccessService {
  constructor(
    private readonly repo: AccessRepo,
    private readonly codes: SmsCodeService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly opts: AccessOptions,
  ) {}

  private state(caller: AdminCaller) {
    const verifiedAt = caller.verifiedAt ?? caller.sessionCreatedAt;
    const activeAt = caller.activeAt ?? verifiedAt;
    const expiresAt = new Date(verifiedAt.getTime() + this.opts.maxAgeMs);
    const idleUntil = new Date(Math.min(activeAt.getTime() + this.opts.idleMs, expiresAt.getTime()));
    return { verifiedAt, activeAt, expiresAt, idleUntil };
  }

  private async caller(session: SessionInfo | null): Promise<AdminCaller> {
    if (!session) throw notLoggedIn();
    const caller = await this.repo.caller(session.sessionId, session.userId);
    if (!caller) throw notLoggedIn();
    return caller;
  }

  /**
   * The check every /api/admin route runs before its body is read: role first (a normal user learns nothing else),
   * then freshness. Console activity inside the idle window slides it; a call after it lapsed does not revive it.
   */
  async authorize(session: SessionInfo | null, need: AdminRole, freshness: Freshness, meta: CallMeta): Promise<AdminActor> {
    const caller = await this.caller(session);
    if (!caller.role) throw appError(ErrorCode.ADMIN_FORBIDDEN);
    if (!adminRoleAtLeast(caller.role, need)) {
      throw appError(ErrorCode.ADMIN_FORBIDDEN, `当前角色（${adminRoleLabels[caller.role]}）无权执行此操作，需要${adminRoleLabels[need]}及以上角色`, { role: caller.role, need });
    }
    const actor: AdminActor = { userId: caller.userId, role: caller.role, sessionId: session!.sessionId, ...meta };
    if (freshness === 'none') return actor;
    const now = this.clock.now();
    const s = this.state(caller);
    if (now >= s.expiresAt) throw appError(ErrorCode.ADMIN_REAUTH_REQUIRED, '管理后台会话已过期，请输入短信验证码重新验证');
    const idle = now >= s.idleUntil;
    if (idle && freshness === 'write') throw appError(ErrorCode.ADMIN_REAUTH_REQUIRED, `已超过${Math.round(this.opts.idleMs / 60_000)}分钟未操作，请输入短信验证码重新验证`);
    if (!idle) await this.repo.touch(actor.sessionId, actor.userId, s.verifiedAt, now);
    return actor;
  }

  async me(session: SessionInfo | null): Promise<AdminMe> {
    const caller = await this.caller(session);
    if (!caller.role) throw appError(ErrorCode.ADMIN_FORBIDDEN);
    const s = this.state(caller);
    const now = this.clock.now();
    return {
      userId: caller.userId,
      nickname: caller.nickname,
      phone: maskPhone(caller.phone),
      role: caller.role,
      verifiedUntil: now < s.idleUntil ? s.idleUntil.toISOString() : null,
      sessionExpiresAt: s.expiresAt.toISOString(),
      idleMinutes: Math.round(this.opts.idleMs / 60_000),
    };
  }

  private async phoneOf(session: SessionInfo | null): Promise<string> {
    const caller = await this.caller(session);
    if (!caller.phone) throw appError(ErrorCode.FORBIDDEN, '该账号未绑定手机号，无法通过短信验证，请先绑定手机号');
    return caller.phone;
  }

  /** Sends the re-verification code to the operator's own phone, under the usual SMS caps. */
  async sendCode(session: SessionInfo | null, ip: string) {
    return this.codes.send(await this.phoneOf(session), ip);
  }

  /** A right SMS code renews the console session (both windows start again); recorded in the audit log. */
  async reauth(actor: AdminActor, session: SessionInfo | null, code: string): Promise<AdminMe> {
    await this.codes.consume(await this.phoneOf(session), code);
    const now = this.clock.now();
    await this.repo.transaction(async (r, tx) => {
      await r.verified(actor.sessionId, actor.userId, now);
      await this.audit.record(tx, actor, { action: 'admin.reauth', targetType: 'session', targetId: actor.sessionId });
    });
    return this.me(session);
  }

  /**
   * Grants or takes away a console role. From the console `actor` is an owner (the route says so) who may not change
   * their own role (the last owner could lock everyone out); from the CLI `actor` is null.
   */
  async setRole(actor: AdminActor | null, userId: number, role: AdminRole | null): Promise<{ userId: number; role: AdminRole | null }> {
    if (actor && actor.userId === userId) throw appError(ErrorCode.FORBIDDEN, '不能修改自己的角色');
    return this.repo.transaction(async (r, tx) => {
      const before = await r.roleForUpdate(userId);
      if (!before) throw appError(ErrorCode.NOT_FOUND, '用户不存在');
      if (before.role !== role) {
        await r.setRole(userId, role);
        await this.audit.record(tx, actor ?? cliActor, { action: role ? 'role.grant' : 'role.revoke', targetType: 'user', targetId: userId, before, after: { role } });
      }
      return { userId, role };
    });
  }
}
