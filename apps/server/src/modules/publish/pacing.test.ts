import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type NextSlotReply, type PlatformAccount, type PublishArticleReply, type PublishRecordPage } from '@inkstone/shared';
import { ConfigError, loadConfig } from '../../config.js';
import type { TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { PNG_DATA_URL, allFinished, bindSandboxAccount, publishApi, sandboxNotes, startPublishApp, waitForPublish } from '../../test/publish-helpers.js';
import { chinaDayStart, chinaTimeText, durationText, nextFreeSlot } from './pacing.service.js';

const HOUR = 3600_000;
const at = (iso: string) => Date.parse(iso);

describe('the next free slot around the China day boundary (16:00 UTC)', () => {
  const pace = (minIntervalMs: number, dailyCap: number) => ({ minIntervalMs, dailyCap, jitterMs: 0 });

  it('a China day starts at 16:00 UTC of the day before', () => {
    expect(chinaDayStart(at('2026-11-28T15:59:59.999Z'))).toBe(at('2026-11-27T16:00:00Z'));
    expect(chinaDayStart(at('2026-11-28T16:00:00Z'))).toBe(at('2026-11-28T16:00:00Z'));
  });

  it('a full China day moves the slot to the next China midnight, not the next UTC one', () => {
    // Five notes on 11-28 China time (09:00 .. 17:00); 20:00 China is 12:00 UTC, still 11-28.
    const taken = ['01:00', '03:00', '05:00', '07:00', '09:00'].map((h) => at(`2026-11-28T${h}:00Z`));
    expect(nextFreeSlot(pace(2 * HOUR, 5), taken, at('2026-11-28T12:00:00Z'))).toEqual({ at: at('2026-11-28T16:00:00Z'), reason: 'daily_cap' });
  });

  it('the interval reaches across midnight: 23:30 China pushes a next-day slot to 01:30', () => {
    const taken = [at('2026-11-28T15:30:00Z')];
    expect(nextFreeSlot(pace(2 * HOUR, 1), taken, at('2026-11-28T15:45:00Z'))).toEqual({ at: at('2026-11-28T17:30:00Z'), reason: 'daily_cap' });
    expect(nextFreeSlot(pace(2 * HOUR, 5), taken, at('2026-11-28T15:45:00Z'))).toEqual({ at: at('2026-11-28T17:30:00Z'), reason: 'interval' });
  });

  it('a note at exactly 16:00 UTC counts for the new China day', () => {
    const taken = [at('2026-11-28T16:00:00Z')];
    expect(nextFreeSlot(pace(0, 1), taken, at('2026-11-28T15:00:00Z'))).toEqual({ at: at('2026-11-28T15:00:00Z'), reason: null });
    expect(nextFreeSlot(pace(0, 1), taken, at('2026-11-28T16:00:01Z'))).toEqual({ at: at('2026-11-29T16:00:00Z'), reason: 'daily_cap' });
  });

  it('keeps the interval before a later note as well as after an earlier one', () => {
    const taken = [at('2026-11-28T10:00:00Z')];
    expect(nextFreeSlot(pace(2 * HOUR, 5), taken, at('2026-11-28T09:00:00Z'))).toEqual({ at: at('2026-11-28T12:00:00Z'), reason: 'interval' });
    expect(nextFreeSlot(pace(2 * HOUR, 5), taken, at('2026-11-28T08:00:00Z'))).toEqual({ at: at('2026-11-28T08:00:00Z'), reason: null });
  });

  it('says times in China time, never earlier than the slot', () => {
    expect(chinaTimeText(at('2026-11-28T13:39:30Z'))).toBe('11月28日 21:40');
    expect(chinaTimeText(at('2026-11-28T16:00:00Z'))).toBe('11月29日 00:00');
    expect(durationText(2 * HOUR)).toBe('2小时');
    expect(durationText(1.5 * HOUR)).toBe('1小时30分钟');
  });

  it('PUBLISH_PACING is validated by platform and may turn a platform off', () => {
    const cfg = loadConfig({ PUBLISH_PACING: '{"xiaohongshu":{"minIntervalMs":7200000,"dailyCap":5,"jitterMs":600000},"sandbox":null}' });
    expect(cfg.PUBLISH_PACING).toEqual({ xiaohongshu: { minIntervalMs: 7_200_000, dailyCap: 5, jitterMs: 600_000 }, sandbox: null });
    expect(() => loadConfig({ PUBLISH_PACING: '{"weibo":{"minIntervalMs":1,"dailyCap":1,"jitterMs":0}}' })).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLISH_PACING: '{"sandbox":{"minIntervalMs":1,"dailyCap":0,"jitterMs":0}}' })).toThrow(/PUBLISH_PACING/);
    expect(() => loadConfig({ PUBLISH_PACING: 'not json' })).toThrow(/PUBLISH_PACING/);
  });
});

