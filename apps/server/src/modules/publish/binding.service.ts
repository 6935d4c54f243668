import {
  ErrorCode,
  type ConnectionState,
  type LoginConnectBody,
  type LoginConnectReply,
  type LoginConnection,
  type LoginCookieReply,
  type LoginScanReply,
  type PlatformAccount,
} from '@inkstone/shared';
import type { FastifyBaseLogger } from 'fastify';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import { randomToken } from '../../security/hashing.js';
import { decryptSecret, encryptSecret } from '../../security/encryption.js';
import { PlatformError, type PlatformAdapter } from '../../integrations/platforms/types.js';
import type { JobQueue } from '../../jobs/types.js';
import type { AccountService, PublisherRelay } from './account.service.js';
import type { LoginRow, PublishRepo } from './publish.repo.js';
import { diagnosticOf, type StepFailureRecorder } from './step-failures.js';

/** A captured session must be bound within this long. */
const BIND_WINDOW_MS = 30 * 60_000;

/** The publisher drives a browser login (QR, phone scan, session capture) and writes each step to the login row. */
export const LOGIN_DRIVE_JOB = 'publish.login-drive';
/** How long a web process waits for a publisher to show the QR. */
const RELAY_WAIT_MS = 30_000;
/** How often the publisher's login driver looks at its page (and at the row, for a release). */
const DRIVE_POLL_MS = 300;

interface LoginBlob {
  state: string;
  qrImage: string | null;
  scanUrl: string | null;
}

/**
 * Binding a platform account: the QR (or API credential) login, its scan state, the captured session and the bind
 * that turns it into an account (AccountService keeps the accounts). Sessions never leave the server.
 */
export class BindingService {
  constructor(
    private readonly repo: PublishRepo,
    private readonly accounts: AccountService,
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly onBound: (accountId: number) => Promise<void> = async () => undefined,
    /** Set where browser logins go to a publisher through the queue (see AccountService). */
    private readonly relay: PublisherRelay | null = null,
  ) {}

  private relayed(adapter: PlatformAdapter): boolean {
    return this.relay !== null && adapter.usesBrowser === true;
  }

  private stepFailures: StepFailureRecorder | null = null;
  /** Where a failed login step's diagnostic goes (平台健康; set by the container). */
  useStepFailures(r: StepFailureRecorder): void {
    this.stepFailures = r;
  }
  private async noteStepFailure(platform: string, err: unknown): Promise<void> {
    const diagnostic = diagnosticOf(err);
    if (diagnostic) await this.stepFailures?.record({ platform, source: 'binding', accountId: null, jobId: null, diagnostic });
  }

  /** Publisher role: the login driver. */
  registerJobs(jobs: JobQueue): void {
    // A login holds its job while the QR waits for the phone (minutes, mostly idle): many at once.
    jobs.register<{ connectionId: string }>(LOGIN_DRIVE_JOB, (p) => this.driveLogin(p.connectionId), { concurrency: 50 });
  }

  private openLogin(row: LoginRow): LoginBlob {
    return JSON.parse(decryptSecret(this.key, row.loginEnc!)) as LoginBlob;
  }

