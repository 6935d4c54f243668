import type { Page } from 'playwright-core';
import { anyOf, type SiteProfile } from '../site-steps.js';
import { SessionExpiredError, TransientPlatformError, type PlatformMetrics } from '../types.js';
import { xhsNoteCells, xhsNoteUrl } from './selectors.js';

/**
 * 数据中心, read from its pages: 账号概览's daily trend table and 笔记数据's note totals. The newest complete day is the
 * page's "数据更新至" date; a figure the page cannot show as a number fails the read rather than being taken as 0.
 */
export async function readXhsMetrics(page: Page, base: string, profile: SiteProfile, range: { from: string; to: string }): Promise<PlatformMetrics> {
  const S = profile.steps;
  const open = async (path: string) => {
    await page.goto(`${base}${path}`, { waitUntil: 'domcontentloaded', timeout: 45_000 });
    if (new URL(page.url()).pathname.startsWith(profile.paths.login!)) throw new SessionExpiredError('小红书登录已失效，请重新扫码绑定');
    const text = await anyOf(page, profile, 'data.updatedTo').textContent({ timeout: 20_000 });
    const day = /(\d{4}-\d{2}-\d{2})/.exec(text ?? '')?.[1];
    if (!day) throw new TransientPlatformError('小红书数据中心页面未显示数据日期');
    return day;
  };
  const figure = (t: string | null | undefined) => {
    const n = Number((t ?? '').replace(/[,\s]/g, ''));
    if (!Number.isFinite(n)) throw new TransientPlatformError(`小红书数据中心的数字无法识别：${t ?? ''}`);
    return n;
  };
  const inRange = (d: string) => d >= range.from && d <= range.to;

  const lastDay = await open(profile.paths.accountData!);
  const cells = await page.locator(S['data.trendRows']![0]!).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
  const days: PlatformMetrics['days'] = cells
    .filter((c) => c.length >= 8 && inRange(c[0]!))
    .map((c) => ({
      day: c[0]!,
      views: figure(c[1]),
      likes: figure(c[2]),
      collects: figure(c[3]),
      comments: figure(c[4]),
      shares: figure(c[5]),
      newFollowers: figure(c[6]),
      followers: figure(c[7]),
    }))
    .sort((a, b) => (a.day < b.day ? -1 : 1));

  const notes: PlatformMetrics['notes'] = [];
  if (inRange(lastDay)) {
    const notesDay = await open(profile.paths.notesData!);
    const items = await page.locator(S['data.noteItems']![0]!).evaluateAll(
      (els, sel) =>
        els.map((el) => ({
          id: el.getAttribute('data-note-id') ?? '',
          title: el.querySelector(sel.title)?.textContent?.trim() ?? '',
          time: el.querySelector(sel.time)?.textContent?.trim() ?? '',
          cells: Object.fromEntries([...el.querySelectorAll(sel.cell)].map((c) => [c.getAttribute('data-key') ?? '', c.querySelector('.value')?.textContent?.trim() ?? ''])),
        })),
      xhsNoteCells,
    );
    for (const it of items) {
      const at = /(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})/.exec(it.time);
      if (!it.id || !at) continue;
      notes.push({
        day: notesDay,
        noteId: it.id,
        title: it.title,
        url: `${xhsNoteUrl}${it.id}`,
        publishedAt: new Date(`${at[1]}T${at[2]}:00+08:00`),
        views: figure(it.cells.view),
        likes: figure(it.cells.like),
        collects: figure(it.cells.collect),
        comments: figure(it.cells.comment),
        shares: figure(it.cells.share),
      });
    }
  }
  return { lastDay, days, notes };
}
