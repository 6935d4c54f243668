import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, type GlobalSetting, type UserProfile } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { clientLogs, userEvents, users } from '../../db/schema/index.js';

type Setting = { settingKey: string; settingValue: string; label: string };

describeOnDatabases('user on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every user route needs a session', async () => {
    for (const [method, path] of [
      ['POST', '/user/change-nickname?nickname=abc'],
      ['POST', '/user/fill/info'],
      ['GET', '/user/setting/list'],
      ['PUT', '/user/setting/update'],
    ] as const) {
      expect((await t.call(method, path)).code).toBe(ErrorCode.NOT_LOGGED_IN);
    }
  });

  it('returns the profile with pipe-joined track strings and vip info', async () => {
    const u = await loginByPhone(t);
    await t.container.db.update(users).set({ sysTrackSelected: '美食|旅行', userTrackSelected: '露营' }).where(eq(users.id, u.user.id));
    const me = await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: u.tokenValue });
    expect(me.data).toMatchObject({ id: u.user.id, sysTrackSelected: '美食|旅行', userTrackSelected: '露营', userProfile: false, firstCreatePersona: false, creationPlatform: [] });
    expect(me.data.sysTrackSelected.split('|')).toEqual(['美食', '旅行']);
    expect(me.data.vipInfo).toEqual({ vipType: 'normal', isVip: false, expiredTime: null, openPayment: true, score: 0, totalScore: 0 });
    expect(me.data.uid).toMatch(/^[\w-]{12}$/);
  });

  it('changes the nickname and refuses bad ones without changing anything', async () => {
    const u = await loginByPhone(t);
    const ok = await t.call<UserProfile>('POST', '/user/change-nickname', { token: u.tokenValue, query: { nickname: '小砚_写作' } });
    expect(ok.code).toBe(0);
    expect(ok.data.nickname).toBe('小砚_写作');
    for (const nickname of ['a', 'x'.repeat(21), '坏<script>', '有 空格', '']) {
      const res = await t.call('POST', '/user/change-nickname', { token: u.tokenValue, query: { nickname } });
      expect(res.code).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toContain('nickname');
    }
    const me = await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: u.tokenValue });
    expect(me.data.nickname).toBe('小砚_写作');
  });

  it('fills the creator profile and validates it', async () => {
    const u = await loginByPhone(t);
    const bad = await t.call('POST', '/user/fill/info', { token: u.tokenValue, body: { creatorType: 'alien', industries: ['美食'] } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('creatorType');
    const badPlatform = await t.call('POST', '/user/fill/info', { token: u.tokenValue, body: { creatorType: 'personal', creationPlatform: ['myspace'] } });
    expect(badPlatform.code).toBe(ErrorCode.VALIDATION);
    expect(badPlatform.msg).toContain('creationPlatform');
    expect((await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: u.tokenValue })).data.userProfile).toBe(false);

    const res = await t.call<UserProfile>('POST', '/user/fill/info', {
      token: u.tokenValue,
      body: { creatorType: 'personal', industries: ['美食', '美食', '旅行'], customIndustries: ['露营装备'], creationPlatform: ['xiaohongshu', 'wechat_mp'] },
    });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      userProfile: true,
      creatorType: 'personal',
      industries: ['美食', '旅行'],
      customIndustries: ['露营装备'],
      creationPlatform: ['xiaohongshu', 'wechat_mp'],
    });
  });

  it('keeps settings per user', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const defaults = await t.call<Setting[]>('GET', '/user/setting/list', { token: a.tokenValue });
    expect(defaults.data.find((s) => s.settingKey === 'notificationEnable')?.settingValue).toBe('true');
    const upd = await t.call<Setting[]>('PUT', '/user/setting/update', { token: a.tokenValue, body: { settingKey: 'notificationEnable', settingValue: 'false' } });
    expect(upd.code).toBe(0);
    expect(upd.data.find((s) => s.settingKey === 'notificationEnable')?.settingValue).toBe('false');
    const dnd = await t.call<Setting[]>('PUT', '/user/setting/update', { token: a.tokenValue, body: { settingKey: 'doNotDisturb', settingValue: '1893456000000' } });
    expect(dnd.data.find((s) => s.settingKey === 'doNotDisturb')?.settingValue).toBe('1893456000000');
    // The other user is untouched.
    const bList = await t.call<Setting[]>('GET', '/user/setting/list', { token: b.tokenValue });
    expect(bList.data.find((s) => s.settingKey === 'notificationEnable')?.settingValue).toBe('true');

    const unknown = await t.call('PUT', '/user/setting/update', { token: a.tokenValue, body: { settingKey: 'hack', settingValue: '1' } });
    expect(unknown.code).toBe(ErrorCode.VALIDATION);
    expect(unknown.msg).toContain('settingKey');
    const badValue = await t.call('PUT', '/user/setting/update', { token: a.tokenValue, body: { settingKey: 'notificationEnable', settingValue: 'maybe' } });
    expect(badValue.code).toBe(ErrorCode.VALIDATION);
    const after = await t.call<Setting[]>('GET', '/user/setting/list', { token: a.tokenValue });
    expect(after.data.find((s) => s.settingKey === 'notificationEnable')?.settingValue).toBe('false');
  });

  it('one user cannot change another: actions apply to the session owner only', async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    await t.call('POST', '/user/change-nickname', { token: b.tokenValue, query: { nickname: '乙用户' }, body: undefined, headers: {} });
    const aMe = await t.call<UserProfile>('GET', '/auth/nowLoginUser', { token: a.tokenValue });
    expect(aMe.data.nickname).not.toBe('乙用户');
    expect(aMe.data.id).toBe(a.user.id);
  });

  it('serves global settings with defaults and admin changes', async () => {
    const res = await t.call<GlobalSetting>('GET', '/user/global-setting');
    expect(res.data).toEqual({ activeReward: 20, autoRenewalDays: 100, logo: '/logo.svg' });
    await t.container.services.users.setGlobalSetting('activeReward', '35');
    expect((await t.call<GlobalSetting>('GET', '/user/global-setting')).data.activeReward).toBe(35);
  });

  it('stores usage events, with or without a session', async () => {
    const u = await loginByPhone(t);
    expect((await t.call('GET', '/user/event/report', { token: u.tokenValue, query: { event: 'open-software', sid: 's1', version: 'v2' } })).code).toBe(0);
    expect((await t.call('GET', '/user/event/report', { query: { event: 'close-software' } })).code).toBe(0);
    const rows = await t.container.db.select().from(userEvents).where(eq(userEvents.sid, 's1'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: u.user.id, event: 'open-software', version: 'v2' });
    const bad = await t.call('GET', '/user/event/report');
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('event');
  });

  it('collects client logs with a size cap', async () => {
    const before = (await t.container.db.select().from(clientLogs)).length;
    expect((await t.call('POST', '/engine/v2/log/collect', { body: { level: 'error', message: '渲染失败' } })).code).toBe(0);
    expect((await t.call('GET', '/engine/log/collect/publish/fail', { query: { accountId: '7', reason: 'captcha' } })).code).toBe(0);
    const big = await t.call('POST', '/engine/v2/log/collect', { body: { message: 'x'.repeat(70 * 1024) } });
    expect(big.code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    const notObject = await t.call('POST', '/engine/v2/log/collect', { body: [1, 2] });
    expect(notObject.code).toBe(ErrorCode.VALIDATION);
    const rows = await t.container.db.select().from(clientLogs);
    expect(rows.length - before).toBe(2);
    expect(rows.map((r) => r.kind)).toEqual(expect.arrayContaining(['engine', 'publish/fail']));
  });
});
