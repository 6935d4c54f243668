import { ErrorCode, type AdminBundle, type AdminCatalogue, type AdminPlan } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { CatalogueService } from '../vip/catalogue.service.js';
import type { PointsService } from '../vip/points.service.js';
import type { BundleRow, PlanRow } from '../vip/catalogue.repo.js';
import type { AdminActor, AuditService } from './audit.service.js';

const toPlan = (r: PlanRow): AdminPlan => ({
  id: r.id,
  name: r.name,
  durationDays: r.durationDays,
  price: r.priceFen,
  points: r.points,
  perks: r.perks,
  sort: r.sort,
  enabled: r.enabled,
});
const toBundle = (r: BundleRow): AdminBundle => ({ id: r.id, name: r.name, points: r.points, price: r.priceFen, sort: r.sort, enabled: r.enabled });

/** The console's catalogue: plans, bundles and dictionary prices, each write audited in its own transaction. */
export class AdminCatalogueService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly points: PointsService,
    private readonly audit: AuditService,
  ) {}

  async overview(): Promise<AdminCatalogue> {
    const [plans, bundles, costs, scheduled] = await Promise.all([this.catalogue.allPlans(), this.catalogue.allBundles(), this.points.costs(), this.points.pendingCostChanges()]);
    return {
      plans: plans.map(toPlan),
      bundles: bundles.map(toBundle),
      costs,
      scheduled: scheduled.map((c) => ({ id: c.id, feature: c.feature, name: c.name, point: c.point, effectiveAt: c.effectiveAt.toISOString() })),
    };
  }

  async savePlan(actor: AdminActor, p: Omit<AdminPlan, 'price'> & { price: number }): Promise<AdminPlan> {
    return this.catalogue.transaction(async (tx) => {
      const before = await this.catalogue.plan(p.id, tx);
      const after = toPlan(
        await this.catalogue.upsertPlan(
          { id: p.id, name: p.name, durationDays: p.durationDays, priceFen: p.price, points: p.points, perks: p.perks, sort: p.sort, enabled: p.enabled },
          tx,
        ),
      );
      await this.audit.record(tx, actor, {
        action: before ? 'catalogue.plan.update' : 'catalogue.plan.create',
        targetType: 'vip_plan',
        targetId: p.id,
        before: before ? toPlan(before) : null,
        after,
      });
      return after;
    });
  }

  async saveBundle(actor: AdminActor, b: AdminBundle): Promise<AdminBundle> {
    return this.catalogue.transaction(async (tx) => {
      const before = await this.catalogue.bundle(b.id, tx);
      const after = toBundle(await this.catalogue.upsertBundle({ id: b.id, name: b.name, points: b.points, priceFen: b.price, sort: b.sort, enabled: b.enabled }, tx));
      await this.audit.record(tx, actor, {
        action: before ? 'catalogue.bundle.update' : 'catalogue.bundle.create',
        targetType: 'points_bundle',
        targetId: b.id,
        before: before ? toBundle(before) : null,
        after,
      });
      return after;
    });
  }

  async schedulePointCost(actor: AdminActor, input: { feature: string; name?: string | undefined; point: number; effectiveAt?: string | undefined }) {
    const change = await this.catalogue.transaction(async (tx) => {
      const before = (await this.points.costs(tx)).find((c) => c.feature === input.feature) ?? null;
      const row = await this.points.scheduleCost(
        { feature: input.feature, name: input.name, point: input.point, effectiveAt: input.effectiveAt ? new Date(input.effectiveAt) : undefined },
        tx,
      );
      const change = { id: row.id, feature: row.feature, name: row.name, point: row.point, effectiveAt: row.effectiveAt.toISOString() };
      await this.audit.record(tx, actor, { action: 'catalogue.point_cost.schedule', targetType: 'point_cost', targetId: input.feature, before, after: change });
      return change;
    });
    this.points.costsChanged();
    return change;
  }

  async withdrawPointCost(actor: AdminActor, id: number) {
    const change = await this.catalogue.transaction(async (tx) => {
      const row = await this.points.withdrawCostChange(id, tx);
      if (!row) throw appError(ErrorCode.NOT_FOUND, '没有这条未生效的价格变更（已生效的变更不能撤回）');
      const change = { id: row.id, feature: row.feature, name: row.name, point: row.point, effectiveAt: row.effectiveAt.toISOString() };
      await this.audit.record(tx, actor, { action: 'catalogue.point_cost.withdraw', targetType: 'point_cost', targetId: row.feature, before: change, after: null });
      return change;
    });
    this.points.costsChanged();
    return change;
  }
}
