import { ErrorCode, type PlatformAccount, type PublishData, type UnreadCountsReply } from '@inkstone/shared';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import { decryptSecret, encryptSecret } from '../../security/encryption.js';
import type { PlatformRegistry } from '../../integrations/platforms/index.js';
import { CaptchaError, PlatformError, SessionExpiredError, type PlatformAdapter, type SessionBlob } from '../../integrations/platforms/types.js';
import type { Notify } from '../notice/personal-notices.js';
import { JobTimeoutError, type JobQueue } from '../../jobs/types.js';
import type { AccountRow, PublishRepo } from './publish.repo.js';
import type { InvalidatingCache } from '../../cache/invalidating-cache.js';

/** Network-level failures (DNS, refused, reset, timed out) as the browser or fetch reports them, through `cause`. */
const UNREACHABLE =
  /net::ERR_(NAME_NOT_RESOLVED|CONNECTION_|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|TIMED_OUT|PROXY_|TUNNEL_)|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|fetch failed|网络异常|页面响应超时/;
function isUnreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof Error && UNREACHABLE.test(`${e.message} ${(e as { code?: string }).code ?? ''}`)) return true;
  }
  return false;
}

const EMPTY_UNREAD = { unread_count: 0, likes: 0, connections: 0, mentions: 0 };

/** A session check asked of a publisher (request/reply), for processes that must not start Chromium. */
export const SESSION_CHECK_JOB = 'publish.session-check';
/** How long a web process waits for a publisher's answer. */
const RELAY_WAIT_MS = 30_000;

/**
 * Set where browser work must go to a publisher through the queue (a process without the publisher role, or any
 * process when several share Redis): a browser login's live page is then held by the publisher that opened it,
 * which writes every step to the login row, so any web process can answer the client (no sticky sessions).
 */
export interface PublisherRelay {
  jobs: JobQueue;
  publisherHere: boolean;
}

/** What a publish job needs of its account, handed over once: the row, its platform, its session and how to update them. */
export interface PublishTarget {
  account: AccountRow;
  /** The platform; PLATFORM_UNSUPPORTED once it is no longer enabled. */
  adapter(): PlatformAdapter;
  /** The opened session; SessionExpiredError when the account keeps none. */
  session(): SessionBlob;
  /** The session sealed for storage (a platform that refreshed it during the publish). */
  seal(session: SessionBlob): string;
  /** Marks the account for re-login and tells the user, once. */
  expire(reason: string): Promise<void>;
}

interface SessionCheckReply {
  category: 'sessionCheck';
  accountId: number;
  valid: boolean;
  status: 'active' | 'expired';
  statusReason: string | null;
}

/**
 * Bound platform accounts: the list, pinning, unbinding, their state (session checks, expiry) and the session each
 * keeps encrypted (BindingService creates them). Sessions never leave the server.
 */
export class AccountService {
  constructor(
    private readonly repo: PublishRepo,
    private readonly platforms: PlatformRegistry,
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly notify: Notify,
    private readonly relay: PublisherRelay | null = null,
    /** The poll's view of each account, kept in process and dropped on every write to the account (any process). */
    private readonly unreadCache: InvalidatingCache<number, { userId: number | null; platform: string | null; unread: UnreadCountsReply | null }> | null = null,
  ) {}

  private relayed(adapter: PlatformAdapter): boolean {
    return this.relay !== null && adapter.usesBrowser === true;
  }

  /** Publisher role: the session check other processes send here. */
  registerJobs(jobs: JobQueue): void {
    jobs.register<{ userId: number; accountId: number }>(SESSION_CHECK_JOB, async (p) => {
      try {
        return { reply: await this.sessionCheck(p.userId, p.accountId) };
      } catch (err) {
        // The asking process re-raises the same envelope code and message.
        if (err instanceof AppError) return { error: { code: err.code, msg: err.message } };
        throw err;
      }
    });
  }

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
  /** A publish job's account with its platform and session, in one call; undefined once the account is gone. */
  async forPublish(accountId: number): Promise<PublishTarget | undefined> {
    const account = await this.repo.account(accountId);
    if (!account) return undefined;
    return {
      account,
      adapter: () => this.adapter(account.platform),
      session: () => this.openSession(account),
      seal: (session) => this.sealSession(account.userId, session),
      expire: (reason) => this.markExpired(account, reason),
    };
  }

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

