import type { PointsBundle, VipPlan } from '@inkstone/shared';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { BundleRow, CatalogueRepo, PlanRow } from './catalogue.repo.js';

const toPlan = (r: PlanRow): VipPlan => ({ id: r.id, name: r.name, durationDays: r.durationDays, price: r.priceFen, points: r.points, perks: r.perks });
const toBundle = (r: BundleRow): PointsBundle => ({ id: r.id, name: r.name, points: r.points, price: r.priceFen });

/** VIP plans and points bundles. Seeded by the migration; edited with the admin CLI. */
export class CatalogueService {
  constructor(private readonly repo: CatalogueRepo) {}

  /** The repo on the caller's transaction when one is given. */
  private on(tx: DbOrTx | undefined): CatalogueRepo {
    return tx ? this.repo.with(tx) : this.repo;
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.repo.transaction(fn);
  }

  /** What the shop sells. */
  async plans(): Promise<VipPlan[]> {
    return (await this.allPlans()).filter((r) => r.enabled).map(toPlan);
  }

  async bundles(): Promise<PointsBundle[]> {
    return (await this.allBundles()).filter((r) => r.enabled).map(toBundle);
  }

  /** Everything, disabled included (admin CLI). */
  async allPlans() {
    return this.repo.allPlans();
  }

  async allBundles() {
    return this.repo.allBundles();
  }

  async plan(id: string, tx?: DbOrTx): Promise<PlanRow | undefined> {
    return this.on(tx).plan(id);
  }

  async bundle(id: string, tx?: DbOrTx): Promise<BundleRow | undefined> {
    return this.on(tx).bundle(id);
  }

  async upsertPlan(p: { id: string; name: string; durationDays: number; priceFen: number; points: number; perks: string[]; sort?: number; enabled?: boolean }, tx?: DbOrTx) {
    return this.on(tx).upsertPlan({ ...p, sort: p.sort ?? 0, enabled: p.enabled ?? true });
  }

  async upsertBundle(b: { id: string; name: string; points: number; priceFen: number; sort?: number; enabled?: boolean }, tx?: DbOrTx) {
    return this.on(tx).upsertBundle({ ...b, sort: b.sort ?? 0, enabled: b.enabled ?? true });
  }

  /** Disabled items vanish from the shop; orders already placed keep their snapshot and still settle. */
  async setPlanEnabled(id: string, enabled: boolean) {
    return this.repo.setPlanEnabled(id, enabled);
  }

  async setBundleEnabled(id: string, enabled: boolean) {
    return this.repo.setBundleEnabled(id, enabled);
  }
}