/** The sandbox platform paced like a strict 小红书 account: 1 h apart, 3 a China day, up to 10 min jitter. */
const PACE = { minIntervalMs: HOUR, dailyCap: 3, jitterMs: 600_000 };
const content = (title: string) => ({ title, body: '<p>发布节奏测试</p>', images: [PNG_DATA_URL], topics: [] });
const chinaDate = (t: number) => {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Shanghai', month: 'numeric', day: 'numeric' }).formatToParts(t);
  return `${parts.find((p) => p.type === 'month')!.value}月${parts.find((p) => p.type === 'day')!.value}日`;
};

describeOnDatabases('per-account publish pacing on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  const acct: Record<'interval' | 'cap' | 'chosen' | 'parallel' | 'other', PlatformAccount> = {} as never;
  /** Start of the China day the suite runs on (its clock is set to 09:00 of it). */
  let day: number;
  /** What the interval and cap tests queued, read again by the next-slot test. */
  let intervalSecondRunAt = 0;
  let capFourthRunAt = 0;

  const publish = (body: Record<string, unknown>) => t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), { token, body });
  const runAt = (r: { data: PublishArticleReply }) => Date.parse(r.data.jobs[0]!.runAt);
  const nextSlot = (accountIds: string, as = token) => t.call<NextSlotReply>('GET', publishApi(t, '/publish/next-slot'), { token: as, query: { accountIds } });
  const recordTotal = async (accountId: number) => (await t.call<PublishRecordPage>('GET', '/publish/record/list', { token, query: { accountId } })).data.total;

  beforeAll(async () => {
    t = await startPublishApp(dbKind, { PUBLISH_PACING: JSON.stringify({ sandbox: PACE }) });
    token = (await loginByPhone(t)).tokenValue;
    otherToken = (await loginByPhone(t)).tokenValue;
    acct.interval = await bindSandboxAccount(t, token, '节奏甲');
    acct.cap = await bindSandboxAccount(t, token, '节奏乙');
    acct.chosen = await bindSandboxAccount(t, token, '节奏丙');
    acct.parallel = await bindSandboxAccount(t, token, '节奏丁');
    acct.other = await bindSandboxAccount(t, otherToken, '别人的账号');
    // Every test then runs from 09:00 China time of one known day, whatever the hour of the run. Forward only: the
    // job queue times delays by the real clock, so pushed jobs stay far in its future and never run here.
    const now = t.clock.now().getTime();
    day = chinaDayStart(now) + 9 * HOUR > now ? chinaDayStart(now) : chinaDayStart(now) + 86_400_000;
    t.clock.advance(day + 9 * HOUR - now);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a second "publish now" within the interval is queued at the next free slot (plus jitter) and does not run at once', async () => {
    const first = await publish({ accountIds: [acct.interval.id], content: content('节奏第一篇') });
    expect(first.code).toBe(0);
    const done = await waitForPublish(t, token, first.data.publishId, allFinished);
    expect(done.jobs[0]!.status).toBe('succeeded');
    const finished = Date.parse(done.jobs[0]!.finishedAt!);

    const second = await publish({ accountIds: [acct.interval.id], content: content('节奏第二篇') });
    expect(second.code).toBe(0);
    intervalSecondRunAt = runAt(second);
    expect(intervalSecondRunAt).toBeGreaterThanOrEqual(finished + PACE.minIntervalMs);
    expect(intervalSecondRunAt).toBeLessThan(finished + PACE.minIntervalMs + PACE.jitterMs);

    await new Promise((r) => setTimeout(r, 2500));
    const waiting = await waitForPublish(t, token, second.data.publishId, () => true);
    expect(waiting.jobs[0]).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await sandboxNotes(t)).filter((n) => n.title === '节奏第二篇')).toHaveLength(0);
  });

  it('the (cap+1)th "publish now" of a China day goes to the next China day', async () => {
    const times: number[] = [];
    for (const n of [1, 2, 3, 4]) {
      const res = await publish({ accountIds: [acct.cap.id], content: content(`每日上限第${n}篇`) });
      expect(res.code).toBe(0);
      times.push(runAt(res));
    }
    const nextDay = day + 86_400_000;
    expect(times.slice(0, 3).every((x) => x >= day && x < nextDay)).toBe(true);
    capFourthRunAt = times[3]!;
    expect(capFourthRunAt).toBeGreaterThanOrEqual(nextDay);
    expect(capFourthRunAt).toBeLessThan(nextDay + PACE.jitterMs);
  });

  it('a chosen schedule time that breaks the pacing is refused before anything is stored; one that keeps it is never moved', async () => {
    const now = t.clock.now().getTime();
    expect((await publish({ accountIds: [acct.chosen.id], content: content('定时节奏第一篇') })).code).toBe(0);
    expect(await recordTotal(acct.chosen.id)).toBe(1);

    const tooSoon = await publish({ accountIds: [acct.chosen.id], content: content('间隔太近'), scheduleAt: new Date(now + 30 * 60_000).toISOString() });
    expect(tooSoon.code).toBe(ErrorCode.PUBLISH_LIMIT);
    expect(tooSoon.msg).toMatch(/^沙箱平台账号「节奏丙」两次发布至少间隔1小时，最早可在 \d+月\d+日 \d\d:\d\d 发布$/);
    expect(tooSoon.data).toEqual({ problems: [{ platform: 'sandbox', platformName: '沙箱平台', errors: [tooSoon.msg] }] });
    expect(await recordTotal(acct.chosen.id)).toBe(1);

    // 11:00 and 13:00 keep the interval: taken as chosen, with no jitter.
    for (const h of [2, 4]) {
      const wanted = new Date(now + h * HOUR).toISOString();
      const ok = await publish({ accountIds: [acct.chosen.id], content: content(`定时${h}小时后`), scheduleAt: wanted });
      expect(ok.code).toBe(0);
      expect(ok.data.jobs[0]!.runAt).toBe(wanted);
    }
    // 15:00 is two hours clear, but the China day already has three.
    const full = await publish({ accountIds: [acct.chosen.id], content: content('当天已满'), scheduleAt: new Date(now + 6 * HOUR).toISOString() });
    expect(full.code).toBe(ErrorCode.PUBLISH_LIMIT);
    expect(full.msg).toBe(`沙箱平台账号「节奏丙」每天最多发布3篇，最早可在 ${chinaDate(day + 86_400_000)} 00:00 之后发布`);
    expect(await recordTotal(acct.chosen.id)).toBe(3);
    expect((await sandboxNotes(t)).filter((n) => n.title === '间隔太近' || n.title === '当天已满')).toHaveLength(0);
  });

  it('parallel "publish now" requests to one account take distinct slots, an interval apart', async () => {
    const replies = await Promise.all([1, 2, 3, 4].map((n) => publish({ accountIds: [acct.parallel.id], content: content(`并发第${n}篇`) })));
    for (const r of replies) expect(r.code).toBe(0);
    const times = replies.map(runAt).sort((x, y) => x - y);
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(PACE.minIntervalMs);
  });

  it('answers the next free slot for the own accounts and refuses another user’s like every publish route', async () => {
    const own = await nextSlot(`${acct.interval.id},${acct.cap.id}`);
    expect(own.code).toBe(0);
    expect(own.data.slots).toEqual([
      {
        accountId: acct.interval.id,
        platform: 'sandbox',
        nextSlot: new Date(intervalSecondRunAt + PACE.minIntervalMs).toISOString(),
        reason: 'interval',
        minIntervalMs: PACE.minIntervalMs,
        dailyCap: PACE.dailyCap,
        usedToday: 2,
      },
      {
        accountId: acct.cap.id,
        platform: 'sandbox',
        // The day is full, and the next day's first slot is taken by the fourth note.
        nextSlot: new Date(capFourthRunAt + PACE.minIntervalMs).toISOString(),
        reason: 'daily_cap',
        minIntervalMs: PACE.minIntervalMs,
        dailyCap: PACE.dailyCap,
        usedToday: 3,
      },
    ]);

    const theirs = await nextSlot(String(acct.other.id), otherToken);
    expect(theirs.data.slots[0]).toMatchObject({ accountId: acct.other.id, reason: null, usedToday: 0 });

    const probe = await t.call('GET', '/publish/record/list', { token, query: { accountId: acct.other.id } });
    expect(probe.code).toBe(ErrorCode.NOT_FOUND);
    for (const ids of [String(acct.other.id), `${acct.interval.id},${acct.other.id}`, '999999']) {
      const res = await nextSlot(ids);
      expect({ code: res.code, msg: res.msg, data: res.data }).toEqual({ code: probe.code, msg: probe.msg, data: null });
    }
    for (const bad of ['abc', '1,,2', '']) expect((await nextSlot(bad)).code).toBe(ErrorCode.VALIDATION);
  });
});
