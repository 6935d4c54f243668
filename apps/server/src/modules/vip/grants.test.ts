import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { nextIp, startTestApp, type TestApp } from '../../test/app.js';
import { latestCode, loginByPhone, nextPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { pointsLedger } from '../../db/schema/index.js';
import { loadConfig } from '../../config.js';

const DAY = 86_400_000;

const ledgerOf = (t: TestApp, userId: number, keyLike = '%') =>
  t.container.db
    .select()
    .from(pointsLedger)
    .where(and(eq(pointsLedger.userId, userId), like(pointsLedger.idempotencyKey, keyLike)));
/** The stored balance, read without the side effects of GET /vip/user/score. */
const stored = async (t: TestApp, userId: number) => (await t.container.services.points.balance(userId)).score;

it('WELCOME_POINTS defaults to 100 and rejects nonsense', () => {
  expect(loadConfig({}).WELCOME_POINTS).toBe(100);
  expect(loadConfig({ WELCOME_POINTS: '0' }).WELCOME_POINTS).toBe(0);
  expect(() => loadConfig({ WELCOME_POINTS: '-5' })).toThrow(/WELCOME_POINTS/);
});

describeOnDatabases('welcome grant on %s', (dbKind) => {
  let t: TestApp;
  let none: TestApp;
  beforeAll(async () => {
    [t, none] = await Promise.all([startTestApp({ db: dbKind, env: { WELCOME_POINTS: '100' } }), startTestApp({ db: dbKind, env: { WELCOME_POINTS: '0' } })]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), none?.close()]);
  });

  it('registering credits 100 points once, as its own ledger kind, before any page load', async () => {
    const { user, tokenValue } = await loginByPhone(t);
    // The login reply itself already shows it: the grant is part of creating the account.
    expect(user.vipInfo).toMatchObject({ score: 100, totalScore: 100 });
    const rows = await ledgerOf(t, user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'welcome', delta: 100, balanceAfter: 100, idempotencyKey: `welcome:${user.id}`, reason: '新用户欢迎积分' });
    const history = await t.call<{ records: Array<{ kind: string; delta: number }> }>('GET', '/vip/score/consume/list', { token: tokenValue, query: { pageNum: 1, pageSize: 10 } });
    expect(history.data.records).toContainEqual(expect.objectContaining({ kind: 'welcome', delta: 100 }));
    expect((await t.call<{ welcomePoints: number }>('GET', '/vip/activity/config')).data.welcomePoints).toBe(100);
  });

  it('logging in again, racing logins and repeated grants never add a second welcome', async () => {
    const phone = nextPhone();
    const first = await loginByPhone(t, phone);
    // Past the SMS resend interval before each new code.
    t.clock.advance(61_000);
    await loginByPhone(t, phone);
    t.clock.advance(61_000);
    // Logins racing on one code: at most one gets in, and none registers a second account.
    const ip = nextIp();
    await t.call('GET', '/auth/send/msg', { query: { phone }, ip });
    const code = await latestCode(t, phone);
    const raced = await Promise.all(Array.from({ length: 4 }, () => t.call<{ user: { id: number } }>('POST', '/auth/doLogin0', { body: { phone, code }, ip })));
    for (const r of raced.filter((x) => x.code === 0)) expect(r.data.user.id).toBe(first.user.id);
    const again = await Promise.all(Array.from({ length: 10 }, () => t.container.services.activity.grantWelcome(first.user.id)));
    expect(again.every((granted) => !granted)).toBe(true);
    expect(await ledgerOf(t, first.user.id, 'welcome:%')).toHaveLength(1);
    expect(await stored(t, first.user.id)).toBe(100);
  });

  it('WELCOME_POINTS=0 grants nothing', async () => {
    const { user } = await loginByPhone(none);
    expect(user.vipInfo).toMatchObject({ score: 0 });
    expect(await ledgerOf(none, user.id)).toHaveLength(0);
    expect((await none.call<{ welcomePoints: number }>('GET', '/vip/activity/config')).data.welcomePoints).toBe(0);
  });
});

describeOnDatabases('daily login reward credited on the first visit of the day on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
  });
  afterAll(async () => {
    await t?.close();
  });

  const visit = (token: string) => t.call<{ score: number }>('GET', '/vip/user/score', { token });

  it('two simultaneous first visits credit it once; later visits that day add nothing; the next day credits again', async () => {
    const p = await loginByPhone(t);
    const home = () => t.call<{ dailyClaimedToday: boolean }>('GET', '/activity/homepage/config', { token: p.tokenValue });
    expect((await home()).data.dailyClaimedToday).toBe(false);
    expect(await stored(t, p.user.id)).toBe(0);

    const [a, b] = await Promise.all([visit(p.tokenValue), visit(p.tokenValue)]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(await stored(t, p.user.id)).toBe(20);
    const daily = await ledgerOf(t, p.user.id, 'daily:%');
    expect(daily).toHaveLength(1);
    expect(daily[0]).toMatchObject({ kind: 'grant', delta: 20, reason: '每日登录奖励' });
    expect((await home()).data.dailyClaimedToday).toBe(true);
    // The balance read answers with the credited balance.
    expect((await visit(p.tokenValue)).data.score).toBe(20);
    // The button (still there for old clients) now says it was already taken.
    expect((await t.call<{ claimed: boolean; score: number }>('POST', '/vip/activity/daily/claim', { token: p.tokenValue })).data).toMatchObject({ claimed: false, score: 20 });

    t.clock.advance(DAY);
    expect((await home()).data.dailyClaimedToday).toBe(false);
    await Promise.all([visit(p.tokenValue), visit(p.tokenValue), visit(p.tokenValue)]);
    expect(await stored(t, p.user.id)).toBe(40);
    expect(await ledgerOf(t, p.user.id, 'daily:%')).toHaveLength(2);
  });

  it('a reward switched off (activeReward 0) credits nothing', async () => {
    const p = await loginByPhone(t);
    const before = (await t.container.services.users.globalSetting()).activeReward;
    await t.container.services.users.setGlobalSetting('activeReward', '0');
    try {
      await visit(p.tokenValue);
      expect(await stored(t, p.user.id)).toBe(0);
      expect(await ledgerOf(t, p.user.id)).toHaveLength(0);
    } finally {
      await t.container.services.users.setGlobalSetting('activeReward', String(before));
    }
  });
});
