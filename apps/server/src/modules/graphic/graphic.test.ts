import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, type CoverReply, type PublishArticleReply } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { allFinished, bindSandboxAccount, publishApi, sandboxNotes, startPublishApp, waitForPublish } from '../../test/publish-helpers.js';

describeOnDatabases('cover cards on %s', (dbKind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('renders a 1080x1440 PNG from the title, stores it and serves it at the returned URL', async () => {
    const res = await t.call<CoverReply>('POST', '/graphic/cover', { token, body: { title: '  春日午后的一杯咖啡  ', themeId: 'ink' } });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ width: 1080, height: 1440 });
    expect(res.data.url).toMatch(/^\/uploads\/images\/[0-9a-f-]{36}\.png$/);
    const img = await fetch(`${t.url}${res.data.url}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await img.arrayBuffer());
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1080, 1440]);
  });

  it('keeps the cover in the image library, found by the words of its title', async () => {
    const made = await t.call<CoverReply>('POST', '/graphic/cover', { token, body: { title: '秋天的银杏大道' } });
    expect(made.code).toBe(0);
    const found = await t.call<Array<{ url: string }>>('GET', '/material/v3/image/search', { token, query: { keyword: '银杏' } });
    expect(found.code).toBe(0);
    expect(found.data.map((i) => i.url)).toContain(made.data.url);
  });

  it('refuses an empty, blank or over-long title and an unknown theme with 1001 naming the field', async () => {
    for (const body of [{}, { title: '' }, { title: '   ' }]) {
      const res = await t.call('POST', '/graphic/cover', { token, body });
      expect(res.code).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toContain('title');
    }
    const long = await t.call('POST', '/graphic/cover', { token, body: { title: '字'.repeat(41) } });
    expect(long.code).toBe(ErrorCode.VALIDATION);
    expect(long.msg).toContain('最多40个字');
    // 40 characters is the limit, not beyond it (emoji count as one).
    expect((await t.call('POST', '/graphic/cover', { token, body: { title: '😀'.repeat(40) } })).code).toBe(0);
    const theme = await t.call('POST', '/graphic/cover', { token, body: { title: '标题', themeId: 'neon' } });
    expect(theme.code).toBe(ErrorCode.VALIDATION);
    expect(theme.msg).toContain('themeId');
  });

  it('requires login', async () => {
    const res = await t.call('POST', '/graphic/cover', { body: { title: '标题' } });
    expect(res.code).toBe(401);
  });
});

describeOnDatabases('a generated cover completes a draft for a platform that needs images, on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  let accountId: number;

  beforeAll(async () => {
    t = await startPublishApp(dbKind);
    token = (await loginByPhone(t)).tokenValue;
    accountId = (await bindSandboxAccount(t, token, '封面测试账号')).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the picture-less draft before queueing, then publishes it with the cover (the same bytes reach the platform)', async () => {
    const html = '<p>三个提高阅读效率的小方法：先看目录，再做笔记，最后复述。</p>';
    const saved = await t.call<{ id: number }>('POST', '/writing/draft/save', { token, body: { title: '高效阅读三步法', html } });
    expect(saved.code).toBe(0);
    const draftId = saved.data.id;
    const notesBefore = (await sandboxNotes(t)).length;

    const refused = await t.call('POST', publishApi(t, '/publish/article'), { token, body: { accountIds: [accountId], draftId } });
    expect(refused.code).toBe(ErrorCode.PUBLISH_LIMIT);
    expect(refused.msg).toContain('沙箱平台：至少需要1张图片');

    const cover = await t.call<CoverReply>('POST', '/graphic/cover', { token, body: { title: '高效阅读三步法' } });
    expect(cover.code).toBe(0);
    const res = await t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), {
      token,
      body: { accountIds: [accountId], draftId, content: { title: '高效阅读三步法', body: html, images: [cover.data.url] } },
    });
    expect(res.code, res.msg).toBe(0);
    const done = await waitForPublish(t, token, res.data.publishId, allFinished, 60_000);
    expect(done.jobs.map((j) => [j.status, j.error])).toEqual([['succeeded', null]]);

    const notes = (await (await fetch(`${t.url}/sandbox-platform/api/_notes`)).json()) as { data: { notes: Array<{ title: string; imageSha256?: string[] }> } };
    expect(notes.data.notes.length).toBe(notesBefore + 1);
    const note = notes.data.notes.find((n) => n.title === '高效阅读三步法')!;
    const png = Buffer.from(await (await fetch(`${t.url}${cover.data.url}`)).arrayBuffer());
    expect(note.imageSha256).toEqual([createHash('sha256').update(png).digest('hex')]);
  });
});