  /** The data area's figures for the spec's publishData (set once by the container; none collected without it). */
  private publishData: (userId: number) => Promise<PublishData> = async () => ({
    articleCount: 0,
    articleIncrease: 0,
    readCount: 0,
    readIncrease: 0,
    followCount: 0,
    followIncrease: 0,
  });
  usePublishData(source: (userId: number) => Promise<PublishData>) {
    this.publishData = source;
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
    return { total: active + expired, active, expired, byPlatform, publishData: await this.publishData(userId) };
  }

  /** Stored counts (refreshed by the engagement job); cheap enough for the 15 s polling. */
  async unread(userId: number, accountId: number): Promise<UnreadCountsReply> {
    const load = async () => {
      const row = await this.repo.accountUnread(accountId);
      return { userId: row?.userId ?? null, platform: row?.platform ?? null, unread: row?.unread ?? null };
    };
    const acct = this.unreadCache ? await this.unreadCache.get(accountId, load) : await load();
    if (acct.userId !== userId) throw appError(ErrorCode.NOT_FOUND, '账号不存在或已解绑');
    // Said, not shown as zeros: this platform's login cannot read its inbox.
    const unavailable = acct.platform ? this.platforms.get(acct.platform)?.inboxUnavailable : undefined;
    return unavailable ? { ...EMPTY_UNREAD, unavailable } : (acct.unread ?? EMPTY_UNREAD);
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

  async sessionCheck(userId: number, accountId: number): Promise<SessionCheckReply> {
    const acct = await this.ownAccount(userId, accountId);
    const adapter = this.adapter(acct.platform);
    // A publisher checks itself (it is also the one answering the others).
    if (this.relayed(adapter) && !this.relay!.publisherHere) return this.sessionCheckRelayed(userId, accountId);
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
      // Another operation on the account (an engagement sync) found the session lapsed meanwhile and released its
      // browser context under this check (seen in CI as a closed page): its finding is the answer.
      const now = await this.ownAccount(userId, accountId).catch(() => null);
      if (now?.status === 'expired') {
        return { category: 'sessionCheck' as const, accountId: acct.id, valid: false, status: 'expired' as const, statusReason: now.statusReason ?? '登录已失效' };
      }
      throw this.platformFailure(err, '检查登录状态失败', acct.platform);
    }
  }

  private async sessionCheckRelayed(userId: number, accountId: number): Promise<SessionCheckReply> {
    let answer: { reply?: SessionCheckReply; error?: { code: number; msg: string } };
    try {
      answer = await this.relay!.jobs.call(SESSION_CHECK_JOB, { userId, accountId }, RELAY_WAIT_MS);
    } catch (err) {
      this.log.warn({ err }, 'relayed session check failed');
      throw appError(ErrorCode.PLATFORM_FAILED, err instanceof JobTimeoutError ? '发布服务繁忙，请稍后重试' : '检查登录状态失败');
    }
    if (answer.error) throw appError(answer.error.code, answer.error.msg);
    return answer.reply!;
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
    return { category: 'config' as const, platforms: list.map((a) => ({ platform: a.id, platformName: a.label, sandbox: a.sandbox, login: a.login, limits: a.limits })) };
  }

  platformFailure(err: unknown, what: string, platform?: string) {
    if (err instanceof SessionExpiredError) return appError(ErrorCode.PLATFORM_ACCOUNT_EXPIRED);
    if (err instanceof CaptchaError) return appError(ErrorCode.PLATFORM_CAPTCHA);
    if (err instanceof PlatformError && !err.transient) return appError(ErrorCode.PLATFORM_FAILED, `${what}：${err.message}`);
    this.log.warn({ err, platform }, what);
    // "Try again later" misleads when this server simply cannot reach the site: say so, and what an operator checks.
    if (isUnreachable(err)) {
      const label = platform ? (this.platforms.get(platform)?.label ?? platform) : '平台';
      return appError(
        ErrorCode.PLATFORM_FAILED,
        `${what}：服务器无法连接${label}（网络不通或访问超时）。请联系管理员在服务器上检查：能否访问${label}网站、是否需要配置代理（HTTP_PROXY/HTTPS_PROXY）、DNS 能否解析其域名、防火墙是否放行`,
      );
    }
    return appError(ErrorCode.PLATFORM_FAILED);
  }
}
