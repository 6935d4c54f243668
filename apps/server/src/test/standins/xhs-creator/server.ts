import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import QRCode from 'qrcode';

/**
 * A local stand-in for creator.xiaohongshu.com (and the edith/www endpoints, which point here too): two page sets
 * and the server side they talk to. Failures on demand.
 *
 * generation '2025' (pages-2025/): the site as the adapter was first written against it: `img.qrcode-img`,
 * `.qrcode-status.scanned/.expired`, a Quill `div.ql-editor`, `button.publishBtn`, a `web_session` cookie from the
 * creator login that the www endpoints accept, personal_info with `user_id`/`red_id`/`notes_count`, the v1 posted-notes
 * list with a millisecond `time`, GET topic search. Its pages sign their calls with `window._webmsxyw` (the 2025 site
 * signed too) but the server still answers unsigned calls; it only records them in `unsignedCalls`.
 *
 * generation '2026' (pages-2026/, the default): the site as peers and captures show it in 2026, from
 * /work/shared/notes/platforms-2026.md:
 * - xpzouying/xiaohongshu-mcp: duplicate `.creator-tab` copies hidden by off-screen placement or opacity 1e-05 +
 *   aria-hidden + a covering element (commit c63748f, issue #666); `.upload-input` removed after the first image and
 *   one-at-a-time uploads waiting for `.img-preview-area .pr` (70f07e8, 44061fd); TipTap body (2a57ab4); schedule
 *   `.post-time-wrapper .d-switch` + `.date-picker-container input` (5c76f97); `<xhs-publish-btn>` clicked by
 *   coordinates (dee6c25, #693); the AI declaration `business_binds.userDeclarationBind.origin = 2` (PR #528); the
 *   原创声明 dialog (#837); www pages need a www session (notification.go).
 * - dreammis/social-auto-upload: `/login`, `.login-box-container` + `img.css-wemwzq` then waiting for 扫一扫 text, the
 *   QR as the image after 「APP扫一扫登录」, `p[data-placeholder*="输入正文描述"]`, `.d-datepicker-input-filter input`,
 *   `/publish/success?source=official`, topic suggestions that may not appear (1b36b8b).
 * - leeguooooo/chrome-use-sites xiaohongshu-creator fixtures captured 2026-09-30: every API call signed through the
 *   page's `window._webmsxyw`; personal_info without any user id (the id lives in the Vuex store
 *   `Auth.userInfo`); `/api/galaxy/v2/creator/note/user/posted?tab=&page=` with China-local `time` and `tab_status`;
 *   code -101 as the creator client's logged-out signal; the `access-token-creator.xiaohongshu.com` session cookie.
 * - ReaJason/xhs: POST topic search with `suggest_topic_request`, 461 + `Verifytype`/`Verifyuuid` verification,
 *   error codes 300012 (IP risk) and 300015 (signature).
 * - peers' reports: `<xhs-publish-btn>` is a Vue custom element with a CLOSED shadow root whose 发布 pill is
 *   right-anchored next to 暂存离开, so a click on the host's centre hits empty space.
 * The signature here is a stand-in hash (signer.js, `xywSign` below), not the real algorithm.
 *
 * The data centre (数据中心). Figures are a pure function of the note ids and the date (`xhsNoteTotals`,
 * `xhsAccountDay`); the newest computed day is yesterday unless `dataCentreLagDays` holds it back.
 * - 2025: /statistics/account (账号概览: the overview cards and the daily trend table of the last 30 complete days) and
 *   /statistics/data-analysis (笔记数据: each note's totals), server-rendered with the class names the adapter was first
 *   written against ("数据更新至" the newest day). No v2 page, no data-centre APIs.
 * - 2026, from leeguooooo/chrome-use-sites xiaohongshu-creator (fixtures account_base.json, note_base_image.json,
 *   note_base_fresh.json, README, me.js, note-stats.js; captured 2026-09-30) and peers that read the same replies
 *   (a collector that watches the page's own responses on /statistics/account/v2 and documents the per-day lists
 *   `view_list`, `rise_fans_list`, `net_rise_fans_count_list`… as `{date, count, count_with_double}` with `date` the
 *   China-local midnight in ms; a creator-centre client that maps `account/base`, `fans/overall_new` `fans_list` and
 *   `note/base`): /statistics/account/v2 is an empty shell whose script (pages-2026/account-v2.js) asks
 *   GET /api/galaxy/v2/creator/datacenter/account/base through the page's signer and draws it. Replies are snake_case
 *   on the wire (the page client's `transform: true` camelCases them, which is what the fixtures show: `viewCount` is
 *   `view_count` here). `seven` / `thirty` hold the window's totals, `begin_time` / `end_time` (China midnights) and the
 *   per-day lists; a day not computed yet reads -1 in every list. GET /api/galaxy/creator/data/fans/overall_new gives
 *   the follower total per day (`fans_list`). GET /api/galaxy/creator/datacenter/note/base?note_id= gives one note's
 *   totals as of `basic_data_last_update_time` (the China midnight of the day they cover); a note newer than the
 *   rollup reads like note_base_fresh.json: live counts, -1 rates, no update time. The old pages are gone
 *   (/statistics/account redirects to v2; 内容分析 is a shell without the old markup).
 */
export type XhsGeneration = '2025' | '2026';

