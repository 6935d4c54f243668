import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type AdminAuditEntry, type AdminCatalogue, type AdminPointCostChange, type Page, type PointCost, type VipPlan } from '@inkstone/shared';
import { startTestApp, startWebProcesses, type TestApp } from '../../test/app.js';
import { describeOnDatabases } from '../../test/database.js';
import { loginAdmin } from '../../test/admin-helpers.js';

const HOUR = 3_600_000;

describeOnDatabases('console catalogue on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
  });

  const dictionary = async () => (await t.call<PointCost[]>('GET', '/vip/score/point/consume')).data;
  const priceOf = async (feature: string) => (await dictionary()).find((c) => c.feature === feature)?.point;
  const auditOf = async (token: string, action: string) => (await t.call<Page<AdminAuditEntry>>('GET', '/admin/audit', { token, query: { action } })).data.records;

  it('a scheduled price applies from its start: the dictionary and charges keep the old one until then; audited', async () => {
    const op = await loginAdmin(t, 'operator');
    const before = await priceOf('graphic');
    expect(before).toBeGreaterThan(0);
    const effectiveAt = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const set = await t.call<AdminPointCostChange>('POST', '/admin/catalogue/point-cost', { token: op.token, body: { feature: 'graphic', point: before! + 7, effectiveAt } });
    expect(set.code, set.msg).toBe(0);
    expect(set.data).toMatchObject({ feature: 'graphic', point: before! + 7 });

    expect(await priceOf('graphic')).toBe(before);
    expect(await t.container.vip.points.costOf('graphic')).toBe(before);
    const overview = await t.call<AdminCatalogue>('GET', '/admin/catalogue', { token: op.token });
    expect(overview.data.scheduled).toEqual([expect.objectContaining({ id: set.data.id, feature: 'graphic', point: before! + 7 })]);
    expect(overview.data.costs.find((c) => c.feature === 'graphic')?.point).toBe(before);

    const [entry] = await auditOf(op.token, 'catalogue.point_cost.schedule');
    expect(entry).toMatchObject({ actorId: op.userId, actorRole: 'operator', targetType: 'point_cost', targetId: 'graphic' });
    expect(entry!.before).toMatchObject({ feature: 'graphic', point: before });
    expect(entry!.after).toMatchObject({ id: set.data.id, point: before! + 7 });

    t.clock.advance(HOUR + 1000);
    expect(await priceOf('graphic')).toBe(before! + 7);
    expect(await t.container.vip.points.costOf('graphic')).toBe(before! + 7);
    const later = await loginAdmin(t, 'viewer');
    const now = await t.call<AdminCatalogue>('GET', '/admin/catalogue', { token: later.token });
    expect(now.data.scheduled).toEqual([]);
    expect(now.data.costs.find((c) => c.feature === 'graphic')?.point).toBe(before! + 7);
  });

  it('a pending change can be withdrawn once, a started one cannot; an unknown feature is refused', async () => {
    const op = await loginAdmin(t, 'operator');
    const before = await priceOf('title');
    const later = new Date(t.clock.now().getTime() + 2 * HOUR).toISOString();
    const pending = await t.call<AdminPointCostChange>('POST', '/admin/catalogue/point-cost', { token: op.token, body: { feature: 'title', point: 99, effectiveAt: later } });
    expect(pending.code).toBe(0);
    const withdrawn = await t.call('POST', '/admin/catalogue/point-cost/withdraw', { token: op.token, body: { id: pending.data.id } });
    expect(withdrawn.code).toBe(0);
    expect((await t.call('POST', '/admin/catalogue/point-cost/withdraw', { token: op.token, body: { id: pending.data.id } })).code).toBe(ErrorCode.NOT_FOUND);
    const [entry] = await auditOf(op.token, 'catalogue.point_cost.withdraw');
    expect(entry).toMatchObject({ targetId: 'title', after: null });
    expect(entry!.before).toMatchObject({ id: pending.data.id, point: 99 });

    // Without a date: at once (charges too, though the price was just read and is cached), and then history (not withdrawable).
    expect(await t.container.vip.points.costOf('title')).toBe(before);
    const immediate = await t.call<AdminPointCostChange>('POST', '/admin/catalogue/point-cost', { token: op.token, body: { feature: 'title', point: before! + 1 } });
    expect(await priceOf('title')).toBe(before! + 1);
    expect(await t.container.vip.points.costOf('title')).toBe(before! + 1);
    expect((await t.call('POST', '/admin/catalogue/point-cost/withdraw', { token: op.token, body: { id: immediate.data.id } })).code).toBe(ErrorCode.NOT_FOUND);

    const unknown = await t.call('POST', '/admin/catalogue/point-cost', { token: op.token, body: { feature: 'no_such_feature', point: 3 } });
    expect(unknown.code).toBe(ErrorCode.NOT_FOUND);
    const bad = await t.call('POST', '/admin/catalogue/point-cost', { token: op.token, body: { feature: 'title', point: -1 } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('point');
    const badDate = await t.call('POST', '/admin/catalogue/point-cost', { token: op.token, body: { feature: 'title', point: 1, effectiveAt: 'tomorrow' } });
    expect(badDate.code).toBe(ErrorCode.VALIDATION);
    expect(badDate.msg).toContain('effectiveAt');
  });

  it('plans and bundles: created, edited and taken off sale from the console, the shop follows; each write audited', async () => {
    const op = await loginAdmin(t, 'operator');
    const plan = { id: 'admin-test-plan', name: '测试季卡', durationDays: 90, price: 4500, points: 300, perks: ['测试权益'] };
    const created = await t.call('POST', '/admin/catalogue/plan', { token: op.token, body: plan });
    expect(created.code, created.msg).toBe(0);
    expect(created.data).toMatchObject({ ...plan, enabled: true, sort: 0 });
    const shop = async () => (await t.call<VipPlan[]>('GET', '/vip/subscribe/category')).data;
    expect(await shop()).toEqual(expect.arrayContaining([expect.objectContaining({ id: plan.id, price: 4500 })]));

    expect((await t.call('POST', '/admin/catalogue/plan', { token: op.token, body: { ...plan, price: 3900, enabled: false } })).code).toBe(0);
    expect((await shop()).some((p) => p.id === plan.id)).toBe(false);
    const [update] = (await auditOf(op.token, 'catalogue.plan.update')).filter((e) => e.targetId === plan.id);
    const [create] = (await auditOf(op.token, 'catalogue.plan.create')).filter((e) => e.targetId === plan.id);
    expect(update).toMatchObject({
      action: 'catalogue.plan.update',
      before: expect.objectContaining({ price: 4500, enabled: true }),
      after: expect.objectContaining({ price: 3900, enabled: false }),
    });
    expect(create).toMatchObject({ action: 'catalogue.plan.create', before: null, after: expect.objectContaining({ price: 4500 }) });

    const bundle = await t.call('POST', '/admin/catalogue/bundle', { token: op.token, body: { id: 'admin-test-bundle', name: '测试积分包', points: 500, price: 990 } });
    expect(bundle.code, bundle.msg).toBe(0);
    expect((await t.call<Array<{ id: string }>>('GET', '/vip/score/bundle/list')).data.some((b) => b.id === 'admin-test-bundle')).toBe(true);
    expect(await auditOf(op.token, 'catalogue.bundle.create')).toEqual([
      expect.objectContaining({ targetId: 'admin-test-bundle', after: expect.objectContaining({ points: 500 }) }),
    ]);

    const bad = await t.call('POST', '/admin/catalogue/plan', { token: op.token, body: { ...plan, price: 0 } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toContain('price');
  });

  it('viewers and support read the catalogue but cannot change it; nothing is written when refused', async () => {
    const overview = (await t.call<AdminCatalogue>('GET', '/admin/catalogue', { token: (await loginAdmin(t, 'viewer')).token })).data;
    for (const role of ['viewer', 'support'] as const) {
      const a = await loginAdmin(t, role);
      expect((await t.call('GET', '/admin/catalogue', { token: a.token })).code).toBe(0);
      const refused = await t.call('POST', '/admin/catalogue/point-cost', { token: a.token, body: { feature: 'title', point: 42 } });
      expect(refused.code).toBe(ErrorCode.ADMIN_FORBIDDEN);
      const plan = await t.call('POST', '/admin/catalogue/plan', { token: a.token, body: { id: 'nope', name: 'x', durationDays: 1, price: 1, points: 0 } });
      expect(plan.code).toBe(ErrorCode.ADMIN_FORBIDDEN);
    }
    const after = (await t.call<AdminCatalogue>('GET', '/admin/catalogue', { token: (await loginAdmin(t, 'viewer')).token })).data;
    expect(after).toEqual(overview);
  });
});

/** Prices are cached in each process: a change made on A is charged on B at once (the cache bus over Redis). */
const redisUrl = process.env.TEST_REDIS_URL;
const pgUrl = process.env.TEST_DATABASE_URL;
describe.runIf(redisUrl && pgUrl)('point prices across two processes (PostgreSQL + Redis)', () => {
  it('a price changed on A is what B charges within 100 ms, though B had read (and cached) the old one', async () => {
    const pair = await startWebProcesses(pgUrl!, redisUrl!);
    try {
      const [a, b] = pair.processes as [(typeof pair.processes)[0], (typeof pair.processes)[0]];
      const before = await b.container.vip.points.costOf('article_quick');
      expect(await b.container.vip.points.costOf('article_quick')).toBe(before);
      await a.container.vip.points.scheduleCost({ feature: 'article_quick', point: before + 3 });
      const t0 = Date.now();
      while ((await b.container.vip.points.costOf('article_quick')) !== before + 3) {
        expect(Date.now() - t0).toBeLessThan(100);
        await new Promise((r) => setTimeout(r, 5));
      }
      // And a feature priced for the first time (the admin CLI's points:cost) is known on B at once.
      await expect(b.container.vip.points.costOf('brand_new_feature')).rejects.toThrow('unknown paid feature');
      await a.container.vip.points.setCost('brand_new_feature', '新功能', 4);
      const t1 = Date.now();
      while ((await b.container.vip.points.costOf('brand_new_feature').catch(() => null)) !== 4) {
        expect(Date.now() - t1).toBeLessThan(100);
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await pair.close();
    }
  }, 60_000);
});
