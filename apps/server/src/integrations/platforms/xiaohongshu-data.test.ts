import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../browser/pool.js';
import { until } from '../../test/publish-helpers.js';
import { XHS_TREND_DAYS, startXhsCreatorStandin, xhsAccountDay, xhsNoteTotals, type XhsCreatorStandin, type XhsGeneration } from '../../test/standins/xhs-creator/server.js';
import { addDays, dayOf } from './sandbox-metrics.js';
import { SessionExpiredError, type SessionBlob } from './types.js';
import { XiaohongshuAdapter } from './xiaohongshu/adapter.js';

/**
 * Xiaohongshu's 数据中心 read through the creator pages in Chromium, against both local page sets: 2026 (账号概览 v2 and
 * the page's own signed account/base, fans, posted-notes and note/base replies) and 2025 (the old server-rendered
 * tables, the fallback).
 */
describe.each<XhsGeneration>(['2026', '2025'])('xiaohongshu metrics (local page set %s, browser)', (generation) => {
  let pool: BrowserPool;
  let standin: XhsCreatorStandin;
  let adapter: XiaohongshuAdapter;
  let session: SessionBlob;
  let userId: string;
  const DAY = 86_400_000;
  const yesterday = addDays(dayOf(Date.now()), -1);

  beforeAll(async () => {
    pool = new BrowserPool({
      executablePath: '/usr/bin/chromium',
      maxConcurrent: 1,
      idleMs: 60_000,
      screenshotDir: mkdtempSync(path.join(tmpdir(), 'xhs-data-')),
      log: pino({ level: 'silent' }),
    });
    standin = await startXhsCreatorStandin({ generation });
    adapter = new XiaohongshuAdapter(pool, { creatorUrl: standin.url, edithUrl: standin.url });
    const start = await adapter.startLogin('data', {});
    await standin.scanLatest(true, '小红薯数据');
    await until(
      () => adapter.pollLogin(start.state),
      (s) => s.scanState === 'confirmed',
    );
    const done = await adapter.completeLogin(start.state);
    session = done.session;
    userId = done.profile.platformUserId;
    const note = (id: string, title: string, daysAgo: number) => ({
      id,
      userId,
      title,
      desc: '',
      topics: [],
      images: 1,
      imageSha256: [],
      postTime: null,
      time: Date.now() - daysAgo * DAY,
    });
    // One note inside the page's 30-day window, one before it (its totals are still listed on 笔记数据), one posted today (no figures yet).
    standin.notes.push(note('6650aa01', '秋天的第一杯奶茶', 5), note('6650aa02', '旧笔记 <b>不加粗</b>', 45), note('6650aa03', '今天刚发', 0));
  }, 120_000);
  afterAll(async () => {
    await standin?.close();
    await pool?.close();
  });

  const mine = () => standin.notes.filter((n) => n.userId === userId);

  it('reads the trend table and each note from the data pages, exactly as the pages show them', async () => {
    const m = await adapter.metrics('x1', session, { from: addDays(yesterday, -60), to: addDays(yesterday, 3) });
    expect(adapter.metricsUseBrowser).toBe(true);
    expect(m.lastDay).toBe(yesterday);
    // The page offers the last 30 complete days; nothing before, nothing after yesterday.
    expect(m.days.map((d) => d.day)).toEqual(Array.from({ length: XHS_TREND_DAYS }, (_, i) => addDays(yesterday, i - XHS_TREND_DAYS + 1)));
    for (const d of m.days) {
      const x = xhsAccountDay(321, mine(), d.day);
      expect(d).toEqual({ day: d.day, views: x.view, likes: x.like, collects: x.collect, comments: x.comment, shares: x.share, newFollowers: x.netFans, followers: x.fans });
    }
    expect(m.days.at(-1)!.followers).toBeGreaterThan(321);

    expect(m.notes.map((n) => n.title).sort()).toEqual(['旧笔记 <b>不加粗</b>', '秋天的第一杯奶茶']);
    for (const n of m.notes) {
      const src = mine().find((x) => x.id === n.noteId)!;
      const t = xhsNoteTotals(src, yesterday);
      expect(n).toMatchObject({
        day: yesterday,
        url: `https://www.xiaohongshu.com/explore/${src.id}`,
        views: t.view,
        likes: t.like,
        collects: t.collect,
        comments: t.comment,
        shares: t.share,
      });
      // Minute precision, as the page prints it.
      expect(n.publishedAt.getTime()).toBe(Math.floor(src.time / 60_000) * 60_000);
    }
    expect(m.notes.find((n) => n.noteId === '6650aa02')!.views).toBeGreaterThan(1000);
  });

  it.runIf(generation === '2026')('a day the data centre has not computed yet (-1) is left out, not read as zeros', async () => {
    const dayBefore = addDays(yesterday, -1);
    standin.dataCentreLagDays = 1;
    try {
      const m = await adapter.metrics('x1', session, { from: addDays(yesterday, -60), to: addDays(yesterday, 3) });
      // Yesterday reads -1 everywhere: the newest complete day is the one before, and yesterday is not a row of zeros.
      expect(m.lastDay).toBe(dayBefore);
      expect(m.days.map((d) => d.day)).toEqual(Array.from({ length: XHS_TREND_DAYS - 1 }, (_, i) => addDays(dayBefore, i - XHS_TREND_DAYS + 2)));
      expect(m.days.find((d) => d.day === yesterday)).toBeUndefined();
      const last = xhsAccountDay(321, mine(), dayBefore);
      expect(m.days.at(-1)).toEqual({
        day: dayBefore,
        views: last.view,
        likes: last.like,
        collects: last.collect,
        comments: last.comment,
        shares: last.share,
        newFollowers: last.netFans,
        followers: last.fans,
      });
      // Notes as of the rollup's day; the note of today (live counts, -1 figures, no update time) is not among them.
      expect(m.notes.map((n) => n.noteId).sort()).toEqual(['6650aa01', '6650aa02']);
      for (const n of m.notes) {
        const t = xhsNoteTotals(
          mine().find((x) => x.id === n.noteId)!,
          dayBefore,
        );
        expect(n).toMatchObject({ day: dayBefore, views: t.view, likes: t.like, collects: t.collect, comments: t.comment, shares: t.share });
      }
    } finally {
      standin.dataCentreLagDays = 0;
    }
  });

  it('answers only the days asked; notes only when the newest day is among them', async () => {
    const m = await adapter.metrics('x1', session, { from: addDays(yesterday, -9), to: addDays(yesterday, -3) });
    expect(m.days.map((d) => d.day)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(yesterday, i - 9)));
    expect(m.notes).toEqual([]);
  });

  it('sent no call without the page signature (every read above went through the page signer)', () => {
    expect(standin.unsignedCalls).toEqual([]);
  });

  it('an expired session is SessionExpiredError', async () => {
    standin.expireSessions();
    await expect(adapter.metrics('x1', session, { from: addDays(yesterday, -2), to: yesterday })).rejects.toBeInstanceOf(SessionExpiredError);
  });
});
