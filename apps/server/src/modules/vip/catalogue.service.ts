import { asc, eq, sql } from 'drizzle-orm';
import type { PointsBundle, VipPlan } from '@inkstone/shared';
import type { Db } from '../../db/client.js';
import { pointsBundles, vipPlans } from '../../db/schema/index.js';

type PlanRow = typeof vipPlans.$inferSelect;
type BundleRow = typeof pointsBundles.$inferSelect;

const toPlan = (r: PlanRow): VipPlan => ({ id: r.id, name: r.name, durationDays: r.durationDays, price: r.priceFen, points: r.points, perks: r.perks });
const toBundle = (r: BundleRow): PointsBundle => ({ id: r.id, name: r.name, points: r.points, price: r.priceFen });

/** VIP plans and points bundles. Seeded by the migration; edited with the admin CLI. */
export class CatalogueService {
  constructor(private readonly db: Db) {}

  /** What the shop sells. */
  async plans(): Promise<VipPlan[]> {
    return (await this.allPlans()).filter((r) => r.enabled).map(toPlan);
  }

  async bundles(): Promise<PointsBundle[]> {
    return (await this.allBundles()).filter((r) => r.enabled).map(toBundle);
  }

  /** Everything, disabled included (admin CLI). */
  async allPlans() {
    return this.db.select().from(vipPlans).orderBy(asc(vipPlans.sort), asc(vipPlans.id));
  }

  async allBundles() {
    return this.db.select().from(pointsBundles).orderBy(asc(pointsBundles.sort), asc(pointsBundles.id));
  }

  async plan(id: string): Promise<PlanRow | undefined> {
    const [row] = await this.db.select().from(vipPlans).where(eq(vipPlans.id, id));
    return row;
  }

  async bundle(id: string): Promise<BundleRow | undefined> {
    const [row] = await this.db.select().from(pointsBundles).where(eq(pointsBundles.id, id));
    return row;
  }

  async upsertPlan(p: { id: string; name: string; durationDays: number; priceFen: number; points: number; perks: string[]; sort?: number; enabled?: boolean }) {
    const values = { ...p, sort: p.sort ?? 0, enabled: p.enabled ?? true };
    const [row] = await this.db
      .insert(vipPlans)
      .values(values)
      .onConflictDoUpdate({ target: vipPlans.id, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    return row!;
  }

  async upsertBundle(b: { id: string; name: string; points: number; priceFen: number; sort?: number; enabled?: boolean }) {
    const values = { ...b, sort: b.sort ?? 0, enabled: b.enabled ?? true };
    const [row] = await this.db
      .insert(pointsBundles)
      .values(values)
      .onConflictDoUpdate({ target: pointsBundles.id, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    return row!;
  }

  /** Disabled items vanish from the shop; orders already placed keep their snapshot and still settle. */
  async setPlanEnabled(id: string, enabled: boolean) {
    const [row] = await this.db.update(vipPlans).set({ enabled, updatedAt: sql`now()` }).where(eq(vipPlans.id, id)).returning();
    return row;
  }

  async setBundleEnabled(id: string, enabled: boolean) {
    const [row] = await this.db.update(pointsBundles).set({ enabled, updatedAt: sql`now()` }).where(eq(pointsBundles.id, id)).returning();
    return row;
  }
}