  async connect(userId: number, body: LoginConnectBody): Promise<LoginConnectReply> {
    const adapter = this.accounts.adapter(body.platform);
    if (this.relayed(adapter)) return this.connectRelayed(userId, adapter);
    const id = randomToken(18);
    let start;
    try {
      start = await adapter.startLogin(id, { appId: body.appId, appSecret: body.appSecret });
    } catch (err) {
      await this.noteStepFailure(adapter.id, err);
      if (err instanceof PlatformError && !err.transient) throw appError(ErrorCode.PLATFORM_BIND_FAILED, err.message);
      throw this.accounts.platformFailure(err, '获取登录二维码失败', adapter.id);
    }
    const scanUrl = (JSON.parse(start.state) as { scanUrl?: string }).scanUrl ?? null;
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + start.expiresInMs);
    const state: ConnectionState = start.qrImage ? 'waiting' : 'confirmed';
    const blob: LoginBlob = { state: start.state, qrImage: start.qrImage, scanUrl };
    await this.repo.insertLogin({ id, userId, platform: adapter.id, state, loginEnc: encryptSecret(this.key, JSON.stringify(blob)), createdAt: now, expiresAt });
    return { connectionId: id, platform: adapter.id, state, qrImage: start.qrImage, expiresAt: expiresAt.toISOString() };
  }

  /** The row first, then a publisher opens the login page and fills in the QR; this waits for it. */
  private async connectRelayed(userId: number, adapter: PlatformAdapter): Promise<LoginConnectReply> {
    // One process without the publisher role and without Redis: no publisher can ever take the login.
    if (this.relay!.jobs.kind === 'in-process') throw appError(ErrorCode.PLATFORM_FAILED, '发布服务未运行（本进程不含 publisher 角色，且未配置 REDIS_URL）');
    const id = randomToken(18);
    const now = this.clock.now();
    await this.repo.insertLogin({ id, userId, platform: adapter.id, state: 'waiting', loginEnc: null, createdAt: now, expiresAt: new Date(now.getTime() + RELAY_WAIT_MS * 2) });
    await this.relay!.jobs.enqueue(LOGIN_DRIVE_JOB, { connectionId: id }, { jobId: id });
    const row = await this.waitForLogin(id, (r) => r.loginEnc !== null || r.state !== 'waiting');
    if (!row || (row.state === 'waiting' && !row.loginEnc)) {
      await this.repo.updateLogin(id, { state: 'failed', error: '获取登录二维码超时' });
      throw appError(ErrorCode.PLATFORM_BIND_FAILED, '获取登录二维码超时，请稍后重试');
    }
    if (row.state === 'failed') throw appError(ErrorCode.PLATFORM_BIND_FAILED, row.error ?? '获取登录二维码失败');
    const blob = this.openLogin(row);
    return { connectionId: id, platform: adapter.id, state: row.state as ConnectionState, qrImage: blob.qrImage, expiresAt: row.expiresAt.toISOString() };
  }

  /** Polls the login row (written by the publisher's driver) until `done` or RELAY_WAIT_MS. */
  private async waitForLogin(id: string, done: (row: LoginRow) => boolean): Promise<LoginRow | undefined> {
    const until = Date.now() + RELAY_WAIT_MS;
    for (;;) {
      const row = await this.repo.login(id);
      if (!row || done(row) || Date.now() > until) return row;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Publisher side of a relayed login: opens the page, stores the QR, follows the scan, and on confirmation captures
   * the session before the row says `confirmed` (so a client seeing `confirmed` can complete at once). Ends when the
   * login is bound, released (the row leaves waiting/scanned), failed or expired; the page is always closed.
   */
  async driveLogin(id: string): Promise<void> {
    let row = await this.repo.login(id);
    if (!row || row.state !== 'waiting' || row.loginEnc) return;
    const adapter = this.accounts.adapter(row.platform);
    let start;
    try {
      start = await adapter.startLogin(id, {});
    } catch (err) {
      this.log.warn({ err, platform: row.platform }, 'relayed login start failed');
      await this.noteStepFailure(row.platform, err);
      await this.repo.updateLogin(id, { state: 'failed', error: err instanceof PlatformError ? err.message : '获取登录二维码失败' });
      return;
    }
    const scanUrl = (JSON.parse(start.state) as { scanUrl?: string }).scanUrl ?? null;
    const blob: LoginBlob = { state: start.state, qrImage: start.qrImage, scanUrl };
    const expiresAt = new Date(this.clock.now().getTime() + start.expiresInMs);
    await this.repo.updateLogin(id, { loginEnc: encryptSecret(this.key, JSON.stringify(blob)), expiresAt });
    try {
      for (;;) {
        await new Promise((r) => setTimeout(r, DRIVE_POLL_MS));
        row = await this.repo.login(id);
        if (!row || !['waiting', 'scanned'].includes(row.state)) return;
        if (expiresAt <= this.clock.now()) {
          await this.repo.updateLogin(id, { state: 'expired' });
          return;
        }
        let next: ConnectionState;
        let failure: string | undefined;
        try {
          ({ scanState: next, error: failure } = await adapter.pollLogin(blob.state));
        } catch (err) {
          this.log.warn({ err, platform: row.platform }, 'login poll failed');
          continue;
        }
        if (next === 'confirmed') {
          await this.capture({ ...row, loginEnc: encryptSecret(this.key, JSON.stringify(blob)) }, adapter, 'confirmed').catch(() => undefined);
          return;
        }
        if (next !== row.state) await this.repo.updateLogin(id, { state: next, ...(next === 'failed' && failure ? { error: failure } : {}) });
        if (next === 'expired' || next === 'failed') return;
      }
    } finally {
      await adapter.cancelLogin(blob.state);
    }
  }

  /** Reads the confirmed login's session and profile into the row (encrypted), leaving it in `state`. */
  private async capture(row: LoginRow, adapter: PlatformAdapter, state: ConnectionState): Promise<LoginRow> {
    try {
      const { session, profile } = await adapter.completeLogin(this.openLogin(row).state);
      const patch = {
        state,
        sessionEnc: encryptSecret(this.key, session),
        profile: {
          platformUserId: profile.platformUserId,
          accountName: profile.accountName,
          avatar: profile.avatar,
          followerCount: profile.followerCount,
          noteCount: profile.noteCount,
        },
        // The captured session waits for the bind call this long.
        expiresAt: new Date(this.clock.now().getTime() + BIND_WINDOW_MS),
      };
      await this.repo.updateLogin(row.id, patch);
      return { ...row, ...patch };
    } catch (err) {
      const message = err instanceof PlatformError ? err.message : '读取登录信息失败';
      this.log.warn({ err, platform: row.platform }, 'login completion failed');
      await this.noteStepFailure(row.platform, err);
      await this.repo.updateLogin(row.id, { state: 'failed', error: message });
      throw appError(ErrorCode.PLATFORM_BIND_FAILED, message);
    }
  }

  private async ownLogin(userId: number, id: string): Promise<LoginRow> {
    const row = await this.repo.login(id);
    if (!row || row.userId !== userId) throw appError(ErrorCode.NOT_FOUND, '登录连接不存在');
    return row;
  }

  /** Moves a waiting login forward by asking the platform; expires it when its time is up. */
  private async refresh(row: LoginRow): Promise<LoginRow> {
    if (!['waiting', 'scanned'].includes(row.state)) return row;
    const adapter = this.accounts.adapter(row.platform);
    if (this.relayed(adapter)) {
      // The publisher driving the page writes the scan state; an expired row also tells it to close the page.
      if (row.expiresAt > this.clock.now()) return row;
      await this.repo.updateLogin(row.id, { state: 'expired' });
      return { ...row, state: 'expired' };
    }
    const blob = this.openLogin(row);
    if (row.expiresAt <= this.clock.now()) {
      await adapter.cancelLogin(blob.state);
      await this.repo.updateLogin(row.id, { state: 'expired' });
      return { ...row, state: 'expired' };
    }
    let next: ConnectionState;
    let failure: string | undefined;
    try {
      ({ scanState: next, error: failure } = await adapter.pollLogin(blob.state));
    } catch (err) {
      this.log.warn({ err, platform: row.platform }, 'login poll failed');
      return row;
    }
    const error = next === 'failed' && failure ? failure : row.error;
    if (next !== row.state) await this.repo.updateLogin(row.id, { state: next, error });
    return { ...row, state: next, error };
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
      const adapter = this.accounts.adapter(row.platform);
      if (this.relayed(adapter)) {
        // The publisher captured the session before it wrote `confirmed`.
        if (!row.sessionEnc || !row.profile) throw appError(ErrorCode.PLATFORM_NOT_CONFIRMED);
        await this.repo.updateLogin(row.id, { state: 'completed' });
        row = { ...row, state: 'completed' };
      } else row = await this.capture(row, adapter, 'completed');
    }
    return { connectionId: row.id, platform: row.platform, state: row.state as ConnectionState, accountName: row.profile!.accountName, avatar: row.profile!.avatar };
  }

  async bind(userId: number, connectionId: string): Promise<PlatformAccount> {
    const row = await this.ownLogin(userId, connectionId).catch(() => null);
    if (!row) throw appError(ErrorCode.PLATFORM_BIND_FAILED, '登录连接不存在');
    if (row.state === 'bound' && row.accountId) {
      const acct = await this.repo.account(row.accountId);
      if (acct) return this.accounts.toRecord(acct);
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
      sessionEnc: this.accounts.sealSession(userId, session),
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
    return this.accounts.toRecord(account);
  }

  async release(userId: number, target: { connectionId?: string; accountId?: number }): Promise<boolean> {
    let released = false;
    if (target.connectionId) {
      const row = await this.ownLogin(userId, target.connectionId);
      // A relayed login's page lives on a publisher, which closes it once the row is no longer live.
      if (row.loginEnc && !this.relayed(this.accounts.adapter(row.platform))) await this.accounts.adapter(row.platform).cancelLogin(this.openLogin(row).state);
      if (['waiting', 'scanned', 'confirmed'].includes(row.state)) await this.repo.updateLogin(row.id, { state: 'expired' });
      released = true;
    }
    if (target.accountId) {
      const acct = await this.accounts.ownAccount(userId, target.accountId);
      released = (await this.accounts.adapter(acct.platform).releaseAccount?.(String(acct.id))) ?? false;
    }
    return released;
  }
}
