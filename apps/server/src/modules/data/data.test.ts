import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME, type LoginConnectReply, type AccountCount, type DataAccounts, type DataNotesPage, type DataOverview, type DataSeries, type PlatformAccount, type PublishArticleReply } from '@inkstone/shared';
import { ConfigError, loadConfig } from '../../config.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { PNG_DATA_URL, allFinished, bindSandboxAccount, publishApi, sandboxControl, startPublishApp, until, waitForPublish } from '../../test/publish-helpers.js';
import { accountDay, addDays, dayOf, noteFigures } from '../../integrations/platforms/sandbox-metrics.js';
import { sandboxCreatorId } from '../../integrations/platforms/sandbox-site.js';
import { pdfText } from '../../test/pdf-text.js';
import { datacubeArticle, datacubeUser, startWechatPublishStandin } from '../../test/standins/wechat-mp-publish.js';

const DAY = 86_400_000;

describeOnDatabases('data analysis from sandbox snapshots on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  let other: string;
  let account: PlatformAccount;
  let note: { id: string; title: string; url: string | null; publishedAt: number };
  const identity = `数据测试${dbKind}`;
  // The sandbox creator's base followers, as the site derives them from the creator id.
  const base = () => {
    const id = sandboxCreatorId(identity);
    return 100 + (parseInt(id.slice(3, 7), 16) % 900);
  };
  const today = () => dayOf(t.clock.now().getTime());

  beforeAll(async () => {
    t = await startPublishApp(dbKind);
    token = (await loginByPhone(t)).tokenValue;
    other = (await loginByPhone(t)).tokenValue;
    account = await bindSandboxAccount(t, token, identity);
    const pub = await t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), {
      token,
      body: { accountIds: [account.id], content: { title: '西湖的春天', body: '<p>春天的西湖很美。</p>', images: [PNG_DATA_URL], topics: ['旅行'] } },
    });
    expect(pub.code).toBe(0);
    const done = await waitForPublish(t, token, pub.data.publishId, allFinished);
    expect(done.jobs[0]!.status).toBe('succeeded');
    const notes = (await (await fetch(`${t.url}/sandbox-platform/api/_notes`)).json()) as { data: { notes: Array<{ id: string; title: string; createdAt: number; scheduledAt: number | null }> } };
    const n = notes.data.notes.find((x) => x.title === '西湖的春天')!;
    note = { id: n.id, title: n.title, url: `/sandbox-platform/notes/${n.id}`, publishedAt: n.scheduledAt ?? n.createdAt };
    // Five days pass on the platform and for the server.
    await sandboxControl(t, { advanceDays: 5 });
    t.clock.advance(5 * DAY);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers noData before the first snapshot, then the sandbox figures exactly after 刷新', async () => {
    const before = await t.call<DataOverview>('GET', '/api/data/overview', { token });
    expect(before.code).toBe(0);
    expect(before.data.state).toBe('noData');
    expect(before.data.lastSnapshotAt).toBeNull();

    const refresh = await t.call<{ queued: number }>('POST', '/api/data/refresh', { token });
    expect(refresh.code).toBe(0);
    expect(refresh.data.queued).toBe(1);
    const again = await t.call('POST', '/api/data/refresh', { token });
    expect(again.code).toBe(ErrorCode.RATE_LIMITED);
    expect(again.msg).toMatch(/刷新过于频繁/);
    await until(() => t.call<DataOverview>('GET', '/api/data/overview', { token }), (r) => r.data.state === 'ready');

    const published = dayOf(note.publishedAt);
    const to = addDays(today(), -1);
    const meta = { id: note.id, title: note.title, url: note.url, publishedAt: note.publishedAt };
    // Custom range starting two days after publishing: increases are end minus the day before `from`.
    const from = addDays(published, 2);
    const end = noteFigures(meta, to);
    const start = noteFigures(meta, addDays(from, -1));
    const followersEnd = accountDay(base(), [meta], to).followers;
    const followersStart = accountDay(base(), [meta], addDays(from, -1)).followers;
    expect(end.views).toBeGreaterThan(start.views);
    const o = await t.call<DataOverview>('GET', '/api/data/overview', { token, query: { range: 'custom', from, to } });
    expect(o.code).toBe(0);
    expect(o.data).toMatchObject({
      state: 'ready',
      articleCount: 1,
      articleIncrease: 0,
      readCount: end.views,
      readIncrease: end.views - start.views,
      followCount: followersEnd,
      followIncrease: followersEnd - followersStart,
      likeCount: end.likes,
      likeIncrease: end.likes - start.likes,
      collectCount: end.collects,
      collectIncrease: end.collects - start.collects,
      commentCount: end.comments,
      shareCount: end.shares,
      accountCount: 1,
      expiredAccounts: 0,
    });

    // The 7-day range covers the publish day: the note counts as new, its views and followers all increase.
    const week = await t.call<DataOverview>('GET', '/api/data/overview', { token, query: { range: '7' } });
    expect(week.data).toMatchObject({ articleCount: 1, articleIncrease: 1, readCount: end.views, readIncrease: end.views, followCount: followersEnd, followIncrease: followersEnd - base() });
    // publishData of the global store comes from the same snapshots.
    const count = await t.call<AccountCount>('GET', '/api/publish/account/count/v3', { token });
    expect(count.data.publishData).toEqual({ articleCount: 1, articleIncrease: 1, readCount: end.views, readIncrease: end.views, followCount: followersEnd, followIncrease: followersEnd - base() });

    const series = await t.call<DataSeries>('GET', '/api/data/series', { token, query: { range: 'custom', from: published, to: today() } });
    expect(series.code).toBe(0);
    const expected = [];
    for (let d = published; d <= to; d = addDays(d, 1)) expected.push({ date: d, ...accountDay(base(), [meta], d) });
    expect(series.data.points.slice(0, -1)).toEqual(expected.map(({ day: _day, ...p }) => p));
    // Today is not complete: no figure yet.
    expect(series.data.points.at(-1)).toEqual({ date: today(), followers: null, newFollowers: null, views: null, likes: null, collects: null, comments: null, shares: null });

    const table = await t.call<DataNotesPage>('GET', '/api/data/notes', { token, query: { sort: 'views', order: 'desc' } });
    expect(table.data.total).toBe(1);
    expect(table.data.records[0]).toMatchObject({ title: '西湖的春天', accountId: account.id, platform: 'sandbox', views: end.views, likes: end.likes, asOf: to, url: note.url });
    expect(table.data.records[0]!.publishId).toMatch(/\w+/);

    const accounts = await t.call<DataAccounts>('GET', '/api/data/accounts', { token, query: { range: '7' } });
    expect(accounts.data.accounts).toEqual([expect.objectContaining({ accountId: account.id, statsSupported: true, followCount: followersEnd, readCount: end.views })]);
  });

  it('exports the table and the series as CSV with a BOM', async () => {
    const notes = await fetch(`${t.url}/api/data/export.csv?kind=notes`, { headers: { [TOKEN_NAME]: token } });
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await notes.arrayBuffer());
    expect(notes.headers.get('content-type')).toMatch(/text\/csv/);
    expect(notes.headers.get('content-disposition')).toContain(encodeURIComponent('内容数据_'));
    expect(text.startsWith('\uFEFF标题,平台,账号,发布时间,阅读/浏览,点赞,收藏,评论,分享,数据日期,链接\r\n')).toBe(true);
    const end = noteFigures({ ...note }, addDays(today(), -1));
    const lines = text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`西湖的春天,沙箱平台,${identity},`);
    expect(lines[1]).toContain(`,${end.views},${end.likes},${end.collects},${end.comments},${end.shares},${addDays(today(), -1)},`);

    const series = await fetch(`${t.url}/api/data/export.csv?kind=series&range=7`, { headers: { [TOKEN_NAME]: token } });
    const rows = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await series.arrayBuffer()).trimEnd().split('\r\n');
    expect(rows[0]).toBe('\uFEFF日期,粉丝数,新增粉丝,阅读/浏览,点赞,收藏,评论,分享');
    expect(rows).toHaveLength(8);
    expect(rows.at(-1)).toBe(`${today()},,,,,,,`);
  });

  it("refuses another user's account and bad input with clean codes", async () => {
    const theirs = await t.call('GET', '/api/data/overview', { token: other, query: { accountId: account.id } });
    expect(theirs.code).toBe(ErrorCode.NOT_FOUND);
    expect(theirs.msg).toBe('账号不存在或已解绑');
    const notes = await t.call('GET', '/api/data/notes', { token: other, query: { accountId: account.id } });
    expect(notes.code).toBe(ErrorCode.NOT_FOUND);
    const empty = await t.call<DataOverview>('GET', '/api/data/overview', { token: other });
    expect(empty.data).toMatchObject({ state: 'noAccount', followCount: 0, readCount: 0 });

    const noFrom = await t.call('GET', '/api/data/overview', { token, query: { range: 'custom', to: today() } });
    expect(noFrom.code).toBe(ErrorCode.VALIDATION);
    expect(noFrom.msg).toContain('from');
    const badRange = await t.call('GET', '/api/data/series', { token, query: { range: '14' } });
    expect(badRange.code).toBe(ErrorCode.VALIDATION);
    expect(badRange.msg).toContain('range');
    const badSort = await t.call('GET', '/api/data/notes', { token, query: { sort: 'title' } });
    expect(badSort.code).toBe(ErrorCode.VALIDATION);
    const backwards = await t.call('GET', '/api/data/overview', { token, query: { range: 'custom', from: today(), to: addDays(today(), -3) } });
    expect(backwards.code).toBe(ErrorCode.VALIDATION);
    expect(backwards.msg).toContain('to 不能早于 from');
    const pdf = await t.call('GET', '/api/data/report.pdf', { token: other });
    expect(pdf.code).toBe(ErrorCode.NOT_FOUND);
    expect(pdf.msg).toBe('还没有绑定账号，暂无可导出的数据');
    const pdfTheirs = await t.call('GET', '/api/data/report.pdf', { token: other, query: { accountId: account.id } });
    expect(pdfTheirs.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('exports the dashboard as a PDF printed by Chromium, with the figures, the trend table and the top note', async () => {
    const res = await fetch(`${t.url}/api/data/report.pdf?range=7`, { headers: { [TOKEN_NAME]: token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(encodeURIComponent('数据报告_'));
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const { text: flat, pages } = await pdfText(bytes);
    expect(pages).toBeGreaterThanOrEqual(1);
    const yesterday = addDays(today(), -1);
    const end = noteFigures({ ...note }, yesterday);
    const followers = accountDay(base(), [{ ...note }], yesterday).followers;
    const fmt = (v: number) => v.toLocaleString('zh-CN');
    // CJK text survives (Chromium embeds the system's Noto CJK with its Unicode map), and the figures are the overview's.
    for (const s of ['数据报告', `统计区间${addDays(today(), -6)}至${today()}`, '粉丝数', '阅读/浏览', '账号对比', '西湖的春天', identity]) expect(flat).toContain(s);
    expect(flat).toContain(`阅读/浏览${fmt(end.views)}区间增量+${fmt(end.views)}`);
    expect(flat).toContain(`粉丝数${fmt(followers)}区间增量+${fmt(followers - base())}`);
    // The trend table: yesterday's row with its exact day figures; today has none yet.
    const day = accountDay(base(), [{ ...note }], yesterday);
    expect(flat).toContain(`${yesterday}${fmt(day.followers)}${fmt(day.newFollowers)}${fmt(day.views)}${fmt(day.likes)}`);
    expect(flat).toContain(`${today()}——————`);
  });

  it('marks the account expired when the platform no longer accepts its session', async () => {
    await sandboxControl(t, { expireSessions: true, advanceDays: 1 });
    t.clock.advance(DAY);
    const refresh = await t.call('POST', '/api/data/refresh', { token });
    expect(refresh.code).toBe(0);
    const list = await until(
      () => t.call<{ records: PlatformAccount[] }>('GET', '/api/publish/account/list/v3', { token, query: { pageNum: 1, pageSize: 20 } }),
      (r) => r.data.records[0]?.status === 'expired',
    );
    expect(list.data.records[0]!.statusReason).toContain('登录已失效');
    const o = await t.call<DataOverview>('GET', '/api/data/overview', { token });
    expect(o.data.expiredAccounts).toBe(1);
  });
});

describeOnDatabases('WeChat Official Account data on a process without a browser (datacube stand-in, %s)', (dbKind) => {
  it('binds with AppID/AppSecret, snapshots through datacube as worker work, and the dashboard equals what datacube reported', async () => {
    const creds = { appId: 'wxdata0123456789ab', appSecret: 'secret-for-the-datacube-standin00' };
    const standin = await startWechatPublishStandin({ ...creds, followers: 800 });
    const t = await startPublishApp(dbKind, { ROLES: 'web,worker', PUBLISH_PLATFORMS: 'sandbox,wechat_mp', WECHAT_API_BASE: standin.url });
    try {
      const { tokenValue: token } = await loginByPhone(t);
      const conn = await t.call<LoginConnectReply>('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'wechat_mp', ...creds } });
      expect(conn.code).toBe(0);
      expect((await t.call('GET', publishApi(t, '/chrome/login/cookie'), { token, query: { connectionId: conn.data.connectionId } })).code).toBe(0);
      const bound = await t.call<PlatformAccount>('POST', '/publish/v4/account/bind', { token, body: { connectionId: conn.data.connectionId } });
      expect(bound.code).toBe(0);
      const today = dayOf(t.clock.now().getTime());
      const yesterday = addDays(today, -1);
      const article = { msgid: '2247499001_1', title: '公众号数据文章', refDate: addDays(today, -4) };
      standin.articles.push(article);

      expect((await t.call('POST', '/api/data/refresh', { token })).data).toMatchObject({ queued: 1 });
      const o = await until(
        () => t.call<DataOverview>('GET', '/api/data/overview', { token, query: { range: '7' } }),
        (r) => r.data.state === 'ready',
      );
      const followers = datacubeUser(creds.appId, 800, yesterday).cumulate;
      const totals = datacubeArticle(article, yesterday);
      expect(o.data).toMatchObject({
        followCount: followers,
        followIncrease: followers - datacubeUser(creds.appId, 800, addDays(today, -7)).cumulate,
        readCount: totals.int_page_read_count,
        readIncrease: totals.int_page_read_count,
        articleCount: 1,
        articleIncrease: 1,
        collectCount: totals.add_to_fav_count,
        shareCount: totals.share_count,
        likeCount: 0,
      });
      const series = await t.call<DataSeries>('GET', '/api/data/series', { token, query: { range: '7' } });
      const day = series.data.points.find((p) => p.date === yesterday)!;
      expect(day.followers).toBe(followers);
      expect(day.views).toBe(totals.int_page_read_count - datacubeArticle(article, addDays(yesterday, -1)).int_page_read_count);
      // Worker work: the API snapshot ran here, where no browser job is registered and Chromium never started.
      expect(t.container.jobs.registered()).toEqual(expect.arrayContaining(['data.snapshot', 'data.tick']));
      expect(t.container.jobs.registered()).not.toContain('publish.data-snapshot');
      expect(t.container.publishing.pool.stats().launches).toBe(0);
      // Nothing later than yesterday was asked of datacube, and no span over its limits.
      expect(standin.datacubeRequests.every((r) => String(r.end) <= yesterday)).toBe(true);
    } finally {
      await t.close();
      await standin.close();
    }
  }, 180_000);
});

describe('DATA_TODAY test hook', () => {
  it('is refused outside tests and e2e: production without the sandbox hooks, or on a public address', () => {
    const prod = { NODE_ENV: 'production', APP_SECRET_KEY: 'ab'.repeat(32), DATA_TODAY: '2026-03-20' };
    expect(() => loadConfig({ ...prod, PUBLIC_URL: 'http://127.0.0.1:3000' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...prod, SANDBOX_HOOKS: '1', PUBLIC_URL: 'https://xie.example.com' })).toThrow(/DATA_TODAY/);
    expect(() => loadConfig({ ...prod, SANDBOX_HOOKS: '1' })).toThrow(/DATA_TODAY/);
    expect(() => loadConfig({ ...prod, DATA_TODAY: '2026-3-20', NODE_ENV: 'test' })).toThrow(/DATA_TODAY/);
    expect(loadConfig({ ...prod, SANDBOX_HOOKS: '1', PUBLIC_URL: 'http://127.0.0.1:3000' }).DATA_TODAY).toBe('2026-03-20');
    expect(loadConfig({ ...prod, NODE_ENV: 'test' }).DATA_TODAY).toBe('2026-03-20');
  });

  it("starts the dashboards' clock at noon of that day; it moves on with the server's clock", async () => {
    const t = await startTestApp({ env: { DATA_TODAY: '2026-03-20' } });
    try {
      const token = (await loginByPhone(t)).tokenValue;
      const o = await t.call<DataOverview>('GET', '/api/data/overview', { token, query: { range: '7' } });
      expect(o.data.range).toEqual({ from: '2026-03-14', to: '2026-03-20', days: 7 });
      t.clock.advance(3 * DAY);
      expect((await t.call<DataSeries>('GET', '/api/data/series', { token, query: { range: '7' } })).data.range.to).toBe('2026-03-23');
    } finally {
      await t.close();
    }
  }, 180_000);
});
