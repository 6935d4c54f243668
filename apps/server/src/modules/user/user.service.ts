import { ErrorCode, globalSettingSchema, settingDefinitions, type FillInfoBody, type GlobalSetting, type SettingKey, type UserProfile } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { Clock } from '../../clock.js';
import type { UserRepo, UserRow } from './user.repo.js';

export const defaultGlobalSetting: GlobalSetting = { activeReward: 20, autoRenewalDays: 100, logo: '/logo.svg' };

export function maskPhone(phone: string | null): string | null {
  return phone ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : null;
}

export class UserService {
  constructor(
    private readonly repo: UserRepo,
    private readonly clock: Clock,
    private readonly openPayment: boolean,
  ) {}

  toProfile(user: UserRow): UserProfile {
    const now = this.clock.now();
    const vipActive = user.vipExpiredAt !== null && user.vipExpiredAt > now;
    const vipType = vipActive ? user.vipType : 'normal';
    return {
      id: user.id,
      uid: user.uid,
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatarUrl,
      phone: maskPhone(user.phone),
      creatorType: user.creatorType,
      firstCreatePersona: user.firstCreatePersona,
      creationPlatform: user.creationPlatform,
      industries: user.industries,
      customIndustries: user.customIndustries,
      sysTrackSelected: user.sysTrackSelected,
      userTrackSelected: user.userTrackSelected,
      userProfile: user.profileProvided,
      wxBound: user.wxOpenid !== null,
      inviteCode: user.inviteCode,
      createdAt: user.createdAt.toISOString(),
      vipInfo: {
        vipType,
        isVip: vipType === 'vip',
        expiredTime: vipActive ? user.vipExpiredAt!.toISOString() : null,
        openPayment: this.openPayment,
        score: user.pointsBalance,
        totalScore: user.pointsTotal,
      },
    };
  }

  async requireUser(userId: number): Promise<UserRow> {
    const user = await this.repo.byId(userId);
    if (!user || user.deletedAt) throw appError(ErrorCode.SESSION_REVOKED);
    return user;
  }

  async profile(userId: number): Promise<UserProfile> {
    return this.toProfile(await this.requireUser(userId));
  }

  async changeNickname(userId: number, nickname: string): Promise<UserProfile> {
    const user = await this.repo.update(userId, { nickname });
    if (!user) throw appError(ErrorCode.SESSION_REVOKED);
    return this.toProfile(user);
  }

  /** `url` is an image the caller has just uploaded through the image rules (magic bytes, size cap). */
  async setAvatar(userId: number, url: string): Promise<UserProfile> {
    const user = await this.repo.update(userId, { avatarUrl: url });
    if (!user) throw appError(ErrorCode.SESSION_REVOKED);
    return this.toProfile(user);
  }

  async fillInfo(userId: number, input: FillInfoBody): Promise<UserProfile> {
    const dedupe = (list: string[]) => [...new Set(list)];
    const user = await this.repo.update(userId, {
      creatorType: input.creatorType,
      industries: dedupe(input.industries),
      customIndustries: dedupe(input.customIndustries),
      creationPlatform: dedupe(input.creationPlatform),
      profileProvided: true,
    });
    if (!user) throw appError(ErrorCode.SESSION_REVOKED);
    return this.toProfile(user);
  }

  async settings(userId: number) {
    const stored = new Map((await this.repo.settings(userId)).map((s) => [s.key, s.value]));
    return (Object.entries(settingDefinitions) as [SettingKey, (typeof settingDefinitions)[SettingKey]][]).map(([key, def]) => ({
      settingKey: key,
      settingValue: stored.get(key) ?? def.default,
      label: def.label,
    }));
  }

  async updateSetting(userId: number, key: SettingKey, value: string) {
    const def = settingDefinitions[key];
    if (def.values && !(def.values as readonly string[]).includes(value)) {
      throw appError(ErrorCode.VALIDATION, `settingValue：${def.label}只能是 ${def.values.join('、')} 之一`);
    }
    // doNotDisturb holds '0' (off) or an epoch-millisecond time until which notifications are muted.
    if (key === 'doNotDisturb' && !/^\d{1,13}$/.test(value)) {
      throw appError(ErrorCode.VALIDATION, 'settingValue：免打扰必须是 0 或毫秒时间戳');
    }
    await this.repo.upsertSetting(userId, key, value);
    return this.settings(userId);
  }

  async globalSetting(): Promise<GlobalSetting> {
    const rows = await this.repo.globalSettings();
    const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return globalSettingSchema.parse({ ...defaultGlobalSetting, ...stored });
  }

  async setGlobalSetting(key: keyof GlobalSetting, raw: string): Promise<GlobalSetting> {
    const value = key === 'logo' ? raw : Number(raw);
    const check = globalSettingSchema.shape[key].safeParse(value);
    if (!check.success) throw appError(ErrorCode.VALIDATION, `${key}：取值不合法`);
    await this.repo.upsertGlobalSetting(key, check.data);
    return this.globalSetting();
  }

  async reportEvent(userId: number | null, event: { event: string; sid?: string; version?: string }) {
    await this.repo.insertEvent({ userId, event: event.event, sid: event.sid ?? null, version: event.version ?? null });
  }

  async collectLog(userId: number | null, kind: string, payload: unknown) {
    await this.repo.insertLog({ userId, kind, payload: payload ?? null });
  }
}
