import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { platformStepFailures, siteProfileActive, siteProfileVersions, users } from '../../db/schema/index.js';

export type SiteProfileVersionRow = typeof siteProfileVersions.$inferSelect;
export type StepFailureRow = typeof platformStepFailures.$inferSelect;
export type StepFailureInsert = typeof platformStepFailures.$inferInsert;
export type ProfileOverride = SiteProfileVersionRow['override'];

/** Every query of 平台健康: the override versions of each platform, which one is active, and the step failures. */
export class PlatformHealthRepo {
  constructor(private readonly db: DbOrTx) {}

  // ---- site profile overrides ----

  /** Each platform's active override (version 0 or no row: the built-in profile, not listed). */
  activeOverrides(): Promise<Array<{ platform: string; version: number; override: ProfileOverride }>> {
    return this.db
      .select({ platform: siteProfileActive.platform, version: siteProfileActive.version, override: siteProfileVersions.override })
      .from(siteProfileActive)
      .innerJoin(siteProfileVersions, and(eq(siteProfileVersions.platform, siteProfileActive.platform), eq(siteProfileVersions.version, siteProfileActive.version)));
  }

  async activeVersion(tx: DbOrTx, platform: string): Promise<number> {
    const [row] = await tx.select({ version: siteProfileActive.version }).from(siteProfileActive).where(eq(siteProfileActive.platform, platform));
    return row?.version ?? 0;
  }

  /** Newest first, with the saver's nickname. */
  versions(tx: DbOrTx, platform: string) {
    return tx
      .select({
        version: siteProfileVersions.version,
        override: siteProfileVersions.override,
        note: siteProfileVersions.note,
        createdBy: siteProfileVersions.createdBy,
        createdByName: users.nickname,
        createdAt: siteProfileVersions.createdAt,
      })
      .from(siteProfileVersions)
      .leftJoin(users, eq(users.id, siteProfileVersions.createdBy))
      .where(eq(siteProfileVersions.platform, platform))
      .orderBy(desc(siteProfileVersions.version));
  }

  async version(tx: DbOrTx, platform: string, version: number): Promise<SiteProfileVersionRow | undefined> {
    const [row] = await tx
      .select()
      .from(siteProfileVersions)
      .where(and(eq(siteProfileVersions.platform, platform), eq(siteProfileVersions.version, version)));
    return row;
  }

  /**
   * Inside the caller's transaction: takes the platform's row lock (creating the row), so two saves at once number
   * their versions one after the other; returns the next version number.
   */
  async lockNextVersion(tx: DbOrTx, platform: string, by: number | null, now: Date): Promise<number> {
    await tx.insert(siteProfileActive).values({ platform, version: 0, changedBy: by, changedAt: now }).onConflictDoNothing();
    await tx.execute(sql`select 1 from ${siteProfileActive} where ${siteProfileActive.platform} = ${platform} for update`);
    const [row] = await tx
      .select({ max: sql<number>`coalesce(max(${siteProfileVersions.version}), 0)::int` })
      .from(siteProfileVersions)
      .where(eq(siteProfileVersions.platform, platform));
    return (row?.max ?? 0) + 1;
  }

  async insertVersion(tx: DbOrTx, values: typeof siteProfileVersions.$inferInsert): Promise<void> {
    await tx.insert(siteProfileVersions).values(values);
  }

  async setActive(tx: DbOrTx, platform: string, version: number, by: number | null, now: Date): Promise<void> {
    await tx
      .insert(siteProfileActive)
      .values({ platform, version, changedBy: by, changedAt: now })
      .onConflictDoUpdate({ target: siteProfileActive.platform, set: { version, changedBy: by, changedAt: now } });
  }

  // ---- step failures ----

  async insertFailure(values: StepFailureInsert): Promise<number> {
    const [row] = await this.db.insert(platformStepFailures).values(values).returning({ id: platformStepFailures.id });
    return row!.id;
  }

  /** Deletes all but the newest `keep` failures of the platform; returns the screenshots of the deleted ones. */
  async prune(platform: string, keep: number): Promise<string[]> {
    const [edge] = await this.db
      .select({ id: platformStepFailures.id })
      .from(platformStepFailures)
      .where(eq(platformStepFailures.platform, platform))
      .orderBy(desc(platformStepFailures.id))
      .offset(keep - 1)
      .limit(1);
    if (!edge) return [];
    const gone = await this.db
      .delete(platformStepFailures)
      .where(and(eq(platformStepFailures.platform, platform), lt(platformStepFailures.id, edge.id)))
      .returning({ screenshotPath: platformStepFailures.screenshotPath });
    return gone.map((g) => g.screenshotPath).filter((p): p is string => p !== null);
  }

  /** Failures of each platform and step since `since`. */
  countsSince(since: Date, platforms: string[]) {
    if (!platforms.length) return Promise.resolve([]);
    return this.db
      .select({ platform: platformStepFailures.platform, step: platformStepFailures.step, n: count() })
      .from(platformStepFailures)
      .where(and(gte(platformStepFailures.at, since), inArray(platformStepFailures.platform, platforms)))
      .groupBy(platformStepFailures.platform, platformStepFailures.step);
  }

  async failures(f: { platform: string; step?: string | undefined }, offset: number, limit: number): Promise<{ rows: StepFailureRow[]; total: number }> {
    const parts: SQL[] = [eq(platformStepFailures.platform, f.platform)];
    if (f.step) parts.push(eq(platformStepFailures.step, f.step));
    const where = and(...parts);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(platformStepFailures).where(where).orderBy(desc(platformStepFailures.id)).offset(offset).limit(limit),
      this.db.select({ n: count() }).from(platformStepFailures).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async failure(id: number): Promise<StepFailureRow | undefined> {
    const [row] = await this.db.select().from(platformStepFailures).where(eq(platformStepFailures.id, id));
    return row;
  }
}