/**
 * 'captcha': the next publish answers 461 (+ Verifytype/Verifyuuid). 'rejected': the next publish is refused for its
 * content. 'expire': every session ends at the next request. 'risk': the next API call answers 300012 (IP risk).
 * 'login-captcha': the next confirmed QR login is sent to /website-login/captcha instead. 'original-dialog' (2026):
 * the next publish-page load shows a covering 原创声明 modal.
 */
export type XhsFailure = 'captcha' | 'rejected' | 'expire' | 'risk' | 'login-captcha' | 'original-dialog';

/** tab_status on the posted-notes list: 1 published, 2 审核中, 3 未通过, 4 scheduled. */
export type XhsTabStatus = 1 | 2 | 3 | 4;

export interface XhsNote {
  id: string;
  userId: string;
  title: string;
  desc: string;
  topics: string[];
  images: number;
  /** Each uploaded image's hash in order, so a test can tell which pictures arrived (an image note). */
  imageSha256: string[];
  /** The post_time field as sent (YYYY-MM-DD HH:mm, China time), or null. */
  postTime: string | null;
  time: number;
  /** The note carried the 笔记含AI合成内容 declaration (business_binds.userDeclarationBind.origin 2). */
  aiDeclared?: boolean;
  /** Unset: 4 while postTime is ahead, else 1. */
  tabStatus?: XhsTabStatus;
}

export interface XhsDraft {
  userId: string;
  title: string;
  desc: string;
  topics: string[];
  images: number;
  postTime: string;
  time: number;
}

export interface XhsCreatorStandin {
  url: string;
  generation: XhsGeneration;
  notes: XhsNote[];
  /** 暂存离开 on the 2026 publish page. */
  drafts: XhsDraft[];
  /** `METHOD /path` of every /api/ or /web_api/ call without a valid X-s/X-t (refused in 2026, answered in 2025). */
  unsignedCalls: string[];
  /**
   * 2026 data centre: how many of the newest days (ending yesterday) the rollup has not computed yet. Those days read -1
   * in account/base and fans/overall_new, and note/base reports the day before them. 0 by default.
   */
  dataCentreLagDays: number;
  /** Plays the phone: scans (and confirms) the latest QR shown. */
  scanLatest(confirm: boolean, name?: string): Promise<void>;
  /** `path`: the failure waits for a call whose path starts with it (for 'risk', where the page's own calls come first). */
  failNext(kind: XhsFailure, path?: string): void;
  expireSessions(): void;
  /** The latest QR reports 二维码已过期 from its next status poll on. */
  expireLatestQr(): void;
  setNoteStatus(noteId: string, status: 'published' | 'reviewing' | 'rejected'): void;
  /** A www.xiaohongshu.com `web_session` cookie value for this user (what the creator login never gives). */
  wwwSessionFor(userId: string): string;
  addComment(noteId: string, nickname: string, content: string): void;
  close(): Promise<void>;
}

/** The stand-in's X-s: signer.js computes the same in the page. */
export function xywSign(url: string, body: string, t: string, a1: string): string {
  const fnv1a = (s: string, seed: number) => {
    let h = seed;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return (h >>> 0).toString(16).padStart(8, '0');
  };
  const input = [url, body, t, a1].join('\n');
  return `XYW_${fnv1a(input, 0x811c9dc5)}${fnv1a(input, 0x050c5d1f)}`;
}

const DAY_MS = 86_400_000;
const shanghaiDay = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const h32 = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0);
/** The trend table's window (the page's 近30日). */
export const XHS_TREND_DAYS = 30;

