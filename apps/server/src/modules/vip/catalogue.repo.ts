import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { pointsBundles, vipPlans } from '../../db/schema/index.js';

export type PlanRow = typeof vipPlans.$inferSelect;
export type BundleRow = typeof pointsBundles.$inferSelect;

/** Every query on VIP plans and points bundles. */
export class CatalogueRepo {
  constructor(private readonly db: DbOrTx) {}

  with(tx: DbOrTx): CatalogueRepo {
    return new CatalogueRepo(tx);
  }

  /** Runs `fn` in one transaction; `tx` is handed on (the console writes its audit entry in it). */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  async allPlans(): Promise<PlanRow[]> {
    return this.db.select().from(vipPlans).orderBy(asc(vipPlans.sort), asc(vipPlans.id));
  }

  async allBundles(): Promise<BundleRow[]> {
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

  async upsertPlan(values: typeof vipPlans.$inferInsert): Promise<PlanRow> {
    const [row] = await this.db
      .insert(vipPlans)
      .values(values)
      .onConflictDoUpdate({ target: vipPlans.id, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    return row!;
  }

  async upsertBundle(values: typeof pointsBundles.$inferInsert): Promise<BundleRow> {
    const [row] = await this.db
      .insert(pointsBundles)
      .values(values)
      .onConflictDoUpdate({ target: pointsBundles.id, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    return row!;
  }

  async setPlanEnabled(id: string, enabled: boolean): Promise<PlanRow | undefined> {
    const [row] = await this.db
      .update(vipPlans)
      .set({ enabled, updatedAt: sql`now()` })
      .where(eq(vipPlans.id, id))
      .returning();
    return row;
  }

  async setBundleEnabled(id: string, enabled: boolean): Promise<BundleRow | undefined> {
    const [row] = await this.db
      .update(pointsBundles)
      .set({ enabled, updatedAt: sql`now()` })
      .where(eq(pointsBundles.id, id))
      .returning();
    return row;
  }
}
