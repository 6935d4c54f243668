import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@inkstone/shared';
import { nextIp, startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { redeemCodes, users } from '../../db/schema/index.js';
import { commands } from '../../cli/commands.js';

const DAY = 86_400_000;

describeOnDatabases('codes, invites and daily rewards on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  // Read from the profile: GET /vip/user/score would also credit the day's login reward.
  const score = async (token: string) => (await t.call<{ vipInfo: { score: number } }>('GET', '/auth/nowLoginUser', { token })).data.vipInfo.score;
  const generate = (args: Record<string, string>) => commands['codes:generate']!.run(t.container, args) as Promise<{ codes: string[]; batch: string }>;

  it('redeems a points code once per user, with distinct errors for wrong, used-up, expired and repeated codes', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const { codes } = await generate({ kind: 'points', value: '100', count: '2', 'max-uses': '1', expires: '2999-12-31' });
    const [code, spare] = codes as [string, string];
    const res = await t.call<{ kind: string; value: number; score: number }>('POST', '/vip/coupon-code/exchange', {
      ip: nextIp(),
      token: a.tokenValue,
      body: { code: code.toLowerCase() },
    });
    expect(res.data).toMatchObject({ kind: 'points', value: 100, score: 100 });
    expect((await t.call('POST', '/vip/coupon-code/exchange', { ip: nextIp(), token: a.tokenValue, body: { code } })).code).toBe(ErrorCode.CODE_ALREADY_REDEEMED);
    expect((await t.call('POST', '/vip/coupon-code/exchange', { ip: nextIp(), token: b.tokenValue, body: { code } })).code).toBe(ErrorCode.CODE_USED_UP);
    expect((await t.call('POST', '/vip/coupon-code/exchange', { ip: nextIp(), token: b.tokenValue, body: { code: 'NOPE2345NOPE' } })).code).toBe(ErrorCode.CODE_INVALID);
    expect((await t.call('GET', '/rightsCode/exchange', { ip: nextIp(), token: b.tokenValue, query: { code: spare } })).data).toMatchObject({ score: 100 });

    const {
      codes: [old],
    } = await generate({ kind: 'points', value: '5', count: '1', expires: '2000-01-01' });
    expect((await t.call('POST', '/vip/coupon-code/exchange', { ip: nextIp(), token: b.tokenValue, body: { code: old } })).code).toBe(ErrorCode.CODE_EXPIRED);
    expect(await score(a.tokenValue)).toBe(100);
    expect(await score(b.tokenValue)).toBe(100);
  });

  it('the last use of a limited code cannot be redeemed twice under concurrency', async () => {
    const {
      codes: [code],
    } = await generate({ kind: 'points', value: '10', count: '1', 'max-uses': '3' });
    const people = await Promise.all(Array.from({ length: 8 }, () => loginByPhone(t)));
    const results = await Promise.all(people.map((p) => t.call('POST', '/vip/coupon-code/exchange', { ip: nextIp(), token: p.tokenValue, body: { code } })));
    expect(results.filter((r) => r.code === 0)).toHaveLength(3);
    expect(results.filter((r) => r.code === ErrorCode.CODE_USED_UP)).toHaveLength(5);
    const [row] = await t.container.db.select().from(redeemCodes).where(eq(redeemCodes.code, code!));
    expect(row!.usedCount).toBe(3);
    // Same user, same code, concurrently: once.
    const {
      codes: [multi],
    } = await generate({ kind: 'points', value: '10', count: '1', 'max-uses': '50' });
    const solo = await loginByPhone(t);
    const mine = await Promise.all(Array.from({ length: 10 }, () => t.call('POST', '/vip/coupon-code/exchange', { ip: nextIp(), token: solo.tokenValue, body: { code: multi } })));
    expect(mine.filter((r) => r.code === 0)).toHaveLength(1);
    expect(await score(solo.tokenValue)).toBe(10);
  });

  it('a VIP-days code extends membership', async () => {
    const p = await loginByPhone(t);
    const {
      codes: [code],
    } = await generate({ kind: 'vip_days', value: '7', count: '1' });
    const res = await t.call<{ vipExpiredTime: string }>('POST', '/vip/coupon-code/exchange', { ip: nextIp(), token: p.tokenValue, body: { code } });
    expect(Math.abs(new Date(res.data.vipExpiredTime).getTime() - (t.clock.now().getTime() + 7 * DAY))).toBeLessThan(60_000);
    expect((await t.call('GET', '/vip/user/info', { token: p.tokenValue })).data).toMatchObject({ isVip: true, vipType: 'vip' });
  });

  it('rewards an invitation to both sides exactly once, with a one-time success popup', async () => {
    const inviter = await loginByPhone(t);
    const invitee = await loginByPhone(t, undefined, { invitationCode: inviter.user.inviteCode });
    const [row] = await t.container.db.select().from(users).where(eq(users.id, invitee.user.id));
    expect(row!.invitedByCode).toBe(inviter.user.inviteCode);
    await Promise.all([
      t.call('GET', '/vip/user/score', { token: invitee.tokenValue }),
      t.call('GET', '/vip/user/score', { token: invitee.tokenValue }),
      t.container.services.activity.settleInvite(invitee.user.id),
    ]);
    // The invitee's page loads (the score reads) also credited today's login reward (20).
    expect(await score(invitee.tokenValue)).toBe(50 + 20);
    expect(await score(inviter.tokenValue)).toBe(100);
    const popup = await t.call<{ inviteCode: string; invitedCount: number; inviteSuccessInfo: { role: string; reward: number } | null }>('GET', '/vip/activity/invite/popup', {
      token: inviter.tokenValue,
    });
    expect(popup.data).toMatchObject({ inviteCode: inviter.user.inviteCode, invitedCount: 1, inviteSuccessInfo: { role: 'inviter', reward: 100 } });
    expect((await t.call<{ inviteSuccessInfo: unknown }>('GET', '/vip/activity/invite/popup', { token: inviter.tokenValue })).data.inviteSuccessInfo).toBeNull();
    expect((await t.call<{ inviteSuccessInfo: { role: string } }>('GET', '/vip/activity/invite/popup', { token: invitee.tokenValue })).data.inviteSuccessInfo).toMatchObject({
      role: 'invitee',
      reward: 50,
    });
    await t.call('GET', '/vip/activity/invite/popup', { token: invitee.tokenValue });
    expect(await score(invitee.tokenValue)).toBe(50 + 20);
    expect(await score(inviter.tokenValue)).toBe(100);
  });

  it('grants the daily reward once per China day, and the return reward after a long absence', async () => {
    const p = await loginByPhone(t);
    const claim = () => t.call<{ claimed: boolean; dailyReward: number; returnReward: number; score: number }>('POST', '/vip/activity/daily/claim', { token: p.tokenValue });
    const first = await Promise.all([claim(), claim(), claim()]);
    expect(first.filter((r) => r.data.claimed)).toHaveLength(1);
    expect(await score(p.tokenValue)).toBe(20);
    expect((await t.call<{ dailyClaimedToday: boolean }>('GET', '/activity/homepage/config', { token: p.tokenValue })).data.dailyClaimedToday).toBe(true);
    t.clock.advance(DAY);
    expect((await claim()).data).toMatchObject({ claimed: true, dailyReward: 20, returnReward: 0 });
    t.clock.advance(8 * DAY);
    expect((await claim()).data).toMatchObject({ claimed: true, dailyReward: 20, returnReward: 100, score: 160 });
    expect((await claim()).data).toMatchObject({ claimed: false, returnReward: 0, score: 160 });
  });

  it('serves activity config, homepage config and the contest clock', async () => {
    expect((await t.call('GET', '/vip/activity/config')).data).toMatchObject({ invite: { inviterReward: 100, inviteeReward: 50 }, dailyReward: 20, returnReward: 100 });
    expect((await t.call('GET', '/activity/homepage/config')).data).toMatchObject({ dailyClaimedToday: null, contest: null });
    const now = t.clock.now();
    await commands['contest:upsert']!.run(t.container, {
      id: 'spring',
      name: '春季征文',
      start: new Date(now.getTime() - DAY).toISOString(),
      end: new Date(now.getTime() + DAY).toISOString(),
    });
    const ts = await t.call<{ serverTime: number; contest: { id: string; active: boolean } }>('GET', '/contest/activity/timestamp');
    expect(Math.abs(ts.data.serverTime - t.clock.now().getTime())).toBeLessThan(5000);
    expect(ts.data.contest).toMatchObject({ id: 'spring', active: true });
  });
});
