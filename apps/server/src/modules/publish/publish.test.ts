import { existsSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, type PlatformAccount, type PublishArticleReply } from '@inkstone/shared';
import type { TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { notices } from '../../db/schema/index.js';
import { PNG_DATA_URL, allFinished, bindSandboxAccount, publishApi, sandboxControl, sandboxNotes, startPublishApp, until, waitForPublish } from '../../test/publish-helpers.js';

const content = (title: string) => ({ title, body: '<p>春天的西湖很美，推荐大家去看看。</p>', images: [PNG_DATA_URL], topics: ['旅行', '西湖'] });

describeOnDatabases('publishing to the sandbox platform on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  let a: PlatformAccount;
  let b: PlatformAccount;

  const publish = (body: Record<string, unknown>) => t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), { token, body });
  const notesTitled = async (title: string) => (await sandboxNotes(t)).filter((n) => n.title === title);

  beforeAll(async () => {
    t = await startPublishApp(dbKind);
    token = (await loginByPhone(t)).tokenValue;
    a = await bindSandboxAccount(t, token, '账号甲');
    b = await bindSandboxAccount(t, token, '账号乙');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('checks platform limits before queueing anything', async () => {
    const before = (await sandboxNotes(t)).length;
    const res = await publish({ accountIds: [a.id], content: { ...content('这是一个明显超过二十个字的标题，小红书不允许这么长的标题'), images: [] } });
    expect(res.code).toBe(ErrorCode.PUBLISH_LIMIT);
    expect(res.msg).toContain('标题最多20字');
    expect(res.msg).toContain('至少需要1张图片');
    const noContent = await publish({ accountIds: [a.id] });
    expect(noContent.code).toBe(ErrorCode.VALIDATION);
    expect((await sandboxNotes(t)).length).toBe(before);
  });

  it('publishes to two accounts now, and to one on a schedule', async () => {
    const now = await publish({ accountIds: [a.id, b.id], content: content('两个账号同时发') });
    expect(now.code).toBe(0);
    expect(now.data.jobs).toHaveLength(2);
    const later = await publish({ accountIds: [b.id], content: content('定时发布一秒后'), scheduleAt: new Date(Date.now() + 1500).toISOString() });
    expect(later.code).toBe(0);
    expect(new Date(later.data.jobs[0]!.runAt).getTime()).toBeGreaterThan(Date.now());
    // Scheduled: waits.
    const waiting = await t.call<{ jobs: Array<{ status: string }> }>('GET', publishApi(t, '/publish/result'), { token, query: { publishId: later.data.publishId } });
    expect(waiting.data.jobs[0]!.status).toBe('queued');

    const done = await waitForPublish(t, token, now.data.publishId, allFinished);
    expect(done.status).toBe('succeeded');
    for (const j of done.jobs) expect(j.url).toMatch(/\/sandbox-platform\/notes\/n\d+$/);
    expect(await notesTitled('两个账号同时发')).toHaveLength(2);

    const scheduled = await waitForPublish(t, token, later.data.publishId, allFinished);
    expect(scheduled.jobs[0]).toMatchObject({ status: 'succeeded', accountId: b.id });
    expect(await notesTitled('定时发布一秒后')).toHaveLength(1);

    const status = await t.call('POST', '/publish/sandbox/submitStatus', { token, body: { publishId: now.data.publishId, status: 'success' } });
    expect(status.data).toEqual({ recorded: 2 });
  });

  it('publishes a saved draft to two accounts, one now and one scheduled', async () => {
    const saved = await t.call<{ id: number }>('POST', '/writing/draft/save', {
      token,
      body: { title: '草稿发布测试', html: `<p>冬至吃饺子还是汤圆？</p><p><img src="${PNG_DATA_URL}"></p>` },
    });
    expect(saved.code).toBe(0);
    const now = await publish({ accountIds: [a.id], draftId: saved.data.id });
    expect(now.code).toBe(0);
    const later = await publish({ accountIds: [b.id], draftId: saved.data.id, scheduleAt: new Date(Date.now() + 1500).toISOString() });
    expect(later.code).toBe(0);
    expect((await waitForPublish(t, token, now.data.publishId, allFinished)).status).toBe('succeeded');
    expect((await waitForPublish(t, token, later.data.publishId, allFinished)).status).toBe('succeeded');
    expect(await notesTitled('草稿发布测试')).toHaveLength(2);

    const missing = await publish({ accountIds: [a.id], draftId: 999_999 });
    expect(missing.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a retried job never posts twice: the note found after an interrupted submit is taken as the result', async () => {
    await sandboxControl(t, { failNext: 'after_submit' });
    const res = await publish({ accountIds: [a.id], content: content('提交后网络中断') });
    const done = await waitForPublish(t, token, res.data.publishId, allFinished);
    expect(done.jobs[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(done.jobs[0]!.url).toContain('/sandbox-platform/notes/');
    expect(await notesTitled('提交后网络中断')).toHaveLength(1);
  });

  it('a browser crash mid-publish fails that attempt with a screenshot; the retry succeeds and the pool recovers', async () => {
    const pool = t.container.publishing.pool;
    const launches = pool.stats().launches;
    await sandboxControl(t, { slowMs: 2500 });
    try {
      const res = await publish({ accountIds: [a.id], content: content('浏览器崩溃后重试') });
      const jobId = res.data.jobs[0]!.jobId;
      // The form is filled and submitted; the site is slow to answer: kill the browser process.
      await until(
        () => t.container.publishing.repo.job(jobId),
        (j) => j?.submitStartedAt != null,
        30_000,
        50,
      );
      await new Promise((r) => setTimeout(r, 300));
      const pid = await pool.browserPid();
      expect(pid).toBeGreaterThan(0);
      process.kill(pid!, 'SIGKILL');
      const done = await waitForPublish(t, token, res.data.publishId, allFinished, 60_000);
      expect(done.jobs[0]!.status).toBe('succeeded');
      const job = (await t.container.publishing.repo.job(jobId))!;
      expect(job.history.length).toBeGreaterThanOrEqual(1);
      expect(job.history[0]!.errorCode).toBe('transient');
      expect(job.history[0]!.error).toContain('浏览器');
      const shot = job.history.find((h) => h.screenshotPath)?.screenshotPath;
      expect(shot && existsSync(shot)).toBe(true);
      expect(done.jobs[0]!.screenshotUrl).toContain('/publish-api/publish/screenshot');
      const png = await fetch(`${t.url}${done.jobs[0]!.screenshotUrl}`, { headers: { 'inkstone-token': token } });
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(await notesTitled('浏览器崩溃后重试')).toHaveLength(1);
      expect(pool.stats().launches).toBe(launches + 1);
      expect(pool.stats().running).toBe(true);
    } finally {
      await sandboxControl(t, { slowMs: 0 });
    }
  });

  it('an expired session marks the account, fails the job without retrying and tells the user', async () => {
    // The site logs account 乙 out (only that creator).
    const creatorId = (await t.container.publishing.repo.account(b.id))!.platformUserId;
    await sandboxControl(t, { expireSessions: creatorId });
    const res = await publish({ accountIds: [b.id], content: content('登录过期') });
    const done = await waitForPublish(t, token, res.data.publishId, allFinished);
    expect(done.jobs[0]).toMatchObject({ status: 'failed', errorCode: 'session_expired', attempts: 1 });
    const list = await t.call<{ records: PlatformAccount[] }>('GET', '/publish/account/list/v3', { token });
    const acct = list.data.records.find((r) => r.id === b.id)!;
    expect(acct).toMatchObject({ status: 'expired', statusReason: '登录已失效' });
    const [notice] = await t.container.db
      .select()
      .from(notices)
      .where(and(eq(notices.title, '账号登录已失效')));
    expect(notice?.content).toContain('账号乙');
    const again = await publish({ accountIds: [b.id], content: content('再次发布') });
    expect(again.code).toBe(ErrorCode.PLATFORM_ACCOUNT_EXPIRED);
    // Re-binding by QR makes it active again.
    const rebound = await bindSandboxAccount(t, token, '账号乙');
    expect(rebound).toMatchObject({ id: b.id, status: 'active' });
  });

  it('fetches comments on a schedule; purchase/contact intents come with suggested replies and raise mentions', async () => {
    // Its own note, on account 甲 only: the test does not lean on what an earlier one published.
    const res = await publish({ accountIds: [a.id], content: content('评论意图测试') });
    expect((await waitForPublish(t, token, res.data.publishId, allFinished)).status).toBe('succeeded');
    const [note] = await notesTitled('评论意图测试');
    expect(note).toBeDefined();
    const comment = (content: string) =>
      fetch(`${t.url}/sandbox-platform/api/notes/${note!.id}/comments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ author: '路人', content }),
      });
    await comment('这个多少钱？有链接吗');
    await comment('可以加V详聊吗');
    await comment('拍得真好看');
    for (const id of [a.id, b.id]) await t.container.publishing.engagement.sync(id);
    const unread = async (accountId: number) => (await t.call<{ mentions: number }>('GET', '/publish/account/unread', { token, query: { accountId } })).data;
    const intents = async (accountId: number) =>
      (
        await t.call<{ records: Array<{ content: string; intents: string[]; suggestedReply: string }>; total: number }>('GET', '/thirdparty/intension/comment', {
          token,
          query: { accountId },
        })
      ).data;

    expect((await unread(a.id)).mentions).toBe(3);
    const found = await intents(a.id);
    expect(found.total).toBe(2);
    const byText = Object.fromEntries(found.records.map((r) => [r.content, r]));
    expect(byText['这个多少钱？有链接吗']!.intents).toEqual(['purchase']);
    expect(byText['可以加V详聊吗']!.intents).toEqual(['contact']);
    expect(byText['可以加V详聊吗']!.suggestedReply).toContain('私信');
    // Account 乙 has no note with comments: nothing is attributed to it.
    expect((await intents(b.id)).total).toBe(0);
    expect((await unread(b.id)).mentions).toBe(0);
  });

  it('suggests topics from the text', async () => {
    const res = await t.call<{ tags: string[] }>('GET', '/agent/xhs/tags', { token, query: { text: '今天去杭州西湖旅行，拍了很多好看的照片，推荐大家春天去西湖看桃花' } });
    expect(res.data.tags).toEqual(expect.arrayContaining(['西湖', '桃花']));
  });
});
