import {
  ErrorCode,
  type ConnectionState,
  type LoginConnectBody,
  type LoginConnectReply,
  type LoginConnection,
  type LoginCookieReply,
  type LoginScanReply,
  type PlatformAccount,
  type UnreadCountsReply,
} from '@inkstone/shared';
import type { FastifyBaseLogger } from 'fastify';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import { randomToken } from '../../security/hashing.js';
import { decryptSecret, encryptSecret } from '../../security/encryption.js';
import type { PlatformRegistry } from '../../integrations/platforms/index.js';
import { CaptchaError, PlatformError, SessionExpiredError, type PlatformAdapter, type SessionBlob } from '../../integrations/platforms/types.js';
import type { Notify } from '../notice/personal-notices.js';
import type { AccountRow, LoginRow, PublishRepo } from './publish.repo.js';

/** Network-level failures (DNS, refused, reset, timed out) as the browser or fetch reports them, through `cause`. */
const UNREACHABLE = /net::ERR_(NAME_NOT_RESOLVED|CONNECTION_|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|TIMED_OUT|PROXY_|TUNNEL_)|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|fetch failed|网络异常|页面响应超时/;
function isUnreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof Error && UNREACHABLE.test(`${e.message} ${(e as { code?: string }).code ?? ''}`)) return true;
  }
  return false;
}

/** A captured session must be bound within this long. */
const BIND_WINDOW_MS = 30 * 60_000;
const EMPTY_UNREAD = { unread_count: 0, likes: 0, connections: 0, mentions: 0 };

interface LoginBlob {
  state: string;
  qrImage: string | null;
  scanUrl: string | null;
}

/**
 * Binding platform accounts by QR (or API credentials), the account list, and the session each
 * account keeps encrypted. Sessions never leave the server.
 */
export class AccountService {
  constructor(
    private readonly repo: PublishRepo,
    private readonly platforms: PlatformRegistry,
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly notify: Notify,
    private readonly onBound: (accountId: number) => Promise<void> = async () => undefined,
  ) {}

  /** The platform's Chinese name (the id when the platform is no longer enabled). */
  adapterLabel(platform: string): string {
    return this.platforms.get(platform)?.label ?? platform;
  }

  adapter(platform: string): PlatformAdapter {
    const a = this.platforms.get(platform);
    if (!a) throw appError(ErrorCode.PLATFORM_UNSUPPORTED);
    return a;
  }

  // --- session at rest ---
  sealSession(_userId: number, session: SessionBlob) {
    return encryptSecret(this.key, session);
  }
  openSession(account: AccountRow): SessionBlob {
    if (!account.sessionEnc) throw new SessionExpiredError('账号未保存登录信息，请重新绑定');
    return decryptSecret(this.key, account.sessionEnc);
  }
  private openLogin(row: LoginRow): LoginBlob {
    return JSON.parse(decryptSecret(this.key, row.loginEnc!)) as LoginBlob;
  }