/** A note's totals at the end of `day` (it grows for ten days after posting, then holds). */
export function xhsNoteTotals(note: { id: string; time: number }, day: string) {
  const k = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${shanghaiDay(note.time)}T00:00:00Z`)) / DAY_MS) + 1;
  if (k <= 0) return { view: 0, like: 0, collect: 0, comment: 0, share: 0 };
  const h = h32(`xhs-note:${note.id}`);
  const view = Math.floor(((300 + (h % 2000)) * Math.min(k, 10)) / 10);
  return {
    view,
    like: Math.floor((view * (5 + ((h >>> 8) % 5))) / 100),
    collect: Math.floor((view * (2 + ((h >>> 12) % 3))) / 100),
    comment: Math.floor(view / 80),
    share: Math.floor(view / 120),
  };
}

/** The account's row of the trend table: the day's amounts over its notes; followers grow with likes (one per five). */
export function xhsAccountDay(fans: number, notes: Array<{ id: string; time: number }>, day: string) {
  const sum = (d: string) =>
    notes.reduce(
      (a, n) => {
        const t = xhsNoteTotals(n, d);
        return { view: a.view + t.view, like: a.like + t.like, collect: a.collect + t.collect, comment: a.comment + t.comment, share: a.share + t.share };
      },
      { view: 0, like: 0, collect: 0, comment: 0, share: 0 },
    );
  const [today, before] = [sum(day), sum(plusDays(day, -1))];
  const fansAt = (likes: number) => fans + Math.floor(likes / 5);
  return {
    day,
    view: today.view - before.view,
    like: today.like - before.like,
    collect: today.collect - before.collect,
    comment: today.comment - before.comment,
    share: today.share - before.share,
    netFans: fansAt(today.like) - fansAt(before.like),
    fans: fansAt(today.like),
  };
}

const num = (n: number) => n.toLocaleString('en-US');
const esc = (v: string) => v.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function accountPage(fans: number, notes: Array<{ id: string; time: number }>, yesterday: string) {
  const rows: string[] = [];
  for (let i = 0; i < XHS_TREND_DAYS; i++) {
    const d = xhsAccountDay(fans, notes, plusDays(yesterday, -i));
    rows.push(
      `<tr class="d-table-row"><td class="d-table-cell">${d.day}</td>${[d.view, d.like, d.collect, d.comment, d.share, d.netFans, d.fans].map((v) => `<td class="d-table-cell">${num(v)}</td>`).join('')}</tr>`,
    );
  }
  const last = xhsAccountDay(fans, notes, yesterday);
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>账号概览 - 小红书创作服务平台（本地页面集）</title></head><body>
<div class="data-center"><div class="menu"><a class="menu-item active" href="/statistics/account">账号概览</a><a class="menu-item" href="/statistics/data-analysis">笔记数据</a></div>
<div class="account-overview"><div class="header"><span class="title">账号诊断</span><span class="data-update-time">数据更新至 ${yesterday}</span></div>
<div class="overview-cards"><div class="overview-card" data-key="fans"><span class="label">总粉丝数</span><span class="num">${num(last.fans)}</span></div>
<div class="overview-card" data-key="view"><span class="label">昨日观看</span><span class="num">${num(last.view)}</span></div></div>
<div class="d-tabs"><div class="d-tab">近7日</div><div class="d-tab active">近30日</div></div>
<table class="d-table trend-table"><thead><tr><th>日期</th><th>观看数</th><th>点赞数</th><th>收藏数</th><th>评论数</th><th>分享数</th><th>净涨粉</th><th>粉丝总数</th></tr></thead><tbody>${rows.join('')}</tbody></table>
</div></div></body></html>`;
}

