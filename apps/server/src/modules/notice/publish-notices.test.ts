import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, type NoticeItem, type NoticePage, type PlatformAccount, type PublishArticleReply, type PublishRecordPage } from '@inkstone/shared';
import type { TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { publishJobs } from '../../db/schema/index.js';
import { PNG_DATA_URL, allFinished, bindSandboxAccount, publishApi, sandboxControl, sandboxNotes, startPublishApp, waitForPublish } from '../../test/publish-helpers.js';

const content = (title: string) => ({ title, body: '<p>春天的西湖很美，推荐大家去看看。</p>', images: [PNG_DATA_URL], topics: ['旅行'] });

describeOnDatabases('publishing leaves personal notices and a server-side history on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let a: PlatformAccount;
  let b: PlatformAccount;

  const publish = (body: Record<string, unknown>) => t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), { token, body });
  const notices = async (tk = token) => (await t.call<NoticePage>('GET', '/notice/v2/list', { token: tk, query: { pageSize: 100 } })).data.records;
  const titled = async (title: string, tk = token) => (await notices(tk)).filter((n) => n.title === title);
  const records = (query: Record<string, string | number>, tk = token) => t.call<PublishRecordPage>('GET', '/publish/record/list', { token: tk, query });

  beforeAll(async () => {
    t = await startPublishApp(dbKind);
    token = (await loginByPhone(t)).tokenValue;
    otherToken = (await loginByPhone(t)).tokenValue;
    a = await bindSandboxAccount(t, token, '通知甲');
    b = await bindSandboxAccount(t, token, '通知乙');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a published note: one 发布成功 notice opening the account’s operation board, even when the job runs again', async () => {
    const res = await publish({ accountIds: [a.id], content: content('通知测试成功') });
    expect(res.code).toBe(0);
    const done = await waitForPublish(t, token, res.data.publishId, allFinished);
    expect(done.status).toBe('succeeded');
    const ok = (await titled('发布成功')).filter((n) => n.content.includes('通知测试成功'));
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ type: 'system', link: `/operationBoard/${a.id}` });
    expect(ok[0]!.content).toContain('通知甲');

    // A redelivered job (crash after finishing, before the queue heard) finds the note and finishes again: no second notice.
    const jobId = res.data.jobs[0]!.jobId;
    await t.container.db.update(publishJobs).set({ status: 'queued' }).where(eq(publishJobs.id, jobId));
    await t.container.publishing.publishing.runJob(jobId);
    expect((await titled('发布成功')).filter((n) => n.content.includes('通知测试成功'))).toHaveLength(1);
    expect((await sandboxNotes(t)).filter((n) => n.title === '通知测试成功')).toHaveLength(1);
  });

  it('a refused note: the user reads a Chinese reason and what to do, and gets one 发布失败 notice', async () => {
    await sandboxControl(t, { failNext: 'reject' });
    const res = await publish({ accountIds: [a.id], content: content('通知测试被拒') });
    const done = await waitForPublish(t, token, res.data.publishId, allFinished);
    const job = done.jobs[0]!;
    expect(job).toMatchObject({ status: 'failed', errorCode: 'content_rejected', attempts: 1 });
    expect(job.error).toContain('内容涉嫌违规');
    expect(job.error).toContain('修改');
    expect(job.error).not.toContain('content_rejected');
    const failed = (await titled('发布失败')).filter((n) => n.content.includes('通知测试被拒'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ link: `/operationBoard/${a.id}` });
    expect(failed[0]!.content).toContain('内容涉嫌违规');
  });

  it('lists the user’s own publish records from the server, per account, and nobody else’s', async () => {
    const all = await records({ pageNum: 1, pageSize: 50 });
    expect(all.code).toBe(0);
    expect(all.data.total).toBeGreaterThanOrEqual(2);
    const forA = await records({ accountId: a.id });
    expect(forA.data.records.map((r) => r.title)).toEqual(['通知测试被拒', '通知测试成功']);
    expect(forA.data.records[0]).toMatchObject({ accountId: a.id, accountName: '通知甲', status: 'failed', errorCode: 'content_rejected', platform: 'sandbox' });
    expect(forA.data.records[1]!.url).toContain('/sandbox-platform/notes/');
    expect(forA.data.records[1]!.error).toBeNull();
    expect((await records({ accountId: b.id })).data).toMatchObject({ total: 0, records: [] });
    const paged = await records({ accountId: a.id, pageNum: 2, pageSize: 1 });
    expect(paged.data.records.map((r) => r.title)).toEqual(['通知测试成功']);

    // Another user: their own list is empty, and someone else's account is "not found".
    expect((await records({}, otherToken)).data.total).toBe(0);
    const foreign = await records({ accountId: a.id }, otherToken);
    expect(foreign.code).toBe(ErrorCode.NOT_FOUND);
    expect(foreign.data).toBeNull();
    expect((await records({ accountId: 'x' })).code).toBe(ErrorCode.VALIDATION);
    expect((await t.call('GET', '/publish/record/list')).code).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('a new purchase/contact comment becomes one 评论 notice per comment, never repeated by later syncs', async () => {
    const [note] = (await sandboxNotes(t)).filter((n) => n.title === '通知测试成功');
    const comment = (text: string) =>
      fetch(`${t.url}/sandbox-platform/api/notes/${note!.id}/comments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ author: '小鹿', content: text }),
      });
    await comment('这个多少钱？求链接');
    await comment('拍得真好看');
    await t.container.publishing.engagement.sync(a.id);
    await t.container.publishing.engagement.sync(a.id);
    const list = (await t.call<NoticePage>('GET', '/notice/v2/list', { token, query: { type: 'comment' } })).data.records;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'comment', title: '新的购买意向评论', link: `/operationBoard/${a.id}` });
    expect(list[0]!.content).toContain('这个多少钱？求链接');
    expect(list[0]!.content).toContain('小鹿');
  });

  it('a lapsed platform login: one notice pointing at the account manager, however many places notice it', async () => {
    const creatorId = (await t.container.publishing.repo.account(b.id))!.platformUserId;
    await sandboxControl(t, { expireSessions: creatorId });
    const res = await publish({ accountIds: [b.id], content: content('通知测试过期') });
    await waitForPublish(t, token, res.data.publishId, allFinished);
    await t.container.publishing.engagement.sync(b.id);
    await t.call('POST', publishApi(t, '/publish/passthrough'), { token, body: { category: 'sessionCheck', accountId: b.id } });
    const lapsed = await titled('账号登录已失效');
    expect(lapsed).toHaveLength(1);
    expect(lapsed[0]).toMatchObject({ link: '/accountManager' });
    expect(lapsed[0]!.content).toContain('通知乙');
    const failed = (await titled('发布失败')).filter((n) => n.content.includes('通知测试过期'));
    expect(failed).toHaveLength(1);
    expect(failed[0]!.link).toBe('/accountManager');
    expect(failed[0]!.content).toContain('重新扫码绑定');
    // Other users see none of these.
    expect(await notices(otherToken)).toEqual([] as NoticeItem[]);
  });
});

describe('binding a platform this server cannot reach', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 9 on loopback refuses connections: the same failure as a blocked or unresolvable site, without the wait.
    t = await startPublishApp('pglite', { PUBLISH_PLATFORMS: 'sandbox,xiaohongshu', XHS_CREATOR_URL: 'http://127.0.0.1:9', XHS_EDITH_URL: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says the server cannot reach 小红书 and what the operator should check', async () => {
    const token = (await loginByPhone(t)).tokenValue;
    const res = await t.call('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'xiaohongshu' } });
    expect(res.code).toBe(ErrorCode.PLATFORM_FAILED);
    expect(res.msg).toContain('服务器无法连接小红书');
    expect(res.msg).toMatch(/代理/);
    expect(res.msg).toMatch(/DNS/);
    expect(res.msg).not.toBe('平台暂时无法访问，请稍后再试');
  });
});
