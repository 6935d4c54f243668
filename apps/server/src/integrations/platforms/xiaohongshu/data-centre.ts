import type { Page, Response } from 'playwright-core';
import { anyOf, type SiteProfile } from '../site-steps.js';
import { SessionExpiredError, TransientPlatformError, type AccountDayFigures, type PlatformMetrics } from '../types.js';
import { chinaLocalTime, XhsPageApi, type PostedNote } from './page-api.js';
import { xhsNoteCells, xhsNoteUrl } from './selectors.js';

const EXPIRED = '小红书登录已失效，请重新扫码绑定';
/** Pages of the note manager whose notes get figures (10 a page): the newest 30, one signed call each. */
const NOTE_PAGES = 3;

type Json = Record<string, unknown>;

/** The China-local day of an instant (the data centre dates days by their China midnight). */
const dayOf = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);

/** A reply's field: snake_case on the wire, camelCase once the page client has transformed it (the fixtures). */
function field(o: unknown, snake: string): unknown {
  if (!o || typeof o !== 'object') return undefined;
  const r = o as Json;
  if (snake in r) return r[snake];
  return r[snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())];
}

/** A figure, or null when the data centre has none: -1 is "not computed yet" (and no count is ever negative). */
function count(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** A per-day list (`[{date, count}]`, `date` the China-local midnight in ms) as day -> value; `signed` keeps negatives but -1. */
function perDay(block: unknown, list: string, signed = false): Map<string, number | null> {
  const out = new Map<string, number | null>();
  const items = field(block, list);
  if (!Array.isArray(items)) return out;
  for (const it of items) {
    const date = Number(field(it, 'date'));
    if (!Number.isFinite(date) || date <= 0) continue;
    const raw = field(it, 'count');
    const n = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    out.set(dayOf(date), n === null ? null : signed ? (n === -1 ? null : n) : count(n));
  }
  return out;
}

/**
 * 数据中心. The 2026 site (账号概览 v2) is read from the page's own replies: the account/base call its script makes while
 * /statistics/account/v2 opens (`waitForResponse`), and, signed by the page's signer like every other call
 * (XhsPageApi), the follower totals (fans/overall_new), the note manager's list and each note's note/base. A figure
 * the data centre has not computed yet (-1) is missing, never 0: such a day is left out and `lastDay` is the newest
 * complete day; such a note is left out. Dates are China-local. When the v2 page is not there (the 2025 site), the
 * old server-rendered tables are read instead.
 */
export async function readXhsMetrics(
  page: Page,
  base: string,
  profile: SiteProfile,
  range: { from: string; to: string },
  api: XhsPageApi = new XhsPageApi(),
): Promise<PlatformMetrics> {
  const v2 = await readV2(page, base, profile, range, api);
  return v2 ?? readLegacy(page, base, profile, range);
}

const onLogin = (page: Page, profile: SiteProfile) => new URL(page.url()).pathname.startsWith(profile.paths.login!);

/** null: the site has no v2 overview (its page is not found), so the caller reads the old pages. */
async function readV2(page: Page, base: string, profile: SiteProfile, range: { from: string; to: string }, api: XhsPageApi): Promise<PlatformMetrics | null> {
  const P = profile.paths;
  if (!P.accountDataV2 || !P.accountBaseApi) return null;
  const apiPath = new URL(`${base}${P.accountBaseApi}`).pathname;
  // Listening before navigating: the page asks as soon as its script runs.
  const replied = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === apiPath, { timeout: 25_000 }).catch(() => null as Response | null);
  const nav = await page.goto(`${base}${P.accountDataV2}`, { waitUntil: 'domcontentloaded', timeout: 45_000 });
  if (onLogin(page, profile) || nav?.status() === 401) throw new SessionExpiredError(EXPIRED);
  if (nav?.status() === 404 || !new URL(page.url()).pathname.startsWith(P.accountDataV2)) return null;
  const res = await replied;
  if (!res) throw new TransientPlatformError('小红书数据中心（账号概览）没有加载账号数据，页面可能已改版');
  const body = (await res.json().catch(() => null)) as Parameters<typeof XhsPageApi.typed>[1];
  const account = XhsPageApi.typed<unknown>(res.status(), body, res.url());
  const thirty = field(account, 'thirty');
  const fans = field(await api.get<unknown>(page, `${base}${P.fansOverallApi}`), 'thirty');

  const lists = {
    views: perDay(thirty, 'view_list'),
    likes: perDay(thirty, 'like_list'),
    collects: perDay(thirty, 'collect_list'),
    comments: perDay(thirty, 'comment_list'),
    shares: perDay(thirty, 'share_list'),
    rise: perDay(thirty, 'rise_fans_list'),
    loss: perDay(thirty, 'loss_fans_count_list'),
    net: perDay(thirty, 'net_rise_fans_count_list', true),
    followers: perDay(fans, 'fans_list'),
  };
  const complete: AccountDayFigures[] = [];
  for (const day of lists.views.keys()) {
    const [views, likes, collects, comments, shares, followers] = [lists.views, lists.likes, lists.collects, lists.comments, lists.shares, lists.followers].map(
      (m) => m.get(day) ?? null,
    );
    // Net new followers: gained minus lost when both are known (unambiguous), else the net list (where -1 is "not computed").
    const [rise, loss] = [lists.rise.get(day) ?? null, lists.loss.get(day) ?? null];
    const newFollowers = rise !== null && loss !== null ? rise - loss : (lists.net.get(day) ?? null);
    if (views == null || likes == null || collects == null || comments == null || shares == null || followers == null || newFollowers === null) continue;
    complete.push({ day, views, likes, collects, comments, shares, newFollowers, followers });
  }
  complete.sort((a, b) => (a.day < b.day ? -1 : 1));
  const lastDay = complete.at(-1)?.day ?? null;
  const inRange = (d: string) => d >= range.from && d <= range.to;
  const days = complete.filter((d) => inRange(d.day));

  const notes: PlatformMetrics['notes'] = [];
  if (lastDay && inRange(lastDay)) {
    const posted: PostedNote[] = [];
    for (let n = 0, pages = 0; n >= 0 && pages < NOTE_PAGES; pages++) {
      const d = await api.get<{ notes?: PostedNote[]; page?: number }>(page, `${base}${P.postedNotes}${n}`);
      posted.push(...(d.notes ?? []));
      n = typeof d.page === 'number' ? d.page : -1;
    }
    // Only published notes have data-centre figures (in review, rejected and scheduled ones have none).
    for (const p of posted.filter((x) => x.tab_status === undefined || x.tab_status === 1)) {
      const b = await api.get<unknown>(page, `${base}${P.noteBaseApi}${encodeURIComponent(p.id)}`);
      if (field(field(b, 'note_info'), 'id') !== p.id) continue;
      // The day its figures cover; a note newer than the rollup has none yet (note_base_fresh.json).
      const updated = count(field(b, 'basic_data_last_update_time'));
      if (!updated) continue;
      const [views, likes, collects, comments, shares] = ['view_count', 'like_count', 'collect_count', 'comment_count', 'share_count'].map((k) => count(field(b, k)));
      const day = dayOf(updated);
      if (views == null || likes == null || collects == null || comments == null || shares == null || !inRange(day)) continue;
      notes.push({ day, noteId: p.id, title: p.display_title, url: `${xhsNoteUrl}${p.id}`, publishedAt: chinaLocalTime(p.time), views, likes, collects, comments, shares });
    }
  }
  return { lastDay, days, notes };
}

/**
 * The 2025 data centre, read from its pages: 账号概览's daily trend table and 笔记数据's note totals. The newest complete
 * day is the page's "数据更新至" date; a figure the page cannot show as a number fails the read rather than being 0.
 */
async function readLegacy(page: Page, base: string, profile: SiteProfile, range: { from: string; to: string }): Promise<PlatformMetrics> {
  const S = profile.steps;
  const open = async (path: string) => {
    await page.goto(`${base}${path}`, { waitUntil: 'domcontentloaded', timeout: 45_000 });
    if (onLogin(page, profile)) throw new SessionExpiredError(EXPIRED);
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