  // --- binding ---
  async connect(userId: number, body: LoginConnectBody): Promise<LoginConnectReply> {
    const adapter = this.adapter(body.platform);
    const id = randomToken(18);
    let start;
    try {
      start = await adapter.startLogin(id, { appId: body.appId, appSecret: body.appSecret });
    } catch (err) {
      if (err instanceof PlatformError && !err.transient) throw appError(ErrorCode.PLATFORM_BIND_FAILED, err.message);
      throw this.platformFailure(err, '获取登录二维码失败', adapter.id);
    }
    const scanUrl = (JSON.parse(start.state) as { scanUrl?: string }).scanUrl ?? null;
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + start.expiresInMs);
    const state: ConnectionState = start.qrImage ? 'waiting' : 'confirmed';
    const blob: LoginBlob = { state: start.state, qrImage: start.qrImage, scanUrl };
    await this.repo.insertLogin({ id, userId, platform: adapter.id, state, loginEnc: encryptSecret(this.key, JSON.stringify(blob)), createdAt: now, expiresAt });
    return { connectionId: id, platform: adapter.id, state, qrImage: start.qrImage, expiresAt: expiresAt.toISOString() };
  }

  private async ownLogin(userId: number, id: string): Promise<LoginRow> {
    const row = await this.repo.login(id);
    if (!row || row.userId !== userId) throw appError(ErrorCode.NOT_FOUND, '登录连接不存在');
    return row;
  }

  /** Moves a waiting login forward by asking the platform; expires it when its time is up. */
  private async refresh(row: LoginRow): Promise<LoginRow> {
    if (!['waiting', 'scanned'].includes(row.state)) return row;
    const adapter = this.adapter(row.platform);
    const blob = this.openLogin(row);
    if (row.expiresAt <= this.clock.now()) {
      await adapter.cancelLogin(blob.state);
      await this.repo.updateLogin(row.id, { state: 'expired' });
      return { ...row, state: 'expired' };
    }
    let next: ConnectionState;
    try {
      const polled = await adapter.pollLogin(blob.state);
      next = polled.scanState;
    } catch (err) {
      this.log.warn({ err, platform: row.platform }, 'login poll failed');
      return row;
    }
    if (next !== row.state) await this.repo.updateLogin(row.id, { state: next });
    return { ...row, state: next };
  }

  private view(row: LoginRow): LoginConnection {
    return {
      connectionId: row.id,
      platform: row.platform,
      state: row.state as ConnectionState,
      accountName: row.profile?.accountName ?? null,
      avatar: row.profile?.avatar ?? null,
      accountId: row.accountId ?? null,
      error: row.error,
      expiresAt: row.expiresAt.toISOString(),
    };
  }

  async connection(userId: number, id: string): Promise<LoginConnection> {
    return this.view(await this.refresh(await this.ownLogin(userId, id)));
  }

  async scan(userId: number, id: string): Promise<LoginScanReply> {
    const row = await this.refresh(await this.ownLogin(userId, id));
    const blob = row.loginEnc ? this.openLogin(row) : null;
    const live = ['waiting', 'scanned'].includes(row.state);
    return { connectionId: row.id, qrImage: live ? (blob?.qrImage ?? null) : null, scanState: row.state as ConnectionState, scanUrl: live ? (blob?.scanUrl ?? null) : null };
  }

  /** Captures the session once the phone confirmed; stores it encrypted. Idempotent. */
  async complete(userId: number, id: string): Promise<LoginCookieReply> {
    let row = await this.refresh(await this.ownLogin(userId, id));
    if (row.state === 'expired') throw appError(ErrorCode.PLATFORM_LOGIN_EXPIRED);
    if (row.state === 'failed') throw appError(ErrorCode.PLATFORM_BIND_FAILED, row.error ?? undefined);
    if (row.state === 'waiting' || row.state === 'scanned') throw appError(ErrorCode.PLATFORM_NOT_CONFIRMED);
    if (row.state === 'confirmed') {
      const adapter = this.adapter(row.platform);
      try {
        const { session, profile } = await adapter.completeLogin(this.openLogin(row).state);
        const patch = {
          state: 'completed',
          sessionEnc: encryptSecret(this.key, session),
          profile: { platformUserId: profile.platformUserId, accountName: profile.accountName, avatar: profile.avatar, followerCount: profile.followerCount, noteCount: profile.noteCount },
          // The captured session waits for the bind call this long.
          expiresAt: new Date(this.clock.now().getTime() + BIND_WINDOW_MS),
        };
        await this.repo.updateLogin(row.id, patch);
        row = { ...row, ...patch };
      } catch (err) {
        const message = err instanceof PlatformError ? err.message : '读取登录信息失败';
        this.log.warn({ err, platform: row.platform }, 'login completion failed');
        await this.repo.updateLogin(row.id, { state: 'failed', error: message });
        throw appError(ErrorCode.PLATFORM_BIND_FAILED, message);
      }
    }
    return { connectionId: row.id, platform: row.platform, state: row.state as ConnectionState, accountName: row.profile!.accountName, avatar: row.profile!.avatar };
  }

  async bind(userId: number, connectionId: string): Promise<PlatformAccount> {
    const row = await this.ownLogin(userId, connectionId).catch(() => null);
    if (!row) throw appError(ErrorCode.PLATFORM_BIND_FAILED, '登录连接不存在');
    if (row.state === 'bound' && row.accountId) {
      const acct = await this.repo.account(row.accountId);
      if (acct) return this.toRecord(acct);
    }
    if (row.state !== 'completed' || !row.sessionEnc || !row.profile) throw appError(ErrorCode.PLATFORM_BIND_FAILED, '请先完成扫码登录');
    if (row.expiresAt <= this.clock.now()) throw appError(ErrorCode.PLATFORM_BIND_FAILED, '登录信息已过期，请重新扫码');
    const session = decryptSecret(this.key, row.sessionEnc);
    const p = row.profile;
    const now = this.clock.now();
    const fields = {
      accountName: p.accountName,
      avatar: p.avatar,
      status: 'active',
      statusReason: null,
      sessionEnc: this.sealSession(userId, session),
      followerCount: p.followerCount ?? 0,
      noteCount: p.noteCount ?? 0,
      updatedAt: now,
    };
    const existing = await this.repo.liveAccount(userId, row.platform, p.platformUserId);
    const account = existing
      ? (await this.repo.updateAccount(existing.id, fields))!
      : await this.repo.insertAccount({ userId, platform: row.platform, platformUserId: p.platformUserId, createdAt: now, ...fields });
    // The session now lives on the account only.
    await this.repo.updateLogin(row.id, { state: 'bound', accountId: account.id, sessionEnc: null, loginEnc: null });
    await this.onBound(account.id).catch((err: unknown) => this.log.warn({ err }, 'post-bind sync not queued'));
    return this.toRecord(account);
  }

  async release(userId: number, target: { connectionId?: string; accountId?: number }): Promise<boolean> {
    let released = false;
    if (target.connectionId) {
      const row = await this.ownLogin(userId, target.connectionId);
      if (row.loginEnc) await this.adapter(row.platform).cancelLogin(this.openLogin(row).state);
      if (['waiting', 'scanned', 'confirmed'].includes(row.state)) await this.repo.updateLogin(row.id, { state: 'expired' });
      released = true;
    }
    if (target.accountId) {
      const acct = await this.ownAccount(userId, target.accountId);
      released = (await this.adapter(acct.platform).releaseAccount?.(String(acct.id))) ?? false;
    }
    return released;
  }

  /** Pinned accounts sort first in every list. */
  async setTop(userId: number, accountId: number, top: boolean): Promise<PlatformAccount> {
    const acct = await this.ownAccount(userId, accountId);
    const updated = await this.repo.updateAccount(acct.id, { top, updatedAt: this.clock.now() });
    return this.toRecord(updated ?? acct);
  }

  async unbind(userId: number, accountId: number): Promise<void> {
    const acct = await this.ownAccount(userId, accountId);
    await this.adapter(acct.platform).releaseAccount?.(String(acct.id));
    await this.repo.updateAccount(acct.id, { unboundAt: this.clock.now(), sessionEnc: null, updatedAt: this.clock.now() });
  }

  // --- accounts ---
  async ownAccount(userId: number, accountId: number): Promise<AccountRow> {
    const acct = await this.repo.account(accountId);
    if (!acct || acct.userId !== userId) throw appError(ErrorCode.NOT_FOUND, '账号不存在或已解绑');
    return acct;
  }

  toRecord(a: AccountRow): PlatformAccount {
    const adapter = this.platforms.get(a.platform);
    return {
      id: a.id,
      platform: a.platform,
      platformName: adapter?.label ?? a.platform,
      sandbox: adapter?.sandbox ?? false,
      accountName: a.accountName,
      avatar: a.avatar,
      status: a.status === 'expired' ? 'expired' : 'active',
      statusReason: a.statusReason,
      top: a.top,
      followerCount: a.followerCount,
      noteCount: a.noteCount,
      cookies: '[]',
      createdAt: a.createdAt.toISOString(),
      lastSyncedAt: a.lastSyncedAt?.toISOString() ?? null,
    };
  }

  async list(userId: number, q: { pageNum: number; pageSize: number; top?: boolean; platform?: string; accountName?: string }) {
    const { rows, total } = await this.repo.listAccounts(userId, { ...q, offset: (q.pageNum - 1) * q.pageSize, limit: q.pageSize });
    return { records: rows.map((r) => this.toRecord(r)), total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async count(userId: number) {
    const rows = await this.repo.countAccounts(userId);
    const byPlatform: Record<string, number> = {};
    let active = 0;
    let expired = 0;
    for (const r of rows) {
      byPlatform[r.platform] = (byPlatform[r.platform] ?? 0) + r.n;
      if (r.status === 'expired') expired += r.n;
      else active += r.n;
    }
    return { total: active + expired, active, expired, byPlatform };
  }

  /** Stored counts (refreshed by the engagement job); cheap enough for the 15 s polling. */
  async unread(userId: number, accountId: number): Promise<UnreadCountsReply> {
    const acct = await this.ownAccount(userId, accountId);
    return acct.unread ?? EMPTY_UNREAD;
  }

  /** Marks the account for re-login and tells the user (a personal notice). */
  async markExpired(account: AccountRow, reason: string): Promise<void> {
    if (account.status === 'expired') return;
    // Only the caller that flips active -> expired tells the user: a publish job and a sync noticing together notify once.
    const flipped = await this.repo.expireIfActive(account.id, reason, this.clock.now());
    if (!flipped) return;
    await this.adapter(account.platform).releaseAccount?.(String(account.id));
    await this.notify({
      userId: account.userId,
      // One lapse = one notice: the key names the session that lapsed (its last update before the flip).
      key: `account-expired:${account.id}:${account.updatedAt.getTime()}`,
      title: '账号登录已失效',
      content: `你绑定的${this.platforms.get(account.platform)?.label ?? account.platform}账号「${account.accountName}」${reason}，请在账号管理中重新扫码绑定。`,
      link: '/accountManager',
    });
  }

  async sessionCheck(userId: number, accountId: number) {
    const acct = await this.ownAccount(userId, accountId);
    const adapter = this.adapter(acct.platform);
    try {
      const profile = await adapter.checkSession(String(acct.id), this.openSession(acct));
      const updated = await this.repo.updateAccount(acct.id, {
        status: 'active',
        statusReason: null,
        accountName: profile.accountName,
        avatar: profile.avatar,
        ...(profile.followerCount !== undefined ? { followerCount: profile.followerCount } : {}),
        ...(profile.noteCount !== undefined ? { noteCount: profile.noteCount } : {}),
        updatedAt: this.clock.now(),
      });
      return { category: 'sessionCheck' as const, accountId: acct.id, valid: true, status: 'active' as const, statusReason: updated?.statusReason ?? null };
    } catch (err) {
      if (err instanceof SessionExpiredError) {
        await this.markExpired(acct, '登录已失效');
        return { category: 'sessionCheck' as const, accountId: acct.id, valid: false, status: 'expired' as const, statusReason: '登录已失效' };
      }
      throw this.platformFailure(err, '检查登录状态失败', acct.platform);
    }
  }

  async searchTopics(userId: number, accountId: number, keyword: string) {
    const acct = await this.ownAccount(userId, accountId);
    try {
      const topics = await this.adapter(acct.platform).searchTopics(String(acct.id), this.openSession(acct), keyword);
      return { category: 'search' as const, accountId: acct.id, topics };
    } catch (err) {
      if (err instanceof SessionExpiredError) await this.markExpired(acct, '登录已失效');
      throw this.platformFailure(err, '搜索失败', acct.platform);
    }
  }

  async platformConfig(userId: number, q: { accountId?: number; platform?: string }) {
    let list = this.platforms.list();
    if (q.accountId) {
      const acct = await this.ownAccount(userId, q.accountId);
      list = list.filter((a) => a.id === acct.platform);
    } else if (q.platform) list = list.filter((a) => a.id === q.platform);
    return { category: 'config' as const, platforms: list.map((a) => ({ platform: a.id, platformName: a.label, sandbox: a.sandbox, limits: a.limits })) };
  }

  platformFailure(err: unknown, what: string, platform?: string) {
    if (err instanceof SessionExpiredError) return appError(ErrorCode.PLATFORM_ACCOUNT_EXPIRED);
    if (err instanceof CaptchaError) return appError(ErrorCode.PLATFORM_CAPTCHA);
    if (err instanceof PlatformError && !err.transient) return appError(ErrorCode.PLATFORM_FAILED, `${what}：${err.message}`);
    this.log.warn({ err, platform }, what);
    // "Try again later" misleads when this server simply cannot reach the site: say so, and what an operator checks.
    if (isUnreachable(err)) {
      const label = platform ? (this.platforms.get(platform)?.label ?? platform) : '平台';
      return appError(ErrorCode.PLATFORM_FAILED, `${what}：服务器无法连接${label}（网络不通或访问超时）。请联系管理员在服务器上检查：能否访问${label}网站、是否需要配置代理（HTTP_PROXY/HTTPS_PROXY）、DNS 能否解析其域名、防火墙是否放行`);
    }
    return appError(ErrorCode.PLATFORM_FAILED);
  }
}
