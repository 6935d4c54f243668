import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, type TopicCalendar } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';

/** GET /topic/v3/calendar: festivals and solar terms from chinese-days, marketing days from the topic module's table. */
describeOnDatabases('topic calendar on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  const month = async (m: string) => {
    const res = await t.call<TopicCalendar>('GET', '/topic/v3/calendar', { token, query: { month: m } });
    expect(res.code, res.msg).toBe(0);
    return res.data;
  };
  const find = (c: TopicCalendar, name: string) => c.days.find((d) => d.name === name);

  it('gives the known dates of 2026: 春节, 清明, 618, 双11, 母亲节 and the 年货节 span before 春节', async () => {
    const feb = await month('2026-02');
    expect(feb.month).toBe('2026-02');
    expect(find(feb, '春节')).toMatchObject({ date: '2026-02-17', type: 'traditional' });
    expect(find(feb, '除夕')).toMatchObject({ date: '2026-02-16', type: 'traditional' });
    expect(find(feb, '情人节')).toMatchObject({ date: '2026-02-14', type: 'marketing', endDate: null });
    expect(find(feb, '情人节')!.topics.length).toBeGreaterThan(0);
    // 年货节 is 30 to 9 days before 春节: it began in January and is listed in February too.
    expect(find(feb, '年货节')).toMatchObject({ date: '2026-01-18', endDate: '2026-02-08', type: 'marketing' });
    expect(feb.days.every((d) => (d.endDate ?? d.date) >= '2026-02-01' && d.date <= '2026-02-28')).toBe(true);
    expect(feb.days.map((d) => d.date)).toEqual([...feb.days.map((d) => d.date)].sort());

    const apr = await month('2026-04');
    expect(find(apr, '清明')).toMatchObject({ date: '2026-04-05', type: 'solar_term' });
    expect(find(apr, '世界读书日')).toMatchObject({ date: '2026-04-23', type: 'marketing' });

    const may = await month('2026-05');
    expect(find(may, '母亲节')).toMatchObject({ date: '2026-05-10' });
    expect(find(may, '520')).toMatchObject({ date: '2026-05-20' });

    const jun = await month('2026-06');
    expect(find(jun, '618')).toMatchObject({ date: '2026-06-18', type: 'marketing' });
    expect(find(jun, '父亲节')).toMatchObject({ date: '2026-06-21' });

    const sep = await month('2026-09');
    expect(find(sep, '开学季')).toMatchObject({ date: '2026-09-01', endDate: '2026-09-10' });

    const nov = await month('2026-11');
    expect(find(nov, '双11')).toMatchObject({ date: '2026-11-11', type: 'marketing' });
    expect(find(nov, '双11')!.topics).toContain('双11必买清单');
    expect(find(nov, '感恩节')).toMatchObject({ date: '2026-11-26' });
    expect(find(nov, '黑色星期五')).toMatchObject({ date: '2026-11-27' });
    expect(find(nov, '小雪')).toMatchObject({ date: '2026-11-22', type: 'solar_term' });
    // Nothing of another month: 双12 is December's.
    expect(find(nov, '双12')).toBeUndefined();
  });

  it('follows the lunar calendar from year to year: 2027 春节 moves 年货节 with it', async () => {
    const feb = await month('2027-02');
    expect(find(feb, '春节')).toMatchObject({ date: '2027-02-06' });
    const jan = await month('2027-01');
    expect(find(jan, '年货节')).toMatchObject({ date: '2027-01-07', endDate: '2027-01-28' });
  });

  it('a bad month is 1001 with a Chinese message naming month; the calendar needs a session', async () => {
    for (const bad of ['2026-13', '2026-1', 'abc', '2026-00', '1999-12', '2051-01']) {
      const res = await t.call('GET', '/topic/v3/calendar', { token, query: { month: bad } });
      expect(res.code, bad).toBe(ErrorCode.VALIDATION);
      expect(res.msg, bad).toMatch(/月份 month/);
    }
    const missing = await t.call('GET', '/topic/v3/calendar', { token });
    expect(missing.code).toBe(ErrorCode.VALIDATION);
    expect(missing.msg).toContain('month');
    expect((await t.call('GET', '/topic/v3/calendar', { query: { month: '2026-11' } })).code).toBe(ErrorCode.NOT_LOGGED_IN);
  });
});