function notesPage(notes: Array<{ id: string; title: string; time: number }>, yesterday: string) {
  const items = notes
    .filter((n) => shanghaiDay(n.time) <= yesterday)
    .map((n) => {
      const t = xhsNoteTotals(n, yesterday);
      const at = new Date(n.time + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
      const cell = (key: string, label: string, v: number) =>
        `<div class="data-cell" data-key="${key}"><span class="label">${label}</span><span class="value">${num(v)}</span></div>`;
      return `<div class="note-data-item" data-note-id="${n.id}"><div class="note-info"><span class="title">${esc(n.title)}</span><span class="publish-time">发布于 ${at}</span></div><div class="note-data">${cell('view', '观看', t.view)}${cell('like', '点赞', t.like)}${cell('collect', '收藏', t.collect)}${cell('comment', '评论', t.comment)}${cell('share', '分享', t.share)}</div></div>`;
    });
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>笔记数据 - 小红书创作服务平台（本地页面集）</title></head><body>
<div class="data-center"><div class="menu"><a class="menu-item" href="/statistics/account">账号概览</a><a class="menu-item active" href="/statistics/data-analysis">笔记数据</a></div>
<div class="note-data-list"><div class="header"><span class="data-update-time">数据更新至 ${yesterday}</span></div>${items.join('') || '<div class="empty">暂无笔记数据</div>'}</div></div></body></html>`;
}

/** China-local midnight of a day, in epoch ms: how the data centre's replies date things. */
const chinaMidnight = (day: string) => Date.parse(`${day}T00:00:00+08:00`);
const NOT_COMPUTED = -1;

/** The days of a window ending yesterday, oldest first; the newest `lag` of them are not computed yet. */
function windowDays(yesterday: string, size: number, lag: number) {
  return Array.from({ length: size }, (_, i) => {
    const day = plusDays(yesterday, i - size + 1);
    return { day, computed: day <= plusDays(yesterday, -lag) };
  });
}

/** GET /api/galaxy/v2/creator/datacenter/account/base (2026): `seven` / `thirty`, each with per-day `*_list`s. */
function accountBase(fans: number, notes: Array<{ id: string; time: number }>, yesterday: string, lag: number) {
  const block = (size: number) => {
    const days = windowDays(yesterday, size, lag).map((w) => ({ ...w, x: xhsAccountDay(fans, notes, w.day) }));
    const list = (v: (x: ReturnType<typeof xhsAccountDay>) => number) =>
      days.map((d) => {
        const count = d.computed ? v(d.x) : NOT_COMPUTED;
        return { date: chinaMidnight(d.day), count, count_with_double: count };
      });
    const total = (v: (x: ReturnType<typeof xhsAccountDay>) => number) => days.filter((d) => d.computed).reduce((a, d) => a + v(d.x), 0);
    // The stand-in's followers only grow, so every net gain is a gain and nobody leaves.
    return {
      begin_time: chinaMidnight(days[0]!.day),
      end_time: chinaMidnight(days.at(-1)!.day),
      view_count: total((x) => x.view),
      like_count: total((x) => x.like),
      collect_count: total((x) => x.collect),
      comment_count: total((x) => x.comment),
      share_count: total((x) => x.share),
      rise_fans_count: total((x) => x.netFans),
      loss_fans_count: 0,
      net_rise_fans_count: total((x) => x.netFans),
      publish_note_num: notes.filter((n) => days.some((d) => d.day === shanghaiDay(n.time))).length,
      summary: '你的笔记近期数据表现稳定，多多提升笔记质量，可以促进数据增长哦！',
      view_list: list((x) => x.view),
      like_list: list((x) => x.like),
      collect_list: list((x) => x.collect),
      comment_list: list((x) => x.comment),
      share_list: list((x) => x.share),
      rise_fans_list: list((x) => x.netFans),
      loss_fans_count_list: list(() => 0),
      net_rise_fans_count_list: list((x) => x.netFans),
    };
  };
  return { seven: block(7), thirty: block(XHS_TREND_DAYS) };
}

/** GET /api/galaxy/creator/data/fans/overall_new (2026): the follower total at the end of each day (`fans_list`). */
function fansOverall(fans: number, notes: Array<{ id: string; time: number }>, yesterday: string, lag: number) {
  const block = (size: number) => {
    const days = windowDays(yesterday, size, lag).map((w) => ({ ...w, x: xhsAccountDay(fans, notes, w.day) }));
    const done = days.filter((d) => d.computed);
    const entry = (d: (typeof days)[number], v: number) => ({ date: chinaMidnight(d.day), count: d.computed ? v : NOT_COMPUTED });
    return {
      begin_time: chinaMidnight(days[0]!.day),
      end_time: chinaMidnight(days.at(-1)!.day),
      fans_count: done.at(-1)?.x.fans ?? fans,
      rise_fans_count: done.reduce((a, d) => a + d.x.netFans, 0),
      leave_fans_count: 0,
      fans_list: days.map((d) => entry(d, d.x.fans)),
      rise_fans_list: days.map((d) => entry(d, d.x.netFans)),
      leave_fans_list: days.map((d) => entry(d, 0)),
    };
  };
  return { seven: block(7), thirty: block(XHS_TREND_DAYS) };
}

/** GET /api/galaxy/creator/datacenter/note/base?note_id= (2026), shaped like note_base_image.json / note_base_fresh.json. */
function noteBase(note: { id: string; title: string; desc: string; time: number }, today: string, computedDay: string) {
  const hour = Object.fromEntries(
    ['view_list', 'like_list', 'collect_list', 'comment_list', 'share_list', 'rise_fans_list', 'imp_list', 'cover_click_rate_list', 'view_time_list'].map((k) => [k, []]),
  );
  const fresh = shanghaiDay(note.time) > computedDay;
  // A note newer than the rollup: live counts, every computed figure -1 and no update time.
  const t = xhsNoteTotals(note, fresh ? today : computedDay);
  const postDays = Math.round((chinaMidnight(computedDay) - chinaMidnight(shanghaiDay(note.time))) / DAY_MS) + 1;
  return {
    view_count: t.view,
    like_count: t.like,
    collect_count: t.collect,
    comment_count: t.comment,
    share_count: t.share,
    danmaku_count: 0,
    rise_fans_count: fresh ? NOT_COMPUTED : Math.floor(t.like / 5),
    view_time_avg: fresh ? NOT_COMPUTED : 8 + (h32(`xhs-note-time:${note.id}`) % 20),
    interaction_rate: fresh ? NOT_COMPUTED : t.view ? Math.round(((t.like + t.collect + t.comment + t.share) * 1000) / t.view) / 10 : 0,
    note_post_days: fresh ? NOT_COMPUTED : postDays,
    ...(fresh ? {} : { basic_data_last_update_time: chinaMidnight(computedDay) }),
    hour,
    analyse_infos: [],
    note_info: {
      id: note.id,
      type: 'NORMAL',
      post_time: note.time,
      user_update_time: note.time,
      update_time: note.time,
      audit_status: 1,
      view_count: t.view,
      like_count: t.like,
      comment_count: t.comment,
      desc: note.desc,
      cover_url: `https://sns-webpic-qc.xhscdn.com/stand-in/${note.id}/0`,
      labels: [],
      good_names: [],
      tags: [],
    },
  };
}

