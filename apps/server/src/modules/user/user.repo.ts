import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { clientLogs, globalSettings, userEvents, userSettings, users } from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;

export class UserRepo {
  constructor(private readonly db: DbOrTx) {}

  with(tx: DbOrTx): UserRepo {
    return new UserRepo(tx);
  }

  async byId(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async liveByPhone(phone: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.phone, phone), isNull(users.deletedAt)));
    return row;
  }

  async liveByOpenid(openid: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.wxOpenid, openid), isNull(users.deletedAt)));
    return row;
  }

  async liveByInviteCode(code: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.inviteCode, code), isNull(users.deletedAt)));
    return row;
  }

  async insert(values: typeof users.$inferInsert): Promise<UserRow> {
    const [row] = await this.db.insert(users).values(values).returning();
    return row!;
  }

  async update(id: number, values: Partial<typeof users.$inferInsert>): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /** Binds an openid only if the user has none yet; false when someone else won the race. */
  async bindOpenid(id: number, openid: string): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ wxOpenid: openid, updatedAt: sql`now()` })
      .where(and(eq(users.id, id), isNull(users.wxOpenid)))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  async settings(userId: number) {
    return this.db.select().from(userSettings).where(eq(userSettings.userId, userId));
  }

  async upsertSetting(userId: number, key: string, value: string) {
    await this.db
      .insert(userSettings)
      .values({ userId, key, value })
      .onConflictDoUpdate({ target: [userSettings.userId, userSettings.key], set: { value, updatedAt: sql`now()` } });
  }

  async globalSettings() {
    return this.db.select().from(globalSettings);
  }

  async upsertGlobalSetting(key: string, value: unknown) {
    await this.db
      .insert(globalSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: globalSettings.key, set: { value, updatedAt: sql`now()` } });
  }

  async insertEvent(values: typeof userEvents.$inferInsert) {
    await this.db.insert(userEvents).values(values);
  }

  async insertLog(values: typeof clientLogs.$inferInsert) {
    await this.db.insert(clientLogs).values(values);
  }
}
