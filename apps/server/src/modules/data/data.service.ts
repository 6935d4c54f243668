import {
  ErrorCode,
  type DataAccounts,
  type DataExportQuery,
  type DataHeatmap,
  type DataNoteRow,
  type DataNotesPage,
  type DataNotesQuery,
  type DataOverview,
  type DataPoint,
  type DataRangeQuery,
  type DataRefresh,
  type DataSeries,
  type DataState,
  type DataTop,
  type DataTopQuery,
  type PublishData,
} from '@inkstone/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import { appError } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/types.js';
import { addDays, dayOf, daysBetween } from '../../integrations/platforms/sandbox-metrics.js';
import { SessionExpiredError } from '../../integrations/platforms/types.js';
import type { AccountService } from '../publish/account.service.js';
import type { AccountRow } from '../publish/publish.repo.js';
import type { DataRepo, Totals } from './data.repo.js';
import { DATA_REPORT_JOB, reportHtml } from './data.report.js';

/**
 * Snapshots of API-based platforms (the sandbox's data API, WeChat's datacube) are worker work; a platform whose data
 * pages need Chromium (`metricsUseBrowser`, Xiaohongshu's creator centre) snapshots on the publisher role, the only
 * one that starts a browser (jobs/roles.ts decides by the name). The daily tick only queues, so it is worker work.
 */
export const DATA_SNAPSHOT_JOB = 'data.snapshot';
export const DATA_BROWSER_SNAPSHOT_JOB = 'publish.data-snapshot';
export const DATA_TICK_JOB = 'data.tick';
/** How far back the first snapshot of an account reaches. */
const FIRST_SNAPSHOT_DAYS = 30;
/** How long the web process waits for the publisher to print a report. */
const REPORT_WAIT_MS = 60_000;
/** 刷新 is allowed once a minute per user (the platforms are the scarce side). */
const REFRESH_COOLDOWN_MS = 60_000;

type Range = { from: string; to: string; days: number };
const ZERO: Totals = { followers: 0, notes: 0, views: 0, likes: 0, collects: 0, comments: 0, shares: 0 };
const add = (a: Totals, b: Totals): Totals => ({
  followers: a.followers + b.followers,
  notes: a.notes + b.notes,
  views: a.views + b.views,
  likes: a.likes + b.likes,
  collects: a.collects + b.collects,
  comments: a.comments + b.comments,
  shares: a.shares + b.shares,
});

/**
 * 数据分析: daily snapshots of every bound account (a scheduled job and 刷新), and the dashboards computed from them.
 * Totals are end-of-day values, increases `total(to) - total(from - 1)`, so the cards add up exactly.
 */
export class DataService {
  private readonly lastRefresh = new Map<number, number>();

