import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, type AdminAuditEntry, type AdminSiteProfile, type Page } from '@inkstone/shared';
import { startTestApp, startWebProcesses, type TestApp } from '../../test/app.js';
import { describeNeeding, describeOnDatabases } from '../../test/database.js';
import { loginAdmin, type TestAdmin } from '../../test/admin-helpers.js';
import { sandboxProfile } from '../../integrations/platforms/sandbox.js';
import { cliActor } from '../admin/audit.service.js';

interface HealthList {
  platforms: Array<{ platform: string; label: string; editable: boolean; activeVersion: number; day: number; week: number; steps: unknown[] }>;
}

describeOnDatabases('平台健康: site profile overrides on %s', (db) => {
  let t: TestApp;
  let op: TestAdmin;

  beforeAll(async () => {
    t = await startTestApp({ db, env: { PUBLISH_PLATFORMS: 'sandbox,wechat_mp', RATE_LIMIT_PER_MINUTE: '100000' } });
    op = await loginAdmin(t, 'operator');
  });
  afterAll(async () => {
    await t?.close();
  });

  const profile = async (token = op.token) => t.call<AdminSiteProfile>('GET', '/admin/platform-health/profile', { token, query: { platform: 'sandbox' } });
  const save = (override: unknown, note = '改版', token = op.token) =>
    t.call<AdminSiteProfile>('POST', '/admin/platform-health/profile/save', { token, body: { platform: 'sandbox', override, note } });
  const rollback = (version: number, token = op.token) =>
    t.call<AdminSiteProfile>('POST', '/admin/platform-health/profile/rollback', { token, body: { platform: 'sandbox', version } });
  const audit = async (action: string) =>
    (await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token: op.token, query: { action, targetType: 'site_profile', targetId: 'sandbox' } })).data.records;
  /** What the sandbox adapter reads at its next publish. */
  const inUse = () => t.container.platformHealth.profiles.override('sandbox');

  it('shows each platform, which ones have selectors to edit, and the built-in profile of the sandbox site', async () => {
    const list = await t.call<HealthList>('GET', '/admin/platform-health', { token: op.token });
    expect(list.code, list.msg).toBe(0);
    expect(list.data.platforms.map((p) => [p.platform, p.editable, p.activeVersion, p.week])).toEqual([
      ['sandbox', true, 0, 0],
      ['wechat_mp', false, 0, 0],
    ]);
    const p = await profile();
    expect(p.data).toMatchObject({ platform: 'sandbox', label: '沙箱平台', builtIn: sandboxProfile, activeVersion: 0, active: null, versions: [] });
    expect(p.data.stepLabels).toMatchObject({ title: '填写标题', 'upload.input': '上传图片', submit: '点击发布' });
    const wechat = await t.call('GET', '/admin/platform-health/profile', { token: op.token, query: { platform: 'wechat_mp' } });
    expect(wechat.code).toBe(ErrorCode.CONFLICT);
  });

  it('refuses a bad override with every problem listed, and changes nothing', async () => {
    const bad = await save({ steps: { title: [], nope: ['#x'] }, paths: { login: 'no-slash' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    const errors = (bad.data as unknown as { errors: string[] }).errors;
    expect(errors).toEqual(expect.arrayContaining([expect.stringContaining('steps.title'), expect.stringContaining('paths.login')]));
    const unknown = await save({ steps: { nope: ['#x'] } });
    expect((unknown.data as unknown as { errors: string[] }).errors).toEqual(['steps.nope：不是这个平台的步骤']);
    expect(unknown.msg).toContain('不是这个平台的步骤');
    expect((await save({})).code).toBe(ErrorCode.VALIDATION);
    expect((await save('not an object')).code).toBe(ErrorCode.VALIDATION);
    expect((await profile()).data).toMatchObject({ activeVersion: 0, active: null, versions: [] });
    expect(inUse()).toBeNull();
    expect(await audit('site_profile.save')).toEqual([]);
  });

  it('saves versions that apply at once, rolls back to any earlier one or to the built-in profile, each audited', async () => {
    const v1 = await save({ steps: { title: ['#title-2026', '#title'] } }, '标题输入框改版');
    expect(v1.code, v1.msg).toBe(0);
    expect(v1.data).toMatchObject({ activeVersion: 1, active: { steps: { title: ['#title-2026', '#title'] } } });
    expect(inUse()).toEqual({ steps: { title: ['#title-2026', '#title'] } });

    const v2 = await save({ steps: { body: ['textarea[name="content"]'], title: ['#title'] } }, '正文编辑器改版');
    expect(v2.data.activeVersion).toBe(2);
    expect(v2.data.versions.map((v) => [v.version, v.note, v.active, v.createdBy])).toEqual([
      [2, '正文编辑器改版', true, op.userId],
      [1, '标题输入框改版', false, op.userId],
    ]);
    expect(inUse()).toEqual({ steps: { body: ['textarea[name="content"]'], title: ['#title'] } });

    const back = await rollback(1);
    expect(back.code, back.msg).toBe(0);
    expect(back.data).toMatchObject({ activeVersion: 1, active: { steps: { title: ['#title-2026', '#title'] } } });
    expect(back.data.versions.map((v) => [v.version, v.active])).toEqual([
      [2, false],
      [1, true],
    ]);
    expect(inUse()).toEqual({ steps: { title: ['#title-2026', '#title'] } });
    expect((await rollback(1)).code).toBe(ErrorCode.CONFLICT);
    expect((await rollback(7)).code).toBe(ErrorCode.NOT_FOUND);

    const builtIn = await rollback(0);
    expect(builtIn.data).toMatchObject({ activeVersion: 0, active: null });
    expect(inUse()).toBeNull();
    expect((await t.call<HealthList>('GET', '/admin/platform-health', { token: op.token })).data.platforms[0]!.activeVersion).toBe(0);

    const saves = await audit('site_profile.save');
    expect(saves.map((e) => [e.actorId, e.before, e.after])).toEqual([
      [op.userId, { version: 1, override: { steps: { title: ['#title-2026', '#title'] } } }, { version: 2, override: v2.data.active, note: '正文编辑器改版' }],
      [op.userId, { version: 0, override: null }, { version: 1, override: v1.data.active, note: '标题输入框改版' }],
    ]);
    const rollbacks = await audit('site_profile.rollback');
    expect(rollbacks.map((e) => [e.actorRole, (e.before as { version: number }).version, (e.after as { version: number }).version])).toEqual([
      ['operator', 1, 0],
      ['operator', 2, 1],
    ]);
  });

  it('viewers and support read the page but cannot change selectors; a refused change writes nothing', async () => {
    const before = (await profile()).data;
    for (const role of ['viewer', 'support'] as const) {
      const a = await loginAdmin(t, role);
      expect((await profile(a.token)).code).toBe(0);
      expect((await t.call('GET', '/admin/platform-health', { token: a.token })).code).toBe(0);
      expect((await t.call('GET', '/admin/platform-health/failures', { token: a.token, query: { platform: 'sandbox' } })).code).toBe(0);
      expect((await save({ steps: { title: ['#mine'] } }, '越权', a.token)).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
      expect((await rollback(2, a.token)).code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    }
    expect((await profile()).data).toEqual(before);
    expect(inUse()).toBeNull();
  });
});

describeNeeding(['TEST_DATABASE_URL', 'TEST_REDIS_URL'], '平台健康 across two processes (PostgreSQL + Redis)', (pgUrl, redisUrl) => {
  it('an override saved on A is what the adapters on B read without a restart, and so is a rollback', async () => {
    const pair = await startWebProcesses(pgUrl, redisUrl, { PUBLISH_PLATFORMS: 'sandbox' });
    try {
      const [a, b] = pair.processes as [(typeof pair.processes)[0], (typeof pair.processes)[0]];
      const onB = () => b.container.platformHealth.profiles.override('sandbox');
      expect(onB()).toBeNull();
      const waitOnB = async (ok: (v: ReturnType<typeof onB>) => boolean) => {
        const t0 = Date.now();
        while (!ok(onB())) {
          expect(Date.now() - t0).toBeLessThan(2000);
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      await a.container.platformHealth.service.save(cliActor, 'sandbox', { steps: { title: ['#title-b'] } }, '跨进程');
      await waitOnB((v) => v?.steps?.title?.[0] === '#title-b');
      expect(b.container.platformHealth.profiles.version('sandbox')).toBe(1);
      await a.container.platformHealth.service.rollback(cliActor, 'sandbox', 0);
      await waitOnB((v) => v === null);
      await a.container.platformHealth.service.rollback(cliActor, 'sandbox', 1);
      await waitOnB((v) => v?.steps?.title?.[0] === '#title-b');
    } finally {
      await pair.close();
    }
  }, 60_000);
});
