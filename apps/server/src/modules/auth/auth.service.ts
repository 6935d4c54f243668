import { ErrorCode, limits, type LoginResult } from '@inkstone/shared';
import type { Db, DbOrTx } from '../../db/client.js';
import { appError } from '../../http/errors.js';
import { hmacBase64Url, randomCode, randomToken, safeEqual } from '../../security/hashing.js';
import type { WechatLogin } from '../../integrations/wechat/types.js';
import type { Clock } from '../../clock.js';
import type { UserRepo, UserRow } from '../user/user.repo.js';
import type { UserService } from '../user/user.service.js';
import type { AuthRepo } from './auth.repo.js';
import type { SessionService } from './session.service.js';
import type { SmsCodeService } from './sms-code.service.js';

export interface RequestMeta {
  ip: string;
  device?: string | null;
  /** The User-Agent, shown in the settings page's login-device list. */
  client?: string | null;
}

interface Acquisition {
  channelId?: string | undefined;
  invitationCode?: string | undefined;
}

const isUniqueViolation = (err: unknown) =>
  typeof err === 'object' && err !== null && ((err as { code?: string }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505');

/** Login and account lifecycle: phone codes, WeChat QR, hand-over tokens, deletion. */
export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly repo: AuthRepo,
    private readonly userRepo: UserRepo,
    private readonly users: UserService,
    private readonly codes: SmsCodeService,
    private readonly sessions: SessionService,
    private readonly wechat: WechatLogin,
    private readonly key: Buffer,
    private readonly clock: Clock,
    /** Runs inside the transaction that creates a new account (the welcome points grant); none by default. */
    private readonly onRegistered: (userId: number, tx: DbOrTx) => Promise<unknown> = async () => undefined,
  ) {}

  private async loginResult(user: UserRow, meta: RequestMeta): Promise<LoginResult> {
    const token = await this.sessions.create(user.id, meta);
    return { ...token, user: this.users.toProfile(user) };
  }

  /** Finds the live account for a phone or registers it, recording how the user arrived. */
  private async findOrRegister(phone: string, acq: Acquisition): Promise<UserRow> {
    const existing = await this.userRepo.liveByPhone(phone);
    if (existing) return existing;
    const inviter = acq.invitationCode ? await this.userRepo.liveByInviteCode(acq.invitationCode.toUpperCase()) : undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const uid = randomToken(9);
      try {
        // One transaction: the account and its welcome grant exist together or not at all.
        return await this.db.transaction(async (tx) => {
          const user = await this.userRepo.with(tx).insert({
            uid,
            username: `u_${uid}`,
            nickname: `创作者${phone.slice(-4)}`,
            phone,
            inviteCode: randomCode(8),
            channelId: acq.channelId ?? null,
            invitedByCode: inviter ? inviter.inviteCode : null,
            createdAt: this.clock.now(),
          });
          await this.onRegistered(user.id, tx);
          // Re-read: the hook may have changed the row (the balance the login reply shows).
          return (await this.userRepo.with(tx).byId(user.id)) ?? user;
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // A concurrent first login for the same phone won: use its account.
        const raced = await this.userRepo.liveByPhone(phone);
        if (raced) return raced;
      }
    }
    throw new Error('could not allocate unique user identifiers');
  }

  private ensureActive(user: UserRow) {
    if (user.disabledAt) throw appError(ErrorCode.ACCOUNT_DISABLED);
  }

  async loginWithPhone(input: { phone: string; code: string } & Acquisition, meta: RequestMeta): Promise<LoginResult> {
    await this.codes.consume(input.phone, input.code);
    const user = await this.findOrRegister(input.phone, input);
    this.ensureActive(user);
    return this.loginResult(user, meta);
  }

  async isRegistered(phoneOrOpenId: string): Promise<boolean> {
    const user = /^1[3-9]\d{9}$/.test(phoneOrOpenId) ? await this.userRepo.liveByPhone(phoneOrOpenId) : await this.userRepo.liveByOpenid(phoneOrOpenId);
    return user !== undefined;
  }

  // ---- WeChat QR login ----

  async createWxQr() {
    const scene = randomToken(16);
    const now = this.clock.now();
    const ttlSeconds = limits.wxSceneTtlMs / 1000;
    await this.repo.insertScene(scene, now, new Date(now.getTime() + limits.wxSceneTtlMs));
    const qr = await this.wechat.createQr(scene, ttlSeconds);
    return { scene, url: qr.imageUrl, expireSeconds: qr.expireSeconds, sandbox: this.wechat.sandbox };
  }

  /** Called by the WeChat event push (or the sandbox scan page) once the user scanned. */
  async recordScan(scene: string, openid: string): Promise<boolean> {
    return this.repo.markScanned(scene, openid, this.clock.now());
  }

  async scanState(scene: string) {
    const row = await this.repo.scene(scene);
    const now = this.clock.now();
    if (!row || row.expiresAt <= now) return { status: 'expired' as const, openid: null };
    if (row.usedAt) return { status: 'used' as const, openid: null };
    if (!row.scannedAt) return { status: 'waiting' as const, openid: null };
    return { status: 'scanned' as const, openid: row.openid };
  }

  private async scannedOpenid(scene: string): Promise<string> {
    const state = await this.scanState(scene);
    if (state.status === 'expired' || state.status === 'used') throw appError(ErrorCode.WX_SCENE_EXPIRED);
    if (state.status === 'waiting' || !state.openid) throw appError(ErrorCode.WX_NOT_SCANNED);
    return state.openid;
  }

  private async useScene(scene: string) {
    if (!(await this.repo.useScene(scene, this.clock.now()))) throw appError(ErrorCode.WX_SCENE_EXPIRED);
  }

  /**
   * Logs in the WeChat identity that scanned `scene`. An identity with no account needs a phone and
   * code: the identity is then bound to that phone's account (registered if new).
   */
  async loginWithWx(input: { scene: string; phone?: string | undefined; code?: string | undefined } & Acquisition, meta: RequestMeta): Promise<LoginResult> {
    const openid = await this.scannedOpenid(input.scene);
    let user = await this.userRepo.liveByOpenid(openid);
    if (!user) {
      if (!input.phone || !input.code) throw appError(ErrorCode.WX_NOT_BOUND);
      await this.codes.consume(input.phone, input.code);
      const phoneUser = await this.findOrRegister(input.phone, input);
      if (phoneUser.wxOpenid && phoneUser.wxOpenid !== openid) throw appError(ErrorCode.WX_ALREADY_BOUND, '该手机号已绑定其他微信');
      if (!phoneUser.wxOpenid && !(await this.bindOpenid(phoneUser.id, openid))) throw appError(ErrorCode.WX_ALREADY_BOUND);
      user = (await this.userRepo.byId(phoneUser.id))!;
    }
    this.ensureActive(user);
    await this.useScene(input.scene);
    return this.loginResult(user, meta);
  }

  private async bindOpenid(userId: number, openid: string): Promise<boolean> {
    try {
      return await this.userRepo.bindOpenid(userId, openid);
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Whether the WeChat identity that scanned `scene` (or, without a scene, the current user) has WeChat bound. */
  async isBound(input: { scene?: string | undefined; userId?: number | undefined }): Promise<boolean> {
    if (input.scene) return (await this.userRepo.liveByOpenid(await this.scannedOpenid(input.scene))) !== undefined;
    if (input.userId) return (await this.users.requireUser(input.userId)).wxOpenid !== null;
    throw appError(ErrorCode.NOT_LOGGED_IN);
  }

  async bindWx(userId: number, scene: string) {
    const openid = await this.scannedOpenid(scene);
    const user = await this.users.requireUser(userId);
    if (user.wxOpenid === openid) {
      await this.useScene(scene);
      return this.users.toProfile(user);
    }
    if (user.wxOpenid) throw appError(ErrorCode.WX_ALREADY_BOUND, '当前账号已绑定其他微信');
    const owner = await this.userRepo.liveByOpenid(openid);
    if (owner) throw appError(ErrorCode.WX_ALREADY_BOUND);
    if (!(await this.bindOpenid(userId, openid))) throw appError(ErrorCode.WX_ALREADY_BOUND);
    await this.useScene(scene);
    return this.users.profile(userId);
  }

  /** Unbinding leaves the phone as the way in: an account without one would lock itself out. */
  async unbindWx(userId: number) {
    const user = await this.users.requireUser(userId);
    if (!user.wxOpenid) throw appError(ErrorCode.CONFLICT, '当前账号未绑定微信');
    if (!user.phone) throw appError(ErrorCode.FORBIDDEN, '账号未绑定手机号，解绑微信后将无法登录');
    await this.userRepo.update(userId, { wxOpenid: null });
    return this.users.profile(userId);
  }

  // ---- hand-over tokens ----

  /** A signed, single-use token that logs `userId` in elsewhere within a few minutes. */
  async mintHandover(userId: number): Promise<{ accessToken: string; expireAt: string }> {
    await this.users.requireUser(userId);
    const now = this.clock.now();
    const jti = randomToken(16);
    const exp = new Date(now.getTime() + limits.handoverTokenTtlMs);
    await this.repo.insertHandover({ jti, userId, createdAt: now, expiresAt: exp });
    const payload = Buffer.from(JSON.stringify({ jti, uid: userId, exp: exp.getTime() })).toString('base64url');
    return { accessToken: `${payload}.${hmacBase64Url(this.key, `handover:${payload}`)}`, expireAt: exp.toISOString() };
  }

  async loginWithHandover(accessToken: string, scene: string | undefined, meta: RequestMeta): Promise<LoginResult> {
    const invalid = () => appError(ErrorCode.HANDOVER_TOKEN_INVALID);
    const [payload, signature] = accessToken.split('.');
    if (!payload || !signature || !safeEqual(signature, hmacBase64Url(this.key, `handover:${payload}`))) throw invalid();
    let jti: unknown;
    try {
      jti = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { jti?: unknown }).jti;
    } catch {
      throw invalid();
    }
    if (typeof jti !== 'string') throw invalid();
    const userId = await this.repo.useHandover(jti, this.clock.now(), scene ?? null);
    if (!userId) throw invalid();
    const user = await this.userRepo.byId(userId);
    if (!user || user.deletedAt) throw invalid();
    this.ensureActive(user);
    return this.loginResult(user, meta);
  }

  // ---- account deletion ----

  /** The code deleteAccount consumes, sent to the account's own phone (the page shows it masked). */
  async sendDeletionCode(userId: number, ip: string) {
    const user = await this.users.requireUser(userId);
    if (!user.phone) throw appError(ErrorCode.FORBIDDEN, '账号未绑定手机号，无法验证');
    return this.codes.send(user.phone, ip);
  }

  /** Re-verified by an SMS code to the account's phone; anonymises the user and revokes every session. */
  async deleteAccount(userId: number, code: string): Promise<void> {
    const user = await this.users.requireUser(userId);
    if (!user.phone) throw appError(ErrorCode.FORBIDDEN, '账号未绑定手机号，无法验证');
    await this.codes.consume(user.phone, code);
    await this.db.transaction(async (tx) => {
      await this.userRepo.with(tx).update(userId, {
        phone: null,
        wxOpenid: null,
        nickname: '已注销用户',
        username: `deleted_${user.uid}`,
        creatorType: null,
        industries: [],
        customIndustries: [],
        creationPlatform: [],
        channelId: null,
        deletedAt: this.clock.now(),
      });
    });
    await this.sessions.revokeAll(userId, 'account-deleted');
  }
}
