import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AdminSiteProfile, LoginConnectReply, LoginScanReply, PlatformAccount, PublishArticleReply, UnreadCountsReply } from '@inkstone/shared';
import { commands } from '../../cli/commands.js';
import { drafts, notices, publishJobs, writingTasks } from '../../db/schema/index.js';
import { createCardRenderer } from '../../integrations/cards/index.js';
import type { TestApp } from '../../test/app.js';
import { loginAdmin, type TestAdmin } from '../../test/admin-helpers.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { allFinished, publishApi, startPublishApp, until, waitForPublish } from '../../test/publish-helpers.js';
import { startXhsCreatorStandin, type XhsCreatorStandin } from '../../test/standins/xhs-creator/server.js';

/**
 * The whole product against the 2026 Xiaohongshu page set, as a creator meets it: bind two accounts by QR, publish a
 * model-written draft as a three-image note (declared as AI content, a topic the site does not suggest skipped and
 * told), the note's review state followed until it is rejected, the inbox said to be unavailable, an operator's
 * selector fix used by the next publish without a restart, and the canary posting nothing.
 */
describeOnDatabases('Xiaohongshu through the product on %s', (db) => {
  let t: TestApp;
  let standin: XhsCreatorStandin;
  let token: string;
  let userId: number;
  let op: TestAdmin;
  let first: PlatformAccount;
  let images: string[];

  beforeAll(async () => {
    standin = await startXhsCreatorStandin({ generation: '2026' });
    t = await startPublishApp(db, {
      PUBLISH_PLATFORMS: 'xiaohongshu',
      XHS_CREATOR_URL: standin.url,
      XHS_EDITH_URL: standin.url,
      // Several publishes to one account in a minute: pacing is proven in pacing.test.ts.
      PUBLISH_PACING: JSON.stringify({ xiaohongshu: null }),
      PUBLISH_MAX_ATTEMPTS: '1',
    });
    const login = await loginByPhone(t);
    token = login.tokenValue;
    userId = login.user.id;
    op = await loginAdmin(t, 'operator');
    const renderer = createCardRenderer();
    const cards = await Promise.all(['cover', 'list', 'steps'].map((templateId, i) => renderer.render({ templateId, title: `第${i + 1}张`, text: '一\n二' })));
    images = cards.map((c) => `data:image/png;base64,${c.toString('base64')}`);
  });
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  async function bind(name: string): Promise<PlatformAccount> {
    const conn = await t.call<LoginConnectReply>('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'xiaohongshu' } });
    expect(conn.code, conn.msg).toBe(0);
    const q = { connectionId: conn.data.connectionId };
    await until(
      () => t.call<LoginScanReply>('GET', publishApi(t, '/chrome/login/code/scan'), { token, query: q }),
      (r) => r.code === 0 && !!r.data.qrImage,
    );
    await standin.scanLatest(true, name);
    await until(
      () => t.call<LoginScanReply>('GET', publishApi(t, '/chrome/login/code/scan'), { token, query: q }),
      (r) => r.data.scanState === 'confirmed',
      60_000,
    );
    const cookie = await t.call('GET', publishApi(t, '/chrome/login/cookie'), { token, query: q });
    expect(cookie.code, cookie.msg).toBe(0);
    const bound = await t.call<PlatformAccount>('POST', '/publish/v4/account/bind', { token, body: { connectionId: conn.data.connectionId } });
    expect(bound.code, bound.msg).toBe(0);
    return bound.data;
  }

  const publish = async (accountId: number, body: Record<string, unknown>) => {
    const res = await t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), { token, body: { accountIds: [accountId], ...body } });
    expect(res.code, res.msg).toBe(0);
    return waitForPublish(t, token, res.data.publishId, allFinished, 90_000);
  };

  it('binds two Xiaohongshu accounts as two', async () => {
    first = await bind('小红薯甲');
    const second = await bind('小红薯乙');
    expect(second.id).not.toBe(first.id);
    expect(first.accountName).toBe('小红薯甲');
    expect(second.accountName).toBe('小红薯乙');
  });

  it('a model-written draft goes out as a three-image note declared as AI content; a topic the site does not offer is skipped and told', async () => {
    const taskId = randomBytes(8).toString('hex');
    await t.container.db
      .insert(writingTasks)
      .values({ id: taskId, userId, kind: 'article', mode: 'quick', input: {}, modelId: 'standin', status: 'succeeded', pointsFeature: 'article' });
    const [draft] = await t.container.db.insert(drafts).values({ userId, title: '模型写的草稿', html: '<p>湖边的早晨</p>', taskId }).returning();
    const done = await publish(first.id, { draftId: draft!.id, content: { title: 'AI写的三图笔记', body: '<p>湖边的早晨</p>', images, topics: ['旅行', '冷门话题'] } });
    const job = done.jobs[0]!;
    expect(job.status, job.error ?? '').toBe('succeeded');
    expect(job.error).toContain('冷门话题');
    const note = standin.notes.find((n) => n.title === 'AI写的三图笔记')!;
    expect(note.images).toBe(3);
    expect(note.topics).toEqual(['旅行']);
    expect(note.aiDeclared).toBe(true);
    // A creator's own text is not declared.
    const own = await publish(first.id, { content: { title: '自己写的笔记', body: '<p>正文</p>', images: images.slice(0, 1), topics: [] } });
    expect(own.jobs[0]!.status).toBe('succeeded');
    expect(standin.notes.find((n) => n.title === '自己写的笔记')!.aiDeclared).toBe(false);
    expect(standin.unsignedCalls).toEqual([]);
  });

  it('follows the review: a note the site did not approve becomes 未通过 and the creator is told once; the inbox is said to be unavailable', async () => {
    const note = standin.notes.find((n) => n.title === '自己写的笔记')!;
    standin.setNoteStatus(note.id, 'reviewing');
    const [job] = await t.container.db.select().from(publishJobs).where(eq(publishJobs.platformNoteId, note.id));
    await t.container.db.update(publishJobs).set({ platformStatus: 'reviewing' }).where(eq(publishJobs.id, job!.id));
    standin.setNoteStatus(note.id, 'rejected');
    await t.container.publishing.engagement.sync(first.id);
    await t.container.publishing.engagement.sync(first.id);
    const [after] = await t.container.db.select().from(publishJobs).where(eq(publishJobs.id, job!.id));
    expect(after!.platformStatus).toBe('rejected');
    const told = await t.container.db
      .select()
      .from(notices)
      .where(and(eq(notices.userId, userId), eq(notices.title, '笔记未通过审核')));
    expect(told).toHaveLength(1);
    const unread = await t.call<UnreadCountsReply>('GET', '/publish/account/unread', { token, query: { accountId: first.id } });
    expect(unread.data.unavailable).toContain('网页版登录');
    const account = await t.container.publishing.repo.account(first.id);
    expect(account!.status).toBe('active');
  });

  it('an operator fixes a changed step in the console and the next publish uses it, without a restart; the canary posts nothing', async () => {
    const save = await t.call<AdminSiteProfile>('POST', '/admin/platform-health/profile/save', {
      token: op.token,
      body: { platform: 'xiaohongshu', override: { steps: { body: ['div.editor-gone[contenteditable]'] } }, note: '模拟改版' },
    });
    expect(save.code, save.msg).toBe(0);
    const broken = await publish(first.id, { content: { title: '改版当天', body: '<p>正文</p>', images: images.slice(0, 1), topics: [] } });
    expect(broken.jobs[0]!.status).toBe('failed');
    expect(broken.jobs[0]!.error).toContain('填写正文');
    expect(standin.notes.some((n) => n.title === '改版当天')).toBe(false);

    const fixed = await t.call<AdminSiteProfile>('POST', '/admin/platform-health/profile/save', {
      token: op.token,
      body: { platform: 'xiaohongshu', override: { steps: { body: ['[role="textbox"][contenteditable="true"]'] } }, note: '改用 role 定位' },
    });
    expect(fixed.code, fixed.msg).toBe(0);
    const ok = await publish(first.id, { content: { title: '修好以后', body: '<p>正文</p>', images: images.slice(0, 1), topics: [] } });
    expect(ok.jobs[0]!.status, ok.jobs[0]!.error ?? '').toBe('succeeded');

    const before = standin.notes.length;
    const out = await commands['platform:canary']!.run(t.container, { platform: 'xiaohongshu', account: String(first.id) });
    expect(String(out)).toContain('点击发布：已找到，未点击');
    expect(standin.notes.length).toBe(before);
    expect(standin.drafts).toHaveLength(0);
  });
});
