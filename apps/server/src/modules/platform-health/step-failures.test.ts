import { afterAll, beforeAll, expect, it } from 'vitest';
import { TOKEN_NAME, type AdminSiteProfile, type AdminStepFailure, type Page, type PlatformAccount, type PublishArticleReply } from '@inkstone/shared';
import type { TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { loginAdmin, type TestAdmin } from '../../test/admin-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { PNG_DATA_URL, allFinished, bindSandboxAccount, publishApi, sandboxNotes, startPublishApp, waitForPublish } from '../../test/publish-helpers.js';
import { commands } from '../../cli/commands.js';

interface HealthList {
  platforms: Array<{ platform: string; day: number; week: number; steps: Array<{ step: string; label: string; day: number; week: number }> }>;
}

/**
 * The loop 平台健康 exists for, on the sandbox creator site (its publish form is a step profile like a real site's):
 * a site "changes" (here: an override whose title locator matches nothing), the publish fails at that step and leaves a
 * diagnostic in the console; the operator fixes the locator and the next publish works, without a restart. The canary
 * runs every step but the submit and posts nothing.
 */
describeOnDatabases('平台健康: step failures and the canary on the sandbox site on %s', (db) => {
  let t: TestApp;
  let op: TestAdmin;
  let token: string;
  let account: PlatformAccount;

  beforeAll(async () => {
    t = await startPublishApp(db);
    op = await loginAdmin(t, 'operator');
    token = (await loginByPhone(t)).tokenValue;
    account = await bindSandboxAccount(t, token, '巡检账号');
  });
  afterAll(async () => {
    await t?.close();
  });

  const save = (override: unknown, note: string) =>
    t.call<AdminSiteProfile>('POST', '/admin/platform-health/profile/save', { token: op.token, body: { platform: 'sandbox', override, note } });
  const rollback = (version: number) => t.call<AdminSiteProfile>('POST', '/admin/platform-health/profile/rollback', { token: op.token, body: { platform: 'sandbox', version } });
  const failures = async () => (await t.call<Page<AdminStepFailure>>('GET', '/admin/platform-health/failures', { token: op.token, query: { platform: 'sandbox' } })).data;
  const publish = async (title: string) => {
    const res = await t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), {
      token,
      body: { accountIds: [account.id], content: { title, body: '<p>西湖的春天</p>', images: [PNG_DATA_URL], topics: ['旅行'] } },
    });
    expect(res.code, res.msg).toBe(0);
    return waitForPublish(t, token, res.data.publishId, allFinished, 60_000);
  };
  const canary = () => commands['platform:canary']!.run(t.container, { platform: 'sandbox', account: String(account.id) }) as Promise<string>;

  it('a publish whose step matches nothing fails there with a diagnostic in the console; the fixed profile is used by the next publish', async () => {
    const saved = await save({ steps: { title: ['#title-gone', 'input[name="headline"]'] } }, '模拟平台改版');
    expect(saved.code, saved.msg).toBe(0);
    const notesBefore = (await sandboxNotes(t)).length;

    const failed = await publish('改版后的第一篇');
    expect(failed.jobs[0]).toMatchObject({ status: 'failed' });
    expect(failed.jobs[0]!.error).toContain('填写标题');
    expect((await sandboxNotes(t)).length).toBe(notesBefore);

    const page = await failures();
    expect(page.total).toBe(1);
    const f = page.records[0]!;
    expect(f).toMatchObject({
      platform: 'sandbox',
      source: 'publish',
      accountId: account.id,
      jobId: failed.jobs[0]!.jobId,
      step: 'title',
      stepLabel: '填写标题',
      key: 'title',
      tried: ['#title-gone', 'input[name="headline"]'],
      profileVersion: 1,
    });
    expect(f.url).toMatch(/\/sandbox-platform\/publish$/);
    expect(f.domExcerpt).toContain('id="title"');
    // Scrubbed: no scripts, no form values; and never the session.
    expect(f.domExcerpt).not.toMatch(/<script\b[^>]*>[^…]/);
    const session = t.container.publishing.accounts.openSession((await t.container.publishing.repo.account(account.id))!);
    for (const c of (JSON.parse(session) as { cookies: Array<{ value: string }> }).cookies) expect(JSON.stringify(f)).not.toContain(c.value);

    // The screenshot, through the console route (with the console login), as a PNG.
    expect(f.screenshotUrl).toBe(`/api/admin/platform-health/screenshot?id=${f.id}`);
    const shot = await fetch(`${t.url}${f.screenshotUrl}`, { headers: { [TOKEN_NAME]: op.token } });
    expect(shot.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await shot.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('\x89PNG');
    const anonymous = (await (await fetch(`${t.url}${f.screenshotUrl}`)).json()) as { code: number };
    expect(anonymous.code).not.toBe(0);

    const health = (await t.call<HealthList>('GET', '/admin/platform-health', { token: op.token })).data.platforms.find((p) => p.platform === 'sandbox')!;
    expect(health).toMatchObject({ day: 1, week: 1, steps: [{ step: 'title', label: '填写标题', day: 1, week: 1 }] });

    // The operator fixes the locator (a new version); the very next publish uses it, no restart.
    expect((await save({ steps: { title: ['#title-gone', '#title'] } }, '改回正确的标题选择器')).code).toBe(0);
    const fixed = await publish('修好以后的第一篇');
    expect(fixed.jobs[0]).toMatchObject({ status: 'succeeded' });
    expect((await sandboxNotes(t)).filter((n) => n.title === '修好以后的第一篇')).toHaveLength(1);
    expect((await rollback(0)).code).toBe(0);
  });

  it('the canary runs every step up to the submit, prints each in Chinese and posts nothing', async () => {
    const before = await sandboxNotes(t);
    const out = await canary();
    expect(out).toContain('✓ 检查登录状态：有效');
    expect(out).toContain('✓ 填写标题：通过');
    expect(out).toContain('✓ 点击发布：已找到，未点击');
    expect(out).toContain('结果：通过');
    expect(out).not.toContain('✗');
    expect(await sandboxNotes(t)).toEqual(before);
    expect((await sandboxNotes(t)).some((n) => n.title === '巡检笔记')).toBe(false);
  });

  it('a failing canary exits non-zero, says which step, records the diagnostic and posts nothing', async () => {
    const before = await sandboxNotes(t);
    const recorded = (await failures()).total;
    expect((await save({ steps: { body: ['#content-v2'] } }, '模拟正文编辑器改版')).code).toBe(0);
    await expect(canary()).rejects.toThrow(/✗ 填写正文（body）：失败[\s\S]*#content-v2[\s\S]*结果：失败/);
    const page = await failures();
    expect(page.total).toBe(recorded + 1);
    expect(page.records[0]).toMatchObject({ source: 'canary', accountId: account.id, jobId: null, step: 'body', tried: ['#content-v2'] });
    expect(await sandboxNotes(t)).toEqual(before);
    expect((await rollback(0)).code).toBe(0);
    await expect(commands['platform:canary']!.run(t.container, { platform: 'sandbox', account: '99999' })).rejects.toThrow('没有绑定在沙箱平台的账号 99999');
  });
});