  constructor(
    private readonly repo: DataRepo,
    private readonly accounts: AccountService,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Worker role: API snapshots and the daily tick queueing one per active account; publisher role: browser snapshots. */
  registerJobs(roles: ReadonlySet<string>, everyMs: number) {
    if (roles.has('worker')) {
      this.jobs.register<{ accountId: number }>(DATA_SNAPSHOT_JOB, (p) => this.snapshot(p.accountId), { concurrency: 1 });
      this.jobs.schedule(DATA_TICK_JOB, everyMs, async () => {
        for (const a of await this.repo.activeAccounts()) await this.queue(a);
      });
    }
    if (roles.has('publisher')) this.jobs.register<{ accountId: number }>(DATA_BROWSER_SNAPSHOT_JOB, (p) => this.snapshot(p.accountId), { concurrency: 1 });
  }

  /** The snapshot job of the account's platform (null: the platform offers no data). */
  snapshotJob(platform: string): string | null {
    const adapter = this.adapterOf(platform);
    if (!adapter?.metrics) return null;
    return adapter.metricsUseBrowser ? DATA_BROWSER_SNAPSHOT_JOB : DATA_SNAPSHOT_JOB;
  }

  private async queue(account: AccountRow) {
    const job = this.snapshotJob(account.platform);
    if (!job) return false;
    await this.jobs.enqueue(job, { accountId: account.id }, { jobId: `data-${account.id}-${Math.floor(this.clock.now().getTime() / REFRESH_COOLDOWN_MS)}` });
    return true;
  }

  private adapterOf(platform: string) {
    try {
      return this.accounts.adapter(platform);
    } catch {
      return null;
    }
  }

  today() {
    return dayOf(this.clock.now().getTime());
  }

  /**
   * Reads the days after the newest stored one up to yesterday and appends them; an expired session marks the
   * account (the publishing area's expiry path: status, reason, one notice). Returns the account days added.
   */
  async snapshot(accountId: number): Promise<number> {
    const [account] = await this.repo.accountsByIds([accountId]);
    if (!account || account.unboundAt || account.status !== 'active') return 0;
    const adapter = this.accounts.adapter(account.platform);
    if (!adapter.metrics) return 0;
    const last = await this.repo.lastDay(account.id);
    const to = addDays(this.today(), -1);
    const from = last ? addDays(last, 1) : addDays(this.today(), -FIRST_SNAPSHOT_DAYS);
    if (from > to) return 0;
    try {
      const m = await adapter.metrics(String(account.id), this.accounts.openSession(account), { from, to });
      const base = { accountId: account.id, userId: account.userId };
      return await this.repo.appendDays(
        m.days.map((d) => ({ ...base, ...d })),
        m.notes.map((n) => ({ ...base, noteKey: n.noteId, title: n.title, url: n.url, publishedAt: n.publishedAt, day: n.day, views: n.views, likes: n.likes, collects: n.collects, comments: n.comments, shares: n.shares })),
      );
    } catch (err) {
      if (err instanceof SessionExpiredError) {
        await this.accounts.markExpired(account, '登录已失效');
        return 0;
      }
      this.log.warn({ err, accountId }, 'data snapshot failed');
      throw err;
    }
  }

  /** 刷新: queues a snapshot of each active account of the user (one account with `accountId`). */
  async refresh(userId: number, accountId?: number): Promise<DataRefresh> {
    const accounts = await this.own(userId, accountId);
    const now = this.clock.now().getTime();
    const last = this.lastRefresh.get(userId) ?? -Infinity;
    if (now - last < REFRESH_COOLDOWN_MS) throw appError(ErrorCode.RATE_LIMITED, `刷新过于频繁，请${Math.ceil((last + REFRESH_COOLDOWN_MS - now) / 1000)}秒后再试`);
    this.lastRefresh.set(userId, now);
    let queued = 0;
    for (const a of accounts.filter((x) => x.status === 'active')) if (await this.queue(a)) queued += 1;
    return { queued, nextAllowedAt: new Date(now + REFRESH_COOLDOWN_MS).toISOString() };
  }

  /** The user's accounts; another user's (or an unbound) accountId is refused like a missing one. */
  private async own(userId: number, accountId?: number): Promise<AccountRow[]> {
    const rows = await this.repo.accounts(userId, accountId);
    if (accountId !== undefined && !rows.length) throw appError(ErrorCode.NOT_FOUND, '账号不存在或已解绑');
    return rows;
  }

  resolveRange(q: Pick<DataRangeQuery, 'range' | 'from' | 'to'>): Range {
    if (q.range === 'custom' && q.from && q.to) return { from: q.from, to: q.to, days: daysBetween(q.from, q.to) + 1 };
    const days = Number(q.range === 'custom' ? 7 : q.range);
    const to = this.today();
    return { from: addDays(to, -(days - 1)), to, days };
  }

  private async state(accounts: AccountRow[]): Promise<{ state: DataState; last: Map<number, { day: string; at: Date }> }> {
    if (!accounts.length) return { state: 'noAccount', last: new Map() };
    const last = await this.repo.lastSnapshots(accounts.map((a) => a.id));
    return { state: last.size ? 'ready' : 'noData', last };
  }

  /** Totals at the end of `to` and of the day before `from`, per account. */
  private async ends(accounts: AccountRow[], range: Range) {
    const ids = accounts.map((a) => a.id);
    const [end, start] = await Promise.all([this.repo.totalsAt(ids, range.to), this.repo.totalsAt(ids, addDays(range.from, -1))]);
    return { end, start };
  }

  async overview(userId: number, q: DataRangeQuery): Promise<DataOverview> {
    const accounts = await this.own(userId, q.accountId);
    const range = this.resolveRange(q);
    const { state, last } = await this.state(accounts);
    const { end, start } = await this.ends(accounts, range);
    let e = ZERO;
    let s = ZERO;
    const byPlatform = new Map<string, { platform: string; platformName: string; followCount: number; readCount: number; articleCount: number }>();
    for (const a of accounts) {
      const ea = end.get(a.id) ?? ZERO;
      e = add(e, ea);
      s = add(s, start.get(a.id) ?? ZERO);
      const p = byPlatform.get(a.platform) ?? { platform: a.platform, platformName: this.accounts.toRecord(a).platformName, followCount: 0, readCount: 0, articleCount: 0 };
      p.followCount += ea.followers;
      p.readCount += ea.views;
      p.articleCount += ea.notes;
      byPlatform.set(a.platform, p);
    }
    const newest = [...last.values()].reduce<Date | null>((m, x) => (!m || x.at > m ? x.at : m), null);
    return {
      ...publishDataOf(e, s),
      likeCount: e.likes,
      likeIncrease: e.likes - s.likes,
      collectCount: e.collects,
      collectIncrease: e.collects - s.collects,
      commentCount: e.comments,
      commentIncrease: e.comments - s.comments,
      shareCount: e.shares,
      shareIncrease: e.shares - s.shares,
      range,
      state,
      accountCount: accounts.length,
      expiredAccounts: accounts.filter((a) => a.status === 'expired').length,
      lastSnapshotAt: newest?.toISOString() ?? null,
      byPlatform: [...byPlatform.values()],
    };
  }

  /** The spec's publishData for the global store: all accounts, the last 7 days. */
  async publishData(userId: number): Promise<PublishData> {
    const o = await this.overview(userId, { range: '7' });
    return { articleCount: o.articleCount, articleIncrease: o.articleIncrease, readCount: o.readCount, readIncrease: o.readIncrease, followCount: o.followCount, followIncrease: o.followIncrease };
  }

  async series(userId: number, q: DataRangeQuery): Promise<DataSeries> {
    const accounts = await this.own(userId, q.accountId);
    const range = this.resolveRange(q);
    const { state } = await this.state(accounts);
    const rows = new Map((await this.repo.series(accounts.map((a) => a.id), range.from, range.to)).map((r) => [r.date, r]));
    const points: DataPoint[] = [];
    for (let d = range.from; d <= range.to; d = addDays(d, 1)) {
      points.push(rows.get(d) ?? { date: d, followers: null, newFollowers: null, views: null, likes: null, collects: null, comments: null, shares: null });
    }
    return { range, state, points };
  }

  async accountsCompare(userId: number, q: DataRangeQuery): Promise<DataAccounts> {
    const accounts = await this.own(userId, q.accountId);
    const range = this.resolveRange(q);
    const { state, last } = await this.state(accounts);
    const { end, start } = await this.ends(accounts, range);
    return {
      range,
      state,
      accounts: accounts.map((a) => {
        const r = this.accounts.toRecord(a);
        const e = end.get(a.id) ?? ZERO;
        const s = start.get(a.id) ?? ZERO;
        return {
          accountId: a.id,
          accountName: r.accountName,
          avatar: r.avatar,
          platform: a.platform,
          platformName: r.platformName,
          sandbox: r.sandbox,
          status: r.status,
          statsSupported: this.supports(a.platform),
          lastSnapshotAt: last.get(a.id)?.at.toISOString() ?? null,
          ...publishDataOf(e, s),
          likeIncrease: e.likes - s.likes,
          collectIncrease: e.collects - s.collects,
          commentIncrease: e.comments - s.comments,
          shareIncrease: e.shares - s.shares,
        };
      }),
    };
  }

  private supports(platform: string) {
    return typeof this.adapterOf(platform)?.metrics === 'function';
  }

  async notes(userId: number, q: DataNotesQuery): Promise<DataNotesPage> {
    const accounts = (await this.own(userId, q.accountId)).filter((a) => !q.platform || a.platform === q.platform);
    const { rows, total } = await this.repo.latestNotes({ accountIds: accounts.map((a) => a.id), q: q.q }, { sort: q.sort, order: q.order, limit: q.size, offset: (q.page - 1) * q.size });
    return { records: this.noteRows(accounts, rows), total, page: q.page, size: q.size };
  }

  private noteRows(accounts: AccountRow[], rows: Record<string, unknown>[]): DataNoteRow[] {
    const byId = new Map(accounts.map((a) => [a.id, this.accounts.toRecord(a)]));
    return rows.map((r) => {
      const a = byId.get(Number(r.account_id))!;
      const draft = r.draft_id == null ? NaN : Number(r.draft_id);
      return {
        noteId: Number(r.id),
        accountId: a.id,
        accountName: a.accountName,
        platform: a.platform,
        platformName: a.platformName,
        title: String(r.title),
        url: r.url == null ? null : String(r.url),
        draftId: Number.isInteger(draft) ? draft : null,
        publishId: r.publish_id == null ? null : String(r.publish_id),
        publishedAt: new Date(String(r.published_at)).toISOString(),
        views: Number(r.views),
        likes: Number(r.likes),
        collects: Number(r.collects),
        comments: Number(r.comments),
        shares: Number(r.shares),
        asOf: String(r.as_of),
      };
    });
  }

  async heatmap(userId: number, q: DataRangeQuery): Promise<DataHeatmap> {
    const accounts = await this.own(userId, q.accountId);
    const range = this.resolveRange(q);
    const { state } = await this.state(accounts);
    const cells = await this.repo.heatmap(accounts.map((a) => a.id), range.from, range.to);
    const best = cells.reduce<(typeof cells)[number] | null>((b, c) => (!b || c.avgViews > b.avgViews ? c : b), null);
    return { range, state, cells, best };
  }

  async top(userId: number, q: DataTopQuery): Promise<DataTop> {
    const accounts = await this.own(userId, q.accountId);
    const range = this.resolveRange(q);
    const { state } = await this.state(accounts);
    const { rows } = await this.repo.latestNotes({ accountIds: accounts.map((a) => a.id) }, { sort: q.by, order: 'desc', limit: q.limit, offset: 0, publishedFrom: range.from, publishedTo: range.to });
    return { range, state, notes: this.noteRows(accounts, rows) };
  }

  /**
   * The PDF report of the dashboard for the range: the figures are read here, the page is printed by Chromium in a
   * publisher-role job (`call`), so a web process never starts a browser.
   */
  async reportPdf(userId: number, q: DataRangeQuery): Promise<{ name: string; body: Buffer }> {
    const [overview, series, accounts, top] = await Promise.all([
      this.overview(userId, q),
      this.series(userId, q),
      this.accountsCompare(userId, q),
      this.top(userId, { ...q, by: 'views', limit: 10 }),
    ]);
    if (overview.state !== 'ready') throw appError(ErrorCode.NOT_FOUND, overview.state === 'noAccount' ? '还没有绑定账号，暂无可导出的数据' : '还没有数据快照，请先刷新数据');
    const generatedAt = new Date(this.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    const html = reportHtml({ generatedAt, overview, series, accounts, top });
    let b64: string;
    try {
      b64 = await this.jobs.call<{ html: string }, string>(DATA_REPORT_JOB, { html }, REPORT_WAIT_MS);
    } catch (err) {
      this.log.warn({ err }, 'data report render failed');
      throw appError(ErrorCode.PLATFORM_FAILED, 'PDF 报告生成失败（需要 publisher 进程的浏览器），请稍后重试或先导出 CSV');
    }
    return { name: `数据报告_${overview.range.from}_${overview.range.to}.pdf`, body: Buffer.from(b64, 'base64') };
  }

  /** CSV (UTF-8 with BOM so Excel reads the Chinese headers): the content table or the daily series. */
  async exportCsv(userId: number, q: DataExportQuery): Promise<{ name: string; body: string }> {
    if (q.kind === 'series') {
      const s = await this.series(userId, q);
      const head = ['日期', '粉丝数', '新增粉丝', '阅读/浏览', '点赞', '收藏', '评论', '分享'];
      const lines = s.points.map((p) => [p.date, p.followers, p.newFollowers, p.views, p.likes, p.collects, p.comments, p.shares]);
      return { name: `数据趋势_${s.range.from}_${s.range.to}.csv`, body: toCsv(head, lines) };
    }
    const rows: DataNoteRow[] = [];
    for (let page = 1; ; page += 1) {
      const p = await this.notes(userId, { page, size: 100, sort: 'publishedAt', order: 'desc', platform: q.platform, accountId: q.accountId, q: q.q });
      rows.push(...p.records);
      if (rows.length >= p.total || !p.records.length) break;
    }
    const head = ['标题', '平台', '账号', '发布时间', '阅读/浏览', '点赞', '收藏', '评论', '分享', '数据日期', '链接'];
    const lines = rows.map((r) => [r.title, r.platformName, r.accountName, r.publishedAt, r.views, r.likes, r.collects, r.comments, r.shares, r.asOf, r.url]);
    return { name: `内容数据_${this.today()}.csv`, body: toCsv(head, lines) };
  }
}

function publishDataOf(e: Totals, s: Totals): PublishData {
  return {
    articleCount: e.notes,
    articleIncrease: e.notes - s.notes,
    readCount: e.views,
    readIncrease: e.views - s.views,
    followCount: e.followers,
    followIncrease: e.followers - s.followers,
  };
}

/**
 * RFC 4180 fields (quotes doubled, fields with a comma, quote or line break quoted); a text cell starting with
 * = + - @ is prefixed with ' so a spreadsheet shows it instead of running it as a formula (titles are user text).
 */
export function toCsv(head: string[], rows: Array<Array<string | number | null>>): string {
  const cell = (v: string | number | null) => {
    if (v === null) return '';
    if (typeof v === 'number') return String(v);
    const t = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
    return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  return `\uFEFF${[head, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}
