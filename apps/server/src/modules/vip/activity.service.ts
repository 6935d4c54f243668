import { chinaDay } from '@inkstone/shared';
import type { DbOrTx } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { UserService } from '../user/user.service.js';
import type { PointsService } from './points.service.js';
import type { ActivityRepo } from './activity.repo.js';

/** Invitation rewards: both sides, once per invitee. */
export const inviteRules = { inviterReward: 100, inviteeReward: 50 };
/** A daily claim after at least this many days without one also earns the return reward (autoRenewalDays). */
export const RETURN_AFTER_DAYS = 7;

const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

/**
 * Invites, daily and return rewards, contest windows. Every reward goes through PointsService with a
 * deterministic ledger key, so "once" is enforced by the ledger's unique index, not by checks here.
 */
export class ActivityService {
  constructor(
    private readonly repo: ActivityRepo,
    private readonly points: PointsService,
    private readonly users: UserService,
    private readonly clock: Clock,
    /** Points a new account gets once (config WELCOME_POINTS); 0 = none. */
    private readonly welcomePoints = 0,
  ) {}

  /**
   * The welcome grant, called by registration inside the transaction that creates the user, so an account
   * never exists without it (or with it twice: the ledger key `welcome:<userId>` is unique).
   */
  async grantWelcome(userId: number, db?: DbOrTx): Promise<boolean> {
    if (this.welcomePoints <= 0) return false;
    const r = await this.points.grant(userId, this.welcomePoints, { reason: '新用户欢迎积分', idempotencyKey: `welcome:${userId}`, kind: 'welcome' }, db);
    return !r.duplicate;
  }

  /**
   * What a logged-in page load earns: a pending invitation reward and today's login reward. Called from the
   * balance read the web app makes on every logged-in start, so the reward the home page promises is credited
   * on the first visit of the day without a click. Cheap when already done: one ledger key lookup each.
   */
  async onVisit(userId: number): Promise<void> {
    await this.settleInvite(userId);
    if (!(await this.claimedToday(userId))) await this.claimDaily(userId);
  }

  /**
   * Rewards both sides of an invitation once. Called lazily from the score and invite-popup reads
   * (which every logged-in page load makes) instead of from login, so the auth module does not depend
   * on VIP; an invitee is settled at the latest on their first page load after registering.
   */
  async settleInvite(inviteeId: number): Promise<boolean> {
    const invitedByCode = await this.repo.invitedByCode(inviteeId);
    if (!invitedByCode) return false;
    if (await this.repo.inviteSettled(inviteeId)) return false;
    const inviterId = await this.repo.liveUserIdByInviteCode(invitedByCode);
    if (inviterId === undefined || inviterId === inviteeId) return false;
    return this.repo.transaction(async (repo, tx) => {
      const recorded = await repo.insertInviteReward({
        inviteeId,
        inviterId,
        inviterReward: inviteRules.inviterReward,
        inviteeReward: inviteRules.inviteeReward,
        createdAt: this.clock.now(),
      });
      if (!recorded) return false;
      await this.points.grant(inviterId, inviteRules.inviterReward, { reason: '邀请好友奖励', idempotencyKey: `invite:${inviteeId}:inviter` }, tx);
      await this.points.grant(inviteeId, inviteRules.inviteeReward, { reason: '受邀注册奖励', idempotencyKey: `invite:${inviteeId}:invitee` }, tx);
      return true;
    });
  }

  async invitePopup(userId: number) {
    await this.settleInvite(userId);
    const user = await this.users.requireUser(userId);
    const invitedCount = await this.repo.invitedCount(userId);
    return { inviteCode: user.inviteCode, rules: inviteRules, invitedCount, inviteSuccessInfo: await this.takeSuccessInfo(userId) };
  }

  /** The oldest unseen invite success for this user, marked seen by the same conditional update: shown once. */
  private async takeSuccessInfo(userId: number) {
    const now = this.clock.now();
    const candidate = await this.repo.oldestUnseenByInviter(userId);
    const asInviter = candidate !== undefined ? await this.repo.markSeenByInviter(candidate, now) : undefined;
    if (asInviter) {
      const other = await this.users.requireUser(asInviter.inviteeId).catch(() => null);
      return { role: 'inviter' as const, reward: asInviter.inviterReward, nickname: other?.nickname ?? '好友', createdAt: asInviter.createdAt.toISOString() };
    }
    const asInvitee = await this.repo.markSeenByInvitee(userId, now);
    if (asInvitee) {
      const other = await this.users.requireUser(asInvitee.inviterId).catch(() => null);
      return { role: 'invitee' as const, reward: asInvitee.inviteeReward, nickname: other?.nickname ?? '好友', createdAt: asInvitee.createdAt.toISOString() };
    }
    return null;
  }

  /**
   * Daily reward (activeReward) once per China calendar day. When the previous claim is at least
   * RETURN_AFTER_DAYS days old the return reward (autoRenewalDays points) comes with it, once per return.
   */
  async claimDaily(userId: number) {
    const setting = await this.users.globalSetting();
    const day = chinaDay(this.clock.now());
    const todayKey = `daily:${userId}:${day}`;
    const previousKey = await this.repo.previousDailyKey(userId, todayKey);
    let claimed = false;
    let dailyReward = 0;
    let returnReward = 0;
    if (setting.activeReward > 0) {
      const r = await this.points.grant(userId, setting.activeReward, { reason: '每日登录奖励', idempotencyKey: todayKey });
      claimed = !r.duplicate;
      if (claimed) dailyReward = setting.activeReward;
    }
    const lastDay = previousKey?.split(':')[2];
    if (claimed && lastDay && dayNumber(day) - dayNumber(lastDay) >= RETURN_AFTER_DAYS && setting.autoRenewalDays > 0) {
      const r = await this.points.grant(userId, setting.autoRenewalDays, { reason: '回归奖励', idempotencyKey: `return:${userId}:${day}` });
      if (!r.duplicate) returnReward = setting.autoRenewalDays;
    }
    const { score } = await this.points.balance(userId);
    return { claimed, dailyReward, returnReward, score, day };
  }

  async claimedToday(userId: number) {
    return this.points.used(`daily:${userId}:${chinaDay(this.clock.now())}`);
  }

  /** The running contest, else the next one; null when none is scheduled. */
  async currentContest() {
    const now = this.clock.now();
    const c = await this.repo.nextContest(now);
    if (!c) return null;
    return { id: c.id, name: c.name, startAt: c.startAt.toISOString(), endAt: c.endAt.toISOString(), active: c.startAt <= now };
  }

  async upsertContest(c: { id: string; name: string; startAt: Date; endAt: Date }) {
    if (!(c.endAt > c.startAt)) throw new Error('--end must be after --start');
    await this.repo.upsertContest(c);
    return this.currentContest();
  }

  serverTime(): number {
    return this.clock.now().getTime();
  }

  async config(openPayment: boolean) {
    const s = await this.users.globalSetting();
    return {
      invite: inviteRules,
      dailyReward: s.activeReward,
      returnReward: s.autoRenewalDays,
      returnAfterDays: RETURN_AFTER_DAYS,
      openPayment,
      welcomePoints: this.welcomePoints,
    };
  }

  async homepage(userId: number | null) {
    const s = await this.users.globalSetting();
    return {
      dailyReward: s.activeReward,
      returnReward: s.autoRenewalDays,
      logo: s.logo,
      dailyClaimedToday: userId === null ? null : await this.claimedToday(userId),
      contest: await this.currentContest(),
    };
  }
}