function accountV2Page() {
  return page2026(
    '账号概览',
    '<div id="app"><div class="data-center"><div class="menu"><a href="/statistics/account/v2">账号概览</a><a href="/statistics/data-analysis">内容分析</a></div><div class="account-overview-v2"><h2>账号概览</h2></div></div></div>',
  ).replace('</body>', '<script src="/static/account-v2.js"></script></body>');
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const file = (name: string) => readFileSync(`${dir}/${name}`, 'utf8');
const chinaMinute = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
const chinaMs = (local: string) => Date.parse(`${local.replace(' ', 'T')}:00+08:00`);
const STATUS_CODE = { published: 1, reviewing: 2, rejected: 3 } as const;
const cookieOf = (header: string | undefined, name: string) => {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
};
const safeDecode = (s: string) => {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
};
const CREATOR_TOKEN = 'access-token-creator.xiaohongshu.com';

function page2026(title: string, body: string) {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title} - 小红书创作服务平台（本地页面集 2026）</title></head><body>${body}<script src="/static/signer.js"></script></body></html>`;
}

export async function startXhsCreatorStandin(opts: { now?: () => number; generation?: XhsGeneration } = {}): Promise<XhsCreatorStandin> {
  const now = opts.now ?? Date.now;
  const gen = opts.generation ?? '2026';
  const pages = `pages-${gen}`;
  const qrs = new Map<string, { status: 'waiting' | 'scanned' | 'confirmed' | 'expired'; userId?: string }>();
  const users = new Map<string, { id: string; redId: string; name: string; fans: number }>();
  /** Creator sessions: web_session (2025) or the access-token-creator cookie (2026). */
  const sessions = new Map<string, string>();
  /** www.xiaohongshu.com sessions (web_session) in 2026, only from wwwSessionFor. */
  const wwwSessions = new Map<string, string>();
  const comments: Array<{ id: string; noteId: string; nickname: string; content: string; time: number }> = [];
  const failures: Array<{ kind: XhsFailure; path?: string }> = [];
  let latestQr = '';
  const take = (kinds: XhsFailure[], path = '') => {
    const i = failures.findIndex((f) => kinds.includes(f.kind) && (!f.path || path.startsWith(f.path)));
    return i < 0 ? null : failures.splice(i, 1)[0]!.kind;
  };
  const tabStatus = (n: XhsNote): XhsTabStatus => {
    const s = n.tabStatus ?? (n.postTime ? 4 : 1);
    // A scheduled note goes live at its time.
    return s === 4 && n.postTime && chinaMs(n.postTime) <= now() ? 1 : s;
  };

  const state: XhsCreatorStandin = {
    url: '',
    generation: gen,
    notes: [],
    drafts: [],
    unsignedCalls: [],
    dataCentreLagDays: 0,
    async scanLatest(confirm, name = '小红薯创作者') {
      const qr = qrs.get(latestQr);
      if (!qr) throw new Error('no QR shown yet');
      qr.status = 'scanned';
      if (confirm) {
        const id = `5f${randomBytes(11).toString('hex')}`;
        users.set(id, { id, redId: String(100_000_000 + (h32(`red:${id}`) % 900_000_000)), name, fans: 321 });
        qr.status = 'confirmed';
        qr.userId = id;
      }
    },
    failNext: (kind, path) => void failures.push({ kind, path }),
    expireSessions: () => {
      sessions.clear();
      wwwSessions.clear();
    },
    expireLatestQr: () => {
      const qr = qrs.get(latestQr);
      if (qr) qr.status = 'expired';
    },
    setNoteStatus(noteId, status) {
      const note = state.notes.find((n) => n.id === noteId);
      if (!note) throw new Error(`no note ${noteId}`);
      note.tabStatus = STATUS_CODE[status];
    },
    wwwSessionFor(userId) {
      const token = randomBytes(20).toString('hex');
      (gen === '2025' ? sessions : wwwSessions).set(token, userId);
      return token;
    },
    addComment: (noteId, nickname, content) => void comments.push({ id: `m${comments.length + 1}`, noteId, nickname, content, time: Date.now() }),
    close: () => new Promise((r) => server.close(() => r())),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = req.url ?? '/';
        const url = new URL(raw, 'http://standin');
        const p = url.pathname;
        const method = req.method ?? 'GET';
        const cookies = req.headers.cookie;
        if (take(['expire'])) state.expireSessions();
        const token = cookieOf(cookies, gen === '2026' ? CREATOR_TOKEN : 'web_session');
        const userId = token ? sessions.get(token) : undefined;
        const user = userId ? users.get(userId) : undefined;
        const wwwToken = cookieOf(cookies, 'web_session');
        const wwwUserId = gen === '2026' ? (wwwToken ? wwwSessions.get(wwwToken) : undefined) : userId;
        // The real site's fingerprint cookie exists before any login; the signature mixes it in.
        const a1 = cookieOf(cookies, 'a1');
        const html = (body: string) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(a1 ? {} : { 'set-cookie': `a1=${randomBytes(16).toString('hex')}; Path=/` }) });
          res.end(body);
        };
        const json = (payload: unknown, status = 200, headers: Record<string, string | string[]> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
          res.end(JSON.stringify(payload));
        };
        const redirect = (location: string) => {
          res.writeHead(302, { location });
          res.end();
        };
        const toLogin = () => redirect('/login?redirectReason=401');
        const isApi = p.startsWith('/api/') || p.startsWith('/web_api/');

        if (isApi) {
          const xs = req.headers['x-s'];
          const xt = req.headers['x-t'];
          const ct = String(req.headers['content-type'] ?? '');
          let body = '';
          if (!ct.includes('multipart/form-data') && chunks.length) {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              body = JSON.stringify(JSON.parse(text));
            } catch {
              body = text;
            }
          }
          const signed = typeof xs === 'string' && typeof xt === 'string' && [raw, safeDecode(raw)].some((u) => xywSign(u, body, xt, a1 ?? '') === xs);
          if (!signed) {
            state.unsignedCalls.push(`${method} ${p}`);
            if (gen === '2026') return json({ code: 300015, success: false, msg: '签名错误' }, 406);
          }
          if (!p.startsWith('/api/cas/') && take(['risk'], p)) return json({ code: 300012, success: false, msg: '网络连接异常，请检查网络设置或重启试试' });
        }

        if (p === '/login') return html(file(`${pages}/login.html`));
        if (p.startsWith('/static/')) {
          const name = p.slice('/static/'.length);
          if (!/^[\w-]+\.js$/.test(name)) return json({ code: 404, success: false, msg: 'not found' }, 404);
          res.writeHead(200, { 'content-type': 'application/javascript' });
          return res.end(file(name === 'signer.js' ? name : `${pages}/${name}`));
        }
        if (p === '/api/cas/customer/web/qr-code/create') {
          latestQr = randomBytes(8).toString('hex');
          qrs.set(latestQr, { status: 'waiting' });
          return json({
            code: 0,
            success: true,
            data: { qr_id: latestQr, url: await QRCode.toDataURL(`https://www.xiaohongshu.com/mobile/login?qrId=${latestQr}`, { margin: 1, width: 160 }) },
          });
        }
        if (p === '/api/cas/customer/web/qr-code/status') {
          const id = url.searchParams.get('qr_id') ?? '';
          const qr = qrs.get(id);
          if (!qr || qr.status === 'expired') return json({ code: 0, success: true, data: { status: 'expired' } });
          if (qr.status === 'confirmed' && qr.userId) {
            qrs.delete(id);
            if (take(['login-captcha'])) {
              // Risk control after the scan: a slider instead of a session.
              return json({ code: 461, success: false, msg: '需要验证' }, 461, { Verifytype: '102', Verifyuuid: randomUUID() });
            }
            const session = gen === '2026' ? `customer.creator.AT-${randomBytes(24).toString('base64url')}` : randomBytes(20).toString('hex');
            sessions.set(session, qr.userId);
            const setCookie =
              gen === '2026'
                ? [
                    `${CREATOR_TOKEN}=${session}; Path=/; HttpOnly`,
                    `galaxy_creator_session_id=${randomBytes(16).toString('base64url')}; Path=/; HttpOnly`,
                    `x-user-id-creator.xiaohongshu.com=${qr.userId}; Path=/; HttpOnly`,
                    `customer-sso-sid=${randomBytes(18).toString('hex')}; Path=/`,
                  ]
                : [`web_session=${session}; Path=/; HttpOnly`, ...(a1 ? [] : [`a1=${randomBytes(16).toString('hex')}; Path=/`])];
            return json({ code: 0, success: true, data: { status: 'confirmed' } }, 200, { 'set-cookie': setCookie });
          }
          return json({ code: 0, success: true, data: { status: qr.status } });
        }
        if (p === '/website-login/captcha') {
          const body = `<div class="red-captcha-container"><div class="red-captcha-title">安全验证</div><div class="red-captcha-tip">拖动滑块完成拼图</div><div class="red-captcha-slider"><div class="red-captcha-slider-button"></div></div></div>`;
          return html(
            gen === '2026' ? page2026('安全验证', body) : `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>安全验证</title></head><body>${body}</body></html>`,
          );
        }
        // The Vue app's store, where the real pages keep the logged-in user (personal_info does not carry the id).
        const store = (u: { id: string; redId: string; name: string }) =>
          `<script>document.getElementById('app').__vue_app__ = ${JSON.stringify({
            version: '3.5.13',
            config: { globalProperties: { $store: { state: { Auth: { userInfo: { userId: u.id, redId: u.redId, userName: u.name } } } } } },
          }).replace(/</g, '\\u003c')};</script>`;
        if (p === '/' && gen === '2026') return redirect(user ? '/new/home' : '/login');
        if (p === '/new/home') {
          if (gen === '2025') return html(user ? '<h1>创作服务平台首页</h1>' : '<script>location.href="/login"</script>');
          if (!user) return toLogin();
          return html(page2026('首页', `<div id="app"><h1>创作服务平台首页</h1><a href="/publish/publish?from=homepage&target=image">发布笔记</a></div>${store(user)}`));
        }
        if (p === '/publish/publish') {
          if (!user) return toLogin();
          if (gen === '2025') return html(file(`${pages}/publish.html`));
          const dialog = take(['original-dialog'])
            ? '<div class="d-modal-mask"><div class="d-modal" role="dialog"><div class="d-modal-title">原创声明</div><div class="d-modal-content">声明原创后，笔记将展示原创标识，他人转载需获得授权。</div><div class="d-modal-footer"><button class="d-button" type="button">取消</button><button class="d-button bg-red" type="button">声明原创</button></div></div></div>'
            : '';
          return html(file(`${pages}/publish.html`).replace('<!--STORE-->', store(user)).replace('<!--ORIGINAL_DIALOG-->', dialog));
        }
        if (p === '/publish/success') {
          const body = '<h1 class="success">发布成功</h1>';
          return html(gen === '2026' ? page2026('发布成功', `<div id="app">${body}</div>`) : body);
        }
        if (gen === '2026' && (p === '/statistics/account' || p === '/statistics/account/v2' || p === '/statistics/data-analysis')) {
          if (!user) return toLogin();
          if (p === '/statistics/account') return redirect('/statistics/account/v2');
          if (p === '/statistics/account/v2') return html(accountV2Page().replace('</body>', `${store(user)}</body>`));
          // 内容分析 exists, but not the markup the 2025 reader looked for.
          return html(page2026('内容分析', '<div id="app"><div class="data-center"><h2>笔记数据</h2><div class="d-empty">加载中</div></div></div>'));
        }
        if (p === '/statistics/account' || p === '/statistics/data-analysis') {
          if (!user) return toLogin();
          const mine = state.notes.filter((n) => n.userId === user.id);
          const yesterday = plusDays(shanghaiDay(now()), -1);
          return html(p === '/statistics/account' ? accountPage(user.fans, mine, yesterday) : notesPage(mine, yesterday));
        }
        // Test hooks for a test runner in another process (e2e): play the phone, read what was posted. Not the site's.
        if (p === '/__standin/scan' && method === 'POST') {
          const b = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { confirm?: boolean; name?: string };
          await state.scanLatest(b.confirm !== false, b.name);
          return json({ ok: true });
        }
        if (p === '/__standin/notes' && method === 'GET') {
          return json({
            notes: state.notes.map((n) => ({ id: n.id, title: n.title, images: n.images, topics: n.topics, aiDeclared: n.aiDeclared ?? false })),
            unsignedCalls: state.unsignedCalls,
          });
        }
        if (p === '/__standin/draft' && method === 'POST' && user) {
          const d = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Partial<XhsDraft>;
          state.drafts.push({
            userId: user.id,
            title: String(d.title ?? ''),
            desc: String(d.desc ?? ''),
            topics: Array.isArray(d.topics) ? d.topics.map(String) : [],
            images: Number(d.images ?? 0),
            postTime: String(d.postTime ?? ''),
            time: Date.now(),
          });
          return json({ code: 0, success: true });
        }

        // www.xiaohongshu.com endpoints (edith): a www session, which in 2026 the creator login does not give.
        const www = p === '/api/sns/web/unread_count' || p === '/api/sns/web/v1/you/mentions';
        if (www) {
          if (!wwwUserId) return json({ code: -100, success: false, msg: '登录已过期', data: {} }, 401);
          const mine = new Map(state.notes.filter((n) => n.userId === wwwUserId).map((n) => [n.id, n]));
          if (p === '/api/sns/web/unread_count') {
            const mentions = comments.filter((c) => mine.has(c.noteId)).length;
            return json({ code: 0, success: true, msg: '成功', data: { unread_count: mentions + 2, likes: 2, connections: 0, mentions } });
          }
          const list = comments
            .filter((c) => mine.has(c.noteId))
            .map((c) => ({
              id: c.id,
              time: Math.floor(c.time / 1000),
              type: 'comment/item',
              user_info: { nickname: c.nickname },
              comment_info: { content: c.content },
              item_info: { id: c.noteId, content: mine.get(c.noteId)!.title },
            }));
          return json({ code: 0, success: true, data: { message_list: list, has_more: false } });
        }

        if (!user) {
          if (gen === '2025') return json({ code: -100, success: false, msg: '登录已过期', data: {} }, 401);
          if (isApi) return json({ code: -101, success: false, msg: '未登录' });
          return json({ code: 404, success: false, msg: 'not found' }, 404);
        }
        const mine = () => state.notes.filter((n) => n.userId === user.id);
        if (p === '/api/galaxy/creator/home/personal_info') {
          if (gen === '2025') {
            return json({
              code: 0,
              success: true,
              data: {
                user_id: user.id,
                red_id: '9527',
                name: user.name,
                avatar: 'https://sns-avatar.example/a.jpg',
                fans_count: user.fans,
                notes_count: mine().length,
              },
            });
          }
          return json({
            code: 0,
            success: true,
            data: {
              name: user.name,
              avatar: 'https://sns-avatar-qc.xhscdn.com/avatar/stand-in.jpg',
              follow_count: 12,
              fans_count: user.fans,
              faved_count: 345,
              red_num: user.redId,
              personal_desc: '本地页面集的创作者',
              grow_info: { level: 2, fans_count: user.fans, max_fans_count: 500, min_fans_count: 100 },
            },
          });
        }
        if (p === '/api/galaxy/creator/note/user/posted' && gen === '2025') {
          const notes = mine().reverse();
          return json({
            code: 0,
            success: true,
            data: {
              notes: notes.map((n) => ({
                id: n.id,
                display_title: n.title,
                time: n.time,
                type: 'normal',
                image_count: n.images,
                schedule_post_time: n.postTime ? Date.parse(n.postTime) : null,
              })),
            },
          });
        }
        if (p === '/api/galaxy/v2/creator/note/user/posted' && gen === '2026') {
          const PAGE = 10;
          const tab = Number(url.searchParams.get('tab') ?? 0);
          const pageNo = Math.max(0, Number(url.searchParams.get('page') ?? 0) || 0);
          const all = mine()
            .map((n, i) => ({ n, i }))
            .sort((a, b) => b.n.time - a.n.time || b.i - a.i)
            .map((x) => x.n);
          const listed = tab ? all.filter((n) => tabStatus(n) === tab) : all;
          const slice = listed.slice(pageNo * PAGE, (pageNo + 1) * PAGE);
          const today = shanghaiDay(now());
          return json({
            code: 0,
            success: true,
            data: {
              page: (pageNo + 1) * PAGE < listed.length ? pageNo + 1 : -1,
              tags: [{ id: 'special.note_time_desc', name: '所有笔记', notes_count: all.length, checked: true }],
              notes: slice.map((n) => {
                const status = tabStatus(n);
                const scheduledAt = n.postTime ? chinaMs(n.postTime) : NaN;
                // Nobody has seen a note before it goes live.
                const t = status === 4 ? xhsNoteTotals(n, '1970-01-01') : xhsNoteTotals(n, today);
                return {
                  id: n.id,
                  display_title: n.title,
                  type: 'normal',
                  tab_status: status,
                  time: chinaMinute(n.time),
                  schedule_post_time: Number.isFinite(scheduledAt) ? scheduledAt : 0,
                  visible_time: Math.floor((Number.isFinite(scheduledAt) ? scheduledAt : n.time) / 1000),
                  images_list: Array.from({ length: n.images }, (_, i) => ({ url: `https://sns-webpic-qc.xhscdn.com/stand-in/${n.id}/${i}` })),
                  view_count: t.view,
                  likes: t.like,
                  comments_count: t.comment,
                  collected_count: t.collect,
                  shared_count: t.share,
                  xsec_token: `AB${createHash('sha256').update(`xsec:${n.id}`).digest('base64url').slice(0, 40)}`,
                };
              }),
            },
          });
        }
        if (gen === '2026' && method === 'GET') {
          const yesterday = plusDays(shanghaiDay(now()), -1);
          const lag = Math.max(0, Math.floor(state.dataCentreLagDays));
          if (p === '/api/galaxy/v2/creator/datacenter/account/base') return json({ code: 0, success: true, msg: '成功', data: accountBase(user.fans, mine(), yesterday, lag) });
          if (p === '/api/galaxy/creator/data/fans/overall_new') return json({ code: 0, success: true, msg: '成功', data: fansOverall(user.fans, mine(), yesterday, lag) });
          if (p === '/api/galaxy/creator/datacenter/note/base') {
            const note = mine().find((n) => n.id === url.searchParams.get('note_id'));
            // Someone else's note, or none: the data centre has no record (no note_info).
            if (!note) return json({ code: 0, success: true, msg: '成功', data: { result: { code: 0, success: true, message: 'success' } } });
            return json({ code: 0, success: true, msg: '成功', data: noteBase(note, shanghaiDay(now()), plusDays(yesterday, -lag)) });
          }
        }
        if (p === '/web_api/sns/v1/search/topic') {
          let kw: string;
          if (gen === '2025') {
            kw = url.searchParams.get('keyword') ?? '';
          } else {
            if (method !== 'POST') return json({ code: 404, success: false, msg: 'not found' }, 404);
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { keyword?: unknown };
            kw = String(body.keyword ?? '');
          }
          // A niche keyword has no suggestions, so the page shows none and a publisher must skip the topic.
          const topics = kw.includes('冷门')
            ? []
            : [
                { name: kw, view_num: 1000 },
                { name: `${kw}日常`, view_num: 10 },
              ];
          return json({
            code: 0,
            success: true,
            data: { topic_info_dtos: topics.map((t) => (gen === '2026' ? { id: h32(`topic:${t.name}`).toString(16), type: 'topic', link: '', ...t } : t)) },
          });
        }
        if (p === '/web_api/sns/v2/note' && method === 'POST') {
          const failure = take(['captcha', 'rejected']);
          if (failure === 'captcha') return json({ code: 461, success: false, msg: '需要验证' }, 461, { Verifytype: '102', Verifyuuid: randomUUID() });
          if (failure === 'rejected') return json({ code: -9101, success: false, msg: '内容包含违规信息，请修改后发布' });
          // The multipart body read by the platform's own FormData parser (undici), as the real site's server would.
          const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': String(req.headers['content-type'] ?? '') } }).formData();
          const field = (name: string) => String(form.get(name) ?? '');
          const files = form.getAll('images').filter((f): f is File => typeof f !== 'string');
          const bytes = await Promise.all(files.map(async (f) => Buffer.from(await f.arrayBuffer())));
          const images = bytes.length;
          const title = field('title');
          if (!images || images > 18) return json({ code: -1, success: false, msg: '请上传1-18张图片' });
          // The image flow takes pictures only: png, jpeg, gif or webp by their first bytes.
          const isImage = (b: Buffer) =>
            /^(89504e47|ffd8ff|47494638)/.test(b.subarray(0, 4).toString('hex')) ||
            (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP');
          if (bytes.some((b) => !isImage(b))) return json({ code: -1, success: false, msg: '图片格式不支持，请上传jpg、png格式图片' });
          if ([...title].length > 20) return json({ code: -1, success: false, msg: '标题最多20个字' });
          const postTime = field('post_time') || null;
          if (gen === '2026' && postTime && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(postTime)) return json({ code: -1, success: false, msg: '定时发布时间格式不正确' });
          let binds: { userDeclarationBind?: { origin?: unknown } } = {};
          try {
            binds = JSON.parse(field('business_binds') || '{}') as typeof binds;
          } catch {
            return json({ code: -1, success: false, msg: '参数错误' });
          }
          const note: XhsNote = {
            id: randomBytes(12).toString('hex'),
            userId: user.id,
            title,
            // Multipart turns the page's \n into \r\n.
            desc: field('desc').replace(/\r\n/g, '\n'),
            topics: field('topics').split(',').filter(Boolean),
            images,
            imageSha256: bytes.map((b) => createHash('sha256').update(b).digest('hex')),
            postTime,
            time: Date.now(),
            aiDeclared: binds.userDeclarationBind?.origin === 2,
            tabStatus: postTime ? 4 : 1,
          };
          state.notes.push(note);
          return json({ code: 0, success: true, data: { id: note.id } });
        }
        return json({ code: 404, success: false, msg: 'not found' }, 404);
      })().catch((err: unknown) => {
        res.writeHead(500);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
